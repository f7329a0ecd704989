// ui_panels_json: what the details pane, the selection summary and the search panel show, with
// where (CSS px), for strata.panels(). Read-only; the panels record it as they draw.
#include <emscripten/emscripten.h>

#include <cstdio>
#include <string>

#include "core/base/json_writer.h"
#include "protocol/reply_keys.h"
#include "ui/exports/ui_app.h"

namespace {

constexpr size_t kListedRows = 20;

void num(std::string* o, std::string_view key, double v, bool comma = true) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s\"%.*s\":%.17g", comma ? "," : "", static_cast<int>(key.size()),
                key.data(), v);
  *o += buf;
}

void line_json(std::string* o, const strata::SummaryLine& l, double y) {
  namespace row = strata::protocol::keys::select_summary;
  *o += "{\"name\":";
  strata::json_append_string(o, l.name);
  num(o, row::kCount, static_cast<double>(l.count));
  num(o, row::kTotalNs, l.total);
  num(o, row::kSelfNs, l.self);
  num(o, row::kAvgNs, l.avg);
  num(o, row::kMinNs, l.min);
  num(o, row::kMaxNs, l.max);
  num(o, "y", y);
  *o += '}';
}

}  // namespace

extern "C" {

// {details: {x, y, w, h, titleH, collapsed, xlaY, graphLinkY, argsY},
//  summary: {shown, count, headerY, columns:[{name, x, w}], sortColumn, sortDescending, picked,
//            total: line, rows: [line...]}   line = {name, count, totalNs, selfNs, ..., y},
//  search: {results: {open, x, y, w, h}, listButton: {x, y, w, h}, rows: [{name, track}] (first
//           20), ruler: {x, y, w, h}, marks: [[x0, x1], ...] (CSS px)},
//  timeline: {labelW, x0}}. Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* ui_panels_json() {
  static std::string o;
  const strata::App* a = strata::ui_app();
  const strata::DetailsLayout& l = a->details_layout;
  const strata::DetailsPane& p = a->details;
  o = "{\"details\":{";
  num(&o, "x", l.x, false);
  num(&o, "y", l.y);
  num(&o, "w", l.w);
  num(&o, "h", l.h);
  num(&o, "titleH", l.title_h);
  o += std::string(",\"collapsed\":") + (l.collapsed ? "true" : "false");
  num(&o, "xlaY", p.xla_y);
  num(&o, "graphLinkY", p.graph_link_y);
  num(&o, "argsY", p.args_y);
  const strata::SelectionSummary& s = p.summary;
  o += std::string("},\"summary\":{\"shown\":") + (p.multi ? "true" : "false");
  num(&o, "count", static_cast<double>(p.selection_count));
  num(&o, "headerY", s.header_y);
  o += ",\"columns\":[";
  for (size_t i = 0; i < s.columns.size(); ++i) {
    o += i ? ",{\"name\":" : "{\"name\":";
    strata::json_append_string(&o, s.columns[i].name);
    num(&o, "x", s.columns[i].x);
    num(&o, "w", s.columns[i].w);
    o += '}';
  }
  o += "]";
  num(&o, "sortColumn", s.sort_column);
  o += std::string(",\"sortDescending\":") + (s.sort_descending ? "true" : "false");
  o += ",\"picked\":";
  strata::json_append_string(&o, s.picked);
  o += ",\"total\":";
  line_json(&o, s.total, s.total_y);
  o += ",\"rows\":[";
  for (size_t i = 0; i < s.lines.size(); ++i) {
    if (i) o += ',';
    line_json(&o, s.lines[i], i < s.row_y.size() ? s.row_y[i] : -1);
  }
  const strata::SearchPanel& sp = a->search;
  o += "]},\"search\":{\"results\":{";
  o += std::string("\"open\":") + (sp.show_results && sp.results_rect[2] > 0 ? "true" : "false");
  num(&o, "x", sp.results_rect[0]);
  num(&o, "y", sp.results_rect[1]);
  num(&o, "w", sp.results_rect[2]);
  num(&o, "h", sp.results_rect[3]);
  o += "},\"listButton\":{";
  num(&o, "x", sp.list_button[0], false);
  num(&o, "y", sp.list_button[1]);
  num(&o, "w", sp.list_button[2]);
  num(&o, "h", sp.list_button[3]);
  // The list's first rows as its Name and Track columns show them.
  o += "},\"rows\":[";
  for (size_t i = 0; i < sp.matches.size() && i < kListedRows; ++i) {
    o += i ? ",{\"name\":" : "{\"name\":";
    strata::json_append_string(&o, sp.matches[i].name);
    o += ",\"track\":";
    strata::json_append_string(&o, strata::search_track_label(a->data, sp.matches[i].track));
    o += '}';
  }
  o += "]";
  const strata::SearchMarks& m = a->timeline.search_marks;
  o += ",\"ruler\":{";
  num(&o, "x", m.ruler_x, false);
  num(&o, "y", m.ruler_y);
  num(&o, "w", m.ruler_w);
  num(&o, "h", m.ruler_h);
  o += "},\"marks\":[";
  for (size_t i = 0; i < m.drawn.size(); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s[%.1f,%.1f]", i ? "," : "", m.drawn[i].first,
                  m.drawn[i].second);
    o += buf;
  }
  o += "]},\"timeline\":{";
  num(&o, "labelW", a->timeline.layout.label_w, false);
  num(&o, "x0", a->timeline.layout.x0);
  o += "}}";
  return o.c_str();
}

}  // extern "C"
