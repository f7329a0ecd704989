// The Memory tab's tables: what was live at the chosen instant (the peak, or a clicked time)
// grouped by operator / shape / region with each group's share, the largest live buffers;
// every allocation of the device (sortable, filterable, unreleased flagged); component peaks.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/base/json_writer.h"
#include "core/view/time_view.h"
#include "imgui.h"
#include "protocol/reply_keys.h"
#include "protocol/worker_messages.h"
#include "ui/memory/memory_view.h"
#include "ui/theme.h"
#include "ui/widgets/table_cells.h"

namespace strata {

namespace {

// The most rows asked for: the buffers live at an instant (largest first), and all of a
// device's allocations.
constexpr int kLiveRows = 200;
constexpr int kAllocsRows = 50000;

// Tables show MiB to 2 decimals (the chart's labels to 1).
std::string mib(double b) { return byte_label(b, ByteUnits::kBinary, 2); }

bool contains_ci(const std::string& s, const char* needle) {
  if (!*needle) return true;
  auto it =
      std::search(s.begin(), s.end(), needle, needle + std::strlen(needle), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
      });
  return it != s.end();
}

constexpr ImGuiTableFlags kTable = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                   ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable |
                                   ImGuiTableFlags_SizingStretchProp;

// Why a device has no allocation rows, or "" when it has some.
std::string allocations_note(const MemoryView& m) {
  const MemoryView::Device& d = m.devices[m.device];
  if (d.allocations > 0) return std::string();
  if (d.no_addr)
    return "No allocation table: this file's [memory] events carry no Addr (PyTorch profilers "
           "before 1.10 did not record it), so an allocation cannot be paired with its free. "
           "The chart shows the running total of their Bytes.";
  return "No allocation table: this source records memory totals only, not the buffers "
         "allocated and freed.";
}

// The XLA program run the instant falls in, and the button to its buffer assignment in the
// Memory Viewer (greyed, with the reason, when the profile has none for it).
void xla_run_line(MemoryView* m) {
  const MemoryView::XlaRun& r = m->live_run;
  m->viewer_button[2] = 0;
  if (!r.valid) return;
  const std::string program = r.program.empty() ? "" : " (program " + r.program + ")";
  const std::string span = memory_time_label(r.start) + " to " + memory_time_label(r.end);
  if (r.during)
    ImGui::Text("In XLA module %s%s on %s, run %s%s%s", r.module.c_str(), program.c_str(),
                r.plane.c_str(), span.c_str(), r.op.empty() ? "" : ", at op ", r.op.c_str());
  else
    ImGui::Text("Before XLA module %s%s on %s (run %s: its buffers are allocated before it starts)",
                r.module.c_str(), program.c_str(), r.plane.c_str(), span.c_str());
  ImGui::SameLine();
  ImGui::BeginDisabled(!r.buffer_assignment);
  if (ImGui::SmallButton("Open in Memory Viewer")) m->open_viewer_request = true;
  ImGui::EndDisabled();
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  m->viewer_button[0] = a.x, m->viewer_button[1] = a.y;
  m->viewer_button[2] = b.x - a.x, m->viewer_button[3] = b.y - a.y;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", !r.buffer_assignment ? r.why.c_str()
                            : r.point >= 0 ? "Its buffer assignment, at the op's program point"
                                           : "Its buffer assignment, at the program's peak");
}

