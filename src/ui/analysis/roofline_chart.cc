#include "ui/analysis/roofline_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "protocol/analysis_keys.h"
#include "ui/analysis/analysis_link.h"
#include "ui/theme.h"

namespace strata {

namespace {

constexpr float kChartMaxW = 760.0f;    // the plot with its axes, at most
constexpr float kChartMinW = 320.0f;    // and at least
constexpr float kPanelW = 300.0f;       // the peaks beside it
constexpr float kPanelGap = 16.0f;      // between the chart and the peaks
constexpr float kAxisLeftW = 86.0f;     // the rate labels ("100 TFLOP/s")
constexpr float kAxisBottomH = 36.0f;   // intensity labels and the axis title
constexpr float kPlotTopPad = 8.0f;     // above the plot
constexpr float kPlotRightPad = 12.0f;  // right of it
constexpr float kRoofThickness = 2.0f;
constexpr float kRidgeMarkR = 4.0f;   // the ridge point's marker
constexpr float kRidgeDash = 4.0f;    // the dashes of the line down from the ridge
constexpr float kHitSlop = 3.0f;      // a marker is under the mouse this far outside it
constexpr float kMarkRingGap = 3.0f;  // the ring around the selected or hovered marker
constexpr float kTickLen = 4.0f;
constexpr float kPeakInputW = 110.0f;
constexpr double kTera = 1e12, kGiga = 1e9;  // the fields' units (TFLOP/s, GB/s) in /s

constexpr size_t kMaxStatePoints = 400;  // points roofline_chart_json lists
constexpr size_t kMaxDrawnOps = 2000;    // beyond, the ops with the least time are left out

std::string text_of(const AnalysisTableModel& m, int32_t row, const char* key) {
  for (size_t c = 0; c < m.columns.size(); ++c)
    if (m.columns[c].key == key && static_cast<size_t>(row) < m.rows.size() &&
        c < m.rows[static_cast<size_t>(row)].cells.size())
      return format_cell(m.rows[static_cast<size_t>(row)].cells[c], m.columns[c].unit);
  return {};
}

std::string rate_text(double v) {
  return format_cell({TableCell::Kind::kNumber, v, {}}, CellUnit::kFlopsPerSec);
}

// FLOP/byte as read on the axis and in the tooltip: whole numbers from 100 to a million
// ("1945", "10000"), three significant digits otherwise ("0.25", "61.4", "2.5e+06").
std::string intensity_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 && v < 1e6 ? "%.0f" : "%.3g", v);
  return buf;
}

std::string tooltip_of(const RooflineChart& c, const AnalysisTableModel& m,
                       const RooflinePoint& p) {
  std::string t = text_of(m, p.row, "name");
  const std::string category = text_of(m, p.row, "category");
  t += std::string("\n") + (p.program ? "program" : "op");
  if (!p.program && !category.empty()) t += " \xC2\xB7 " + category;
  t += "\nFLOP/byte: " + intensity_text(p.intensity);
  t += "\nAchieved: " + rate_text(p.flop_rate);
  if (c.peaks.known()) t += " (" + text_of(m, p.row, "of_roof") + " of the roofline)";
  char share[32];
  std::snprintf(share, sizeof share, " (%.3g%% of the time)", 100.0 * p.share);
  t += "\nTime: " + text_of(m, p.row, "time") + share;
  t += "\nBound by: " + text_of(m, p.row, "bound_by");
  return t;
}

