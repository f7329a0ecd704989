// The driver every sliced import shares (formats/chrome_json/sliced_import.h,
// formats/xplane/xplane_sliced.h): each slice is parsed on its own (timed, on the runner given
// or one after another), then the later ones are merged into the first in file order, a slice
// the merge cannot take exactly being read by the first in line instead, and the first is
// finished as after one pass.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace strata {

// What a sliced import did, for tests and benchmarks.
struct SlicedImportStats {
  std::vector<uint64_t> cuts;  // the cut points tried
  size_t refused = 0;          // slices the merge could not take (read in line instead)
  std::vector<double> slice_seconds;
  double merge_seconds = 0, finish_seconds = 0;
};

struct SlicedImportResult {
  bool failed = false;
  std::string failure;
  uint64_t records = 0;
};

// Runs job(0) .. job(n - 1), in any order or at once, and returns when all are done. The core
// has no threads (the browser's workers are the parallelism); a native tool may pass one.
using SliceRunner = std::function<void(size_t n, const std::function<void(size_t)>& job)>;

// `parse(i)` parses slice i (slice 0 into the final store); `can_absorb(head, part)` says
// whether the merge of `part` into the first slice is exact, else `read_in_line(head, i)` feeds
// slice i's bytes to the first. Part has absorb(Part&) and importer().
template <class Part, class Parse, class CanAbsorb, class ReadInLine>
SlicedImportResult run_slices(size_t n, const Parse& parse, const CanAbsorb& can_absorb,
                              const ReadInLine& read_in_line, const SliceRunner& run,
                              SlicedImportStats* st) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  std::vector<std::unique_ptr<Part>> parts(n);
  st->slice_seconds.assign(n, 0);
  auto job = [&](size_t i) {
    const auto t0 = Clock::now();
    parts[i] = parse(i);
    st->slice_seconds[i] = since(t0);
  };
  if (run) {
    run(n, job);
  } else {
    for (size_t i = 0; i < n; ++i) job(i);
  }
  const auto t0 = Clock::now();
  Part& head = *parts[0];
  for (size_t i = 1; i < n; ++i) {
    if (can_absorb(head, *parts[i])) {
      head.absorb(*parts[i]);
    } else {
      ++st->refused;
      read_in_line(head, i);
    }
    parts[i].reset();
  }
  st->merge_seconds = since(t0);
  const auto t1 = Clock::now();
  auto& imp = head.importer();
  imp.finish();
  st->finish_seconds = since(t1);
  return SlicedImportResult{imp.failed(), imp.failure(), imp.records()};
}

}  // namespace strata