void live_tab(MemoryView* m, MemorySendQuery send) {
  if (std::isnan(m->live_t)) {
    ImGui::TextDisabled("Click the chart to see what was live at that instant.");
    return;
  }
  xla_run_line(m);
  if (!m->allocs_note.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", m->allocs_note.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  m->live_label = "Live at " + memory_time_label(m->live_t) + ": " + std::to_string(m->live_count) +
                  " buffers, " + mib(m->live_bytes);
  ImGui::TextUnformatted(m->live_label.c_str());
  ImGui::SameLine();
  ImGui::TextUnformatted("   group by");
  static const char* kBy[] = {"operator", "shape", "region"};
  for (int i = 0; i < 3; ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(kBy[i], m->live_by == i) && m->live_by != i) {
      m->live_by = i;
      memory_request_live(m, m->live_t, send);
    }
  }
  const float half = ImGui::GetContentRegionAvail().x * 0.5f - 4;
  if (ImGui::BeginTable("##groups", 4, kTable, ImVec2(half, 0))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(kBy[m->live_by], ImGuiTableColumnFlags_WidthStretch, 4);
    ImGui::TableSetupColumn("bytes");
    ImGui::TableSetupColumn("buffers");
    ImGui::TableSetupColumn("share");
    ImGui::TableHeadersRow();
    for (const MemoryView::Group& g : m->live_groups) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      cell_text(g.key, g.before_trace ? theme::kTextDim : 0);
      if (g.before_trace && ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Memory the allocator held when the trace began and had not freed by this instant: "
            "its buffers were allocated before profiling, so no row can name them.");
      ImGui::TableNextColumn();
      cell_number(mib(g.bytes));
      ImGui::TableNextColumn();
      cell_number(g.before_trace ? "-" : std::to_string(g.count));
      ImGui::TableNextColumn();
      ImGui::ProgressBar(static_cast<float>(g.share), ImVec2(-1, 0));
    }
    ImGui::EndTable();
  }
  ImGui::SameLine();
  if (ImGui::BeginTable("##top", 3, kTable, ImVec2(half, 0))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("largest live buffers", ImGuiTableColumnFlags_WidthStretch, 4);
    ImGui::TableSetupColumn("bytes");
    ImGui::TableSetupColumn("allocated at");
    ImGui::TableHeadersRow();
    for (const MemoryView::Alloc& a : m->live_top) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      cell_text(a.name.empty() ? "(unknown)" : a.name);
      ImGui::TableNextColumn();
      cell_number(mib(a.bytes));
      ImGui::TableNextColumn();
      cell_number(memory_time_label(a.alloc_t));
    }
    ImGui::EndTable();
  }
}

void sort_allocs(MemoryView* m, const ImGuiTableSortSpecs* specs) {
  std::vector<uint32_t>& o = m->allocs_order;
  o.clear();
  for (uint32_t i = 0; i < m->allocs.size(); ++i)
    if (contains_ci(m->allocs[i].name, m->filter)) o.push_back(i);
  if (!specs || specs->SpecsCount == 0) return;
  const int col = specs->Specs[0].ColumnIndex;
  const bool asc = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
  auto key = [&](const MemoryView::Alloc& a) {
    switch (col) {
      case 1:
        return a.bytes;
      case 2:
        return a.alloc_t;
      case 3:
        return std::isnan(a.release_t) ? INFINITY : a.release_t;
      case 4:
        return std::isnan(a.release_t) ? INFINITY : a.release_t - a.alloc_t;
      default:
        return 0.0;
    }
  };
  std::stable_sort(o.begin(), o.end(), [&](uint32_t x, uint32_t y) {
    const MemoryView::Alloc &a = m->allocs[x], &b = m->allocs[y];
    if (col == 0) return asc ? a.name < b.name : b.name < a.name;
    return asc ? key(a) < key(b) : key(b) < key(a);
  });
}

