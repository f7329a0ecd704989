#include "ui/details/details_pane.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/view/time_view.h"
#include "imgui.h"
#include "platform/browser/redraw.h"
#include "protocol/reply_keys.h"
#include "ui/graph/graph_link.h"
#include "ui/theme.h"
#include "ui/timeline/colors.h"
#include "ui/timeline/time_labels.h"
#include "ui/timeline/timeline.h"

namespace strata {

namespace reply = protocol::keys;
namespace {
// The pane's height: a share of the canvas until the user drags its edge, and
// never so tall or short that the timeline or the pane becomes useless.
constexpr float kDefaultShare = 0.28f;
constexpr float kMinH = 120, kDefaultMaxH = 320;
constexpr float kMinDragH = 60;  // the user may drag it smaller than it starts
constexpr float kMinTimelineH = 140;
}  // namespace

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
  p->summary_waiting = false;
  p->multi = true;
  summary_set(&p->summary, json);
  p->selection_count = p->summary.count;
  for (const SummaryEvent& e : p->summary.events) {
    events->push_back(e.event);
    starts->push_back(e.start);
    ends->push_back(e.end);
  }
}

float details_pane_height(const DetailsLayout& l, float canvas_h, float avail) {
  if (l.collapsed) return ImGui::GetFrameHeight();
  const float fallback = std::clamp(canvas_h * kDefaultShare, kMinH, kDefaultMaxH);
  const float h = l.height > 0 ? l.height : fallback;
  return std::clamp(h, kMinDragH, std::max(kMinDragH, avail - kMinTimelineH));
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
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "%s", label);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextUnformatted(value.c_str());
}

// The base the ruler counted from this frame (it draws before the pane).
TimeBase ruler_time_base(const Timeline& t) {
  TimeBase b;
  b.has_base = t.ruler.has_base;
  b.from_mark = t.ruler.base_from_mark;
  b.base = t.ruler.base;
  b.base_text = t.ruler.base_text;
  return b;
}

// A time row: its text, and on hover the absolute time, which a right-click copies.
void time_row(DetailsPane* p, const char* label, const std::string& text, const std::string& abs_ns,
              const std::string& hover) {
  row(label, text);
  p->time_rows.push_back(
      {label, text, abs_ns, ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y});
  if (abs_ns.empty()) return;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s ns (absolute)\n%s\nRight-click to copy", abs_ns.c_str(), hover.c_str());
  ImGui::PushID(label);
  if (ImGui::BeginPopupContextItem("copy")) {
    if (ImGui::MenuItem("Copy absolute time (ns)")) ImGui::SetClipboardText(abs_ns.c_str());
    if (ImGui::MenuItem("Copy as shown")) ImGui::SetClipboardText(text.c_str());
    ImGui::EndPopup();
  }
  ImGui::PopID();
}

