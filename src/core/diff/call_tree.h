// A trace's call tree of framework operators merged by name path (a calling-context tree): the
// caller picks the events (Kineto cpu_op / user_annotation slices, an xplane's host ops) and
// the name each counts under; an event's parent is the nearest picked event that encloses it on
// its track (the store's rows nest by depth), and events with the same names from the root
// down are one node. Per node: how many events, their inclusive time (total) and their time
// outside picked children (self), so a node's total = its self + its children's totals when
// children do not overlap. Other events (runtime calls, python frames) are not nodes: their
// time is in the self time of the operator around them.
//
// ProfilerStep#N names are folded to "ProfilerStep#*": one node for every step, so two runs
// profiled at different step numbers still share their tree.
//
// The work is bounded: an event deeper than `max_depth` picked ancestors, or one that would be
// a node past `max_nodes`, is not a node, and neither is anything inside it; its time stays in
// its parent's self and `dropped_events` counts it.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/store/trace_store.h"

namespace strata {

struct CallTreeLimits {
  uint32_t max_depth = 64;
  uint32_t max_nodes = 100'000;
};

struct CallFigures {
  uint64_t count = 0;
  TimeNs total = 0, self = 0;
  bool operator==(const CallFigures&) const = default;
};

// Node 0 is the root (no event, no figures); columns indexed by node.
struct CallTree {
  std::vector<uint32_t> parent;        // kNone for the root
  std::vector<uint32_t> depth;         // root 0, top-level operators 1
  std::vector<std::string_view> name;  // views into the caller's names (or a static fold)
  std::vector<CallFigures> figures;
  // children of node n: child_ids[child_begin[n] .. child_begin[n + 1]), in first-seen order
  std::vector<uint32_t> child_begin, child_ids;
  uint64_t events = 0;          // events placed in nodes
  uint64_t dropped_events = 0;  // events (and everything inside them) past the limits
  size_t size() const { return parent.size(); }
};

// "ProfilerStep#*" for "ProfilerStep#<digits>", else the name itself.
std::string_view call_tree_name(std::string_view name);

// `events` and `names` are parallel (names valid while the tree is used); events need not be
// sorted.
CallTree build_call_tree(const TraceStore& s, const std::vector<uint32_t>& events,
                         const std::vector<std::string_view>& names,
                         const CallTreeLimits& limits = {});

}  // namespace strata
