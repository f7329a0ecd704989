// A bundle's flow edges read from its flows tiles (docs/BUNDLE.md "Flows"): which tiles a view's
// arrows need and the arrows from those at hand, in a loaded trace's order (the store's edges,
// the first kMaxViewFlows with an end in the range: what Engine::view sends), and which tiles
// hold the edges out of or into given events, for a details pane. No I/O here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/bundle/tile_view.h"

namespace strata::bundle {

// Arrows one view sends at most (beyond a few thousand a view is unreadable anyway).
constexpr size_t kMaxViewFlows = 4000;

// One arrow: the edge's events and where it is drawn (absolute ns).
struct ViewFlow {
  uint32_t from = 0, to = 0;
  TimeNs from_end = 0, to_start = 0;
};

// The flows tiles of a bundle, by kind, in index order (= edge order, and by_to order).
struct FlowLookup {
  std::vector<uint32_t> out;  // kFlows
  std::vector<uint32_t> in;   // kFlowsIn
};
FlowLookup make_flow_lookup(const Manifest& m);

// The kFlows tiles a view of [t0, t1] needs that are not at hand: in edge order, those whose
// time range meets the range until the edges found (held tiles counted exactly, the others at
// their full count) reach kMaxViewFlows.
std::vector<uint32_t> plan_view_flows(const Manifest& m, const FlowLookup& k, TimeNs t0, TimeNs t1,
                                      const GetTile& get);
// The arrows of [t0, t1] from the tiles at hand, in edge order, stopping at the first tile in
// range that is not at hand (so they are the loaded trace's first ones); a failed tile is
// skipped.
std::vector<ViewFlow> view_flows(const Manifest& m, const FlowLookup& k, TimeNs t0, TimeNs t1,
                                 const GetTile& get);

// The tiles holding the edges whose source (kFlows, `in` false) or target (kFlowsIn) is in
// [lo, hi], from the index's per-tile key ranges; appended to *out.
void flow_tiles_of(const Manifest& m, const FlowLookup& k, bool in, uint32_t lo, uint32_t hi,
                   std::vector<uint32_t>* out);

// Where a bundle's event is drawn: its track and depth from the index's tables alone.
class EventRows {
 public:
  explicit EventRows(const Manifest& m);
  // False for an event outside every track.
  bool place(uint32_t event, uint32_t* track, uint32_t* depth) const;

 private:
  const Manifest* m_;
  std::vector<uint32_t> by_first_;  // tracks with events, by first event
};

}  // namespace strata::bundle
