#include "ui/details/details_pane.h"

#include <algorithm>
#include <cstdlib>

#include "core/view/time_view.h"
#include "imgui.h"
#include "protocol/reply_keys.h"
#include "ui/graph/graph_link.h"
#include "ui/theme.h"
#include "ui/timeline/colors.h"
#include "ui/timeline/timeline.h"

namespace strata {

namespace reply = protocol::keys;

void details_set(DetailsPane* p, int64_t event, const char* json) {
  p->event = event;
  p->waiting = false;
  p->multi = false;
  p->lines.clear();
  p->error.clear();
  std::string err;
  if (!json_flatten(json ? json : "null", &p->lines, &err)) {
    p->lines.clear();
    p->error = "details unavailable: " + err;
  }
}

void details_set_summary(DetailsPane* p, const char* json, std::vector<uint32_t>* events,
                         std::vector<double>* starts, std::vector<double>* ends) {
  p->summary.clear();
  p->summary_waiting = false;
  p->multi = true;
  std::vector<JsonLine> lines;
  std::string err;
  if (!json_flatten(json ? json : "{}", &lines, &err)) return;
  std::string section;
  SummaryLine cur;
  bool started = false;
  for (const JsonLine& l : lines) {
    if (l.depth == 0) {
      if (section == reply::select::kSummary && started) p->summary.push_back(cur), started = false;
      section = l.key;
      if (l.key == reply::select::kCount)
        p->selection_count = std::strtoull(l.value.c_str(), nullptr, 10);
    } else if (section == reply::select::kSummary && l.depth == 1) {
      if (started) p->summary.push_back(cur);
      cur = SummaryLine{};
      started = true;
    } else if (section == reply::select::kSummary && l.depth == 2) {
      double v = std::strtod(l.value.c_str(), nullptr);
      if (l.key == reply::select_summary::kName)
        cur.name = l.value;
      else if (l.key == reply::select_summary::kCount)
        cur.count = static_cast<uint64_t>(v);
      else if (l.key == reply::select_summary::kTotalNs)
        cur.total = v;
      else if (l.key == reply::select_summary::kMinNs)
        cur.min = v;
      else if (l.key == reply::select_summary::kMaxNs)
        cur.max = v;
      else if (l.key == reply::select_summary::kAvgNs)
        cur.avg = v;
    } else if (section == reply::select::kEvents && l.depth == 2) {
      double v = std::strtod(l.value.c_str(), nullptr);
      if (l.key == reply::event::kEvent)
        events->push_back(static_cast<uint32_t>(v));
      else if (l.key == reply::event::kStart)
        starts->push_back(v);
      else if (l.key == reply::event::kEnd)
        ends->push_back(v);
    }
  }
  if (section == reply::select::kSummary && started) p->summary.push_back(cur);
}

namespace {

const JsonLine* field(const std::vector<JsonLine>& lines, std::string_view key) {
  for (const JsonLine& l : lines)
    if (l.depth == 0 && l.key == key) return &l;
  return nullptr;
}

void row(const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "%s", label);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextUnformatted(value.c_str());
}

// Draws lines[i..] that are deeper than `depth` as a tree; returns the index after them.
size_t draw_tree(const std::vector<JsonLine>& lines, size_t i, uint16_t depth) {
  while (i < lines.size() && lines[i].depth > depth) {
    const JsonLine& l = lines[i];
    if (l.kind == 'o' || l.kind == 'a') {
      ImGui::PushID(static_cast<int>(i));
      bool open =
          ImGui::TreeNodeEx(l.key.c_str(), ImGuiTreeNodeFlags_DefaultOpen, "%s", l.key.c_str());
      ImGui::PopID();
      if (open) {
        i = draw_tree(lines, i + 1, l.depth);
        ImGui::TreePop();
      } else {
        ++i;
        while (i < lines.size() && lines[i].depth > l.depth) ++i;
      }
    } else {
      ImGui::Bullet();
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kAccentText), "%s", l.key.c_str());
      ImGui::SameLine();
      ImGui::TextUnformatted(l.kind == 's' ? ("\"" + l.value + "\"").c_str() : l.value.c_str());
      ++i;
    }
  }
  return i;
}

