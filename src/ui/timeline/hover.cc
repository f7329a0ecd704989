#include "ui/timeline/hover.h"

#include <algorithm>
#include <cstdio>

#include "core/formats/json/json_flat.h"
#include "core/view/time_view.h"
#include "imgui.h"
#include "protocol/reply_keys.h"
#include "ui/labels.h"
#include "ui/timeline/layout.h"
#include "ui/timeline/tiles.h"

namespace strata {

namespace reply = protocol::keys;

std::string counter_value_label(const UiSeries& se, double v) {
  if (se.in_bytes) return byte_label(v, ByteUnits::kBinary, 2);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

HoverDetails hover_details_from_json(uint32_t event, const char* json) {
  HoverDetails h;
  h.event = event;
  std::vector<JsonLine> lines;
  std::string error;
  json_flatten(json ? json : "null", &lines, &error);
  json_walk(lines, [&](const std::vector<std::string>& keys, const JsonLine& l) {
    if (l.depth == 0 && l.key == reply::event::kCat) h.cat = l.value;
    if (l.depth == 0 && l.key == reply::details::kSelfNs && l.kind == 'n')
      h.self_ns = json_number(l);
    if (l.depth == 2 && keys[0] == reply::details::kRecord && keys[1] == reply::record::kArgs &&
        h.args.size() < kTooltipArgs)
      h.args.emplace_back(l.key, l.kind == 'o'   ? std::string("{...}")
                                 : l.kind == 'a' ? std::string("[...]")
                                 : l.kind == 'z' ? std::string("null")
                                                 : l.value);
  });
  return h;
}

std::vector<std::string> slice_tooltip_lines(const std::string& name, double dur_ns,
                                             const HoverDetails* details) {
  std::vector<std::string> out;
  out.push_back(name);
  out.push_back("Duration: " + format_duration(dur_ns));
  if (!details) {
    out.push_back("...");
    return out;
  }
  if (details->self_ns >= 0) out.push_back("Self time: " + format_duration(details->self_ns));
  if (!details->cat.empty()) out.push_back("Category: " + details->cat);
  for (const auto& a : details->args) {
    // One line each: line breaks and tabs in a value (call stacks, shape lists) become spaces.
    std::string v;
    for (char c : a.second) {
      const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
      if (!(space && (v.empty() || v.back() == ' '))) v += space ? ' ' : c;
    }
    if (v.size() > kTooltipArgChars) v = v.substr(0, kTooltipArgChars - 3) + "...";
    out.push_back(a.first + ": " + v);
  }
  return out;
}

std::vector<std::string> folded_tooltip_lines(uint32_t count, double start, double end,
                                              uint32_t busy_permille) {
  char busy[32];
  std::snprintf(busy, sizeof busy, "%.0f%% busy", busy_permille / 10.0);
  return {std::to_string(count) + (count == 1 ? " event" : " events"),
          "Span: " + format_duration(end - start) + ", " + busy, "Click to zoom in"};
}

namespace {

// The counter values of one track at relative time `at`, from the tiles drawn.
std::vector<std::string> counter_lines(const Timeline& t, const TraceData& d, uint32_t track,
                                       double at) {
  std::vector<std::string> out;
  out.push_back(d.tracks[track].name);
  std::vector<TileSegment> plan;
  plan_tiles(t.tiles, timeline_tile_level(t), t.view.start, t.view.end, &plan);
  const ViewReply* v = nullptr;
  for (const TileSegment& g : plan)
    if (at >= g.a && at <= g.b) v = g.tile ? &g.tile->data : d.overview.valid ? &d.overview : v;
  if (!v) return out;
  const UiTrack& tr = d.tracks[track];
  for (uint32_t k = 0; k < tr.series_count; ++k) {
    const uint32_t si = tr.first_series + k;
    const proto::BucketEntry* in_force = nullptr;
    for (const proto::BucketEntry& b : v->buckets)
      if (b.series == si && b.start <= at) in_force = &b;  // buckets are in time order
    if (!in_force || si >= d.series.size()) continue;
    const UiSeries& se = d.series[si];
    std::string line = (se.name.empty() ? std::string("value") : se.name) + ": " +
                       counter_value_label(se, in_force->last);
    if (in_force->max > in_force->min)
      line += "  (" + counter_value_label(se, in_force->min) + " .. " +
              counter_value_label(se, in_force->max) + " here)";
    out.push_back(line);
  }
  return out;
}

}  // namespace

void timeline_hover_tooltip(Timeline* t, const TraceData& d, float mx, float my, bool over_events,
                            const proto::SliceEntry* hit) {
  TooltipState& tip = t->tooltip;
  if (over_events && hit && hit->event == kNone) {
    tip.kind = "folded";
    tip.lines = folded_tooltip_lines(hit->count, hit->start, hit->end, hit->busy_permille);
  } else if (over_events && hit) {
    tip.kind = "slice";
    if (t->hover_event != hit->event) t->hover_event = hit->event;
    const HoverDetails* det = t->hover_details.event == hit->event ? &t->hover_details : nullptr;
    tip.lines = slice_tooltip_lines(d.name(hit->name), hit->end - hit->start, det);
  } else if (over_events) {
    uint32_t track, depth;
    if (row_at(*t, d, my, &track, &depth) && d.tracks[track].kind == 1) {
      tip.kind = "counter";
      tip.lines = counter_lines(*t, d, track, px_to_time(t->view, mx - t->layout.x0, t->layout.w));
    }
  }
  if (!hit) t->hover_event = kNone;
  if (tip.kind.empty()) return;
  ImGui::BeginTooltip();
  for (size_t i = 0; i < tip.lines.size(); ++i) {
    if (i == 0)
      ImGui::TextUnformatted(tip.lines[i].c_str());
    else
      ImGui::TextDisabled("%s", tip.lines[i].c_str());
  }
  ImGui::EndTooltip();
}

void timeline_hover_details(Timeline* t, uint32_t event, const char* json) {
  if (t->hover_in_flight == event) t->hover_in_flight = kNone;
  t->hover_details = hover_details_from_json(event, json);
}

}  // namespace strata
