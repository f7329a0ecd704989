// Details and selections on a pod's hosts opened lazily (engine/pod/pod_lazy.h), which have no
// one BundleSession to put tiles together as a store (engine_bundle_queries.cc does that for a
// lazy bundle): the fields an event's own tile gives, without its neighbours (parent, children,
// flows), and an events selection of the listed events whose tiles are held.
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/query/event_json.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "protocol/reply_keys.h"

namespace strata {

// The fields a loaded trace's details give from the event itself; its neighbours (parent,
// children, flows, launches) would need other tiles and are left empty.
std::string Engine::lazy_event_details_json(uint32_t event, std::string_view record) const {
  TileEvent e;
  uint32_t tile = kNone;
  if (!bundle_->event(event, &e, &tile)) return "null";
  const TraceStore& s = *store_;
  const Track& t = s.tracks[e.track];
  namespace ev = protocol::keys::event;
  namespace det = protocol::keys::details;
  std::string o;
  protocol::append_key(&o, ev::kEvent, '{');
  o += std::to_string(e.event);
  protocol::append_key(&o, ev::kName);
  json_append_string(&o, s.strings.get(e.name));
  protocol::append_key(&o, ev::kCat);
  json_append_string(&o, s.strings.get(e.cat));
  protocol::append_key(&o, ev::kPhase);
  json_append_string(&o, std::string(1, e.phase));
  protocol::append_key(&o, ev::kStartNs);
  json_append_int(&o, e.start);
  protocol::append_key(&o, ev::kDurNs);
  json_append_int(&o, e.dur);
  protocol::append_key(&o, ev::kDepth);
  o += std::to_string(e.depth);
  protocol::append_key(&o, ev::kPid);
  append_id_json(&o, s.processes[t.process].key);
  protocol::append_key(&o, ev::kTid);
  append_id_json(&o, t.key);
  protocol::append_key(&o, ev::kProcess);
  json_append_string(&o, s.strings.get(s.processes[t.process].name));
  protocol::append_key(&o, ev::kThread);
  json_append_string(&o, s.strings.get(t.name));
  protocol::append_key(&o, det::kParent);
  o += "null";
  protocol::append_key(&o, det::kChildCount);
  o += '0';
  protocol::append_key(&o, det::kChildren);
  o += "[]";
  protocol::append_key(&o, ev::kTrack);
  o += std::to_string(store_to_display_[e.track]);
  protocol::append_key(&o, det::kFlows);
  o += "[]";
  protocol::append_key(&o, det::kRecord);
  // The source's record as read by range (valid JSON when it was packed; the reader checks).
  o += record.empty() ? std::string_view("null") : record;
  if (record.empty()) {
    protocol::append_key(&o, det::kRecordNote);
    json_append_string(&o, "args: the source is not here (serve " +
                               (s.files.empty() ? std::string("it") : s.files[0].name) +
                               " beside the bundle to read them)");
  }
  return o + "}";
}

std::string Engine::lazy_events_select_json(const std::vector<double>& events) const {
  const TraceStore& s = *store_;
  const TimeNs origin = s.has_time ? s.start_ns : 0;
  namespace ev = protocol::keys::event;
  namespace sel = protocol::keys::select;
  std::string list;
  size_t count = 0;
  for (double x : events) {
    TileEvent e;
    uint32_t tile = kNone;
    if (!(x >= 0 && x < 4294967295.0) || !bundle_->event(static_cast<uint32_t>(x), &e, &tile))
      continue;
    const Track& t = s.tracks[e.track];
    list += count++ ? "," : "";
    protocol::append_key(&list, ev::kEvent, '{');
    list += std::to_string(e.event);
    protocol::append_key(&list, ev::kStart);
    json_append_number(&list, static_cast<double>(e.start - origin));
    protocol::append_key(&list, ev::kEnd);
    json_append_number(&list, static_cast<double>(e.start + e.dur - origin));
    protocol::append_key(&list, ev::kName);
    json_append_string(&list, s.strings.get(e.name));
    protocol::append_key(&list, ev::kTsNs);
    json_append_int(&list, e.start);
    protocol::append_key(&list, ev::kDurNs);
    json_append_int(&list, e.dur);
    protocol::append_key(&list, ev::kPid);
    append_id_json(&list, s.processes[t.process].key);
    protocol::append_key(&list, ev::kTid);
    append_id_json(&list, t.key);
    protocol::append_key(&list, ev::kTrack);
    list += std::to_string(store_to_display_[e.track]);
    protocol::append_key(&list, ev::kDepth);
    list += std::to_string(e.depth) + "}";
  }
  std::string o;
  protocol::append_key(&o, sel::kCount, '{');
  o += std::to_string(count);
  protocol::append_key(&o, sel::kEvents);
  o += '[' + list + ']';
  protocol::append_key(&o, sel::kSummary);
  return o + "[]}";
}

}  // namespace strata
