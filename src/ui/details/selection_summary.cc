#include "ui/details/selection_summary.h"

#include <algorithm>
#include <cstdlib>

#include "core/formats/json/json_flat.h"
#include "core/view/time_view.h"
#include "imgui.h"
#include "platform/browser/host.h"
#include "protocol/reply_keys.h"
#include "ui/theme.h"
#include "ui/timeline/layout.h"
#include "ui/timeline/timeline.h"

namespace strata {

namespace reply = protocol::keys;

namespace {

// Column widths (CSS px): the numbers are fixed, the name takes the rest of the pane.
constexpr float kCountW = 64, kTimeW = 92;
// Around the longest event of a clicked row, this share of its duration either side.
constexpr double kZoomMargin = 0.1;

enum Column { kName, kCount, kTotal, kSelf, kAvg, kMin, kMax, kColumns };
constexpr const char* kColumnNames[kColumns] = {"Name", "Count", "Total", "Self",
                                                "Avg",  "Min",   "Max"};

double key(const SummaryLine& l, int column) {
  switch (column) {
    case kCount:
      return static_cast<double>(l.count);
    case kTotal:
      return l.total;
    case kSelf:
      return l.self;
    case kAvg:
      return l.avg;
    case kMin:
      return l.min;
    case kMax:
      return l.max;
    default:
      return 0;
  }
}

void sort_lines(SelectionSummary* s) {
  ImGuiTableSortSpecs* sort = ImGui::TableGetSortSpecs();
  if (!sort || sort->SpecsCount == 0) return;
  const ImGuiTableColumnSortSpecs& spec = sort->Specs[0];
  s->sort_column = spec.ColumnIndex;
  s->sort_descending = spec.SortDirection == ImGuiSortDirection_Descending;
  if (!sort->SpecsDirty) return;
  const int c = spec.ColumnIndex;
  const bool asc = !s->sort_descending;
  std::stable_sort(s->lines.begin(), s->lines.end(),
                   [&](const SummaryLine& a, const SummaryLine& b) {
                     if (c == kName) return asc ? a.name < b.name : a.name > b.name;
                     return asc ? key(a, c) < key(b, c) : key(a, c) > key(b, c);
                   });
  sort->SpecsDirty = false;
}

void show_event(const SummaryEvent& e, Timeline* t, const TraceData& d) {
  const double dur = std::max(e.end - e.start, 1.0);
  timeline_set_view(t, e.start - dur * kZoomMargin, e.end + dur * kZoomMargin);
  if (e.track < d.tracks.size()) {
    compute_layout(t, d);
    timeline_scroll_to_row(t, d, e.track, e.depth);
  }
}

// Selects the events of `name` and brings the longest of them into view.
void pick(SelectionSummary* s, Timeline* t, const TraceData& d, const std::string& name) {
  t->selection.clear();
  const SummaryEvent* longest = nullptr;
  for (const SummaryEvent& e : s->events) {
    if (e.name != name) continue;
    t->selection.push_back({e.event, e.start, e.end});
    if (!longest || e.end - e.start > longest->end - longest->start) longest = &e;
  }
  s->picked = name;
  if (!longest) return;
  // The summary stays: the pane keeps listing every name so the next row is one click away.
  host_selection_changed(static_cast<int64_t>(t->selection[0].event));
  show_event(*longest, t, d);
}

void number_cells(const SummaryLine& l) {
  ImGui::TableSetColumnIndex(kCount);
  ImGui::Text("%llu", static_cast<unsigned long long>(l.count));
  const double values[] = {l.total, l.self, l.avg, l.min, l.max};
  for (int c = kTotal; c <= kMax; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TextUnformatted(format_duration(values[c - kTotal]).c_str());
  }
}

}  // namespace

void summary_show_longest(const SelectionSummary& s, Timeline* t, const TraceData& d) {
  const SummaryEvent* longest = nullptr;
  for (const SummaryEvent& e : s.events)
    if (!longest || e.end - e.start > longest->end - longest->start) longest = &e;
  if (longest) show_event(*longest, t, d);
}

void summary_set(SelectionSummary* s, const char* json) {
  s->lines.clear();
  s->events.clear();
  s->picked.clear();
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(json ? json : "{}", &lines, &err)) return;
  std::string section;
  SummaryLine cur;
  SummaryEvent ev;
  bool started = false;
  auto flush = [&] {
    if (!started) return;
    if (section == reply::select::kSummary) s->lines.push_back(cur);
    if (section == reply::select::kEvents) s->events.push_back(ev);
    started = false;
  };
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      flush();
      section = l.key;
      if (l.key == reply::select::kCount) s->count = std::strtoull(l.value.c_str(), nullptr, 10);
    } else if (l.depth == 1) {
      flush();
      cur = SummaryLine{};
      ev = SummaryEvent{};
      started = true;
    } else if (l.depth == 2) {
      const double v = std::strtod(l.value.c_str(), nullptr);
      if (section == reply::select::kSummary) {
        if (l.key == reply::select_summary::kName)
          cur.name = l.value;
        else if (l.key == reply::select_summary::kCount)
          cur.count = static_cast<uint64_t>(v);
        else if (l.key == reply::select_summary::kTotalNs)
          cur.total = v;
        else if (l.key == reply::select_summary::kSelfNs)
          cur.self = v;
        else if (l.key == reply::select_summary::kMinNs)
          cur.min = v;
        else if (l.key == reply::select_summary::kMaxNs)
          cur.max = v;
        else if (l.key == reply::select_summary::kAvgNs)
          cur.avg = v;
      } else if (section == reply::select::kEvents) {
        if (l.key == reply::event::kEvent)
          ev.event = static_cast<uint32_t>(v);
        else if (l.key == reply::event::kStart)
          ev.start = v;
        else if (l.key == reply::event::kEnd)
          ev.end = v;
        else if (l.key == reply::event::kTrack)
          ev.track = static_cast<uint32_t>(v);
        else if (l.key == reply::event::kDepth)
          ev.depth = static_cast<uint32_t>(v);
        else if (l.key == reply::event::kName)
          ev.name = l.value;
      }
    }
  }
  flush();
  SummaryLine& all = s->total;
  all = SummaryLine{};
  all.name = "All (" + std::to_string(s->lines.size()) + " names)";
  for (size_t i = 0; i < s->lines.size(); ++i) {
    const SummaryLine& l = s->lines[i];
    all.count += l.count;
    all.total += l.total;
    all.self += l.self;
    all.min = i ? std::min(all.min, l.min) : l.min;
    all.max = std::max(all.max, l.max);
  }
  all.avg = all.count ? all.total / static_cast<double>(all.count) : 0;
}

