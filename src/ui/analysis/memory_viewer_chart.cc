#include "ui/analysis/memory_viewer_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "protocol/memory_viewer_keys.h"
#include "protocol/reply_keys.h"
#include "ui/theme.h"

namespace strata {

namespace {

constexpr float kChartH = 220.0f;      // the plot with its axes
constexpr float kAxisLeftW = 80.0f;    // byte labels
constexpr float kAxisBottomH = 20.0f;  // program-order labels
constexpr float kPlotTopPad = 8.0f;
constexpr float kPlotRightPad = 12.0f;
constexpr float kBarH = 26.0f;  // the stacked bar of live buffers
constexpr float kBarGap = 6.0f;
constexpr float kPeakMarkR = 4.0f;
constexpr float kCurveThickness = 1.5f;
constexpr float kComboW = 260.0f;
constexpr float kSpaceComboW = 160.0f;
constexpr float kBudgetW = 110.0f;
constexpr float kDragThreshold = 3.0f;  // px: less than this between press and release is a click
constexpr float kWheelZoom = 0.8f;      // one wheel notch shows this share of the range
constexpr int kYTicks = 4;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string bytes_text(double v) {
  return format_cell({TableCell::Kind::kNumber, v, {}}, CellUnit::kBytes);
}

int column_of(const AnalysisTableModel& m, const char* key) {
  for (size_t c = 0; c < m.columns.size(); ++c)
    if (m.columns[c].key == key) return static_cast<int>(c);
  return -1;
}

double number_in(const AnalysisTableModel& m, size_t row, int col) {
  if (col < 0 || static_cast<size_t>(col) >= m.rows[row].cells.size()) return 0;
  const TableCell& c = m.rows[row].cells[static_cast<size_t>(col)];
  return c.kind == TableCell::Kind::kNumber ? c.number : 0;
}

float x_of(const MemoryViewerChart& c, double point) {
  const double span = std::max(1e-9, c.range.hi - c.range.lo);
  return c.plot.x + static_cast<float>((point - c.range.lo) / span) * c.plot.w;
}
float y_of(const MemoryViewerChart& c, double bytes) {
  const double top = std::max(1.0, c.max_bytes);
  return c.plot.y + c.plot.h - static_cast<float>(std::min(bytes, top) / top) * c.plot.h;
}

void pickers(MemoryViewerChart* c) {
  const MemoryViewerData& d = c->data;
  ImGui::SetNextItemWidth(kComboW);
  const std::string current = d.module_name.empty() ? "(none)" : d.module_name;
  if (ImGui::BeginCombo("Module##memview", current.c_str())) {
    for (const MemoryViewerModule& m : d.modules) {
      ImGui::BeginDisabled(!m.ok);
      const std::string label = m.name + "##memview_module" + std::to_string(m.index);
      if (ImGui::Selectable(label.c_str(), m.index == d.module) && m.index != d.module) {
        c->module = m.index;
        c->space = -1;
        c->point = -1;
        c->args_changed = true;
      }
      ImGui::EndDisabled();
      if (!m.ok && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", m.why.c_str());
    }
    ImGui::EndCombo();
  }
  c->module_box = chart_item_box();
  ImGui::SameLine();
  std::string space = "-";
  for (const MemoryViewerSpace& s : d.spaces)
    if (s.color == d.space) space = s.label;
  ImGui::SetNextItemWidth(kSpaceComboW);
  if (ImGui::BeginCombo("Memory space##memview", space.c_str())) {
    for (const MemoryViewerSpace& s : d.spaces)
      if (ImGui::Selectable(s.label.c_str(), s.color == d.space) && s.color != d.space) {
        c->space = s.color;
        c->point = -1;
        c->args_changed = true;
      }
    ImGui::EndCombo();
  }
  c->space_box = chart_item_box();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(kBudgetW);
  if (ImGui::InputTextWithHint("Budget (GiB)##memview", "e.g. 16", c->budget_text,
                               sizeof c->budget_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
    const double g = std::strtod(c->budget_text, nullptr);
    c->budget = g > 0 && std::isfinite(g) ? g * kGiB : 0;
    c->args_changed = true;
  }
  c->budget_box = chart_item_box();
  ImGui::SameLine();
  if (ImGui::Button("Show in Memory tab")) c->memory_tab_request = true;
  c->memory_tab_box = chart_item_box();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The module's run with the most memory, on its device, in the Memory tab");
}

void summary(const MemoryViewerChart& c) {
  const MemoryViewerData& d = c.data;
  std::string line = "Peak " + bytes_text(d.peak.bytes) + " at point " +
                     std::to_string(d.peak.point) + " of " + std::to_string(d.points);
  if (!d.peak.instruction.empty()) line += " (" + d.peak.instruction + ")";
  line += " \xC2\xB7 live throughout " + bytes_text(d.indefinite);
  if (d.device_bytes > 0) {
    char share[48];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * d.device_share);
    line += " \xC2\xB7 " + std::string(share) + " of the device's " + bytes_text(d.device_bytes);
  }
  ImGui::TextUnformatted(line.c_str());
  if (d.device_bytes <= 0 && !d.device_why.empty()) ImGui::TextDisabled("%s", d.device_why.c_str());
  if (d.has_budget) {
    if (d.fits) {
      ImGui::TextDisabled("The peak fits in %s.", bytes_text(d.budget_bytes).c_str());
    } else {
      std::string s =
          "Over " + bytes_text(d.budget_bytes) + " by " + bytes_text(d.bytes_over) + "; shrink:";
      for (size_t i = 0; i < d.shrink.size(); ++i)
        s += (i ? ", " : " ") + d.shrink[i].first + " (" + bytes_text(d.shrink[i].second) + ")";
      ImGui::PushStyleColor(ImGuiCol_Text, theme::kErrorText);
      ImGui::TextWrapped("%s", s.c_str());
      ImGui::PopStyleColor();
    }
  }
  ImGui::TextDisabled(
      "Point %u: %s (unpadded %s), %u heap buffers live%s%s. Click the chart to pick a point; "
      "wheel zooms, drag pans.",
      d.point.point, bytes_text(d.point.bytes).c_str(), bytes_text(d.point.unpadded).c_str(),
      d.point.live, d.point.instruction.empty() ? "" : ", at ", d.point.instruction.c_str());
}

// What the plot's colours stand for, one line.
void legend() {
  chart_legend_entry(ChartMark::kSwatch, theme::kMemoryAllocated, "heap (padded)");
  ImGui::SameLine();
  chart_legend_entry(ChartMark::kLine, theme::kMemoryReserved, "unpadded");
  ImGui::SameLine();
  chart_legend_entry(ChartMark::kSwatch, theme::kChartIdle, "live throughout");
  ImGui::SameLine();
  chart_legend_entry(ChartMark::kDot, theme::kMemoryPeak, "peak");
  ImGui::SameLine();
  chart_legend_entry(ChartMark::kLine, theme::kMemoryInstant, "the table's point");
}

void plot(MemoryViewerChart* c, float w) {
  const MemoryViewerData& d = c->data;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  c->plot = {origin.x + kAxisLeftW, origin.y + kPlotTopPad, w - kAxisLeftW - kPlotRightPad,
             kChartH - kPlotTopPad - kAxisBottomH};
  ImGui::InvisibleButton("##memview_plot", ImVec2(w, kChartH));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const MemoryViewerBox& p = c->plot;
  dl->AddRectFilled(ImVec2(p.x, p.y), ImVec2(p.x + p.w, p.y + p.h), theme::kChartBg);
  // The plot's top: the highest heap in view (the peak always fits when the curve is whole).
  c->max_bytes = std::max(1.0, d.indefinite);
  const size_t n = d.padded.size();
  for (size_t s = 0; s < n; ++s) {
    const double at = static_cast<double>(s) * d.step;
    if (at + d.step < c->range.lo || at > c->range.hi) continue;
    c->max_bytes = std::max(c->max_bytes, d.padded[s]);
  }
  c->max_bytes *= 1.05;
  for (int t = 0; t <= kYTicks; ++t) {
    const double v = c->max_bytes * t / kYTicks;
    const float y = y_of(*c, v);
    dl->AddLine(ImVec2(p.x, y), ImVec2(p.x + p.w, y), theme::kGrid);
    const std::string label = bytes_text(v);
    dl->AddText(ImVec2(origin.x, y - ImGui::GetTextLineHeight() / 2), theme::kTextDim,
                label.c_str());
  }
  dl->PushClipRect(ImVec2(p.x, p.y), ImVec2(p.x + p.w, p.y + p.h), true);
  // Buffers live throughout: a band along the bottom.
  dl->AddRectFilled(ImVec2(p.x, y_of(*c, d.indefinite)), ImVec2(p.x + p.w, p.y + p.h),
                    theme::kChartIdle);
  // Padded heap as filled steps, unpadded as a line.
  for (size_t s = 0; s < n; ++s) {
    const double at = static_cast<double>(s) * d.step;
    if (at + d.step < c->range.lo || at > c->range.hi) continue;
    const float x0 = x_of(*c, at), x1 = std::max(x0 + 1.0f, x_of(*c, at + d.step));
    dl->AddRectFilled(ImVec2(x0, y_of(*c, d.padded[s])), ImVec2(x1, y_of(*c, d.indefinite)),
                      theme::kMemoryAllocated);
    if (s < d.unpadded.size()) {
      const float yu = y_of(*c, d.unpadded[s]);
      dl->AddLine(ImVec2(x0, yu), ImVec2(x1, yu), theme::kMemoryReserved, kCurveThickness);
    }
  }
  // The peak, and the point the table shows.
  const float px = x_of(*c, d.peak.point + 0.5), py = y_of(*c, d.peak.bytes);
  dl->AddCircleFilled(ImVec2(px, py), kPeakMarkR, theme::kMemoryPeak);
  const std::string peak = "peak " + bytes_text(d.peak.bytes);
  dl->AddText(ImVec2(px + kPeakMarkR + 2, py), theme::kMemoryPeak, peak.c_str());
  const float qx = x_of(*c, d.point.point + 0.5);
  dl->AddLine(ImVec2(qx, p.y), ImVec2(qx, p.y + p.h), theme::kMemoryInstant);
  dl->PopClipRect();
  char lo[32], hi[32];
  std::snprintf(lo, sizeof lo, "%.0f", c->range.lo);
  std::snprintf(hi, sizeof hi, "%.0f", c->range.hi);
  const float ty = p.y + p.h + 2;
  dl->AddText(ImVec2(p.x, ty), theme::kTextDim, lo);
  dl->AddText(ImVec2(p.x + p.w - ImGui::CalcTextSize(hi).x, ty), theme::kTextDim, hi);
  const char* title = "program order (heap simulator events)";
  dl->AddText(ImVec2(p.x + (p.w - ImGui::CalcTextSize(title).x) / 2, ty), theme::kTextDim, title);
  // Hover, wheel, drag, click.
  c->hovered_point = -1;
  const ImGuiIO& io = ImGui::GetIO();
  const double span = c->range.hi - c->range.lo;
  const double at = c->range.lo + (io.MousePos.x - p.x) / std::max(1.0f, p.w) * span;
  if (hovered && io.MousePos.x >= p.x && io.MousePos.x <= p.x + p.w && d.points) {
    c->hovered_point = std::clamp<int64_t>(static_cast<int64_t>(at), 0, d.points - 1);
    const size_t s = static_cast<size_t>(c->hovered_point) / d.step;
    if (s < n)
      ImGui::SetTooltip("point %lld\nheap %s\nunpadded %s",
                        static_cast<long long>(c->hovered_point), bytes_text(d.padded[s]).c_str(),
                        bytes_text(s < d.unpadded.size() ? d.unpadded[s] : 0).c_str());
    if (io.MouseWheel != 0)
      c->range =
          memory_viewer_zoom(d, c->range, at, io.MouseWheel > 0 ? kWheelZoom : 1 / kWheelZoom);
  }
  if (ImGui::IsItemActivated()) {
    c->dragging = false;
    c->drag_from = io.MousePos.x;
  }
  if (ImGui::IsItemActive() && std::fabs(io.MouseDelta.x) > 0) {
    if (std::fabs(io.MousePos.x - c->drag_from) >= kDragThreshold) c->dragging = true;
    if (c->dragging)
      c->range = memory_viewer_pan(d, c->range, -io.MouseDelta.x / std::max(1.0f, p.w) * span);
  }
  if (ImGui::IsItemDeactivated() && !c->dragging && c->hovered_point >= 0) {
    c->point = c->hovered_point;
    c->args_changed = true;
  }
}

int32_t stacked_bar(MemoryViewerChart* c, const AnalysisTableModel& m, int32_t selected, float w) {
  c->segments.clear();
  c->segment_rows.clear();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  c->bar = {origin.x + kAxisLeftW, origin.y, w - kAxisLeftW - kPlotRightPad, kBarH};
  ImGui::Dummy(ImVec2(w, kBarH));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(ImVec2(origin.x, origin.y + (kBarH - ImGui::GetTextLineHeight()) / 2),
              theme::kTextDim, "live");
  const int size_col = column_of(m, "size"), name_col = column_of(m, "name");
  double total = 0;
  for (size_t r = 0; r < m.rows.size(); ++r) total += std::max(0.0, number_in(m, r, size_col));
  if (total <= 0) return -1;
  float x = c->bar.x;
  int32_t clicked = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (size_t r = 0; r < m.rows.size(); ++r) {
    const double v = std::max(0.0, number_in(m, r, size_col));
    const float sw = static_cast<float>(v / total) * c->bar.w;
    const MemoryViewerBox b{x, c->bar.y, sw, kBarH};
    c->segments.push_back(b);
    c->segment_rows.push_back(static_cast<int32_t>(r));
    const uint32_t colour = theme::kMemoryComponents[r % 6];
    dl->AddRectFilled(ImVec2(b.x, b.y), ImVec2(b.x + std::max(sw, 1.0f), b.y + b.h), colour);
    if (static_cast<int32_t>(r) == selected)
      dl->AddRect(ImVec2(b.x, b.y), ImVec2(b.x + std::max(sw, 1.0f), b.y + b.h), theme::kSelection,
                  0, 0, 2.0f);
    const bool over = mouse.x >= b.x && mouse.x < b.x + std::max(sw, 1.0f) && mouse.y >= b.y &&
                      mouse.y < b.y + b.h;
    if (over && ImGui::IsWindowHovered()) {
      const TableCell* name =
          name_col >= 0 && static_cast<size_t>(name_col) < m.rows[r].cells.size()
              ? &m.rows[r].cells[static_cast<size_t>(name_col)]
              : nullptr;
      ImGui::SetTooltip("%s\n%s", name ? name->text.c_str() : "", bytes_text(v).c_str());
      if (ImGui::IsMouseClicked(0)) clicked = static_cast<int32_t>(r);
    }
    x += sw;
  }
  return clicked;
}

}  // namespace

std::string memory_viewer_args(const MemoryViewerChart& c) {
  namespace a = protocol::keys::memory_viewer_args;
  std::string o;
  auto add = [&](std::string_view k, double v) {
    o += ",\"" + std::string(k) + "\":";
    json_append_number(&o, v);
  };
  if (c.module >= 0) add(a::kModule, c.module);
  if (c.space >= 0) add(a::kSpace, static_cast<double>(c.space));
  if (c.point >= 0) add(a::kPoint, static_cast<double>(c.point));
  if (c.budget > 0) add(a::kBudget, c.budget);
  return o;
}

void memory_viewer_chart_choose(MemoryViewerChart* c, int module, int64_t point) {
  c->module = module;
  c->space = -1;
  c->point = point;
  c->args_changed = true;
}

void memory_viewer_chart_set_table(MemoryViewerChart* c, const char* json) {
  const uint32_t old_points = c->data.points;
  const int old_module = c->data.module;
  const int64_t old_space = c->data.space;
  read_memory_viewer_extra(json, &c->data);
  // A new curve is shown whole; a new point on the same curve keeps the zoom.
  if (c->data.points != old_points || c->data.module != old_module || c->data.space != old_space)
    c->range = memory_viewer_full_range(c->data);
}

int32_t memory_viewer_chart_frame(MemoryViewerChart* c, const AnalysisTableModel& m,
                                  int32_t selected, float w, float h) {
  c->drawn = false;
  if (!c->data.read) return -1;
  pickers(c);
  if (c->data.module < 0 || c->data.padded.empty()) {
    if (c->data.module >= 0) summary(*c);
    return -1;
  }
  summary(*c);
  legend();
  plot(c, w);
  ImGui::Dummy(ImVec2(0, kBarGap));
  const int32_t clicked = stacked_bar(c, m, selected, w);
  c->drawn = true;
  (void)h;
  return clicked;
}

std::string memory_viewer_chart_json(const MemoryViewerChart& c) {
  const MemoryViewerData& d = c.data;
  std::string o = std::string("{\"drawn\":") + (c.drawn ? "true" : "false");
  o += ",\"module\":" + std::to_string(d.module) + ",\"moduleName\":";
  json_append_string(&o, d.module_name);
  protocol::append_key(&o, protocol::keys::memory_viewer::kProgramId);
  json_append_string(&o, d.program_id);
  o += ",\"modules\":[";
  for (size_t i = 0; i < d.modules.size(); ++i) {
    const MemoryViewerModule& m = d.modules[i];
    o += (i ? ",{\"index\":" : "{\"index\":") + std::to_string(m.index) + ",\"name\":";
    json_append_string(&o, m.name);
    o += std::string(",\"ok\":") + (m.ok ? "true" : "false") + ",\"why\":";
    json_append_string(&o, m.why);
    o += '}';
  }
  o += "],\"spaces\":[";
  for (size_t i = 0; i < d.spaces.size(); ++i) {
    o += (i ? ",{\"color\":" : "{\"color\":") + std::to_string(d.spaces[i].color) + ",\"label\":";
    json_append_string(&o, d.spaces[i].label);
    o += '}';
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "],\"space\":%lld,\"points\":%u,\"range\":[%.17g,%.17g],\"plot\":[%.1f,%.1f,%.1f,"
                "%.1f],\"maxBytes\":%.17g,\"indefiniteBytes\":%.17g,\"indefiniteY\":%.1f",
                static_cast<long long>(d.space), d.points, c.range.lo, c.range.hi, c.plot.x,
                c.plot.y, c.plot.w, c.plot.h, c.max_bytes, d.indefinite, y_of(c, d.indefinite));
  o += buf;
  std::snprintf(buf, sizeof buf, ",\"peak\":{\"point\":%u,\"bytes\":%.17g,\"x\":%.1f,\"y\":%.1f}",
                d.peak.point, d.peak.bytes, x_of(c, d.peak.point + 0.5), y_of(c, d.peak.bytes));
  o += buf;
  std::snprintf(
      buf, sizeof buf,
      ",\"point\":{\"point\":%u,\"bytes\":%.17g,\"unpadded\":%.17g,\"live\":%u,\"x\":%.1f,"
      "\"instruction\":",
      d.point.point, d.point.bytes, d.point.unpadded, d.point.live, x_of(c, d.point.point + 0.5));
  o += buf;
  json_append_string(&o, d.point.instruction);
  o += "},\"device\":{\"bytes\":";
  json_append_number(&o, d.device_bytes);
  o += ",\"share\":";
  json_append_number(&o, d.device_share);
  o += ",\"source\":";
  json_append_string(&o, d.device_source);
  o += ",\"why\":";
  json_append_string(&o, d.device_why);
  o += "},\"budget\":";
  if (d.has_budget) {
    o += "{\"bytes\":";
    json_append_number(&o, d.budget_bytes);
    o += std::string(",\"fits\":") + (d.fits ? "true" : "false") + ",\"bytesOver\":";
    json_append_number(&o, d.bytes_over);
    o += ",\"shrink\":[";
    for (size_t i = 0; i < d.shrink.size(); ++i) {
      o += i ? ",{\"name\":" : "{\"name\":";
      json_append_string(&o, d.shrink[i].first);
      o += ",\"bytes\":";
      json_append_number(&o, d.shrink[i].second);
      o += '}';
    }
    o += "]}";
  } else {
    o += "null";
  }
  std::snprintf(buf, sizeof buf, ",\"bar\":[%.1f,%.1f,%.1f,%.1f],\"segments\":[", c.bar.x, c.bar.y,
                c.bar.w, c.bar.h);
  o += buf;
  for (size_t i = 0; i < c.segments.size(); ++i) {
    const MemoryViewerBox& b = c.segments[i];
    std::snprintf(buf, sizeof buf, "%s{\"row\":%d,\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f}",
                  i ? "," : "", c.segment_rows[i], b.x, b.y, b.w, b.h);
    o += buf;
  }
  o += "],\"colours\":{\"padded\":\"" + chart_colour_hex(theme::kMemoryAllocated) +
       "\",\"unpadded\":\"" + chart_colour_hex(theme::kMemoryReserved) + "\",\"indefinite\":\"" +
       chart_colour_hex(theme::kChartIdle) + "\",\"peak\":\"" +
       chart_colour_hex(theme::kMemoryPeak) + "\",\"point\":\"" +
       chart_colour_hex(theme::kMemoryInstant) + "\",\"plot\":\"" +
       chart_colour_hex(theme::kChartBg) + "\"}";
  o += ",\"layout\":{";
  chart_append_box(&o, "budget", c.budget_box);
  o += ',';
  chart_append_box(&o, "module", c.module_box);
  o += ',';
  chart_append_box(&o, "space", c.space_box);
  o += ',';
  chart_append_box(&o, "memoryTab", c.memory_tab_box);
  return o + "}}";
}

}  // namespace strata