void allocs_tab(MemoryView* m, MemorySendQuery send) {
  if (m->allocs_device != m->device) {
    m->allocs_device = m->device;
    m->allocs.clear();
    m->order_dirty = true;
    std::string args;
    protocol::append_key(&args, protocol::memory_args::kDevice, '{');
    json_append_string(&args, m->devices[m->device].name);
    protocol::append_key(&args, protocol::memory_args::kLimit);
    args += std::to_string(kAllocsRows) + '}';
    m->allocs_query = send(protocol::memory_query::kAllocs.data(), args);
  }
  if (!m->allocs_note.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", m->allocs_note.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::SetNextItemWidth(240);
  if (ImGui::InputTextWithHint("##filter", "filter by operator name", m->filter, sizeof m->filter))
    m->order_dirty = true;
  ImGui::SameLine();
  ImGui::TextDisabled(
      "%zu allocations; unreleased ones (still live at the end of the profile) in red",
      m->allocs.size());
  if (!ImGui::BeginTable("##allocs", 5, kTable | ImGuiTableFlags_Sortable)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("operator", ImGuiTableColumnFlags_WidthStretch, 4);
  ImGui::TableSetupColumn(
      "size", ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending);
  ImGui::TableSetupColumn("allocated at");
  ImGui::TableSetupColumn("released at");
  ImGui::TableSetupColumn("duration");
  ImGui::TableHeadersRow();
  ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (specs && (specs->SpecsDirty || m->order_dirty)) {
    sort_allocs(m, specs);
    specs->SpecsDirty = false;
    m->order_dirty = false;
  }
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(m->allocs_order.size()));
  while (clip.Step()) {
    for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
      const MemoryView::Alloc& a = m->allocs[m->allocs_order[static_cast<size_t>(r)]];
      const bool open = std::isnan(a.release_t);
      ImGui::TableNextRow();
      if (open) ImGui::PushStyleColor(ImGuiCol_Text, theme::kErrorText);
      ImGui::TableNextColumn();
      cell_text(a.name.empty() ? "(unknown)" : a.name);
      ImGui::TableNextColumn();
      cell_number(mib(a.bytes));
      ImGui::TableNextColumn();
      cell_number(memory_time_label(a.alloc_t));
      ImGui::TableNextColumn();
      cell_number(open ? "not released" : memory_time_label(a.release_t));
      ImGui::TableNextColumn();
      cell_number(open ? "-" : memory_time_label(a.release_t - a.alloc_t));
      if (open) ImGui::PopStyleColor();
    }
  }
  ImGui::EndTable();
}

void components_tab(MemoryView* m) {
  const MemoryView::Device& d = m->devices[m->device];
  if (!ImGui::BeginTable("##components", 5, kTable)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("component");
  ImGui::TableSetupColumn("peak reserved");
  ImGui::TableSetupColumn("first at");
  ImGui::TableSetupColumn("peak allocated");
  ImGui::TableSetupColumn("samples");
  ImGui::TableHeadersRow();
  for (const MemoryView::Series& s : d.series) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    cell_text(s.component.empty() ? "(total)" : s.component);
    ImGui::TableNextColumn();
    cell_number(std::isnan(s.peak_resv) ? "-" : mib(s.peak_resv));
    ImGui::TableNextColumn();
    cell_number(std::isnan(s.peak_resv) ? "-" : memory_time_label(s.peak_resv_t));
    ImGui::TableNextColumn();
    cell_number(std::isnan(s.peak_alloc) ? "-" : mib(s.peak_alloc));
    ImGui::TableNextColumn();
    cell_number(std::to_string(s.samples));
  }
  ImGui::EndTable();
}

}  // namespace

void memory_request_live(MemoryView* m, double t, MemorySendQuery send) {
  if (m->devices.empty()) return;
  namespace arg = protocol::memory_args;
  static const char* kBy[] = {"operator", "shape", "region"};
  m->live_t = t;
  std::string args;
  protocol::append_key(&args, arg::kDevice, '{');
  json_append_string(&args, m->devices[m->device].name);
  protocol::append_key(&args, arg::kT);
  json_append_number(&args, t);
  protocol::append_key(&args, arg::kBy);
  json_append_string(&args, kBy[m->live_by]);
  protocol::append_key(&args, arg::kLimit);
  args += std::to_string(kLiveRows) + '}';
  m->live_query = send(protocol::memory_query::kLive.data(), args);
}

void memory_tables_draw(MemoryView* m, float x, float y, float w, float h, MemorySendQuery send) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin(
      "##memtables", nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  if (!m->focus_why.empty())  // the Memory Viewer's module asked for is not run here
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s: %s",
                       m->focus_module.c_str(), m->focus_why.c_str());
  if (m->devices.empty()) {
    ImGui::End();
    return;
  }
  m->allocs_note = allocations_note(*m);
  if (ImGui::BeginTabBar("##memtabs")) {
    if (ImGui::BeginTabItem("Live at instant")) {
      live_tab(m, send);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Allocations")) {
      allocs_tab(m, send);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Components")) {
      components_tab(m);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace strata