void summary_draw(SelectionSummary* s, Timeline* t, const TraceData& d) {
  s->columns.clear();
  s->row_y.clear();
  s->header_y = s->total_y = -1;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Sortable |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("summary", kColumns, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 2);  // the header and the total row stay in view
  ImGui::TableSetupColumn(kColumnNames[kName], ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(kColumnNames[kCount], ImGuiTableColumnFlags_PreferSortDescending,
                          kCountW);
  for (int c = kTotal; c <= kMax; ++c)
    ImGui::TableSetupColumn(kColumnNames[c],
                            ImGuiTableColumnFlags_PreferSortDescending |
                                (c == kTotal ? ImGuiTableColumnFlags_DefaultSort : 0),
                            kTimeW);
  // The header row by hand (as TableHeadersRow does) to note where each column is.
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < kColumns; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (c == 0) s->header_y = at.y;
    s->columns.push_back({kColumnNames[c], at.x, ImGui::GetContentRegionAvail().x});
    ImGui::TableHeader(kColumnNames[c]);
  }
  sort_lines(s);

  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(kName);
  s->total_y = ImGui::GetCursorScreenPos().y;
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kAccentText);
  ImGui::TextUnformatted(s->total.name.c_str());
  number_cells(s->total);
  ImGui::PopStyleColor();

  std::string clicked;
  for (size_t i = 0; i < s->lines.size(); ++i) {
    const SummaryLine& l = s->lines[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(kName);
    s->row_y.push_back(ImGui::GetCursorScreenPos().y);
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(l.name.c_str(), l.name == s->picked, ImGuiSelectableFlags_SpanAllColumns))
      clicked = l.name;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\nClick: select these %llu events, zoom to the longest", l.name.c_str(),
                        static_cast<unsigned long long>(l.count));
    ImGui::PopID();
    number_cells(l);
  }
  ImGui::EndTable();
  if (!clicked.empty()) pick(s, t, d, clicked);
}

}  // namespace strata
