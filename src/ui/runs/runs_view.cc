#include "ui/runs/runs_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>

#include "imgui.h"
#include "platform/browser/runs_host.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {
namespace {

constexpr float kSideW = 260;

// Sorts `order` (row indices) by the table's sort column: `key(row, column)` gives a number,
// `text(row, column)` a string for text columns (key returns NaN there).
void sort_rows(std::vector<int>* order, size_t n, const ImGuiTableSortSpecs* specs,
               const std::function<double(int, int)>& key,
               const std::function<const std::string*(int, int)>& text) {
  if (order->size() != n) {
    order->resize(n);
    std::iota(order->begin(), order->end(), 0);
  }
  if (!specs || specs->SpecsCount == 0) return;
  const int col = specs->Specs[0].ColumnIndex;
  const bool asc = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
  std::stable_sort(order->begin(), order->end(), [&](int a, int b) {
    const std::string* ta = text(a, col);
    if (ta) {
      const std::string* tb = text(b, col);
      return asc ? *ta < *tb : *tb < *ta;
    }
    const double ka = key(a, col), kb = key(b, col);
    return asc ? ka < kb : kb < ka;
  });
}

// The next cell: µs, right-aligned and shortened until it fits.
void next_us(double us) {
  ImGui::TableNextColumn();
  cell_us(us);
}

// The next cell: a count.
void next_count(double n) {
  ImGui::TableNextColumn();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", n);
  cell_number(buf);
}

// A selector click: the UI's selection changes at once, then the page fetches what it shows.
void pick(RunsView* v, int run, int profile, int view) {
  runs_view_select(v, run, profile, view);
  v->status.clear();
  host_runs_select(v->run, v->profile, v->view);
}

void selectors(RunsView* v, float x, float y, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(kSideW, h));
  ImGui::Begin(
      "##runs_side", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::Button("Open folder...")) host_open_folder_picker();
  ImGui::Separator();
  const auto& runs = v->discovery.runs;
  if (runs.empty()) {
    ImGui::TextWrapped(
        "Open or drop a profiler folder: runs of <worker>_<span>_ascend_pt/"
        "ASCEND_PROFILER_OUTPUT directories, or of *.pt.trace.json[.gz] files.");
    ImGui::End();
    return;
  }
  const DiscoveredRun& run = runs[static_cast<size_t>(v->run)];
  const DiscoveredProfile& prof = run.profiles[static_cast<size_t>(v->profile)];
  ImGui::TextDisabled("Runs (%zu)", runs.size());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##run", run.name.c_str())) {
    for (size_t i = 0; i < runs.size(); ++i)
      if (ImGui::Selectable(runs[i].name.c_str(), static_cast<int>(i) == v->run))
        pick(v, static_cast<int>(i), 0, v->view);
    ImGui::EndCombo();
  }
  ImGui::TextDisabled("Views");
  for (int i = 0; i < kRunViewCount; ++i) {
    const ViewAvailability a = run_view_availability(
        v->discovery, run, static_cast<size_t>(v->profile), static_cast<RunView>(i));
    if (!a.enabled) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.5f, 0.5f, 0.5f, 1));
    if (ImGui::Selectable(run_view_name(static_cast<RunView>(i)), v->view == i))
      pick(v, v->run, v->profile, i);
    if (!a.enabled) {
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", a.note.c_str());
    }
  }
  ImGui::TextDisabled("Workers");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##worker", prof.worker.c_str())) {
    for (const std::string& w : run.workers)
      if (ImGui::Selectable(w.c_str(), w == prof.worker)) {
        const std::vector<std::string> spans = run_worker_spans(run, w);
        pick(v, v->run, run_find_profile(run, w, spans.front()), v->view);
      }
    ImGui::EndCombo();
  }
  ImGui::TextDisabled("Spans");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##span", prof.span.empty() ? "(none)" : prof.span.c_str())) {
    for (const std::string& s : run_worker_spans(run, prof.worker))
      if (ImGui::Selectable(s.empty() ? "(none)" : s.c_str(), s == prof.span))
        pick(v, v->run, run_find_profile(run, prof.worker, s), v->view);
    ImGui::EndCombo();
  }
  ImGui::Separator();
  ImGui::TextDisabled("Files");
  // The files as named in the folder (a Kineto profile's trace is its *.pt.trace.json).
  for (int f = 0; f < kRunFileCount; ++f) {
    if (prof.file[f] < 0 || static_cast<size_t>(prof.file[f]) >= v->paths.size()) continue;
    const std::string& p = v->paths[static_cast<size_t>(prof.file[f])];
    const size_t slash = p.find_last_of('/');
    ImGui::BulletText("%s", slash == std::string::npos ? p.c_str() : p.c_str() + slash + 1);
  }
  if (!prof.note.empty()) ImGui::TextWrapped("%s", prof.note.c_str());
  ImGui::End();
}

}  // namespace

