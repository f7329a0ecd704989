// ui_state_json: the UI state scripts and tests read (strata.state()).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "ui/exports/ui_app.h"
#include "ui/help/help_overlay.h"

extern "C" {

// Tool, toggles, marks, timing interval, collapsed sections, hidden tracks (ns absolute as
// doubles), search state; the tab shown, the top bar's title, error and their places (CSS px),
// the first visit's note, an empty tab's message and the help overlay's title and keys. Valid
// until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_state_json() {
  static std::string out;
  const strata::App* a = strata::ui_app();
  const strata::Timeline& t = a->timeline;
  const double o = static_cast<double>(a->data.origin_ns);
  static const char* kTools[] = {"", "select", "pan", "zoom", "timing"};
  char buf[160];
  out = std::string("{\"tool\":\"") + kTools[static_cast<int>(t.tool)] + "\"";
  out += std::string(",\"tab\":\"") + strata::view_tab_name(a->tab) + "\"";
  const strata::TopBarLayout& top = a->top_layout;
  out += ",\"title\":";
  strata::json_append_string(&out, top.title);
  out += std::string(",\"titleClipped\":") + (top.title_clipped ? "true" : "false");
  std::snprintf(buf, sizeof buf, ",\"topBar\":{\"tabsRight\":%.1f,\"itemsRight\":%.1f}",
                top.tabs_right, top.items_right);
  out += buf;
  auto banner = [&](const char* key, const strata::BannerLayout& b) {
    std::snprintf(buf, sizeof buf,
                  ",\"%s\":{\"y\":%.1f,\"h\":%.1f,\"button\":[%.1f,%.1f,%.1f,%.1f]}", key, b.y, b.h,
                  b.button[0], b.button[1], b.button[2], b.button[3]);
    out += buf;
  };
  banner("errorBanner", top.error);
  banner("welcomeBanner", top.welcome);
  out += ",\"emptyMessage\":";
  strata::json_append_string(&out, a->empty_message);
  out += ",\"error\":";
  strata::json_append_string(&out, a->error_banner);
  out += std::string(",\"welcome\":") + (a->welcome && !a->embedded ? "true" : "false");
  const strata::HelpRows help = strata::help_rows(a->tab);
  out += ",\"helpTitle\":";
  strata::json_append_string(&out, help.title);
  out += ",\"helpKeys\":[";
  for (size_t i = 0; i < help.count; ++i) {
    if (i) out += ',';
    strata::json_append_string(&out, help.rows[i].keys);
  }
  out += "]";
  out += std::string(",\"grid\":") + (t.show_grid ? "true" : "false");
  out += std::string(",\"help\":") + (t.show_help ? "true" : "false");
  out += std::string(",\"flows\":") + (t.show_flows ? "true" : "false");
  out += ",\"marks\":[";
  for (size_t i = 0; i < t.marks.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s[%.17g,%.17g]", i ? "," : "", o + t.marks[i].first,
                  o + t.marks[i].second);
    out += buf;
  }
  out += "],\"timing\":";
  if (t.has_timing) {
    std::snprintf(buf, sizeof buf, "[%.17g,%.17g]", o + std::min(t.timing_t0, t.timing_t1),
                  o + std::max(t.timing_t0, t.timing_t1));
    out += buf;
  } else {
    out += "null";
  }
  int collapsed = 0, hidden = 0;
  for (uint8_t c : t.collapsed) collapsed += c;
  for (uint8_t h : t.hidden) hidden += h;
  std::snprintf(
      buf, sizeof buf,
      ",\"collapsedSections\":%d,\"hiddenTracks\":%d,\"searchActive\":%s,\"searchPending\":%s,"
      "\"searchCount\":%llu,\"typing\":%s,\"scrollY\":%.1f}",
      collapsed, hidden, t.search_active ? "true" : "false",
      a->search.pending_id != 0 ? "true" : "false",
      static_cast<unsigned long long>(a->search.count),
      ImGui::GetIO().WantTextInput ? "true" : "false", t.scroll_y);
  out += buf;
  return out.c_str();
}

}  // extern "C"
