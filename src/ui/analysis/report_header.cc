#include "ui/analysis/report_header.h"

#include <cstdio>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "imgui.h"
#include "platform/browser/host.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_advisor.h"
#include "ui/theme.h"

namespace strata {

namespace {

constexpr const char* kExportName = "strata-report.html";
constexpr float kStatusScale = 1.3f;  // the status line, larger than the text

}  // namespace

void report_header_set_table(ReportHeader* h, const char* json) {
  *h = ReportHeader{};
  std::vector<JsonLine> lines;
  std::string error;
  if (!json_flatten(json ? json : "", &lines, &error)) return;
  namespace rk = protocol::keys::advisor_report;
  json_walk(lines, [&](const std::vector<std::string>& path, const JsonLine& l) {
    if (path[0] != protocol::keys::analysis::kExtra || l.depth < 1) return;
    if (l.depth == 1 && l.key == rk::kStatus) h->status = l.value;
    if (l.depth == 1 && l.key == rk::kHtml) h->html = l.value;
    if (l.depth == 2 && path[1] == rk::kSummary) h->summary.push_back(l.value);
    if (l.depth == 2 && path[1] == rk::kFindings) ++h->findings;
  });
}

void report_header_frame(ReportHeader* h, float w) {
  if (h->status.empty()) return;
  const bool attention = h->status != "OPTIMAL";
  ImGui::SetWindowFontScale(kStatusScale);
  ImGui::TextColored(
      ImGui::ColorConvertU32ToFloat4(attention ? theme::kErrorText : theme::kAccentText), "%s",
      h->status.c_str());
  ImGui::SetWindowFontScale(1.0f);
  ImGui::SameLine();
  if (ImGui::Button("Export HTML") && !h->html.empty()) {
    host_download(kExportName, h->html.c_str());
    h->exported_bytes = h->html.size();
  }
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  h->export_box[0] = a.x, h->export_box[1] = a.y, h->export_box[2] = b.x - a.x,
  h->export_box[3] = b.y - a.y;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
  for (const std::string& s : h->summary) ImGui::TextUnformatted(s.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Separator();
}

std::string report_header_json(const ReportHeader& h) {
  std::string o = "{\"status\":";
  json_append_string(&o, h.status);
  o += ",\"summary\":[";
  for (size_t i = 0; i < h.summary.size(); ++i) {
    if (i) o += ',';
    json_append_string(&o, h.summary[i]);
  }
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "],\"findings\":%zu,\"exportButton\":[%.1f,%.1f,%.1f,%.1f],\"exportedBytes\":%zu,"
                "\"htmlBytes\":%zu}",
                h.findings, h.export_box[0], h.export_box[1], h.export_box[2], h.export_box[3],
                h.exported_bytes, h.html.size());
  return o + buf;
}

}  // namespace strata
