// TraceBuilder::layout_events and layout_counters: the part of finish() that puts the columns in
// their final order (trace_store.h): events grouped by track, then depth, then start; counter
// samples grouped by series, then time.
//
// Ordering a track's events is most of finish() on a big trace, and inputs are rarely random:
// a track is usually in start order already, or its slices were written as they ended (Kineto's
// CPU ops, matched B/E: each slice after its children), or nearly one of those. Both are put in
// order in linear time (merge_runs, order_nested); only other input pays for a general sort.
// Loops over all events run in blocks (blocks.h) so the browser optimizes them.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>

#include "core/store/blocks.h"
#include "core/store/trace_builder.h"

namespace strata {

namespace {

// Reorders a column so that out[k] = col[order[k]] (counter samples: small).
template <class T>
void permute(std::vector<T>* col, const std::vector<uint32_t>& order) {
  std::vector<T> out;
  out.reserve(order.size());
  for (uint32_t i : order) out.push_back((*col)[i]);
  col->swap(out);
}

// The buffer the columns are reordered through: 4 bytes per event, in pieces of 256 KB. The
// load's growing columns leave holes in the heap (each regrowth frees the smaller copy) that a
// column-sized block does not fit in, so it would go on top of the heap; pieces fill the holes.
class PieceBuffer {
 public:
  static constexpr size_t kShift = 16;
  static constexpr size_t kPiece = size_t{1} << kShift;  // entries; a multiple of kLoopBlock
  static_assert(kPiece % kLoopBlock == 0, "a block of for_blocks lies in one piece");

  explicit PieceBuffer(size_t n) : n_(n) {
    for (size_t k = 0; k < n; k += kPiece)
      pieces_.emplace_back(new uint32_t[std::min(kPiece, n - k)]);
  }
  // Entries [k, k + (block length)) for a block [k, ...) of for_blocks(0, n).
  uint32_t* at(size_t k) { return pieces_[k >> kShift].get() + (k & (kPiece - 1)); }
  // The same for values of T packed from each piece's start (T of at most 4 bytes).
  template <class T>
  T* at_packed(size_t k) {
    return reinterpret_cast<T*>(pieces_[k >> kShift].get()) + (k & (kPiece - 1));
  }
  size_t pieces() const { return pieces_.size(); }
  size_t piece_size(size_t p) const { return std::min(kPiece, n_ - (p << kShift)); }
  const uint32_t* piece(size_t p) const { return pieces_[p].get(); }

