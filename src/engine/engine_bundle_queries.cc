// Details and selections on a lazy trace (one bundle, or a pod's hosts: engine/lazy_tiles.h):
// the tiles a query reads are planned from the index alone (each tile's row and time range),
// fetched by the worker, then put together as a store of those events (engine/bundle_partial.h)
// on which the loaded trace's own query code runs, so the replies are a loaded trace's: parent,
// children and self time from the rows above and below, a region's events and summary from its
// rows over its range, a name's from the tiles the search blob lists (each host's, on a pod).
// The events are named by the whole trace's index.
#include <algorithm>
#include <string>
#include <vector>

#include "core/base/json_writer.h"
#include "core/formats/xplane/xla_module_name.h"
#include "engine/bundle_partial.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "engine/query_args.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_links.h"

namespace strata {

namespace {

// Events of a selection by event index whose tiles are planned (a ctrl-click set is small; a
// bigger list reads only its first ones' tiles).
constexpr size_t kMaxListedEventTiles = 4096;

}  // namespace

std::vector<uint32_t> Engine::bundle_select_tiles(const QueryArgs& args) const {
  std::vector<uint32_t> tiles;
  if (!bundle_) return tiles;
  const LazyTiles& b = *bundle_;
  const TraceStore& s = *store_;
  auto store_track = [&](double t) {
    return t >= 0 && t < static_cast<double>(display_tracks_.size())
               ? display_tracks_[static_cast<size_t>(t)]
               : kNone;
  };
  if (args.get("name")) {
    const StrId id = s.strings.find(args.text("name"));
    if (id == kNone) return tiles;
    std::vector<uint8_t> on;
    for (double t : args.numbers("tracks"))
      if (const uint32_t st = store_track(t); st != kNone) {
        on.resize(s.tracks.size(), 0);
        on[st] = 1;
      }
    const bool program = !args.text(protocol::keys::analysis_link::kProgramId).empty();
    std::vector<uint32_t> modules;  // one XLA program's runs: its process' "XLA Modules" row
    for (uint32_t i : b.name_tiles(id)) {
      uint32_t track = 0, depth = 0;
      TimeNs t0 = 0, t1 = 0;
      if (!b.tile_row(i, &track, &depth, &t0, &t1)) continue;
      if (!on.empty() && !(track < on.size() && on[track])) continue;
      tiles.push_back(i);
      if (!program) continue;
      for (uint32_t m : s.processes[s.tracks[track].process].tracks)
        if (m != track && s.strings.get(s.tracks[m].name) == kXlaModulesLine)
          b.row_tiles(m, 0, t0, t1, &modules);
    }
    b.add_neighbour_tiles(&tiles, false, true);
    tiles.insert(tiles.end(), modules.begin(), modules.end());
    return tiles;
  } else if (args.get("events")) {
    for (double e : args.numbers("events")) {
      if (tiles.size() >= kMaxListedEventTiles) break;
      if (!(e >= 0 && e < 4294967295.0)) continue;
      const uint32_t i = b.event_tile(static_cast<uint32_t>(e));
      if (i != kNone) tiles.push_back(i);
    }
  } else if (!args.get(protocol::keys::analysis_link::kFrameworkOp) &&
             !args.get(protocol::keys::analysis_link::kPart)) {
    const TimeNs origin = s.has_time ? s.start_ns : 0;
    const TimeNs t0 = origin + static_cast<TimeNs>(args.number("t0", 0));
    const TimeNs t1 = origin + static_cast<TimeNs>(args.number("t1", 0));
    const std::vector<double> r = args.numbers("rows");
    for (size_t i = 0; i + 2 < r.size(); i += 3) {
      const uint32_t track = store_track(r[i]);
      if (track == kNone) continue;
      const auto hi = static_cast<uint32_t>(
          std::min<double>(r[i + 2], static_cast<double>(b.max_depth(track))));
      for (auto d = static_cast<uint32_t>(std::max(0.0, r[i + 1])); d <= hi; ++d)
        b.row_tiles(track, d, t0, t1, &tiles);
    }
  }
  // The rows below: the selected events' children, for their self times.
  b.add_neighbour_tiles(&tiles, false, true);
  return tiles;
}

std::vector<uint32_t> Engine::bundle_details_tiles(uint32_t event) const {
  std::vector<uint32_t> tiles;
  const LazyTiles* b = bundle_.get();
  if (!b) return tiles;
  const uint32_t i = b->event_tile(event);
  if (i == kNone) return tiles;
  tiles.push_back(i);
  b->add_neighbour_tiles(&tiles, true, true);  // its parent and children
  return tiles;
}

std::vector<uint32_t> Engine::bundle_query_wanted(std::string_view kind,
                                                  std::string_view args_text) const {
  QueryArgs args;
  std::string error;
  if (!bundle_ || kind != "select" || !args.parse(args_text, &error)) return {};
  return bundle_->missing(bundle_select_tiles(args));
}

std::vector<uint32_t> Engine::bundle_details_wanted(uint32_t event) const {
  if (!bundle_) return {};
  return bundle_->missing(bundle_details_tiles(event));
}

std::string Engine::bundle_select_json(const QueryArgs& args) const {
  const PartialStore p = bundle_->partial(bundle_select_tiles(args));
  return select_json(*p.store, args, &p);
}

std::string Engine::bundle_details_json(uint32_t event, std::string_view record) const {
  const PartialStore p = bundle_->partial(bundle_details_tiles(event));
  const uint32_t local = p.local(event);
  if (local == kNone) return "null";  // its tile is not here (fetch bundle_details_wanted)
  std::string o = details_on(*p.store, local, record, &p);
  // A pod's hosts never read their sources (pod.js), read whole or lazily: no note to serve one.
  if (!record.empty() || !bundle_session()) return o;
  const TraceStore& s = *store_;
  o.pop_back();  // the note in the same object
  protocol::append_key(&o, protocol::keys::details::kRecordNote);
  json_append_string(&o, "args: the source is not here (serve " +
                             (s.files.empty() ? std::string("it") : s.files[0].name) +
                             " beside the bundle to read them)");
  return o + "}";
}

bool Engine::bundle_event_source(uint32_t event, uint64_t* offset, uint32_t* length) const {
  TileEvent e;
  uint32_t tile = kNone;
  if (!bundle_ || !bundle_->event(event, &e, &tile) || e.src_len == 0) return false;
  *offset = e.src_offset, *length = e.src_len;
  return true;
}

}  // namespace strata