void axes(const RooflineFrame& f, ImDrawList* dl) {
  const float line_h = ImGui::GetTextLineHeight();
  // Decade labels, every other one when they would crowd.
  const std::vector<double> xs = log_axis_decades(f.x), ys = log_axis_decades(f.y);
  const size_t x_step = (f.right - f.left) / std::max<size_t>(1, xs.size()) < 40 ? 2 : 1;
  const size_t y_step = (f.bottom - f.top) / std::max<size_t>(1, ys.size()) < line_h * 1.3f ? 2 : 1;
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = f.px_x(xs[i]);
    dl->AddLine(ImVec2(x, f.top), ImVec2(x, f.bottom), theme::kGrid);
    dl->AddLine(ImVec2(x, f.bottom), ImVec2(x, f.bottom + kTickLen), theme::kChartAxis);
    if (i % x_step) continue;
    const std::string label = intensity_text(xs[i]);
    const float tw = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(x - tw / 2, f.bottom + kTickLen), theme::kTextDim, label.c_str());
  }
  for (size_t i = 0; i < ys.size(); ++i) {
    const float y = f.px_y(ys[i]);
    dl->AddLine(ImVec2(f.left, y), ImVec2(f.right, y), theme::kGrid);
    dl->AddLine(ImVec2(f.left - kTickLen, y), ImVec2(f.left, y), theme::kChartAxis);
    if (i % y_step) continue;
    const std::string label = rate_text(ys[i]);
    const float tw = ImGui::CalcTextSize(label.c_str()).x;
    dl->AddText(ImVec2(f.left - kTickLen - 2 - tw, y - line_h / 2), theme::kTextDim, label.c_str());
  }
  const char* title = "Operational intensity (FLOP/byte)";
  const float tw = ImGui::CalcTextSize(title).x;
  dl->AddText(ImVec2((f.left + f.right - tw) / 2, f.bottom + kTickLen + line_h), theme::kTextDim,
              title);
  dl->AddRect(ImVec2(f.left, f.top), ImVec2(f.right, f.bottom), theme::kChartAxis);
}

void roofs(const RooflineFrame& f, const RooflinePeaks& peaks, ImDrawList* dl) {
  const double ridge = peaks.flops_per_sec / peaks.bytes_per_sec;
  const ImVec2 start(f.left, f.px_y(f.x.lo * peaks.bytes_per_sec));
  const ImVec2 knee(f.px_x(ridge), f.px_y(peaks.flops_per_sec));
  const ImVec2 end(f.right, knee.y);
  dl->AddLine(start, knee, theme::kRooflineMemory, kRoofThickness);
  dl->AddLine(knee, end, theme::kRooflineCompute, kRoofThickness);
  for (float y = knee.y + kRidgeMarkR; y < f.bottom; y += 2 * kRidgeDash)
    dl->AddLine(ImVec2(knee.x, y), ImVec2(knee.x, std::min(f.bottom, y + kRidgeDash)),
                theme::kRooflineRidge);
  dl->AddCircleFilled(knee, kRidgeMarkR, theme::kRooflineRidge);
  const std::string label = "ridge " + intensity_text(ridge) + " FLOP/byte";
  const ImVec2 size = ImGui::CalcTextSize(label.c_str());
  // Below the compute roof, right of the ridge (left of it when it would leave the plot).
  float lx = knee.x + kRidgeMarkR + 3;
  if (lx + size.x > f.right) lx = knee.x - kRidgeMarkR - 3 - size.x;
  dl->AddText(ImVec2(lx, knee.y + 3), theme::kRooflineRidge, label.c_str());
}

void marker(ImDrawList* dl, const RooflineDot& d, bool program) {
  if (program)
    chart_draw_mark(dl, ChartMark::kDiamond, d.x, d.y, d.r, theme::kRooflineProgram);
  else
    chart_draw_mark(dl, ChartMark::kDot, d.x, d.y, d.r, theme::kRooflineOp);
}

// Reads a field's text into a peak: empty is 0 (the file's), a bad number keeps the last.
void apply_field(const char* text, double* typed, bool* changed) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  double next = *typed;
  if (text[0] == 0) next = 0;
  if (end != text && std::isfinite(v) && v > 0) next = v;
  if (next != *typed) *typed = next, *changed = true;
}

