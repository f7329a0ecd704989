// The Runs tab's Diff view: two profiles compared, per step time by operator type with the
// cumulative difference, and the operator comparison table.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui.h"
#include "platform/browser/runs_host.h"
#include "ui/runs/runs_diff_axis.h"
#include "ui/runs/runs_view.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {
namespace {

// The accumulated difference's zero line: its colour, faint.
constexpr uint32_t kZeroLineAlpha = 80;
ImU32 faded(ImU32 c) { return (c & 0x00FFFFFFu) | (kZeroLineAlpha << 24); }

constexpr float kAxisW = 76;       // each side's tick labels
constexpr float kAxisBottom = 20;  // the unit under the plot
constexpr int kLineTicks = 4;      // intervals of the accumulated difference's axis

// The profile at a flat (run-major) index, as "run / worker span".
std::string profile_label(const RunDiscovery& d, int flat, int* run, int* profile) {
  int n = 0;
  for (size_t r = 0; r < d.runs.size(); ++r) {
    const int size = static_cast<int>(d.runs[r].profiles.size());
    if (flat < n + size) {
      *run = static_cast<int>(r);
      *profile = flat - n;
      const DiscoveredProfile& p = d.runs[r].profiles[static_cast<size_t>(flat - n)];
      return d.runs[r].name + " / " + p.worker + (p.span.empty() ? "" : " " + p.span);
    }
    n += size;
  }
  *run = *profile = -1;
  return "(none)";
}

bool profile_combo(const char* id, const RunDiscovery& d, int* flat) {
  int run = 0, prof = 0;
  bool changed = false;
  const std::string label = profile_label(d, *flat, &run, &prof);
  ImGui::SetNextItemWidth(320);
  if (ImGui::BeginCombo(id, label.c_str())) {
    int n = 0;
    for (const DiscoveredRun& r : d.runs)
      for (const DiscoveredProfile& p : r.profiles) {
        const std::string l = r.name + " / " + p.worker + (p.span.empty() ? "" : " " + p.span);
        ImGui::PushID(n);
        if (ImGui::Selectable(l.c_str(), n == *flat)) {
          *flat = n;
          changed = true;
        }
        ImGui::PopID();
        ++n;
      }
    ImGui::EndCombo();
  }
  return changed;
}

}  // namespace