// Links to related events (parent, children): {event, name, startNs, durNs} objects under a
// depth-0 key, one object or an array of them. Clicking one selects it.
void related(const std::vector<JsonLine>& lines, std::string_view key, Timeline* t,
             int64_t origin) {
  size_t i = 0;
  while (i < lines.size() && !(lines[i].depth == 0 && lines[i].key == key)) ++i;
  if (i == lines.size()) return;
  const bool single = lines[i].kind == 'o';
  const uint16_t field_depth = single ? 1 : 2;
  size_t j = i + 1;
  while (j < lines.size() && lines[j].depth > 0) {
    std::string name, dir;
    double ev = -1, start = 0, dur = 0;
    if (!single) ++j;  // the element's own line
    for (; j < lines.size() && lines[j].depth >= field_depth; ++j) {
      const JsonLine& f = lines[j];
      if (f.depth != field_depth) continue;
      if (f.key == reply::event::kEvent)
        ev = std::strtod(f.value.c_str(), nullptr);
      else if (f.key == reply::event::kName)
        name = f.value;
      else if (f.key == reply::event::kStartNs)
        start = static_cast<double>(std::strtoll(f.value.c_str(), nullptr, 10) - origin);
      else if (f.key == reply::event::kDurNs)
        dur = std::strtod(f.value.c_str(), nullptr);
      else if (f.key == reply::details::kIncoming)
        dir = f.value == "true" ? "from " : "to ";
    }
    if (ev >= 0) {
      ImGui::PushID(static_cast<int>(j));
      std::string label = dir + name + "  (" + format_duration(dur) + ")";
      if (ImGui::SmallButton(label.c_str()))
        timeline_select(t, {static_cast<uint32_t>(ev), start, start + dur}, true);
      ImGui::PopID();
    }
    if (single) break;
  }
}