void peak_field(const char* label, const char* id, char* buf, size_t n, double file_value,
                double unit, double* typed, bool* changed, RooflineBox* box) {
  ImGui::SetNextItemWidth(kPeakInputW);
  const std::string hint = file_value > 0 ? peak_text(file_value / unit) : std::string("type it");
  const bool enter = ImGui::InputTextWithHint(
      id, hint.c_str(), buf, n,
      ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
  *box = chart_item_box();
  if (enter || ImGui::IsItemDeactivatedAfterEdit()) apply_field(buf, typed, changed);
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
}

void peaks_panel(RooflineChart* c) {
  const RooflinePeaks& p = c->peaks;
  ImGui::TextUnformatted("Peaks per core");
  if (p.known()) {
    ImGui::TextDisabled("from %s", p.source.c_str());
    ImGui::Text("Ridge: %s FLOP/byte", intensity_text(p.flops_per_sec / p.bytes_per_sec).c_str());
  } else {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText),
                       "No roofline: %s. Type the peaks to draw it.",
                       p.why.empty() ? "the file records no peak figures" : p.why.c_str());
  }
  const bool typed_before = c->typed_tflops > 0 || c->typed_gbps > 0;
  peak_field("peak TFLOP/s", "##peak_tflops", c->tflops_text, sizeof c->tflops_text,
             p.flops_per_sec, kTera, &c->typed_tflops, &c->peaks_changed, &c->tflops_box);
  peak_field("peak GB/s", "##peak_gbps", c->gbps_text, sizeof c->gbps_text, p.bytes_per_sec, kGiga,
             &c->typed_gbps, &c->peaks_changed, &c->gbps_box);
  if (typed_before && ImGui::SmallButton("Use the file's peaks"))
    roofline_set_typed(c, 0, 0), c->peaks_changed = true;
  ImGui::Spacing();
  chart_legend_entry(ChartMark::kDiamond, theme::kRooflineProgram, "program");
  chart_legend_entry(ChartMark::kDot, theme::kRooflineOp, "HLO op (area: share of the time)");
  if (c->ops_left_out > 0)
    ImGui::TextDisabled("The %zu ops with the most time are drawn; %zu more are not.", kMaxDrawnOps,
                        c->ops_left_out);
  ImGui::TextDisabled("Click a marker to select its row.");
}

}  // namespace

std::string roofline_args(const RooflineChart& c) {
  namespace k = protocol::keys::analysis_args;
  std::string o;
  if (c.typed_tflops > 0) {
    protocol::append_key(&o, k::kPeakTflops);
    json_append_number(&o, c.typed_tflops);
  }
  if (c.typed_gbps > 0) {
    protocol::append_key(&o, k::kPeakGBps);
    json_append_number(&o, c.typed_gbps);
  }
  return o;
}

void roofline_set_typed(RooflineChart* c, double tflops, double gbps) {
  c->typed_tflops = tflops > 0 ? tflops : 0;
  c->typed_gbps = gbps > 0 ? gbps : 0;
  std::snprintf(c->tflops_text, sizeof c->tflops_text, "%s",
                tflops > 0 ? peak_text(tflops).c_str() : "");
  std::snprintf(c->gbps_text, sizeof c->gbps_text, "%s", gbps > 0 ? peak_text(gbps).c_str() : "");
}

void roofline_chart_set_table(RooflineChart* c, const AnalysisTableModel& m, const char* json) {
  read_roofline_peaks(json, &c->peaks);
  c->points = roofline_points(m);
  c->ops_left_out = roofline_keep_top_ops(&c->points, kMaxDrawnOps);
  c->hovered = -1;
}