 private:
  size_t n_;
  std::vector<std::unique_ptr<uint32_t[]>> pieces_;
};

// Puts a column of values of at most 4 bytes in layout order, col[k] = col[order[k]], through
// `buf`: a gather into buf (independent random reads, which the memory system overlaps;
// walking the permutation's cycles in place reads one miss at a time, 2-3x slower), then a
// sequential copy back. The buffer is allocated once for all columns.
template <class T>
void permute_through(std::vector<T>* col, const uint32_t* order, PieceBuffer* buf) {
  static_assert(sizeof(T) <= sizeof(uint32_t), "8-byte columns go through permute_halves");
  const T* in = col->data();
  for_blocks(0, col->size(), [&](size_t lo, size_t hi) {
    T* out = buf->at_packed<T>(lo);
    for (size_t k = lo; k < hi; ++k) out[k - lo] = in[order[k]];
  });
  T* dst = col->data();
  for (size_t p = 0; p < buf->pieces(); ++p)
    std::memcpy(dst + (p << PieceBuffer::kShift), buf->piece(p), buf->piece_size(p) * sizeof(T));
}

// The same for a column of 8-byte values through the same 4-byte buffer, one half of each value
// at a time: once every value's first half is gathered, the first halves in place are not read
// again and are overwritten; the second halves are all still where they were. So the buffer is
// half the column, and the layout's peak is the final columns + 4 bytes per event.
template <class T>
void permute_halves(std::vector<T>* col, const uint32_t* order, PieceBuffer* buf) {
  static_assert(sizeof(T) == 2 * sizeof(uint32_t), "a column of 8-byte values");
  if (col->empty()) return;  // data() may be null: no offset may be applied to it
  auto* bytes = reinterpret_cast<unsigned char*>(col->data());
  for (size_t half = 0; half < 2; ++half) {
    unsigned char* base = bytes + half * sizeof(uint32_t);
    for_blocks(0, col->size(), [&](size_t lo, size_t hi) {
      uint32_t* out = buf->at(lo);
      for (size_t k = lo; k < hi; ++k)
        std::memcpy(&out[k - lo], base + size_t{order[k]} * sizeof(T), sizeof(uint32_t));
    });
    for_blocks(0, col->size(), [&](size_t lo, size_t hi) {
      const uint32_t* in = buf->at(lo);
      for (size_t k = lo; k < hi; ++k)
        std::memcpy(base + k * sizeof(T), &in[k - lo], sizeof(uint32_t));
    });
  }
}

// Frees a column's spare capacity when it is more than a few percent (the load reserves
// columns by an estimate of the final count, see TraceBuilder::next_capacity; compressed input
// doubles them).
template <class T>
void trim(std::vector<T>* col) {
  if (col->capacity() - col->size() > col->size() / 16 + 1024) col->shrink_to_fit();
}

// Sorts data[0, m) by `before` when it is made of few ascending runs (a natural merge sort:
// runs are merged pairwise, O(m log runs)). buf is scratch of m entries. Returns false, with
// data unchanged, when there are more than m / 16 runs: a general sort is faster then.
template <class Before>
bool merge_runs(uint32_t* data, uint32_t m, Before before, uint32_t* buf,
                std::vector<uint32_t>* bounds) {
  const size_t limit = m / 16 + 1;
  bounds->assign(1, 0);
  for_blocks(1, m, [&](size_t lo, size_t hi) {
    if (bounds->size() > limit) return;
    for (size_t k = lo; k < hi; ++k) {
      if (before(data[k], data[k - 1])) {
        bounds->push_back(static_cast<uint32_t>(k));
        if (bounds->size() > limit) return;
      }
    }
  });
  if (bounds->size() > limit) return false;
  bounds->push_back(m);
  uint32_t* src = data;
  uint32_t* dst = buf;
  while (bounds->size() > 2) {
    std::vector<uint32_t>& bd = *bounds;
    size_t out = 1;
    for (size_t r = 0; r + 1 < bd.size(); r += 2) {
      const size_t lo = bd[r], mid = bd[r + 1], hi = r + 2 < bd.size() ? bd[r + 2] : mid;
      size_t i = lo, j = mid;  // stable: on ties the first run's element goes first
      for_blocks(lo, hi, [&](size_t k0, size_t k1) {
        size_t a = i, b = j;
        for (size_t k = k0; k < k1; ++k)
          dst[k] = b < hi && (a == mid || before(src[b], src[a])) ? src[b++] : src[a++];
        i = a, j = b;
      });
      bd[out++] = static_cast<uint32_t>(hi);
    }
    bd.resize(out);
    std::swap(src, dst);
  }
  if (src != data) std::copy(src, src + m, data);
  return true;
}

// Puts the events id[0, m) in `before` order in linear time when they are slices written as
// they end, each after its children (a post-order of nested slices: Kineto's CPU ops, matched
// B/E), and returns true; a few events out of place (a child written after its parent) cost a
// short natural merge sort. Other input returns false with id unchanged.
//
// The events seen so far form consecutive sorted runs, kept on a stack (heads[], tails[]) and
// chained into one list (next[]). A new event goes in front of every run at the top of the
// stack that sorts after it (for nested slices: its children), and heads the merged run.
// next and heads are scratch arrays of m entries; tails grows with the stack (nested slices:
// their depth).
template <class Before>
bool order_nested(uint32_t* id, uint32_t m, Before before, uint32_t* next, uint32_t* heads,
                  std::vector<uint32_t>* tail_stack, std::vector<uint32_t>* bounds) {
  uint32_t runs = 0;
  for_blocks(0, m, [&](size_t lo, size_t hi) {
    uint32_t r = runs;
    uint32_t* tails = tail_stack->data();
    for (auto p = static_cast<uint32_t>(lo); p < hi; ++p) {
      if (r >= tail_stack->size()) {
        tail_stack->resize(std::max<size_t>(64, 2 * size_t{r}));
        tails = tail_stack->data();
      }
      uint32_t j = r;
      while (j > 0 && before(id[p], id[heads[j - 1]])) --j;
      next[p] = j < r ? heads[j] : kNone;
      tails[j] = j < r ? tails[r - 1] : p;
      if (j > 0) next[tails[j - 1]] = p;
      heads[j] = p;
      r = j + 1;
    }
    runs = r;
  });
  // Walk the list into heads[] (free now), then finish the order with next[] as scratch.
  uint32_t* out = heads;
  uint32_t h = heads[0];
  for_blocks(0, m, [&](size_t lo, size_t hi) {
    uint32_t x = h;
    for (size_t k = lo; k < hi; ++k, x = next[x]) out[k] = id[x];
    h = x;
  });
  if (!merge_runs(out, m, before, next, bounds)) return false;
  std::copy(out, out + m, id);
  return true;
}

}  // namespace

// Groups events by track, assigns depths with the stack rule and orders each track's events
// by (depth, start).
void TraceBuilder::layout_events(const std::vector<uint32_t>& new_track) {
  TraceStore& s = *store_;
  EventColumns& ev = s.events;
  const size_t n = ev.size();
  const size_t nt = s.tracks.size();
  // The columns are complete: free their spare capacity now, before the temporaries below
  // (each copy's old block is a hole the next one fits in).
  trim(&ev.start), trim(&ev.dur), trim(&ev.name), trim(&ev.cat), trim(&ev.track);
  trim(&ev.phase), trim(&ev.src_offset), trim(&ev.src_len);
  const uint32_t* track_of = ev.track.data();
  const uint32_t* renumber = new_track.data();

  std::vector<uint32_t> first(nt + 1, 0);
  for_blocks(0, n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) ++first[renumber[track_of[i]] + 1];
  });
  for (size_t t = 0; t < nt; ++t) first[t + 1] += first[t];
  // Memory: the heap's peak of a load is here, so no column-sized temporary is kept longer
  // than needed. `depth` (the final depth column) first holds idx, the events grouped by track;
  // a track's depths overwrite its part once that is ordered. `order` (the layout: the old index
  // of each new position) lives in the track column, which is not read once idx is built and is
  // rewritten at the end. tdepth holds one track's depths (the widest track's size), then the
  // columns are reordered through a buffer of 4 bytes per event: the peak is the final columns
  // + 4 bytes per event.
  std::vector<uint32_t> depth(n);
  uint32_t* idx = depth.data();
  {
    std::vector<uint32_t> pos(first.begin(), first.end() - 1);
    for_blocks(0, n, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) idx[pos[renumber[track_of[i]]]++] = static_cast<uint32_t>(i);
    });
  }
  uint32_t* order = ev.track.data();
  uint32_t widest = 0;
  for (size_t t = 0; t < nt; ++t) widest = std::max(widest, first[t + 1] - first[t]);
  std::vector<uint32_t> tdepth_buf(widest);
  uint32_t* tdepth = tdepth_buf.data();
  std::vector<uint32_t> tails;  // order_nested's stack

  // Within a track: by start, parents (longer) before children, then file order.
  const TimeNs* start = ev.start.data();
  const TimeNs* dur = ev.dur.data();
  auto before = [&](uint32_t a, uint32_t b) {
    if (start[a] != start[b]) return start[a] < start[b];
    if (dur[a] != dur[b]) return dur[a] > dur[b];  // parents before children
    if (ev.src_offset[a] != ev.src_offset[b]) return ev.src_offset[a] < ev.src_offset[b];
    return a < b;
  };
  // The general sort runs on (start, index) pairs, which are contiguous, and looks at the
  // other columns only for equal starts: `before` over the columns is several times slower.
  struct StartKey {
    TimeNs start;
    uint32_t i;
  };
  auto key_less = [&](const StartKey& x, const StartKey& y) {
    return x.start != y.start ? x.start < y.start : before(x.i, y.i);
  };
  std::vector<StartKey> keys;
  std::vector<TimeNs> stack;
  std::vector<uint32_t> per_depth, bounds;
  for (size_t t = 0; t < nt; ++t) {
    Track& tr = s.tracks[t];
    const uint32_t a = first[t], b = first[t + 1];
    tr.first_event = a;
    tr.event_count = b - a;
    tr.max_depth = 0;
    tr.rows.clear();
    if (tr.kind == TrackKind::kCounter && a == b) continue;
    // Most tracks are in order already, or are slices written when they end (children before
    // their parent: Kineto's CPU ops, matched B/E), which order_nested puts in order in
    // linear time. Anything else is sorted. order[a, b) and tdepth are scratch here.
    if (!merge_runs(idx + a, b - a, before, order + a, &bounds) &&
        !order_nested(idx + a, b - a, before, order + a, tdepth, &tails, &bounds)) {
      keys.resize(b - a);
      for (uint32_t k = a; k < b; ++k) keys[k - a] = StartKey{start[idx[k]], idx[k]};
      std::sort(keys.begin(), keys.end(), key_less);
      for (uint32_t k = a; k < b; ++k) idx[k] = keys[k - a].i;
    }
    uint32_t max_depth = 0;
    if (tr.kind == TrackKind::kAsync || tr.kind == TrackKind::kObject) {
      // build_async chose these depths (slice trees packed into lanes).
      for (uint32_t k = a; k < b; ++k) {
        auto it =
            std::lower_bound(given_depth_.begin(), given_depth_.end(), std::make_pair(idx[k], 0u));
        uint32_t d = it != given_depth_.end() && it->first == idx[k] ? it->second : 0;
        tdepth[k - a] = d;
        max_depth = std::max(max_depth, d);
      }
    } else {
      // Stack rule: pop slices that ended by this start; depth = what is still open.
      stack.clear();
      const char* phase = ev.phase.data();
      for_blocks(a, b, [&](size_t lo, size_t hi) {
        uint32_t md = max_depth;
        for (size_t k = lo; k < hi; ++k) {
          uint32_t i = idx[k];
          TimeNs st = start[i];
          while (!stack.empty() && stack.back() <= st) stack.pop_back();
          auto d = static_cast<uint32_t>(stack.size());
          tdepth[k - a] = d;
          md = std::max(md, d);
          if (!is_instant_phase(phase[i])) stack.push_back(end_of(st, dur[i]));
        }
        max_depth = md;
      });
    }
    // Stable counting sort by depth keeps each row in start order.
    per_depth.assign(max_depth + 2, 0);
    for (uint32_t k = a; k < b; ++k) ++per_depth[tdepth[k - a] + 1];
    for (uint32_t d = 0; d <= max_depth; ++d) per_depth[d + 1] += per_depth[d];
    tr.max_depth = max_depth;
    tr.rows.resize(max_depth + 2);
    for (uint32_t d = 0; d <= max_depth + 1; ++d) tr.rows[d] = a + per_depth[d];
    for_blocks(a, b, [&](size_t lo, size_t hi) {
      for (size_t k = lo; k < hi; ++k) order[a + per_depth[tdepth[k - a]]++] = idx[k];
    });
    // Rows are contiguous: the depth column is filled row by row (idx[a, b) is read no more).
    for (uint32_t d = 0; d <= max_depth; ++d)
      std::fill(depth.begin() + tr.rows[d], depth.begin() + tr.rows[d + 1], d);
  }
  std::vector<StartKey>().swap(keys);
  std::vector<std::pair<uint32_t, uint32_t>>().swap(given_depth_);
  std::vector<uint32_t>().swap(tails);
  std::vector<uint32_t>().swap(tdepth_buf);

  {
    PieceBuffer buf(n);
    permute_halves(&ev.start, order, &buf);
    permute_halves(&ev.dur, order, &buf);
    permute_halves(&ev.src_offset, order, &buf);
    permute_through(&ev.name, order, &buf);
    permute_through(&ev.cat, order, &buf);
    permute_through(&ev.src_len, order, &buf);
    permute_through(&ev.phase, order, &buf);
  }
  ev.depth.swap(depth);
  for (size_t t = 0; t < nt; ++t)
    std::fill(ev.track.begin() + first[t], ev.track.begin() + first[t + 1],
              static_cast<uint32_t>(t));
}

