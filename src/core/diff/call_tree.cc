#include "core/diff/call_tree.h"

#include <algorithm>
#include <unordered_map>

namespace strata {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr std::string_view kFoldedStep = "ProfilerStep#*";

struct ChildKey {
  uint32_t parent;
  std::string_view name;
  bool operator==(const ChildKey&) const = default;
};
struct ChildKeyHash {
  size_t operator()(const ChildKey& k) const {
    return std::hash<std::string_view>()(k.name) * 31 + k.parent;
  }
};

// An open event on the current track's stack; node kNone: not a node (past the limits).
struct Open {
  uint32_t event, node;
};

}  // namespace

std::string_view call_tree_name(std::string_view name) {
  if (name.size() <= kStepPrefix.size() || name.substr(0, kStepPrefix.size()) != kStepPrefix)
    return name;
  for (char c : name.substr(kStepPrefix.size()))
    if (c < '0' || c > '9') return name;
  return kFoldedStep;
}

CallTree build_call_tree(const TraceStore& s, const std::vector<uint32_t>& events,
                         const std::vector<std::string_view>& names, const CallTreeLimits& limits) {
  CallTree t;
  t.parent.push_back(kNone);
  t.depth.push_back(0);
  t.name.emplace_back();
  t.figures.emplace_back();
  const auto& ev = s.events;
  // By track, then start, then depth: an enclosing event comes before what it encloses. The
  // keys are copied next to each other so the sort reads no column through an index.
  struct Item {
    uint32_t track;
    TimeNs start;
    uint32_t depth, i;
  };
  std::vector<Item> items(events.size());
  for (uint32_t i = 0; i < events.size(); ++i)
    items[i] = Item{ev.track[events[i]], ev.start[events[i]], ev.depth[events[i]], i};
  auto less = [](const Item& x, const Item& y) {
    if (x.track != y.track) return x.track < y.track;
    if (x.start != y.start) return x.start < y.start;
    if (x.depth != y.depth) return x.depth < y.depth;
    return x.i < y.i;
  };
  // Events in store order are a few sorted runs (one per row of a track): merging the runs
  // bottom-up costs n log(runs) instead of a sort's n log n; any order still comes out sorted.
  std::vector<size_t> bounds = {0};
  for (size_t i = 1; i < items.size(); ++i)
    if (less(items[i], items[i - 1])) bounds.push_back(i);
  bounds.push_back(items.size());
  while (bounds.size() > 2) {
    std::vector<size_t> merged = {0};
    size_t r = 0;
    for (; r + 2 < bounds.size(); r += 2) {
      std::inplace_merge(items.begin() + static_cast<ptrdiff_t>(bounds[r]),
                         items.begin() + static_cast<ptrdiff_t>(bounds[r + 1]),
                         items.begin() + static_cast<ptrdiff_t>(bounds[r + 2]), less);
      merged.push_back(bounds[r + 2]);
    }
    if (r + 1 < bounds.size() && merged.back() != bounds.back()) merged.push_back(bounds.back());
    bounds.swap(merged);
  }
  std::unordered_map<ChildKey, uint32_t, ChildKeyHash> child;
  std::vector<Open> stack;
  uint32_t track = kNone;
  for (const Item& item : items) {
    const uint32_t i = item.i, e = events[i];
    if (ev.track[e] != track) {
      track = ev.track[e];
      stack.clear();
    }
    const TimeNs start = ev.start[e], end = start + ev.dur[e];
    // Close what ends before this starts (a child starting at its parent's end is the next
    // parent's) and what is not above it.
    while (!stack.empty()) {
      const uint32_t p = stack.back().event;
      const TimeNs p_end = ev.start[p] + ev.dur[p];
      if (ev.depth[p] < ev.depth[e] && (start < p_end || start == ev.start[p])) break;
      stack.pop_back();
    }
    const uint32_t parent_node = stack.empty() ? 0 : stack.back().node;
    uint32_t node = kNone;
    if (parent_node != kNone && t.depth[parent_node] < limits.max_depth) {
      const std::string_view name = call_tree_name(names[i]);
      auto it = child.find(ChildKey{parent_node, name});
      if (it != child.end()) {
        node = it->second;
      } else if (t.size() < limits.max_nodes) {
        node = static_cast<uint32_t>(t.size());
        child.emplace(ChildKey{parent_node, name}, node);
        t.parent.push_back(parent_node);
        t.depth.push_back(t.depth[parent_node] + 1);
        t.name.push_back(name);
        t.figures.emplace_back();
      }
    }
    if (node == kNone) {
      ++t.dropped_events;
    } else {
      ++t.events;
      CallFigures& f = t.figures[node];
      ++f.count;
      f.total += ev.dur[e];
      f.self += ev.dur[e];
      if (!stack.empty()) {
        const uint32_t p = stack.back().event;
        const TimeNs covered = std::min(end, ev.start[p] + ev.dur[p]) - start;
        if (covered > 0) t.figures[parent_node].self -= covered;
      }
    }
    stack.push_back(Open{e, node});
  }
  // Children lists, each in first-seen (node id) order.
  t.child_begin.assign(t.size() + 1, 0);
  for (uint32_t n = 1; n < t.size(); ++n) ++t.child_begin[t.parent[n] + 1];
  for (size_t n = 0; n < t.size(); ++n) t.child_begin[n + 1] += t.child_begin[n];
  t.child_ids.resize(t.size() > 0 ? t.size() - 1 : 0);
  std::vector<uint32_t> fill(t.child_begin.begin(), t.child_begin.end() - 1);
  for (uint32_t n = 1; n < t.size(); ++n) t.child_ids[fill[t.parent[n]]++] = n;
  return t;
}

}  // namespace strata