int32_t roofline_chart_frame(RooflineChart* c, const AnalysisTableModel& m, int32_t selected,
                             float w, float h) {
  c->dots.clear();
  c->hovered = -1;
  c->tooltip.clear();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float cw = std::max(kChartMinW, std::min(w - kPanelW - kPanelGap, kChartMaxW));
  const bool pressed = ImGui::InvisibleButton("##roofline_plot", ImVec2(cw, h));
  const bool over = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  RooflineFrame& f = c->frame;
  f.left = origin.x + kAxisLeftW;
  f.top = origin.y + kPlotTopPad;
  f.right = origin.x + cw - kPlotRightPad;
  f.bottom = origin.y + h - kAxisBottomH;
  roofline_axes(c->points, c->peaks, &f.x, &f.y);
  dl->AddRectFilled(ImVec2(f.left, f.top), ImVec2(f.right, f.bottom), theme::kChartBg);
  c->drawn = !c->points.empty() || c->peaks.known();
  int32_t clicked = -1;
  if (!c->drawn) {
    const char* msg = "No program or op has both FLOPs and bytes accessed: nothing to place.";
    const ImVec2 size = ImGui::CalcTextSize(msg);
    dl->AddText(ImVec2((f.left + f.right - size.x) / 2, (f.top + f.bottom - size.y) / 2),
                theme::kTextDim, msg);
  } else {
    axes(f, dl);
    dl->PushClipRect(ImVec2(f.left, f.top), ImVec2(f.right, f.bottom), true);
    if (c->peaks.known()) roofs(f, c->peaks, dl);
    c->dots = roofline_dots(c->points, f);
    for (size_t i = 0; i < c->dots.size(); ++i) marker(dl, c->dots[i], c->points[i].program);
    if (over) {
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      c->hovered = roofline_hit(c->dots, mouse.x, mouse.y, kHitSlop);
    }
    for (size_t i = 0; i < c->dots.size(); ++i) {
      const bool is_selected = c->points[i].row == selected;
      if (!is_selected && static_cast<int>(i) != c->hovered) continue;
      const RooflineDot& d = c->dots[i];
      dl->AddCircle(ImVec2(d.x, d.y), d.r + kMarkRingGap,
                    is_selected ? theme::kSelection : theme::kText, 0, 2.0f);
    }
    dl->PopClipRect();
    if (c->hovered >= 0) {
      const RooflinePoint& p = c->points[static_cast<size_t>(c->hovered)];
      c->tooltip = tooltip_of(*c, m, p);
      ImGui::SetTooltip("%s", c->tooltip.c_str());
      if (pressed) clicked = p.row;
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x + cw + kPanelGap, origin.y));
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(origin.x + w - ImGui::GetWindowPos().x);  // window-local
  peaks_panel(c);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  const float bottom = std::max(origin.y + h, ImGui::GetItemRectMax().y);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, bottom + ImGui::GetStyle().ItemSpacing.y));
  return clicked;
}

