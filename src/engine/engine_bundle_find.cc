// Search on a lazy bundle: the string table (in the index) is matched first, as on a loaded
// trace; the search blob lists the events tiles holding each matched name, which the worker
// fetches and feeds; the session counts their matches as they arrive. The replies have the
// shapes of query_json("find") and find_json() on a loaded trace.
#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/query/event_json.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine/find_reply.h"
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
  // The matches in a store of their own (the bundle's tables, these events), written as a
  // loaded trace's are. Until every listed tile is in, the matches so far are not the
  // earliest: none are listed.
  std::string error;
  std::unique_ptr<TraceStore> m = bundle_->tables(&error);
  const bool listed = m != nullptr;  // tables that do not read: the count without matches
  if (!m) m = std::make_unique<TraceStore>();
  FindResult r;
  r.count = f.count;
  r.bins = f.bins;
  std::vector<uint32_t> ids;
  EventColumns& ev = m->events;
  for (size_t i = 0; listed && f.done() && i < f.events.size(); ++i) {
    const TileEvent& e = f.events[i];
    ev.start.push_back(e.start), ev.dur.push_back(e.dur), ev.name.push_back(e.name);
    ev.cat.push_back(e.cat), ev.track.push_back(e.track), ev.depth.push_back(e.depth);
    ev.phase.push_back(e.phase), ev.src_offset.push_back(e.src_offset);
    ev.src_len.push_back(e.src_len);
    r.events.push_back(static_cast<uint32_t>(i));
    ids.push_back(e.event);
  }
  const std::function<uint32_t(uint32_t)> id = [&ids](uint32_t k) { return ids[k]; };
  const TimeNs origin = s.has_time ? s.start_ns : 0;
  return find_reply_json(*m, r, f.names, panel, s.has_time ? s.end_ns - s.start_ns : 0,
                         {panel ? origin : 0, &store_to_display_, &id});
}

}  // namespace strata