void runs_operator_view(RunsView* v, float w, float h) {
  if (!v->has_ops) {
    ImGui::TextDisabled("Reading operator_details...");
    return;
  }
  ImGui::TextUnformatted("Group By");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(220);
  const char* groups[] = {"Operator", "Operator + Input Shape"};
  int g = v->group_by_shape ? 1 : 0;
  if (ImGui::Combo("##group", &g, groups, 2)) {
    v->group_by_shape = g == 1;
    host_runs_group_by_shape(v->group_by_shape);
  }
  const float pie_w = (w - 24) / 4, pie_h = std::min(220.0f, h * 0.35f);
  struct Pie {
    const char* id;
    const char* title;
    double RunsView::Op::*field;
  };
  const Pie pies[] = {{"##p0", "Device Self Time", &RunsView::Op::device_self},
                      {"##p1", "Device Total Time", &RunsView::Op::device_total},
                      {"##p2", "Host Self Time", &RunsView::Op::host_self},
                      {"##p3", "Host Total Time", &RunsView::Op::host_total}};
  for (int i = 0; i < 4; ++i) {
    std::vector<PieSlice> slices;
    for (const RunsView::Op& o : v->ops)
      slices.push_back({o.shape.empty() ? o.name : o.name + " " + o.shape, o.*pies[i].field});
    if (i) ImGui::SameLine();
    runs_pie(pies[i].id, pies[i].title, std::move(slices), 10, pie_w, pie_h);
  }
  const int cols = v->group_by_shape ? 12 : 11;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("##ops", cols, flags, ImVec2(0, 0))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
  if (v->group_by_shape) ImGui::TableSetupColumn("Input Shape");
  ImGui::TableSetupColumn("Calls");
  ImGui::TableSetupColumn("Device Self (us)", ImGuiTableColumnFlags_DefaultSort |
                                                  ImGuiTableColumnFlags_PreferSortDescending);
  ImGui::TableSetupColumn("Device Total (us)");
  ImGui::TableSetupColumn("Host Self (us)");
  ImGui::TableSetupColumn("Host Total (us)");
  ImGui::TableSetupColumn("AI Core Eligible");
  ImGui::TableSetupColumn("AI Core Self %");
  ImGui::TableSetupColumn("AI Core Total %");
  ImGui::TableSetupColumn("Call Stack", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("##pad", ImGuiTableColumnFlags_NoSort);
  ImGui::TableHeadersRow();
  ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  const int shift = v->group_by_shape ? 0 : 1;  // column index as if the shape column existed
  if (specs && (specs->SpecsDirty || !v->ops_sorted)) {
    sort_rows(
        &v->ops_order, v->ops.size(), specs,
        [&](int r, int c) {
          const RunsView::Op& o = v->ops[static_cast<size_t>(r)];
          switch (c + shift) {
            case 2:
              return o.calls;
            case 3:
              return o.device_self;
            case 4:
              return o.device_total;
            case 5:
              return o.host_self;
            case 6:
              return o.host_total;
            case 7:
              return o.ai_eligible ? 1.0 : 0.0;
            case 8:
              return std::isnan(o.ai_self_pct) ? -1 : o.ai_self_pct;
            case 9:
              return std::isnan(o.ai_total_pct) ? -1 : o.ai_total_pct;
          }
          return 0.0;
        },
        [&](int r, int c) -> const std::string* {
          if (c == 0) return &v->ops[static_cast<size_t>(r)].name;
          if (c + shift == 1) return &v->ops[static_cast<size_t>(r)].shape;
          return nullptr;
        });
    specs->SpecsDirty = false;
    v->ops_sorted = true;
  }
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(v->ops_order.size()));
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const int r = v->ops_order[static_cast<size_t>(i)];
      const RunsView::Op& o = v->ops[static_cast<size_t>(r)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      cell_text(o.name);
      if (v->group_by_shape) {
        ImGui::TableNextColumn();
        cell_text(o.shape);
      }
      next_count(o.calls);
      next_us(o.device_self);
      next_us(o.device_total);
      next_us(o.host_self);
      next_us(o.host_total);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(o.ai_eligible ? "Yes" : "No");
      ImGui::TableNextColumn();
      if (std::isnan(o.ai_self_pct))
        ImGui::TextDisabled("-");
      else
        ImGui::Text("%.2f", o.ai_self_pct);
      ImGui::TableNextColumn();
      if (std::isnan(o.ai_total_pct))
        ImGui::TextDisabled("-");
      else
        ImGui::Text("%.2f", o.ai_total_pct);
      ImGui::TableNextColumn();
      ImGui::PushID(r);
      if (o.stacks.empty())
        ImGui::TextDisabled("-");
      else if (ImGui::SmallButton("View CallStack"))
        v->stacks_of = r;
      ImGui::PopID();
      ImGui::TableNextColumn();
    }
  }
  ImGui::EndTable();
  if (v->stacks_of >= 0 && v->stacks_of < static_cast<int>(v->ops.size())) {
    ImGui::OpenPopup("Call stacks");
    bool open = true;
    ImGui::SetNextWindowSize(ImVec2(std::min(900.0f, w), std::min(500.0f, h)), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Call stacks", &open)) {
      const RunsView::Op& o = v->ops[static_cast<size_t>(v->stacks_of)];
      ImGui::Text("%s %s", o.name.c_str(), o.shape.c_str());
      for (const auto& [stack, count] : o.stacks) {
        ImGui::Separator();
        ImGui::Text("%.0f calls", count);
        ImGui::TextUnformatted(stack.c_str());
      }
      ImGui::EndPopup();
    }
    if (!open) v->stacks_of = -1;
  }
}

