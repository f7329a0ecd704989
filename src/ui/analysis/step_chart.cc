#include "ui/analysis/step_chart.h"

#include <algorithm>
#include <cstdio>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "ui/theme.h"

namespace strata {

namespace {

constexpr float kChartH = 130.0f;   // the plot's height
constexpr float kAxisW = 70.0f;     // room left of the plot for the axis label
constexpr float kMaxBarGap = 6.0f;  // px between bars, at most
constexpr float kLegendSwatch = 10.0f;
constexpr size_t kMaxJsonBars = 200;  // bars step_chart_json lists
static_assert(kStepChartParts == kStepPartColours, "one theme colour per step part");

std::string time_text(double ns) {
  TableCell c;
  c.kind = TableCell::Kind::kNumber;
  c.number = ns;
  return format_cell(c, CellUnit::kNs);
}

std::string hex_colour(uint32_t abgr) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", abgr & 0xFF, (abgr >> 8) & 0xFF,
                (abgr >> 16) & 0xFF);
  return buf;
}

uint32_t part_colour(const StepChartPart& p) { return theme::kStepPart[p.colour]; }

void legend(const StepChartData& d) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i < d.parts.size(); ++i) {
    const float w = kLegendSwatch + 4 + ImGui::CalcTextSize(d.parts[i].label.c_str()).x;
    if (i > 0) {
      ImGui::SameLine(0, 12);
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y = at.y + (line - kLegendSwatch) / 2;
    dl->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + kLegendSwatch, y + kLegendSwatch),
                      part_colour(d.parts[i]));
    ImGui::Dummy(ImVec2(kLegendSwatch, line));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(d.parts[i].label.c_str());
  }
}

std::string hover_text(const StepChartData& d, size_t i) {
  const StepBar& b = d.bars[i];
  std::string t = b.name + "  " + time_text(b.duration_ns);
  for (size_t p = 0; p < d.parts.size() && p < b.parts.size(); ++p) {
    if (!(b.parts[p] > 0)) continue;
    char pct[32];
    std::snprintf(pct, sizeof pct, " (%.1f%%)",
                  b.duration_ns > 0 ? 100.0 * b.parts[p] / b.duration_ns : 0.0);
    t += "\n" + d.parts[p].label + ": " + time_text(b.parts[p]) + pct;
  }
  return t;
}

}  // namespace

void step_chart_set(StepChart* c, const AnalysisTableModel& m) {
  *c = StepChart{};  // a new table picks again: its rows differ
  c->data = step_chart_data(m);
}

int step_chart_draw(StepChart* c, float width) {
  c->plot = {};
  c->hovered = -1;
  c->hover_text.clear();
  const StepChartData& d = c->data;
  if (d.bars.empty()) return -1;
  width = std::min(width, ImGui::GetContentRegionAvail().x);
  legend(d);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ChartBox plot{at.x + kAxisW, at.y, std::max(1.0f, width - kAxisW), kChartH};
  c->plot = plot;
  ImGui::InvisibleButton("##step_chart", ImVec2(std::max(1.0f, width), kChartH));
  const bool clicked = ImGui::IsItemClicked(0);
  const bool hovered = ImGui::IsItemHovered();
  dl->AddRectFilled(ImVec2(plot.x, plot.y), ImVec2(plot.x + plot.w, plot.y + plot.h),
                    theme::kChartBg);
  dl->AddLine(ImVec2(plot.x, plot.y), ImVec2(plot.x, plot.y + plot.h), theme::kChartAxis);
  dl->AddLine(ImVec2(plot.x, plot.y + plot.h), ImVec2(plot.x + plot.w, plot.y + plot.h),
              theme::kChartAxis);
  const std::string top = time_text(d.max_total);
  dl->AddText(ImVec2(at.x, plot.y), theme::kTextDim, top.c_str());
  dl->AddText(ImVec2(at.x, plot.y + plot.h - ImGui::GetTextLineHeight()), theme::kTextDim, "0");
  const size_t n = d.bars.size();
  for (size_t i = 0; i < n; ++i) {
    float x0, x1;
    step_bar_x(plot, n, i, kMaxBarGap, &x0, &x1);
    for (const BarSegment& s : step_bar_segments(d, plot, i))
      dl->AddRectFilled(ImVec2(x0, s.y1), ImVec2(std::max(x1, x0 + 1), s.y0),
                        part_colour(d.parts[s.part]));
    if (static_cast<int>(i) == c->chosen) {
      const float h = step_bar_height(plot, d.max_total, d.max_total);
      dl->AddRect(ImVec2(x0 - 1, plot.y + plot.h - h - 1), ImVec2(x1 + 1, plot.y + plot.h + 1),
                  theme::kSelection, 0, 0, 2);
    }
  }
  if (hovered) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    c->hovered = step_bar_at(plot, n, m.x, m.y);
    if (c->hovered >= 0) {
      c->hover_text = hover_text(d, static_cast<size_t>(c->hovered));
      ImGui::SetTooltip("%s", c->hover_text.c_str());
    }
  }
  if (clicked && c->hovered >= 0) {
    c->chosen = c->hovered;
    return c->chosen;
  }
  return -1;
}