void runs_diff_view(RunsView* v, float w, float h) {
  int a = v->diff_a, b = v->diff_b;
  ImGui::TextUnformatted("Baseline");
  ImGui::SameLine();
  bool changed = profile_combo("##diffa", v->discovery, &a);
  ImGui::SameLine();
  ImGui::TextUnformatted("Experiment");
  ImGui::SameLine();
  changed = profile_combo("##diffb", v->discovery, &b) || changed;
  ImGui::SameLine();
  ImGui::TextUnformatted("Step");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120);
  std::string step = v->step;
  if (ImGui::BeginCombo("##diffstep", step.empty() ? "All" : step.c_str())) {
    if (ImGui::Selectable("All", step.empty())) {
      step.clear();
      changed = true;
    }
    for (const std::string& s : v->steps)
      if (ImGui::Selectable(s.c_str(), s == step)) {
        step = s;
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (changed && a >= 0 && b >= 0) {
    int ar, ap, br, bp;
    profile_label(v->discovery, a, &ar, &ap);
    profile_label(v->discovery, b, &br, &bp);
    v->diff_a = a;
    v->diff_b = b;
    v->step = step;
    host_runs_diff(ar, ap, br, bp, step.c_str());
  }
  if (!v->has_diff) {
    ImGui::TextDisabled("Comparing...");
    return;
  }
  // Per operator type: baseline and experiment device time (bars), and the running sum of
  // the difference (line). Clicking a type picks it (highlighted; its row is named below).
  const float chart_h = std::min(260.0f, h * 0.4f);
  ImGui::TextUnformatted("Execution time by operator type (us)");
  runs_legend(theme::kChartSeriesA, "Baseline");
  runs_legend(theme::kChartSeriesB, "Experiment");
  runs_legend(theme::kChartDifference, "Accumulated difference");
  ImGui::NewLine();
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  const float full_w = std::max(100.0f + 2 * kAxisW, w - 20);
  ImGui::InvisibleButton("##diffchart", ImVec2(full_w, chart_h));
  const bool clicked = ImGui::IsItemClicked();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // The plot between a left axis (the bars' time) and a right one (the accumulated line's).
  const ImVec2 o(top_left.x + kAxisW, top_left.y);
  const float cw = full_w - 2 * kAxisW;
  const float plot_h = chart_h - kAxisBottom;
  dl->AddRect(o, ImVec2(o.x + cw, o.y + plot_h), theme::kChartAxis);
  const size_t n = std::min<size_t>(v->step_rows.size(), 40);
  std::vector<double> bars;  // each type's taller bar
  double clo = 0, chi = 0;
  for (size_t i = 0; i < n; ++i) {
    const RunsView::StepRow& r = v->step_rows[i];
    bars.push_back(std::max(runs_or_zero(r.a), runs_or_zero(r.b)));
    clo = std::min(clo, runs_or_zero(r.cumulative));
    chi = std::max(chi, runs_or_zero(r.cumulative));
  }
  if (chi - clo <= 0) chi = clo + 1;
  const DiffAxis axis = diff_bar_axis(bars);
  v->diff_log_scale = axis.log;
  v->diff_bar_ticks.clear();
  v->diff_line_ticks.clear();
  auto ypos = [&](double val) {
    return o.y + plot_h - static_cast<float>(axis.at(val)) * (plot_h - 6);
  };
  auto ycum = [&](double val) {
    return o.y + plot_h - static_cast<float>((val - clo) / (chi - clo)) * (plot_h - 6);
  };
  // Left axis: ticks of the bars' scale; right axis: the accumulated difference's.
  for (double tk : axis.ticks) {
    const float ty = ypos(tk);
    const std::string label = runs_us_short(tk);
    v->diff_bar_ticks.push_back(label);
    dl->AddLine(ImVec2(o.x, ty), ImVec2(o.x + cw, ty), theme::kGrid);
    dl->AddLine(ImVec2(o.x - 4, ty), ImVec2(o.x, ty), theme::kChartAxis);
    dl->AddText(ImVec2(o.x - 6 - ImGui::CalcTextSize(label.c_str()).x, ty - 7), theme::kTextDim,
                label.c_str());
  }
  for (int i = 0; i <= kLineTicks; ++i) {
    const double val = clo + (chi - clo) * i / kLineTicks;
    const float ty = ycum(val);
    const std::string label = runs_us_short(val);
    v->diff_line_ticks.push_back(label);
    dl->AddLine(ImVec2(o.x + cw, ty), ImVec2(o.x + cw + 4, ty), theme::kChartAxis);
    dl->AddText(ImVec2(o.x + cw + 6, ty - 7), theme::kChartDifference, label.c_str());
  }
  const char* unit = axis.log ? "us (log scale: one operator type dominates)" : "us";
  dl->AddText(ImVec2(top_left.x + 2, o.y + plot_h + 4), theme::kTextDim, unit);
  dl->AddLine(ImVec2(o.x, ycum(0)), ImVec2(o.x + cw, ycum(0)), faded(theme::kChartDifference));
  const float slot = n ? cw / static_cast<float>(n) : cw;
  const float y0 = o.y + plot_h;
  ImVec2 prev;
  for (size_t i = 0; i < n; ++i) {
    const RunsView::StepRow& r = v->step_rows[i];
    const float x = o.x + slot * static_cast<float>(i);
    if (static_cast<int>(i) == v->diff_pick)
      dl->AddRectFilled(ImVec2(x, o.y), ImVec2(x + slot, o.y + plot_h), theme::kDragFill);
    const float bw = std::max(1.0f, slot * 0.35f);
    dl->AddRectFilled(ImVec2(x + slot * 0.1f, ypos(runs_or_zero(r.a))),
                      ImVec2(x + slot * 0.1f + bw, y0), theme::kChartSeriesA);
    dl->AddRectFilled(ImVec2(x + slot * 0.5f, ypos(runs_or_zero(r.b))),
                      ImVec2(x + slot * 0.5f + bw, y0), theme::kChartSeriesB);
    const ImVec2 pt(x + slot * 0.5f, ycum(runs_or_zero(r.cumulative)));
    if (i) dl->AddLine(prev, pt, theme::kChartDifference, 2);
    dl->AddCircleFilled(pt, 3, theme::kChartDifference);
    prev = pt;
    if (ImGui::IsMouseHoveringRect(ImVec2(x, o.y), ImVec2(x + slot, o.y + plot_h))) {
      ImGui::SetTooltip("%s\nbaseline %s us\nexperiment %s us\ndifference %s us\naccumulated %s us",
                        r.op_type.c_str(), runs_us(r.a).c_str(), runs_us(r.b).c_str(),
                        runs_us(r.diff).c_str(), runs_us(r.cumulative).c_str());
      if (clicked) v->diff_pick = v->diff_pick == static_cast<int>(i) ? -1 : static_cast<int>(i);
    }
  }
  if (v->diff_pick >= 0 && v->diff_pick < static_cast<int>(n)) {
    const RunsView::StepRow& r = v->step_rows[static_cast<size_t>(v->diff_pick)];
    ImGui::Text("%s: baseline %s us, experiment %s us, difference %s us", r.op_type.c_str(),
                runs_us(r.a).c_str(), runs_us(r.b).c_str(), runs_us(r.diff).c_str());
  }
  // Operator comparison table, column groups switchable.
  const char* groups[] = {"Host Duration", "Self Host Duration", "Device Duration",
                          "Self Device Duration"};
  for (int g = 0; g < 4; ++g) {
    ImGui::Checkbox(groups[g], &v->diff_cols[g]);
    ImGui::SameLine();
  }
  ImGui::NewLine();
  int cols = 2;
  for (bool on : v->diff_cols) cols += on ? 4 : 0;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX;
  if (!ImGui::BeginTable("##opdiff", cols, flags)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("Operator", ImGuiTableColumnFlags_WidthFixed, 260);
  ImGui::TableSetupColumn("Input Shape", ImGuiTableColumnFlags_WidthFixed, 140);
  const char* sub[] = {"Baseline", "Experiment", "Diff", "Ratio"};
  char head[64];
  for (int g = 0; g < 4; ++g) {
    if (!v->diff_cols[g]) continue;
    for (const char* s : sub) {
      std::snprintf(head, sizeof head, "%s %s", groups[g], s);
      ImGui::TableSetupColumn(head, ImGuiTableColumnFlags_WidthFixed, 120);
    }
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(v->op_diff.size()));
  while (clip.Step())
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const RunsView::DiffRow& r = v->op_diff[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      cell_text(r.name);
      ImGui::TableNextColumn();
      cell_text(r.shape);
      for (int g = 0; g < 4; ++g) {
        if (!v->diff_cols[g]) continue;
        for (int k = 0; k < 4; ++k) {
          ImGui::TableNextColumn();
          if (k == 3) {
            if (std::isnan(r.v[g][k])) {
              ImGui::TextDisabled("-");
            } else {
              char ratio[32];
              std::snprintf(ratio, sizeof ratio, "%.3f", r.v[g][k]);
              cell_number(ratio);
            }
          } else {
            cell_us(r.v[g][k]);
          }
        }
      }
    }
  ImGui::EndTable();
}

}  // namespace strata