void runs_kernel_view(RunsView* v, float w, float h) {
  if (!v->has_kernels) {
    ImGui::TextDisabled("Reading kernel_details...");
    return;
  }
  const float pie_w = (w - 12) / 2, pie_h = std::min(240.0f, h * 0.38f);
  std::vector<PieSlice> top, cores;
  for (const RunsView::Kernel& k : v->kernels) top.push_back({k.name, k.total});
  for (const RunsView::Kernel& k : v->core_types) cores.push_back({k.name, k.total});
  runs_pie("##ktop", "Total Time (us) of top kernels", std::move(top), 10, pie_w, pie_h);
  ImGui::SameLine();
  runs_pie("##kcore", "Time per Accelerator Core", std::move(cores), 10, pie_w, pie_h);
  int mode = v->kernel_by_statistic ? 1 : 0;
  ImGui::RadioButton("Group By All", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("Group By Statistic", &mode, 1);
  v->kernel_by_statistic = mode == 1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable;
  if (v->kernel_by_statistic) {
    if (!ImGui::BeginTable("##kstat", 7, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("Accelerator Core");
    ImGui::TableSetupColumn("Count");
    ImGui::TableSetupColumn("Total (us)", ImGuiTableColumnFlags_DefaultSort |
                                              ImGuiTableColumnFlags_PreferSortDescending);
    ImGui::TableSetupColumn("Avg (us)");
    ImGui::TableSetupColumn("Min (us)");
    ImGui::TableSetupColumn("Max (us)");
    ImGui::TableHeadersRow();
    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    if (specs && (specs->SpecsDirty || !v->kernels_sorted)) {
      sort_rows(
          &v->kernels_order, v->kernels.size(), specs,
          [&](int r, int c) {
            const RunsView::Kernel& k = v->kernels[static_cast<size_t>(r)];
            const double vals[] = {0, 0, k.count, k.total, k.avg, k.min, k.max};
            return vals[c];
          },
          [&](int r, int c) -> const std::string* {
            if (c == 0) return &v->kernels[static_cast<size_t>(r)].name;
            if (c == 1) return &v->kernels[static_cast<size_t>(r)].core_type;
            return nullptr;
          });
      specs->SpecsDirty = false;
      v->kernels_sorted = true;
    }
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(v->kernels_order.size()));
    while (clip.Step())
      for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
        const RunsView::Kernel& k =
            v->kernels[static_cast<size_t>(v->kernels_order[static_cast<size_t>(i)])];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        cell_text(k.name);
        ImGui::TableNextColumn();
        cell_text(k.core_type);
        next_count(k.count);
        next_us(k.total);
        next_us(k.avg);
        next_us(k.min);
        next_us(k.max);
      }
    ImGui::EndTable();
    return;
  }
  if (v->details_total > static_cast<double>(v->details.size()))
    ImGui::TextDisabled("first %zu of %.0f kernel executions", v->details.size(), v->details_total);
  if (!ImGui::BeginTable("##kall", 8, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Step");
  ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Type");
  ImGui::TableSetupColumn("Accelerator Core");
  ImGui::TableSetupColumn("Start Time (us)");
  ImGui::TableSetupColumn("Duration (us)");
  ImGui::TableSetupColumn("Wait Time (us)");
  ImGui::TableSetupColumn("Block Dim");
  ImGui::TableHeadersRow();
  ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (specs && (specs->SpecsDirty || !v->details_sorted)) {
    sort_rows(
        &v->details_order, v->details.size(), specs,
        [&](int r, int c) {
          const RunsView::Detail& d = v->details[static_cast<size_t>(r)];
          const double vals[] = {0, 0, 0, 0, d.start, d.duration, d.wait, d.block_dim};
          return vals[c];
        },
        [&](int r, int c) -> const std::string* {
          const RunsView::Detail& d = v->details[static_cast<size_t>(r)];
          if (c == 0) return &d.step;
          if (c == 1) return &d.name;
          if (c == 2) return &d.type;
          if (c == 3) return &d.core_type;
          return nullptr;
        });
    specs->SpecsDirty = false;
    v->details_sorted = true;
  }
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(v->details_order.size()));
  while (clip.Step())
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const RunsView::Detail& d =
          v->details[static_cast<size_t>(v->details_order[static_cast<size_t>(i)])];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      cell_text(d.step);
      ImGui::TableNextColumn();
      cell_text(d.name);
      ImGui::TableNextColumn();
      cell_text(d.type);
      ImGui::TableNextColumn();
      cell_text(d.core_type);
      next_us(d.start);
      next_us(d.duration);
      next_us(d.wait);
      if (std::isnan(d.block_dim)) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("-");
      } else {
        next_count(d.block_dim);
      }
    }
  ImGui::EndTable();
}

