#include "ui/compare/compare_timelines.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "core/base/json_writer.h"
#include "core/view/time_view.h"
#include "platform/browser/host.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_compare_match.h"
#include "ui/theme.h"

namespace strata {

namespace {

constexpr float kBarH = 30;    // the alignment selector's row
constexpr float kModeW = 130;  // its widths
constexpr float kStepW = 110;
constexpr float kEventW = 260;
constexpr float kSideLabelW = 22;  // "A" / "B" over each timeline's name column
constexpr const char* kModeNames[] = {"start", "step", "order", "event"};
constexpr const char* kModeLabels[] = {"Starts", "Step number", "Step order", "First event"};
constexpr int kModes = sizeof(kModeNames) / sizeof(kModeNames[0]);

TimeView shifted(TimeView v, double by) {
  v.start += by;
  v.end += by;
  return v;
}

// Per string id of `d`'s names: 1 for a name in `rows`.
void outline_names(const TraceData& d, const std::vector<CompareRow>& rows,
                   std::vector<uint8_t>* out) {
  std::unordered_set<std::string> names;
  for (const CompareRow& r : rows) names.insert(r.name);
  out->assign(d.names.size(), 0);
  if (names.empty()) return;
  for (size_t i = 0; i < d.names.size(); ++i) (*out)[i] = names.count(d.names[i]) ? 1 : 0;
}

size_t count_set(const std::vector<uint8_t>& v) {
  return static_cast<size_t>(std::count(v.begin(), v.end(), uint8_t{1}));
}

void selector(CompareTimelines* c, const CompareModel& m, float x, float y, float w) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, kBarH));
  ImGui::Begin("##compare_align", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Align A and B on");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(kModeW);
  ImGui::Combo("##alignmode", &c->mode, kModeLabels, kModes);
  const std::string mode = kModeNames[c->mode];
  if (mode == "step" || mode == "order") {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(kStepW);
    ImGui::InputInt(mode == "step" ? "##alignstep" : "##alignorder", &c->step);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(mode == "step" ? "The step number (-1: the first both have)"
                                       : "The step's place in each trace, from 0");
  } else if (mode == "event") {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(kEventW);
    ImGui::InputTextWithHint("##alignevent", "event name", c->event, sizeof c->event);
  }
  ImGui::SameLine();
  if (ImGui::Button("Align")) host_compare_align(mode.c_str(), c->step, c->event);
  ImGui::SameLine();
  // B's time t is drawn at A's time t - offset: a negative offset moves B's slices right.
  const double off = m.alignment.offset_ns;
  const std::string shift = off == 0  ? std::string("B not shifted")
                            : off < 0 ? "B drawn " + format_duration(-off) + " later"
                                      : "B drawn " + format_duration(off) + " earlier";
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kTextDim), "%s; %s",
                     m.alignment.note.c_str(), shift.c_str());
  ImGui::End();
}

void side_label(const char* text, float x, float y) {
  ImGui::GetForegroundDrawList()->AddText(ImVec2(x + 2, y + 2), theme::kAccentText, text);
}

// B's details of one event, from B's engine (the answer: compare_timelines_b_details).
void ask_b_details(CompareTimelines* c, uint32_t event) {
  c->b_details = DetailsPane{};
  c->b_details.event = event;
  c->b_details.waiting = true;
  host_compare_details(event);
}

// B's selection; one event's details are asked of B's engine (several keep their summary).
void set_b_selection(CompareTimelines* c, const std::vector<uint32_t>& events,
                     const std::vector<double>& starts, const std::vector<double>& ends) {
  c->b.selection.clear();
  for (size_t i = 0; i < events.size() && i < starts.size() && i < ends.size(); ++i)
    c->b.selection.push_back({events[i], starts[i], ends[i]});
  if (c->b.selection.size() == 1) ask_b_details(c, c->b.selection[0].event);
}

double field_number(const DetailsPane& p, std::string_view key) {
  for (const JsonLine& l : p.lines)
    if (l.depth == 0 && l.key == key) return std::strtod(l.value.c_str(), nullptr);
  return 0;
}

std::string field_text(const DetailsPane& p, std::string_view key) {
  for (const JsonLine& l : p.lines)
    if (l.depth == 0 && l.key == key) return l.value;
  return "";
}

}  // namespace

void compare_timelines_receive(CompareTimelines* c, const uint8_t* data, size_t n) {
  proto::Header h{};
  if (n < sizeof h) return;
  std::memcpy(&h, data, sizeof h);
  const bool is_track_list = h.type == proto::MsgType::kTrackList;
  if (!c->b_data.apply(data, n)) return;
  if (is_track_list) {
    timeline_reset(&c->b, c->b_data);
    c->b_outline_names = ~size_t{0};  // outlined again for the new B's names
    c->b.name_outline.clear();
  } else {
    timeline_reply_arrived(&c->b, &c->b_data, h.request_id);
  }
}