std::string roofline_chart_json(const RooflineChart& c, const AnalysisTableModel& m) {
  const RooflinePeaks& p = c.peaks;
  const RooflineFrame& f = c.frame;
  std::string o = std::string("{\"drawn\":") + (c.drawn ? "true" : "false") + ",\"peaks\":{";
  o += "\"flopsPerSec\":";
  json_append_number(&o, p.flops_per_sec);
  o += ",\"bytesPerSec\":";
  json_append_number(&o, p.bytes_per_sec);
  o += ",\"ridge\":";
  json_append_number(&o, p.known() ? p.flops_per_sec / p.bytes_per_sec : 0);
  o += ",\"source\":";
  json_append_string(&o, p.source);
  o += ",\"why\":";
  json_append_string(&o, p.why);
  o += ",\"typedTflops\":";
  json_append_number(&o, c.typed_tflops);
  o += ",\"typedGBps\":";
  json_append_number(&o, c.typed_gbps);
  o += "},\"message\":";
  json_append_string(&o, p.known() ? std::string() : "No roofline: " + p.why);
  char buf[200];
  std::snprintf(buf, sizeof buf,
                ",\"plot\":[%.1f,%.1f,%.1f,%.1f],\"axes\":{\"x\":[%g,%g],\"y\":[%g,%g]}", f.left,
                f.top, f.right - f.left, f.bottom - f.top, f.x.lo, f.x.hi, f.y.lo, f.y.hi);
  o += buf;
  if (p.known()) {
    const double ridge = p.flops_per_sec / p.bytes_per_sec;
    std::snprintf(buf, sizeof buf,
                  ",\"ridge\":{\"intensity\":%.17g,\"flopsPerSec\":%.17g,\"x\":%.1f,\"y\":%.1f}",
                  ridge, p.flops_per_sec, f.px_x(ridge), f.px_y(p.flops_per_sec));
    o += buf;
    std::snprintf(buf, sizeof buf,
                  ",\"roof\":{\"memory\":[%.1f,%.1f,%.1f,%.1f],\"compute\":[%.1f,%.1f,%.1f,%.1f]}",
                  f.left, f.px_y(f.x.lo * p.bytes_per_sec), f.px_x(ridge), f.px_y(p.flops_per_sec),
                  f.px_x(ridge), f.px_y(p.flops_per_sec), f.right, f.px_y(p.flops_per_sec));
    o += buf;
  } else {
    o += ",\"ridge\":null,\"roof\":null";
  }
  o += ",\"colours\":{\"memoryRoof\":\"" + chart_colour_hex(theme::kRooflineMemory) +
       "\",\"computeRoof\":\"" + chart_colour_hex(theme::kRooflineCompute) + "\",\"ridge\":\"" +
       chart_colour_hex(theme::kRooflineRidge) + "\",\"op\":\"" +
       chart_colour_hex(theme::kRooflineOp) + "\",\"program\":\"" +
       chart_colour_hex(theme::kRooflineProgram) + "\",\"plot\":\"" +
       chart_colour_hex(theme::kChartBg) + "\"}";
  o += ",\"pointCount\":" + std::to_string(c.points.size()) +
       ",\"opsLeftOut\":" + std::to_string(c.ops_left_out) + ",\"points\":[";
  // Programs first (they are drawn last, over their ops), then ops, up to the cap.
  std::vector<size_t> order;
  for (size_t i = c.points.size(); i-- > 0 && c.points[i].program;) order.push_back(i);
  for (size_t i = 0; i < c.points.size() && !c.points[i].program; ++i) order.push_back(i);
  for (size_t k = 0; k < order.size() && k < kMaxStatePoints; ++k) {
    const size_t i = order[k];
    const RooflinePoint& pt = c.points[i];
    const RooflineDot d = i < c.dots.size() ? c.dots[i] : RooflineDot{};
    std::snprintf(buf, sizeof buf,
                  "%s{\"row\":%d,\"kind\":\"%s\",\"intensity\":%.17g,\"flopRate\":%.17g,"
                  "\"share\":%.6g,\"x\":%.1f,\"y\":%.1f,\"r\":%.1f}",
                  k ? "," : "", pt.row, pt.program ? "program" : "op", pt.intensity, pt.flop_rate,
                  pt.share, d.x, d.y, d.r);
    o += buf;
  }
  o += "],\"hovered\":";
  if (c.hovered >= 0 && static_cast<size_t>(c.hovered) < c.points.size()) {
    const RooflinePoint& pt = c.points[static_cast<size_t>(c.hovered)];
    o += "{\"row\":" + std::to_string(pt.row) + ",\"name\":";
    json_append_string(&o, text_of(m, pt.row, "name"));
    o += std::string(",\"kind\":\"") + (pt.program ? "program" : "op") + "\",\"intensity\":";
    json_append_number(&o, pt.intensity);
    o += ",\"flopRate\":";
    json_append_number(&o, pt.flop_rate);
    o += ",\"timeNs\":";
    json_append_number(&o, pt.time_ns);
    o += ",\"boundBy\":";
    json_append_string(&o, text_of(m, pt.row, "bound_by"));
    o += '}';
  } else {
    o += "null";
  }
  o += ",\"tooltip\":";
  json_append_string(&o, c.tooltip);
  std::snprintf(buf, sizeof buf,
                ",\"layout\":{\"tflops\":[%.1f,%.1f,%.1f,%.1f],\"gbps\":[%.1f,%.1f,%.1f,%.1f]}}",
                c.tflops_box.x, c.tflops_box.y, c.tflops_box.w, c.tflops_box.h, c.gbps_box.x,
                c.gbps_box.y, c.gbps_box.w, c.gbps_box.h);
  return o + buf;
}

}  // namespace strata