std::string step_chart_chosen_step(const StepChart& c) {
  if (c.chosen < 0 || static_cast<size_t>(c.chosen) >= c.data.bars.size()) return {};
  const std::string& name = c.data.bars[static_cast<size_t>(c.chosen)].name;
  const size_t hash = name.rfind('#');
  return hash == std::string::npos ? name : name.substr(hash + 1);
}

std::string step_chart_json(const StepChart& c) {
  const StepChartData& d = c.data;
  std::string o = "{\"bars\":" + std::to_string(d.bars.size()) + ",\"parts\":[";
  for (size_t p = 0; p < d.parts.size(); ++p) {
    o += p ? ",{\"key\":" : "{\"key\":";
    json_append_string(&o, d.parts[p].key);
    o += ",\"label\":";
    json_append_string(&o, d.parts[p].label);
    o += ",\"colour\":";
    json_append_string(&o, hex_colour(part_colour(d.parts[p])));
    o += '}';
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "],\"plot\":[%.1f,%.1f,%.1f,%.1f],\"hovered\":%d,\"chosen\":%d",
                c.plot.x, c.plot.y, c.plot.w, c.plot.h, c.hovered, c.chosen);
  o += buf;
  o += ",\"maxTotal\":";
  json_append_number(&o, d.max_total);
  o += ",\"hoverText\":";
  json_append_string(&o, c.hover_text);
  o += ",\"boxes\":[";
  const size_t n = d.bars.size();
  for (size_t i = 0; i < n && i < kMaxJsonBars; ++i) {
    float x0 = 0, x1 = 0;
    step_bar_x(c.plot, n, i, kMaxBarGap, &x0, &x1);
    std::snprintf(buf, sizeof buf, "%s{\"row\":%d,\"x0\":%.1f,\"x1\":%.1f,\"name\":", i ? "," : "",
                  d.bars[i].row, x0, x1);
    o += buf;
    json_append_string(&o, d.bars[i].name);
    o += ",\"start\":";
    json_append_number(&o, d.bars[i].start_ns);
    o += ",\"duration\":";
    json_append_number(&o, d.bars[i].duration_ns);
    o += ",\"segments\":[";
    const std::vector<BarSegment> segs = step_bar_segments(d, c.plot, i);
    for (size_t k = 0; k < segs.size(); ++k) {
      std::snprintf(buf, sizeof buf, "%s{\"part\":%zu,\"y0\":%.1f,\"y1\":%.1f}", k ? "," : "",
                    segs[k].part, segs[k].y0, segs[k].y1);
      o += buf;
    }
    o += "]}";
  }
  return o + "]}";
}

}  // namespace strata
