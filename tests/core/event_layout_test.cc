// Event layout at finish(): the fast paths that order a track's events (already in order, a
// few runs, slices written as they end, with or without stragglers) must give exactly the
// order of the general sort. Random slice trees are added in several orders and the store is
// compared with a reference layout computed here from first principles.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/store/trace_builder.h"
#include "import_test_util.h"

namespace strata {
namespace {

struct Slice {
  TimeNs start, dur;
  uint64_t off;
  bool instant;
};

// A random forest of nested slices in [0, 1e6): children inside parents, some sharing the
// parent's start or end, some zero-length, some instants. Returned in pre-order (by start).
void grow(std::mt19937& rng, TimeNs lo, TimeNs hi, int depth, std::vector<Slice>* out,
          std::vector<std::vector<size_t>>* kids, size_t parent) {
  TimeNs t = lo;
  while (t < hi && out->size() < 3000) {
    TimeNs gap = static_cast<TimeNs>(rng() % 3 == 0 ? 0 : rng() % 50);
    TimeNs s = t + gap;
    if (s >= hi) break;
    TimeNs len = std::min<TimeNs>(hi - s, rng() % 4 == 0 ? 0 : 1 + rng() % 400);
    bool instant = rng() % 10 == 0;
    size_t me = out->size();
    out->push_back(Slice{s, instant ? 0 : len, 0, instant});
    kids->emplace_back();
    if (parent != SIZE_MAX) (*kids)[parent].push_back(me);
    if (!instant && depth < 6 && len > 4) grow(rng, s, s + len, depth + 1, out, kids, me);
    t = s + (instant ? 0 : len) + (rng() % 2);
  }
}

// Post-order: each slice after its descendants (as written by producers that emit a slice
// when it ends).
void post_order(size_t i, const std::vector<std::vector<size_t>>& kids, std::vector<size_t>* o) {
  for (size_t k : kids[i]) post_order(k, kids, o);
  o->push_back(i);
}

// The layout trace_store.h promises, computed directly: by (start, longer first, src_offset,
// insertion order), depth by the stack rule, rows by depth (stable).
std::vector<std::tuple<uint32_t, TimeNs, TimeNs, uint64_t>> reference(
    const std::vector<Slice>& added) {
  std::vector<size_t> o(added.size());
  std::iota(o.begin(), o.end(), size_t{0});
  std::sort(o.begin(), o.end(), [&](size_t a, size_t b) {
    const Slice &x = added[a], &y = added[b];
    if (x.start != y.start) return x.start < y.start;
    if (x.dur != y.dur) return x.dur > y.dur;
    if (x.off != y.off) return x.off < y.off;
    return a < b;
  });
  std::vector<std::tuple<uint32_t, TimeNs, TimeNs, uint64_t>> rows;
  std::vector<TimeNs> stack;
  for (size_t i : o) {
    const Slice& sl = added[i];
    while (!stack.empty() && stack.back() <= sl.start) stack.pop_back();
    rows.emplace_back(static_cast<uint32_t>(stack.size()), sl.start, sl.dur, sl.off);
    if (!sl.instant) stack.push_back(sl.start + sl.dur);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  return rows;
}

void check_order(const std::vector<Slice>& added, const char* what) {
  TraceStore store;
  TraceBuilder b(&store);
  uint32_t t = b.thread_track(b.process("1", 1), "1", 1);
  for (const Slice& s : added) {
    if (s.instant)
      b.add_instant(t, s.start, 0, 0, s.off, 0);
    else
      b.add_complete(t, s.start, s.dur, 0, 0, s.off, 0);
  }
  b.finish();
  testing::expect_valid_layout(store);
  auto want = reference(added);
  const EventColumns& ev = store.events;
  ASSERT_EQ(ev.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(std::make_tuple(ev.depth[i], ev.start[i], ev.dur[i], ev.src_offset[i]), want[i])
        << what << ": event " << i;
  }
}

TEST(EventLayout, EveryInputOrderGivesTheSortedLayout) {
  std::mt19937 rng(7);
  for (int round = 0; round < 60; ++round) {
    std::vector<Slice> tree;
    std::vector<std::vector<size_t>> kids;
    TimeNs t = 0;
    std::vector<size_t> roots;
    while (tree.size() < 200 + static_cast<size_t>(round) * 20) {
      size_t before = tree.size();
      grow(rng, t, t + 5000, 0, &tree, &kids, SIZE_MAX);
      // grow() adds roots and their subtrees; the roots are the slices no one lists as a kid.
      std::vector<bool> is_kid(tree.size(), false);
      for (const auto& k : kids)
        for (size_t c : k) is_kid[c] = true;
      for (size_t i = before; i < tree.size(); ++i)
        if (!is_kid[i]) roots.push_back(i);
      t += 5000;
    }
    // Offsets: distinct, or (every third round) many equal ones so insertion order decides.
    for (size_t i = 0; i < tree.size(); ++i)
      tree[i].off = round % 3 == 2 ? (rng() % 4) * 1000 : 1000 + rng() % 1000000;

    auto in = [&](const std::vector<size_t>& order) {
      std::vector<Slice> v;
      for (size_t i : order) v.push_back(tree[i]);
      return v;
    };
    std::vector<size_t> pre(tree.size());
    std::iota(pre.begin(), pre.end(), size_t{0});
    std::vector<size_t> post;
    for (size_t r : roots) post_order(r, kids, &post);
    ASSERT_EQ(post.size(), tree.size());

    check_order(in(pre), "pre-order (sorted)");
    check_order(in(post), "post-order");
    // Post-order with stragglers: a few slices written later than they should be.
    std::vector<size_t> late = post;
    for (int k = 0; k < 5; ++k) {
      size_t from = rng() % late.size(), to = rng() % late.size();
      size_t v = late[from];
      late.erase(late.begin() + static_cast<std::ptrdiff_t>(from));
      late.insert(late.begin() + static_cast<std::ptrdiff_t>(std::max(from, to) % late.size()), v);
    }
    check_order(in(late), "post-order with stragglers");
    // Sorted but for a few swaps (a handful of runs).
    std::vector<size_t> runs = pre;
    for (int k = 0; k < 3; ++k) std::swap(runs[rng() % runs.size()], runs[rng() % runs.size()]);
    check_order(in(runs), "a few runs");
    std::vector<size_t> shuffled = pre;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    check_order(in(shuffled), "shuffled");
    std::vector<size_t> reversed(pre.rbegin(), pre.rend());
    check_order(in(reversed), "reversed");
  }
}

// B/E pairs on several threads, interleaved in the file, with equal timestamps, ends without a
// begin and begins never closed: the slices must be what a per-thread stack over the marks in
// (time, file order) gives.
TEST(EventLayout, BeginEndMatchingMatchesReference) {
  std::mt19937 rng(11);
  for (int round = 0; round < 40; ++round) {
    TraceStore store;
    TraceBuilder b(&store);
    const int threads = 1 + static_cast<int>(rng() % 4);
    std::vector<uint32_t> track;
    for (int t = 0; t < threads; ++t)
      track.push_back(b.thread_track(b.process("1", 1), std::to_string(t), t));
    struct M {
      int thread;
      TimeNs ts;
      bool begin;
      uint64_t off;
    };
    std::vector<M> marks;
    std::vector<TimeNs> clock(threads, 0);
    for (int k = 0; k < 400; ++k) {
      int t = static_cast<int>(rng() % threads);
      clock[t] += static_cast<TimeNs>(rng() % 3);  // equal timestamps are common
      // Mostly in time order per thread; sometimes a mark from the past.
      TimeNs ts = rng() % 10 == 0 ? clock[t] - static_cast<TimeNs>(rng() % 5) : clock[t];
      marks.push_back(M{t, ts, rng() % 2 == 0, 100 + static_cast<uint64_t>(k)});
    }
    for (const M& m : marks) {
      b.note_time(m.ts);  // as the importer does: open begins end at the last mark
      if (m.begin)
        b.add_begin(track[m.thread], m.ts, 0, 0, m.off, 0);
      else
        b.add_end(track[m.thread], m.ts);
    }
    b.finish();
    testing::expect_valid_layout(store);

    // Reference: per thread, marks by (ts, file order), a stack of begins.
    std::vector<std::tuple<int, TimeNs, TimeNs, uint64_t>> want;  // thread, start, dur, off
    TimeNs end_of_trace = INT64_MIN;
    for (const M& m : marks) end_of_trace = std::max(end_of_trace, m.ts);
    for (int t = 0; t < threads; ++t) {
      std::vector<M> mine;
      for (const M& m : marks)
        if (m.thread == t) mine.push_back(m);
      std::stable_sort(mine.begin(), mine.end(),
                       [](const M& x, const M& y) { return x.ts < y.ts; });
      std::vector<M> stack;
      for (const M& m : mine) {
        if (m.begin) {
          stack.push_back(m);
        } else if (!stack.empty()) {
          want.emplace_back(t, stack.back().ts, m.ts - stack.back().ts, stack.back().off);
          stack.pop_back();
        }
      }
      for (const M& open : stack) want.emplace_back(t, open.ts, end_of_trace - open.ts, open.off);
    }
    std::vector<std::tuple<int, TimeNs, TimeNs, uint64_t>> got;
    const EventColumns& ev = store.events;
    for (size_t i = 0; i < ev.size(); ++i) {
      int t = static_cast<int>(store.tracks[ev.track[i]].tid);
      got.emplace_back(t, ev.start[i], ev.dur[i], ev.src_offset[i]);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want) << "round " << round;
  }
}

// With the input's size known, the columns grow to an estimate of the final count instead of
// doubling: after the load they are nearly full, and after finish() they hold no spare room.
TEST(EventLayout, ColumnsAreSizedFromTheInputSize) {
  for (uint64_t per_event : {100u, 300u}) {
    TraceStore store;
    const size_t n = 200000;
    SourceFile file;
    file.name = "t.json", file.bytes = n * per_event, file.format = "chrome-json";
    store.files.push_back(file);
    TraceBuilder b(&store);
    uint32_t t = b.thread_track(b.process("1", 1), "1", 1);
    for (size_t i = 0; i < n; ++i) {
      b.set_input_progress((i + 1) * per_event);
      b.add_complete(t, static_cast<TimeNs>(i) * 10, 5, 0, 0, i * per_event, 0);
    }
    const EventColumns& ev = store.events;
    EXPECT_LE(ev.start.capacity(), n + n / 10 + 2048) << per_event;  // doubling: up to 2n
    b.finish();
    EXPECT_EQ(ev.size(), n);
    EXPECT_LE(ev.start.capacity(), n + n / 16 + 1024);
    EXPECT_LE(ev.src_offset.capacity(), n + n / 16 + 1024);
  }
}

// A trace with tracks but no events (only counters, or every event dropped): the layout runs
// over empty columns and leaves a valid, empty layout.
TEST(EventLayout, NoEventsGivesAnEmptyLayout) {
  TraceStore store;
  TraceBuilder b(&store);
  b.thread_track(b.process("1", 1), "1", 1);
  b.finish();
  EXPECT_EQ(store.events.size(), 0u);
  testing::expect_valid_layout(store);
}

}  // namespace
}  // namespace strata
