// TraceBuilder::build_async: pairs async (b/e, S/F) and object (N/D) records into slices and
// packs them into rows of async / Objects tracks.
//
// Rules (chosen to match what chrome://tracing and Perfetto show, and documented in
// docs/ARCHITECTURE.md):
//  * Pairing is per group (the importer's key: cat + id, scoped by process unless id2.global,
//    and kept apart for b/e vs S/F; pid + id + name for objects), in time order (file order for
//    ties). A begin opens a slice; it nests in what is already open in its group. An end closes
//    the innermost open slice with the same name (or the innermost one when it has no name or
//    no open slice has its name); slices opened inside it and still open end with it (counted).
//    An end with nothing open is dropped (counted). What is still open at the end of the trace
//    ends there (counted). A second N of a live object ends the first one (counted).
//  * n / T / p / O are instants of the innermost open slice of their group (async instants,
//    legacy steps, object snapshots); with nothing open they stand alone.
//  * A tree is one outermost slice with everything nested in it (or a standalone instant). It
//    is drawn on the track of its root's process named after its root (async: one track per
//    root name, as both peers group async slices by name) or on the process's Objects track.
//  * Within a tree, depths come from the same stack rule as thread tracks; trees of one track
//    are packed first-fit into lanes of rows, so overlapping operations stack up and sequential
//    ones share rows. Rows never overlap, which keeps trace_store.h's invariant.
#include <algorithm>
#include <numeric>

#include "core/store/trace_builder.h"

namespace strata {

namespace {

bool is_begin(char ph) { return ph == 'b' || ph == 'S' || ph == 'N'; }
bool is_end(char ph) { return ph == 'e' || ph == 'F' || ph == 'D'; }

// Bases tried before a tree is simply put above every lane in use: bounds the packing to
// O(trees × kMaxScan × height) even when thousands of operations overlap.
constexpr size_t kMaxScan = 64;

struct Item {
  TimeNs start, dur;
  uint64_t src_offset;
  StrId name, cat;
  uint32_t tree, src_len, depth;
  char ph;
};

struct Tree {
  uint32_t process;
  StrId root_name;
  bool object;
  uint32_t track = 0, first = 0, count = 0, height = 0, base = 0;
  TimeNs start = 0, end = 0;
};

}  // namespace

void TraceBuilder::build_async() {
  if (async_marks_.empty()) return;
  const std::vector<AsyncMark>& marks = async_marks_;
  std::vector<uint32_t> idx(marks.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    if (marks[a].group != marks[b].group) return marks[a].group < marks[b].group;
    if (marks[a].ts != marks[b].ts) return marks[a].ts < marks[b].ts;
    return a < b;
  });

  std::vector<Item> items;
  items.reserve(marks.size());
  std::vector<Tree> trees;
  struct Open {
    uint32_t mark, tree;
  };
  std::vector<Open> open;
  auto close = [&](const Open& o, TimeNs end) {
    const AsyncMark& b = marks[o.mark];
    TimeNs dur = end > b.ts ? end - b.ts : 0;
    items.push_back(Item{b.ts, dur, b.src_offset, b.name, b.cat, o.tree, b.src_len, 0, b.ph});
  };
  auto new_tree = [&](const AsyncMark& m) {
    trees.push_back(Tree{m.process, m.name, async_group_object_[m.group] != 0});
    return static_cast<uint32_t>(trees.size() - 1);
  };

  for (size_t k = 0; k < idx.size();) {
    const uint32_t group = marks[idx[k]].group;
    const bool object = async_group_object_[group] != 0;
    open.clear();
    for (; k < idx.size() && marks[idx[k]].group == group; ++k) {
      const AsyncMark& m = marks[idx[k]];
      if (is_begin(m.ph)) {
        if (object && !open.empty()) {
          objects_recreated_ += open.size();
          while (!open.empty()) close(open.back(), m.ts), open.pop_back();
        }
        uint32_t tree = open.empty() ? new_tree(m) : open.back().tree;
        open.push_back(Open{idx[k], tree});
      } else if (is_end(m.ph)) {
        if (open.empty()) {
          ++async_dropped_ends_;
          continue;
        }
        size_t j = open.size() - 1;
        if (m.name != 0) {
          for (size_t q = open.size(); q-- > 0;) {
            if (marks[open[q].mark].name == m.name) {
              j = q;
              break;
            }
          }
        }
        async_misnested_ += open.size() - 1 - j;
        while (open.size() > j) close(open.back(), m.ts), open.pop_back();
      } else {
        uint32_t tree = open.empty() ? new_tree(m) : open.back().tree;
        items.push_back(Item{m.ts, 0, m.src_offset, m.name, m.cat, tree, m.src_len, 0, m.ph});
      }
    }
    async_unclosed_ += open.size();
    while (!open.empty()) close(open.back(), store_->end_ns), open.pop_back();
  }
  std::vector<AsyncMark>().swap(async_marks_);
  std::vector<uint32_t>().swap(idx);