// Start and end as offsets from the base the ruler counts from (shown once, first), the
// duration exact; `dur` < 0: an instant, which has a start only.
void time_rows(DetailsPane* p, const Timeline& t, int64_t origin, int64_t start, int64_t dur) {
  const TimeBase b = ruler_time_base(t);
  const EventTimeText tt = event_time_text(b, origin, start, dur < 0 ? 0 : dur);
  const std::string since = format_duration_exact(static_cast<double>(start - origin));
  time_row(p, "Times from", tt.base, absolute_ns_text(origin, b.has_base ? b.base : 0),
           b.has_base ? "the ruler's base" : "the trace's first event");
  time_row(p, "Start", tt.start, tt.start_abs, since + " since the trace start");
  if (dur < 0) return;
  time_row(
      p, "End", tt.end, tt.end_abs,
      format_duration_exact(static_cast<double>(start + dur - origin)) + " since the trace start");
  time_row(p, "Duration", tt.duration + "   (" + std::to_string(dur) + " ns)", "", "");
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

// Where a multi-selection lies, counted from the ruler's base as one event's times are: "from
// @ 1.23 s: +1.2 us .. +5.6 us (4.4 us)". Only when the answer lists every selected event.
void summary_span(DetailsPane* p, const Timeline& t) {
  const std::vector<SummaryEvent>& ev = p->summary.events;
  if (ev.empty() || ev.size() != p->selection_count) return;
  double lo = ev[0].start, hi = ev[0].end;
  for (const SummaryEvent& e : ev) lo = std::min(lo, e.start), hi = std::max(hi, e.end);
  const TimeBase b = ruler_time_base(t);
  const double base = b.has_base ? b.base : 0;
  const std::string text = "from " + time_base_label(b) + ": " + format_offset_exact(lo - base) +
                           " .. " + format_offset_exact(hi - base) + "  (" +
                           format_duration_exact(hi - lo) + ")";
  ImGui::SameLine();
  ImGui::TextDisabled("%s", text.c_str());
  p->time_rows.push_back(
      {"Selection", text, "", ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y});
}

void draw_summary(DetailsPane* p, Timeline* t, const TraceData& d) {
  ImGui::Text("%llu events selected", static_cast<unsigned long long>(p->selection_count));
  if (p->summary_waiting) {
    ImGui::SameLine();
    ImGui::TextDisabled("(summing...)");
  } else {
    summary_span(p, *t);
  }
  summary_draw(&p->summary, t, d);
}

// An XLA op's own block, above the raw args: what it computes (XProf's long_name, the HLO
// expression), its category and the link into its graph first, then its module and costs.
// Where the file names neither expression nor category (GPU), the engine reads them from the
// module's HloProto (record.xla.fromHlo): shown the same, with a tooltip saying so.
void draw_xla(DetailsPane* p) {
  size_t at = 0;
  bool found = false;
  for (size_t i = 0; i < p->lines.size() && !found; ++i) {
    if (p->lines[i].depth != 0 || p->lines[i].key != reply::details::kRecord) continue;
    for (size_t j = i + 1; j < p->lines.size() && p->lines[j].depth > 0; ++j)
      if (p->lines[j].depth == 1 && p->lines[j].key == reply::record::kXla &&
          p->lines[j].kind == 'o') {
        at = j, found = true;
        break;
      }
  }
  if (!found) return;
  // A member of xla (depth 2), or of its object `parent` (depth 3).
  auto value = [&](std::string_view key, std::string_view parent = {}) -> const std::string* {
    bool inside = parent.empty();
    for (size_t j = at + 1; j < p->lines.size() && p->lines[j].depth > 1; ++j) {
      const JsonLine& l = p->lines[j];
      if (!parent.empty() && l.depth == 2) inside = l.key == parent && l.kind == 'o';
      const uint16_t depth = parent.empty() ? 2 : 3;
      if (inside && l.depth == depth && l.key == key && l.kind != 'o') return &l.value;
    }
    return nullptr;
  };
  ImGui::Separator();
  p->xla_y = ImGui::GetCursorScreenPos().y;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "XLA op");
  auto rows = [&](const char* id, auto&& body) {
    if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    body();
    ImGui::EndTable();
  };
  // One row; `from_hlo`: the value came from the module, not the file (a tooltip says so).
  auto xla_row = [&](const char* label, const std::string* v, bool from_hlo) {
    if (!v || v->empty()) return;
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "%s", label);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextWrapped("%s", v->c_str());  // an expression can be long: it wraps, whole
    if (from_hlo && ImGui::IsItemHovered())
      ImGui::SetTooltip("From the HLO module: the profile does not record it");
  };
  // What the op is: the file's stats, else what the module says.
  rows("xla_op", [&] {
    const std::string* op = value("hlo_op");
    xla_row("Op", op ? op : value(reply::xla::kInstruction), false);
    const std::string* expression = value("long_name");
    xla_row("Expression",
            expression ? expression : value(reply::xla::kExpression, reply::xla::kFromHlo),
            !expression);
    const std::string* category = value("hlo_category");
    xla_row("Category", category ? category : value(reply::xla::kCategory, reply::xla::kFromHlo),
            !category);
  });
  p->graph_link_y = ImGui::GetCursorScreenPos().y;
  graph_link_button(p->lines);  // "Open in graph viewer"
  // Label, stat: in the order a reader wants them (XProf's op details put these first).
  static constexpr const char* kRows[][2] = {
      {"Module", reply::xla::kHloModule.data()},
      {"Program", "program_id"},
      {"FLOPs", "flops"},
      {"Bytes accessed", "bytes_accessed"},
      {"Shape", "shape_with_layout"},
      {"Source", "source"},
      {"TF op", "tf_op"},
  };
  rows("xla", [&] {
    for (const auto& r : kRows) {
      const std::string* v = value(r[1]);
      // A GPU op naming only its module: the program its name resolved to.
      if (!v && std::string_view(r[1]) == "program_id")
        v = value(reply::xla::kProgramId, reply::xla::kGraph);
      xla_row(r[0], v, false);
    }
  });
}

// The top edge (the title bar) drags to resize the pane; dragging a collapsed pane opens it.
void drag_edge(DetailsLayout* l) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 m = io.MousePos;
  // The collapse arrow sits at the title bar's left end: it keeps its click.
  const bool over = m.x >= l->x + l->title_h && m.x < l->x + l->w && m.y >= l->y &&
                    m.y < l->y + l->title_h && ImGui::IsWindowHovered();
  if (over || l->dragging) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
  if (over && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    l->dragging = true;
    l->drag_offset = m.y - l->y;
  }
  if (!l->dragging) return;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    l->dragging = false;
    return;
  }
  const float bottom = l->y + l->h;
  const float height = bottom - (m.y - l->drag_offset);
  if (std::abs(height - l->h) >= 1) {
    l->height = std::max(kMinDragH, height);
    l->collapsed = false;
  }
}

}  // namespace

