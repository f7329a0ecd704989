// Search on a lazy bundle: the string table (in the index) is matched first, as on a loaded
// trace; the search blob lists the events tiles holding each matched name, which the worker
// fetches and feeds; the session counts their matches as they arrive. The replies have the
// shapes of query_json("find") and find_json() on a loaded trace.
#include <algorithm>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/query/event_json.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "engine/query_args.h"
#include "protocol/reply_keys.h"

namespace strata {

bool Engine::bundle_find_begin(std::string_view args_text, std::vector<uint32_t>* tiles,
                               std::string* error) {
  tiles->clear();
  if (!bundle_) return true;
  QueryArgs args;
  if (!args.parse(args_text, error)) return false;
  std::vector<uint8_t> match;
  if (!match_names(*store_, args.text("text"), args.flag("regex"), &match, error)) return false;
  if (bundle_->error_name() < match.size()) match[bundle_->error_name()] = 0;  // not a name
  const size_t limit = static_cast<size_t>(std::clamp(args.number("limit", 1000), 0.0, 100000.0));
  *tiles = bundle_->find_begin(std::move(match), limit, kFindBins);
  return true;
}

std::string Engine::bundle_find_json(bool panel) const {
  const BundleFind& f = bundle_->find();
  const TraceStore& s = *store_;
  const TimeNs origin = s.has_time ? s.start_ns : 0;
  namespace find = protocol::keys::find;
  namespace ev = protocol::keys::event;
  std::string o;
  protocol::append_key(&o, find::kCount, '{');
  o += std::to_string(f.count);
  protocol::append_key(&o, find::kMatches);
  o += '[';
  // Until every listed tile is in, the matches so far are not the earliest: none are listed.
  const size_t listed = f.done() ? f.events.size() : 0;
  for (size_t i = 0; i < listed; ++i) {
    const TileEvent& e = f.events[i];
    const Track& t = s.tracks[e.track];
    o += i ? "," : "";
    if (panel) {
      protocol::append_key(&o, ev::kEvent, '{');
      o += std::to_string(e.event);
      protocol::append_key(&o, ev::kName);
      json_append_string(&o, s.strings.get(e.name));
      protocol::append_key(&o, ev::kStart);
      json_append_number(&o, static_cast<double>(e.start - origin));
      protocol::append_key(&o, ev::kEnd);
      json_append_number(&o, static_cast<double>(e.start + e.dur - origin));
      protocol::append_key(&o, ev::kTrack);
      o += std::to_string(store_to_display_[e.track]);
      protocol::append_key(&o, ev::kDepth);
      o += std::to_string(e.depth);
    } else {
      protocol::append_key(&o, ev::kName, '{');
      json_append_string(&o, s.strings.get(e.name));
      protocol::append_key(&o, ev::kTsNs);
      json_append_int(&o, e.start);
      protocol::append_key(&o, ev::kDurNs);
      json_append_int(&o, e.dur);
      protocol::append_key(&o, ev::kPid);
      append_id_json(&o, s.processes[t.process].key);
      protocol::append_key(&o, ev::kTid);
      append_id_json(&o, t.key);
      protocol::append_key(&o, ev::kEvent);
      o += std::to_string(e.event);
    }
    o += '}';
  }
  o += ']';
  if (!panel) return o + "}";
  protocol::append_key(&o, find::kBinsStart);
  o += '0';
  protocol::append_key(&o, find::kBinsEnd);
  o += std::to_string(s.has_time ? s.end_ns - s.start_ns : 0);
  protocol::append_key(&o, find::kBins);
  o += '[';
  for (size_t i = 0; i < f.bins.size(); ++i) o += (i ? "," : "") + std::to_string(f.bins[i]);
  o += ']';
  protocol::append_key(&o, find::kNameIds);
  o += '[';
  size_t n = 0;
  for (StrId id = 0; id < f.names.size() && n < 200000; ++id) {
    if (!f.names[id]) continue;
    o += (n++ ? "," : "") + std::to_string(id);
  }
  return o + "]}";
}

}  // namespace strata

namespace strata {

uint32_t Engine::bundle_event_tile(uint32_t event) const {
  TileEvent e;
  uint32_t tile = kNone;
  if (!bundle_ || bundle_->event(event, &e, &tile)) return kNone;
  return tile;
}

bool Engine::bundle_event_source(uint32_t event, uint64_t* offset, uint32_t* length) const {
  TileEvent e;
  uint32_t tile = kNone;
  if (!bundle_ || !bundle_->event(event, &e, &tile) || e.src_len == 0) return false;
  *offset = e.src_offset, *length = e.src_len;
  return true;
}

// The fields a loaded trace's details give from the event itself; its neighbours (parent,
// children, flows, launches) would need other tiles and are left empty.
std::string Engine::bundle_details_json(uint32_t event, std::string_view record) const {
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

}  // namespace strata

namespace strata {

std::string Engine::bundle_select_json(const std::vector<double>& events) const {
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