  // Depths inside each tree: the thread tracks' stack rule, in layout_events' order.
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if (a.tree != b.tree) return a.tree < b.tree;
    if (a.start != b.start) return a.start < b.start;
    if (a.dur != b.dur) return a.dur > b.dur;
    return a.src_offset < b.src_offset;
  });
  std::vector<TimeNs> stack;
  for (size_t i = 0; i < items.size();) {
    Tree& t = trees[items[i].tree];
    t.first = static_cast<uint32_t>(i);
    t.start = items[i].start;
    t.end = items[i].start;
    stack.clear();
    for (; i < items.size() && &trees[items[i].tree] == &t; ++i) {
      Item& it = items[i];
      while (!stack.empty() && stack.back() <= it.start) stack.pop_back();
      it.depth = static_cast<uint32_t>(stack.size());
      t.height = std::max(t.height, it.depth + 1);
      TimeNs end = end_of(it.start, it.dur);
      t.end = std::max(t.end, end);
      if (!is_instant_phase(it.ph)) stack.push_back(end);
    }
    t.count = static_cast<uint32_t>(i) - t.first;
  }
  for (Tree& t : trees) t.track = async_track(t.process, t.root_name, t.object);

  // First-fit packing of trees into lanes, per track, in start order. A lane is free for a
  // tree starting at s when its last tree ended before s, or at s without a zero-length event
  // there (a marker and a slice starting at the same time in one row would break the row order).
  std::vector<uint32_t> torder(trees.size());
  std::iota(torder.begin(), torder.end(), 0u);
  std::sort(torder.begin(), torder.end(), [&](uint32_t a, uint32_t b) {
    if (trees[a].track != trees[b].track) return trees[a].track < trees[b].track;
    if (trees[a].start != trees[b].start) return trees[a].start < trees[b].start;
    return a < b;
  });
  std::vector<TimeNs> lane_end;
  std::vector<uint8_t> lane_zero;
  uint32_t track = kNone;
  for (uint32_t ti : torder) {
    Tree& t = trees[ti];
    if (t.track != track) {
      track = t.track;
      lane_end.clear();
      lane_zero.clear();
    }
    auto fits = [&](size_t l) {
      return l >= lane_end.size() || lane_end[l] < t.start ||
             (lane_end[l] == t.start && !lane_zero[l]);
    };
    size_t base = lane_end.size();
    size_t limit = std::min(lane_end.size(), kMaxScan);
    for (size_t b = 0; b <= limit; ++b) {
      bool ok = true;
      for (size_t l = b; l < b + t.height && ok; ++l) ok = fits(l);
      if (ok) {
        base = b;
        break;
      }
    }
    if (lane_end.size() < base + t.height) {
      lane_end.resize(base + t.height, INT64_MIN);
      lane_zero.resize(base + t.height, 0);
    }
    for (size_t l = base; l < base + t.height; ++l) {
      lane_end[l] = t.end;
      lane_zero[l] = 0;
    }
    for (uint32_t i = t.first; i < t.first + t.count; ++i)
      if (items[i].dur == 0 && items[i].start == t.end) lane_zero[base + items[i].depth] = 1;
    t.base = static_cast<uint32_t>(base);
  }

  // Into the event columns, in item order; layout_events reads the depths from given_depth_.
  given_depth_.reserve(items.size());
  grow_events(store_->events.size() + items.size());
  for (const Item& it : items) {
    const Tree& t = trees[it.tree];
    auto at = static_cast<uint32_t>(store_->events.size());
    add_complete(t.track, it.start, it.dur, it.name, it.cat, it.src_offset, it.src_len);
    store_->events.phase.back() = it.ph;
    given_depth_.emplace_back(at, t.base + it.depth);
  }
}

}  // namespace strata