void details_draw(DetailsPane* p, DetailsLayout* l, Timeline* t, const TraceData& d,
                  int64_t origin_ns, float x, float y, float w, float h, const char* title) {
  p->xla_y = p->graph_link_y = p->args_y = -1;
  p->time_rows.clear();
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::SetNextWindowCollapsed(l->collapsed);
  const bool open = ImGui::Begin(
      title, nullptr,
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings);
  const bool was_collapsed = l->collapsed;
  const float was_height = l->height;
  l->collapsed = ImGui::IsWindowCollapsed();  // the title bar's arrow (or a double click)
  l->x = x, l->y = y, l->w = w, l->h = h;
  l->title_h = ImGui::GetFrameHeight();
  drag_edge(l);
  // The layout follows next frame: ask for it, as nothing else may.
  if (l->collapsed != was_collapsed || l->height != was_height) request_redraw();
  if (!open) {
    ImGui::End();
    return;
  }
  if (p->multi) {
    draw_summary(p, t, d);
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
    const int64_t start = std::strtoll(text(reply::event::kStartNs).c_str(), nullptr, 10);
    const int64_t dur = std::strtoll(text(reply::event::kDurNs).c_str(), nullptr, 10);
    if (ImGui::BeginTable("fields", 2, ImGuiTableFlags_SizingFixedFit)) {
      row("Name", text(reply::event::kName));
      row("Category", text(reply::event::kCat));
      time_rows(p, *t, origin_ns, start, text(reply::event::kPhase) == "i" ? -1 : dur);
      if (text(reply::event::kPhase) != "i" && field(p->lines, reply::details::kSelfNs))
        row("Self time",
            format_duration_exact(std::strtod(text(reply::details::kSelfNs).c_str(), nullptr)));
      row("Process", text(reply::event::kProcess) + "  (pid " + text(reply::event::kPid) + ")");
      row("Thread", text(reply::event::kThread) + "  (tid " + text(reply::event::kTid) + ")");
      ImGui::EndTable();
    }
    draw_xla(p);  // an XLA op: expression, category, graph link
    if (const JsonLine* parent = field(p->lines, reply::details::kParent);
        parent && parent->kind == 'o') {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "Parent");
      ImGui::SameLine();
      related(p->lines, reply::details::kParent, t, origin_ns);
    }
    if (const JsonLine* fl = field(p->lines, reply::details::kFlows); fl && fl->kind == 'a') {
      // Non-empty when the line after the array is one of its elements.
      const size_t at = static_cast<size_t>(fl - p->lines.data());
      if (at + 1 < p->lines.size() && p->lines[at + 1].depth == 1) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "Flows");
        related(p->lines, reply::details::kFlows, t, origin_ns);
      }
    }
    // Kineto: the kernels and copies an operator launched, through its runtime calls' flows.
    if (const JsonLine* n = field(p->lines, reply::details::kLaunchedCount); n && n->value != "0") {
      ImGui::TextColored(
          ImGui::ColorConvertU32ToFloat4(theme::kLabelDim),
          "Launched elsewhere (%s%s): %s in total, over %s",
          text(reply::details::kLaunchedComplete) == "false" ? "at least " : "", n->value.c_str(),
          format_duration(std::strtod(text(reply::details::kLaunchedTotalNs).c_str(), nullptr))
              .c_str(),
          format_duration(std::strtod(text(reply::details::kLaunchedSpanNs).c_str(), nullptr))
              .c_str());
      related(p->lines, reply::details::kLaunched, t, origin_ns);
    }
    if (const JsonLine* c = field(p->lines, reply::details::kChildCount); c && c->value != "0") {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "Children (%s)",
                         c->value.c_str());
      related(p->lines, reply::details::kChildren, t, origin_ns);
    }
    // Why there are no args (a lazy bundle whose source is not served beside it).
    if (const JsonLine* note = field(p->lines, reply::details::kRecordNote)) {
      ImGui::Separator();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "%s",
                         note->value.c_str());
    }
    // Args: the record's "args" object, as a tree.
    for (size_t i = 0; i < p->lines.size(); ++i) {
      const JsonLine& rec = p->lines[i];
      if (rec.depth != 0 || rec.key != reply::details::kRecord || rec.kind != 'o') continue;
      for (size_t j = i + 1; j < p->lines.size() && p->lines[j].depth > 0; ++j) {
        const JsonLine& a = p->lines[j];
        if (a.depth != 1 || a.key != reply::record::kArgs) continue;
        ImGui::Separator();
        p->args_y = ImGui::GetCursorScreenPos().y;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kLabelDim), "Args");
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