void compare_timelines_select_answer(CompareTimelines* c, const char* json) {
  std::vector<uint32_t> events;
  std::vector<double> starts, ends;
  c->b_details = DetailsPane{};
  details_set_summary(&c->b_details, json, &events, &starts, &ends);
  set_b_selection(c, events, starts, ends);
}

bool compare_timelines_match_answer(CompareTimelines* c, const char* json) {
  std::string error;
  if (!compare_match_parse(json, &c->match, &error)) return false;
  if (c->match.from_b) return true;  // A's: the App's selection
  c->b_details = DetailsPane{};
  std::vector<uint32_t> events;
  std::vector<double> starts, ends;
  if (c->match.events.size() > 1) details_set_summary(&c->b_details, json, &events, &starts, &ends);
  set_b_selection(c, c->match.events, c->match.starts, c->match.ends);
  compare_timelines_reveal_match(c->match, &c->b, c->b_data);
  return false;
}

void compare_timelines_reveal_match(const CompareMatch& m, Timeline* t, const TraceData& d) {
  if (m.tracks.empty() || m.depths.empty() || m.tracks[0] >= t->layout.track_h.size()) return;
  timeline_scroll_to_row(t, d, m.tracks[0], m.depths[0]);
}

void compare_timelines_b_selection_changed(CompareTimelines* c) {
  c->b.selection_changed = false;
  c->b_details = DetailsPane{};
  if (c->b.selection.size() == 1) ask_b_details(c, c->b.selection[0].event);
}

void compare_timelines_b_details(CompareTimelines* c, int64_t event, const char* json) {
  if (event != c->b_details.event) return;  // B's selection moved on
  details_set(&c->b_details, event, json);
}

void compare_timelines_frame(CompareTimelines* c, const CompareModel& m, const CompareTable& shown,
                             uint64_t result, Timeline* a, const TraceData& a_data, NavKeys* keys,
                             float x, float y, float w, float h, double now_ms, RectBatch* a_batch,
                             RectBatch* b_batch) {
  if (c->seen_result != result) {  // the selector shows what the engine applied last
    c->seen_result = result;
    for (int i = 0; i < kModes; ++i)
      if (m.alignment.mode == kModeNames[i]) c->mode = i;
    c->step = static_cast<int>(m.alignment.step);
    std::snprintf(c->event, sizeof c->event, "%s", m.alignment.event.c_str());
  }
  selector(c, m, x, y, w);
  const float top = y + kBarH;
  const float a_h = std::max(1.0f, (h - kBarH) / 2);
  const float b_y = top + a_h, b_h = std::max(1.0f, h - kBarH - a_h);
  TraceData& bd = c->b_data;
  Timeline& b = c->b;
  b.window_id = "##timeline_b";
  b.ask_hover_details = false;  // B's event indices mean nothing to A's engine

  // Names on one side only: A's removed rows, B's added ones.
  if (c->outline_key != shown.key || c->outline_result != result ||
      c->a_outline_names != a_data.names_received || c->b_outline_names != bd.names_received) {
    c->outline_key = shown.key;
    c->outline_result = result;
    c->a_outline_names = a_data.names_received;
    c->b_outline_names = bd.names_received;
    outline_names(a_data, shown.removed, &c->a_outline);
    outline_names(bd, shown.added, &b.name_outline);
  }

  // One axis: B's relative time = A's + offset. Both move within the union of the two traces
  // (A's own limits come back after the frame, for the Timeline tab).
  const double off = m.alignment.offset_ns;
  const ViewLimits a_own = a->limits;
  ViewLimits both = a_own;
  if (bd.loaded) {
    const ViewLimits b_own = limits_for_extent(bd.extent_ns);
    both.min_time = std::min(a_own.min_time, b_own.min_time - off);
    both.max_time = std::max(a_own.max_time, b_own.max_time - off);
  }
  a->limits = both;
  b.limits = both;
  b.limits.min_time += off;
  b.limits.max_time += off;
  b.ruler_shift = off;

  // The keys go to the timeline under the mouse (A when neither is).
  const bool over_b = ImGui::GetIO().MousePos.y >= b_y;
  NavKeys idle;
  a->name_outline.swap(c->a_outline);
  timeline_frame(a, a_data, bd.loaded && over_b ? &idle : keys, x, top, w, a_h, now_ms, a_batch);
  a->name_outline.swap(c->a_outline);
  side_label("A", x, top);
  if (!bd.loaded) {
    ImGui::GetForegroundDrawList()->AddText(ImVec2(x + kSideLabelW, b_y + 4), theme::kTextDim,
                                            "B's timeline is on its way");
    a->limits = a_own;
    return;
  }
  if (b.has_view) b.view = shifted(a->view, off);
  const TimeView b_before = b.view;
  timeline_frame(&b, bd, over_b ? keys : &idle, x, b_y, w, b_h, now_ms, b_batch);
  side_label("B", x, b_y);
  if (b.view.start != b_before.start || b.view.end != b_before.end)
    a->view = shifted(b.view, -off);  // B was panned or zoomed: A follows
  b.view = shifted(a->view, off);
  a->limits = a_own;
  // A click or drag in B: the App asks B's details and the counterparts in A.
  timeline_request_data(&b, bd, host_compare_post_to_engine);
  timeline_request_overview(&b, &bd, host_compare_post_to_engine);
}