void runs_view_frame(RunsView* v, float x, float y, float w, float h) {
  selectors(v, x, y, h);
  ImGui::SetNextWindowPos(ImVec2(x + kSideW, y));
  ImGui::SetNextWindowSize(ImVec2(w - kSideW, h));
  ImGui::Begin(
      "##runs_main", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const float cw = w - kSideW - 16, ch = h - 16;
  if (!v->discovery.runs.empty()) {
    const DiscoveredRun& run = v->discovery.runs[static_cast<size_t>(v->run)];
    const RunView view = static_cast<RunView>(v->view);
    const ViewAvailability a =
        run_view_availability(v->discovery, run, static_cast<size_t>(v->profile), view);
    if (!v->status.empty())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccentText), "%s",
                         v->status.c_str());
    if (!a.enabled) {
      ImGui::TextDisabled("%s: %s", run_view_name(view), a.note.c_str());
    } else {
      switch (view) {
        case RunView::kOperator:
          runs_operator_view(v, cw, ch);
          break;
        case RunView::kKernel:
          runs_kernel_view(v, cw, ch);
          break;
        case RunView::kDistributed:
          runs_distributed_view(v, cw, ch);
          break;
        case RunView::kDiff:
          runs_diff_view(v, cw, ch);
          break;
        case RunView::kTrace:
        case RunView::kMemory:
          ImGui::TextDisabled("Opening the profile in the %s tab...",
                              view == RunView::kTrace ? "Timeline" : "Memory");
          break;
      }
    }
  }
  ImGui::End();
}

}  // namespace strata