void draw_summary(DetailsPane* p) {
  ImGui::Text("%llu events selected", static_cast<unsigned long long>(p->selection_count));
  if (p->summary_waiting) {
    ImGui::SameLine();
    ImGui::TextDisabled("(summing...)");
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Sortable |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("summary", 6, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Count");
  ImGui::TableSetupColumn(
      "Total", ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending);
  ImGui::TableSetupColumn("Avg");
  ImGui::TableSetupColumn("Min");
  ImGui::TableSetupColumn("Max");
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* sort = ImGui::TableGetSortSpecs();
      sort && sort->SpecsDirty && sort->SpecsCount > 0) {
    const ImGuiTableColumnSortSpecs& s = sort->Specs[0];
    auto key = [&](const SummaryLine& l) -> double {
      switch (s.ColumnIndex) {
        case 1:
          return static_cast<double>(l.count);
        case 2:
          return l.total;
        case 3:
          return l.avg;
        case 4:
          return l.min;
        case 5:
          return l.max;
        default:
          return 0;
      }
    };
    const bool asc = s.SortDirection == ImGuiSortDirection_Ascending;
    std::stable_sort(p->summary.begin(), p->summary.end(),
                     [&](const SummaryLine& a, const SummaryLine& b) {
                       if (s.ColumnIndex == 0) return asc ? a.name < b.name : a.name > b.name;
                       return asc ? key(a) < key(b) : key(a) > key(b);
                     });
    sort->SpecsDirty = false;
  }
  for (const SummaryLine& l : p->summary) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(l.name.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%llu", static_cast<unsigned long long>(l.count));
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(format_duration(l.total).c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(format_duration(l.avg).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(format_duration(l.min).c_str());
    ImGui::TableSetColumnIndex(5);
    ImGui::TextUnformatted(format_duration(l.max).c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void details_draw(DetailsPane* p, Timeline* t, int64_t origin_ns, float x, float y, float w,
                  float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin("Details", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  if (p->multi) {
    draw_summary(p);
  } else if (p->event < 0) {
    ImGui::TextDisabled("Click an event to see its details; ctrl-click or drag to select several.");
  } else if (p->waiting && p->lines.empty()) {
    ImGui::TextDisabled("Loading details...");
  } else if (!p->error.empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s", p->error.c_str());
  } else {
    auto text = [&](std::string_view k) {
      const JsonLine* l = field(p->lines, k);
      return l ? l->value : std::string();
    };
    int64_t start = std::strtoll(text(reply::event::kStartNs).c_str(), nullptr, 10);
    int64_t dur = std::strtoll(text(reply::event::kDurNs).c_str(), nullptr, 10);
    if (ImGui::BeginTable("fields", 2, ImGuiTableFlags_SizingFixedFit)) {
      row("Name", text(reply::event::kName));
      row("Category", text(reply::event::kCat));
      row("Start", format_tick(static_cast<double>(start - origin_ns), 1) + "   (" +
                       text(reply::event::kStartNs) + " ns)");
      if (text(reply::event::kPhase) != "i") {
        row("End", format_tick(static_cast<double>(start + dur - origin_ns), 1));
        row("Duration", format_duration(static_cast<double>(dur)) + "   (" +
                            text(reply::event::kDurNs) + " ns)");
        if (field(p->lines, reply::details::kSelfNs))
          row("Self time",
              format_duration(std::strtod(text(reply::details::kSelfNs).c_str(), nullptr)));
      }
      row("Process", text(reply::event::kProcess) + "  (pid " + text(reply::event::kPid) + ")");
      row("Thread", text(reply::event::kThread) + "  (tid " + text(reply::event::kTid) + ")");
      ImGui::EndTable();
    }
    if (const JsonLine* parent = field(p->lines, reply::details::kParent);
        parent && parent->kind == 'o') {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "Parent");
      ImGui::SameLine();
      related(p->lines, reply::details::kParent, t, origin_ns);
    }
    if (const JsonLine* fl = field(p->lines, reply::details::kFlows); fl && fl->kind == 'a') {
      // Non-empty when the line after the array is one of its elements.
      const size_t at = static_cast<size_t>(fl - p->lines.data());
      if (at + 1 < p->lines.size() && p->lines[at + 1].depth == 1) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "Flows");
        related(p->lines, reply::details::kFlows, t, origin_ns);
      }
    }
    // Kineto: the kernels and copies an operator launched, through its runtime calls' flows.
    if (const JsonLine* n = field(p->lines, reply::details::kLaunchedCount); n && n->value != "0") {
      ImGui::TextColored(
          ImGui::ColorConvertU32ToFloat4(theme::kTextDim),
          "Launched elsewhere (%s%s): %s in total, over %s",
          text(reply::details::kLaunchedComplete) == "false" ? "at least " : "", n->value.c_str(),
          format_duration(std::strtod(text(reply::details::kLaunchedTotalNs).c_str(), nullptr))
              .c_str(),
          format_duration(std::strtod(text(reply::details::kLaunchedSpanNs).c_str(), nullptr))
              .c_str());
      related(p->lines, reply::details::kLaunched, t, origin_ns);
    }
    if (const JsonLine* c = field(p->lines, reply::details::kChildCount); c && c->value != "0") {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "Children (%s)",
                         c->value.c_str());
      related(p->lines, reply::details::kChildren, t, origin_ns);
    }
    graph_link_button(p->lines);  // an XLA op: "Open in graph viewer"
    // Args: the record's "args" object, as a tree.
    for (size_t i = 0; i < p->lines.size(); ++i) {
      const JsonLine& rec = p->lines[i];
      if (rec.depth != 0 || rec.key != reply::details::kRecord || rec.kind != 'o') continue;
      for (size_t j = i + 1; j < p->lines.size() && p->lines[j].depth > 0; ++j) {
        const JsonLine& a = p->lines[j];
        if (a.depth != 1 || a.key != reply::record::kArgs) continue;
        ImGui::Separator();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "Args");
        if (a.kind == 'o' || a.kind == 'a')
          draw_tree(p->lines, j + 1, a.depth);
        else
          ImGui::TextUnformatted(a.value.c_str());
      }
    }
  }
  ImGui::End();
}

}  // namespace strata