std::string compare_timelines_json(const CompareTimelines& c, const CompareModel& m,
                                   const Timeline& a, const DetailsPane& a_details) {
  namespace k = protocol::keys::compare_alignment;
  std::string o = "{\"bLoaded\":";
  o += c.b_data.loaded ? "true" : "false";
  protocol::append_key(&o, k::kOffsetNs);
  json_append_number(&o, m.alignment.offset_ns);
  auto num = [&](const char* key, double v) {
    o += ",\"";
    o += key;
    o += "\":";
    json_append_number(&o, v);
  };
  num("aStart", a.view.start);
  num("aEnd", a.view.end);
  num("bStart", c.b.view.start);
  num("bEnd", c.b.view.end);
  num("aSelected", static_cast<double>(a.selection.size()));
  num("bSelected", static_cast<double>(c.b.selection.size()));
  // B's first selected event, [start, end] in ns from B's start (0, 0: none).
  num("bSelStart", c.b.selection.empty() ? 0 : c.b.selection[0].start);
  num("bSelEnd", c.b.selection.empty() ? 0 : c.b.selection[0].end);
  num("bSelEvent", c.b.selection.empty() ? -1 : static_cast<double>(c.b.selection[0].event));
  float sx = 0, sy = 0;
  o += ",\"bSelShown\":";
  o += !c.b.selection.empty() && timeline_locate(c.b, c.b_data, c.b.selection[0].event, &sx, &sy)
           ? "true"
           : "false";
  num("aOutlined", static_cast<double>(count_set(c.a_outline)));
  num("bOutlined", static_cast<double>(count_set(c.b.name_outline)));
  num("bTiles", static_cast<double>(c.b.tiles.tiles.size()));
  // Where each events area drew (CSS px), for tests that point at them.
  num("eventsX", a.layout.x0);
  num("eventsW", a.layout.w);
  num("aY", a.layout.y0);
  num("aH", a.layout.h);
  num("bY", c.b.layout.y0);
  num("bH", c.b.layout.h);
  o += ",\"bSettled\":";
  o += timeline_settled(c.b, c.b_data) ? "true" : "false";
  // The last linked selection and the two details panes' events.
  namespace mk = protocol::keys::compare_match;
  const CompareMatch& mt = c.match;
  o += ",\"match\":";
  protocol::append_key(&o, mk::kFrom, '{');
  json_append_string(&o, !mt.asked ? "" : mt.from_b ? "b" : "a");
  o += ",\"kind\":";
  json_append_string(&o, mt.first_kind);
  o += ",\"ordinal\":";
  json_append_number(&o, static_cast<double>(mt.first_ordinal));
  protocol::append_key(&o, mk::kOccurrences);
  json_append_number(&o, mt.occurrences);
  protocol::append_key(&o, mk::kNearest);
  json_append_number(&o, mt.nearest);
  protocol::append_key(&o, mk::kNone);
  json_append_number(&o, mt.none);
  o += ",\"text\":";
  json_append_string(&o, compare_match_text(mt));
  o += '}';
  const bool has_a = a_details.event >= 0 && !a_details.lines.empty() && !a_details.multi;
  const bool has_b = c.b_details.event >= 0 && !c.b_details.lines.empty() && !c.b_details.multi;
  const double a_dur = has_a ? field_number(a_details, protocol::keys::event::kDurNs) : 0;
  const double b_dur = has_b ? field_number(c.b_details, protocol::keys::event::kDurNs) : 0;
  o += ",\"aName\":";
  json_append_string(&o, has_a ? field_text(a_details, protocol::keys::event::kName) : "");
  o += ",\"bName\":";
  json_append_string(&o, has_b ? field_text(c.b_details, protocol::keys::event::kName) : "");
  // The steps' and the rows' names of the same figures.
  protocol::append_key(&o, protocol::keys::compare_steps::kADurNs);
  json_append_number(&o, a_dur);
  protocol::append_key(&o, protocol::keys::compare_steps::kBDurNs);
  json_append_number(&o, b_dur);
  protocol::append_key(&o, protocol::keys::compare_row::kDeltaNs);
  json_append_number(&o, has_a && has_b ? b_dur - a_dur : 0);
  num("bDetailsEvent", static_cast<double>(c.b_details.event));
  return o + "}";
}

}  // namespace strata
