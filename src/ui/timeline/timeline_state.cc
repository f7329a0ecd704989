#include "ui/timeline/timeline_state.h"

#include <algorithm>
#include <cstdint>

#include "core/base/json_writer.h"
#include "imgui.h"
#include "ui/timeline/headers.h"
#include "ui/timeline/hover.h"
#include "ui/timeline/layout.h"

namespace strata {

namespace {
void add_key(std::string* o, const char* key) {
  if (o->back() != '{') *o += ',';
  json_append_string(o, key);
  *o += ':';
}
void add_strings(std::string* o, const std::vector<std::string>& v) {
  *o += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) *o += ',';
    json_append_string(o, v[i]);
  }
  *o += ']';
}
}  // namespace

std::string timeline_headers_json(const Timeline& t, const TraceData& d) {
  std::string o = "{";
  add_key(&o, "labelWidth");
  json_append_number(&o, t.layout.label_w);
  add_key(&o, "columnX");
  json_append_number(&o, t.layout.label_x);
  add_key(&o, "headers");
  o += '[';
  for (size_t i = 0; i < t.drawn_headers.size(); ++i) {
    const DrawnHeader& h = t.drawn_headers[i];
    o += i ? ",{" : "{";
    add_key(&o, "process");
    o += h.process ? "true" : "false";
    add_key(&o, "index");
    json_append_int(&o, h.index);
    add_key(&o, "y");
    json_append_number(&o, h.y);
    add_key(&o, "text");
    json_append_string(&o, h.text);
    add_key(&o, "shown");
    json_append_string(&o, h.shown);
    add_key(&o, "elided");
    o += h.shown != h.text ? "true" : "false";
    if (!h.process && h.index < d.tracks.size() && d.tracks[h.index].series_count > 0) {
      add_key(&o, "seriesMax");  // a counter track's series' largest values
      o += '[';
      const UiTrack& tr = d.tracks[h.index];
      for (uint32_t k = 0; k < tr.series_count && tr.first_series + k < d.series.size(); ++k) {
        if (k) o += ',';
        json_append_number(&o, d.series[tr.first_series + k].max);
      }
      o += ']';
    }
    o += '}';
  }
  o += ']';
  add_key(&o, "processes");
  o += '[';
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const UiProcess& pr = d.processes[p];
    o += p ? ",{" : "{";
    add_key(&o, "name");
    json_append_string(&o, pr.name);
    add_key(&o, "pid");
    json_append_string(&o, pr.key.empty() ? std::to_string(pr.pid) : pr.key);
    add_key(&o, "labels");
    json_append_string(&o, pr.labels);
    add_key(&o, "text");
    json_append_string(&o, p < t.process_texts.size() ? t.process_texts[p] : std::string());
    o += '}';
  }
  o += "]}";
  return o;
}

std::string timeline_tooltip_json(const Timeline& t) {
  if (t.tooltip.kind.empty()) return "null";
  std::string o = "{";
  add_key(&o, "kind");
  json_append_string(&o, t.tooltip.kind);
  add_key(&o, "lines");
  add_strings(&o, t.tooltip.lines);
  return o + "}";
}

std::string timeline_ruler_json(const Timeline& t) {
  const RulerState& r = t.ruler;
  std::string o = "{";
  add_key(&o, "base");
  if (r.has_base)
    json_append_string(&o, r.base_text);
  else
    o += "null";
  add_key(&o, "baseRelNs");
  json_append_number(&o, r.base);
  add_key(&o, "fromMark");
  o += r.base_from_mark ? "true" : "false";
  add_key(&o, "stepNs");
  json_append_number(&o, r.step);
  add_key(&o, "labels");
  add_strings(&o, r.labels);
  return o + "}";
}

std::string timeline_folded_runs_json(const Timeline& t, const TraceData& d) {
  constexpr size_t kMaxRuns = 200;
  const TimelineLayout& L = t.layout;
  auto width = [](std::string_view s) {
    return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
  };
  std::string o = "[";
  bool first = true;
  for (const proto::SliceEntry& s : timeline_folded_runs(t, d, kMaxRuns)) {
    RowGeom g = track_geom(t, s.track);
    if (!g.visible) continue;
    const float x0 = std::max(to_x(t, s.start), L.x0), x1 = std::min(to_x(t, s.end), L.x0 + L.w);
    if (x1 <= x0) continue;
    const float room = x1 - x0 - 4;
    const std::string label =
        room >= width("M") * 3 ? folded_run_label(s.count, room, width) : std::string();
    o += first ? "{" : ",{";
    first = false;
    add_key(&o, "x0");
    json_append_number(&o, x0);
    add_key(&o, "x1");
    json_append_number(&o, x1);
    add_key(&o, "y");
    json_append_number(&o, g.top + static_cast<float>(s.depth) * kRowH + kRowH / 2);
    add_key(&o, "startRelNs");
    json_append_number(&o, s.start);
    add_key(&o, "endRelNs");
    json_append_number(&o, s.end);
    add_key(&o, "count");
    json_append_int(&o, s.count);
    add_key(&o, "label");
    json_append_string(&o, label);
    o += '}';
  }
  return o + "]";
}

}  // namespace strata
