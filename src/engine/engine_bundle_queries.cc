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
// Tiles of the rows nested under an event that a details pane reads for what it launched (about
// half a million events): an event spanning more of a huge trace says its launches are partial.
constexpr size_t kMaxLaunchTiles = 64;
constexpr const char* kSummaryErrorsHint = "summary().errors says why";

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

std::vector<uint32_t> Engine::bundle_details_tiles(uint32_t event, bool* launches_cut) const {
  std::vector<uint32_t> tiles;
  if (launches_cut) *launches_cut = false;
  const LazyTiles* lazy = bundle_.get();
  if (!lazy) return tiles;
  const BundleSession* b = bundle_session();
  if (!b) {  // a lazy pod: the event's tile and the rows above and below it (a pod has no flows)
    const uint32_t own = lazy->event_tile(event);
    if (own == kNone) return tiles;
    tiles.push_back(own);
    lazy->add_neighbour_tiles(&tiles, true, true);
    return tiles;
  }
  const uint32_t i = b->event_tile(event);
  if (i == kNone) return tiles;
  tiles.push_back(i);
  b->add_neighbour_tiles(&tiles, true, true);  // its parent and children
  // Its flows: the flows tiles of the edges out of and into it. What it launched: the rows
  // nested under it over its span (the next round, once its own tile says where it lies) and
  // the edges out of their events. Then the events at the far ends, once those tiles are here.
  std::vector<uint32_t> flows, nested;
  b->flow_tiles_of(false, event, event, &flows);
  b->flow_tiles_of(true, event, event, &flows);
  TileEvent e;
  uint32_t own = kNone;
  const bool placed = b->event(event, &e, &own);
  const TimeNs a = e.start, z = end_of(e.start, e.dur);
  if (placed && e.phase != 'i') {
    const uint32_t max_depth = b->manifest().tracks[e.track].max_depth;
    for (uint32_t d = e.depth + 1; d <= max_depth; ++d) b->row_tiles(e.track, d, a, z, &nested);
    if (nested.size() > kMaxLaunchTiles) {
      nested.resize(kMaxLaunchTiles);
      if (launches_cut) *launches_cut = true;
    }
    for (uint32_t n : nested) {
      const bundle::Tile& t = b->manifest().tiles[n];
      if (t.count) b->flow_tiles_of(false, t.first, t.first + t.count - 1, &flows);
    }
  }
  // A nested event: in a nested tile at hand, starting within the span (launched_by's walk).
  auto nested_event = [&](uint32_t x) {
    for (uint32_t n : nested) {
      const bundle::Tile& t = b->manifest().tiles[n];
      if (x < t.first || x - t.first >= t.count) continue;
      const bundle::DecodedTile* d = b->tile(n);
      if (!d || d->failed) return false;
      const TimeNs st = d->events.start[x - t.first];
      return st >= a && st <= z;
    }
    return false;
  };
  std::vector<uint32_t> far;
  for (uint32_t f : flows) {
    const bundle::DecodedTile* d = b->tile(f);
    if (!d || d->failed) continue;
    const bundle::FlowTile& ft = d->flows;
    const bool in = b->manifest().tiles[f].kind == bundle::TileKind::kFlowsIn;
    for (size_t k = 0; k < ft.size(); ++k) {
      if (in && ft.to[k] == event) far.push_back(ft.from[k]);
      if (!in && (ft.from[k] == event || nested_event(ft.from[k]))) far.push_back(ft.to[k]);
    }
  }
  std::sort(far.begin(), far.end());
  far.erase(std::unique(far.begin(), far.end()), far.end());
  for (uint32_t x : far)
    if (const uint32_t t = b->event_tile(x); t != kNone) tiles.push_back(t);
  tiles.insert(tiles.end(), nested.begin(), nested.end());
  tiles.insert(tiles.end(), flows.begin(), flows.end());
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  return tiles;
}

std::vector<uint32_t> Engine::bundle_query_wanted(std::string_view kind,
                                                  std::string_view args_text) const {
  QueryArgs args;
  std::string error;
  if (!bundle_ || !args.parse(args_text, &error)) return {};
  if (kind == "analysis") {  // the packed table of a default-argument analysis
    const uint32_t tile = bundle_analysis_tile(args);
    if (tile == kNone || !bundle_session()) return {};
    return bundle_session()->missing({tile});
  }
  if (kind != "select") return {};
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
  bool cut = false;
  const PartialStore p = bundle_->partial(bundle_details_tiles(event, &cut));
  const uint32_t local = p.local(event);
  if (local == kNone) return "null";  // its tile is not here (fetch bundle_details_wanted)
  std::string o = details_on(*p.store, local, record, &p);
  if (cut) {  // what it launched was read from its first nested tiles only
    std::string done, short_of;
    protocol::append_key(&done, protocol::keys::details::kLaunchedComplete);
    short_of = done + "false";
    done += "true";
    if (const size_t at = o.find(done); at != std::string::npos)
      o.replace(at, done.size(), short_of);
  }
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

uint32_t Engine::bundle_analysis_tile(const QueryArgs& args) const {
  // Only {"name"}: the packed table is the one of default arguments.
  const BundleSession* b = bundle_session();
  if (!b || args.lines.size() != 1 || !args.get(protocol::keys::analysis::kName)) return kNone;
  return b->analysis_tile(args.text(protocol::keys::analysis::kName));
}

std::string Engine::bundle_analysis_json(const QueryArgs& args) const {
  const BundleSession* b = bundle_session();
  if (b && !args.get(protocol::keys::analysis::kName) && !b->manifest().analysis_list.empty())
    return b->manifest().analysis_list;  // the list as packed: each available or why not
  if (const uint32_t i = bundle_analysis_tile(args); i != kNone) {
    const bundle::DecodedTile* d = b->tile(i);
    if (d && !d->failed) return d->text;
    if (d) {
      std::string o;
      protocol::append_key(&o, protocol::keys::failure::kError, '{');
      json_append_string(&o, "the bundle's table of this analysis could not be read (" +
                                 std::string(kSummaryErrorsHint) + ")");
      return o + "}";
    }
  }
  // Other arguments (or a pod's hosts, or a bundle without packed analyses): the analyses read
  // every event, and a lazy trace holds a few tiles of them.
  const uint64_t bytes = bundle_->bundle_bytes();
  std::string o;
  protocol::append_key(&o, protocol::keys::failure::kError, '{');
  json_append_string(&o, bundle_->analysis_reason());
  protocol::append_key(&o, protocol::keys::load_whole::kLoadWholeBytes);
  o += std::to_string(bytes);
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