// Orders series by (track, first appearance) and their samples by time.
void TraceBuilder::layout_counters(const std::vector<uint32_t>& new_track) {
  TraceStore& s = *store_;
  const size_t ns = s.series.size();
  for (CounterSeries& cs : s.series) cs.track = new_track[cs.track];
  std::vector<uint32_t> sorder(ns);
  std::iota(sorder.begin(), sorder.end(), 0u);
  std::stable_sort(sorder.begin(), sorder.end(),
                   [&](uint32_t a, uint32_t b) { return s.series[a].track < s.series[b].track; });
  std::vector<uint32_t> new_series(ns);
  std::vector<CounterSeries> series(ns);
  for (uint32_t k = 0; k < ns; ++k) {
    new_series[sorder[k]] = k;
    series[k] = s.series[sorder[k]];
  }
  s.series.swap(series);

  const size_t n = s.samples.size();
  std::vector<uint32_t> first(ns + 1, 0);
  for (size_t i = 0; i < n; ++i) ++first[new_series[sample_series_[i]] + 1];
  for (size_t k = 0; k < ns; ++k) first[k + 1] += first[k];
  std::vector<uint32_t> order(n);
  {
    std::vector<uint32_t> pos(first.begin(), first.end() - 1);
    for (size_t i = 0; i < n; ++i)
      order[pos[new_series[sample_series_[i]]]++] = static_cast<uint32_t>(i);
  }
  std::vector<uint32_t>().swap(sample_series_);
  const std::vector<TimeNs>& ts = s.samples.ts;
  auto before = [&](uint32_t a, uint32_t b) { return ts[a] != ts[b] ? ts[a] < ts[b] : a < b; };
  for (size_t k = 0; k < ns; ++k) {
    auto b = order.begin() + first[k], e = order.begin() + first[k + 1];
    if (!std::is_sorted(b, e, before)) std::sort(b, e, before);
    s.series[k].first_sample = first[k];
    s.series[k].sample_count = first[k + 1] - first[k];
  }
  permute(&s.samples.ts, order);
  permute(&s.samples.value, order);

  for (Track& t : s.tracks) t.first_series = t.series_count = 0;
  for (uint32_t k = ns; k-- > 0;) {
    Track& t = s.tracks[s.series[k].track];
    t.first_series = k;
    ++t.series_count;
  }
}

}  // namespace strata
