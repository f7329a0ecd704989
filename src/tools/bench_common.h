// What the benchmark tools share: the process's CPU time and peak memory, and digests of a
// loaded store and its pyramid (so an optimisation can be checked to build exactly the same).
// Each tool is one translation unit that includes this once (EM_JS defines a function).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/base/fnv.h"
#include "core/pyramid/pyramid.h"
#include "core/store/store_digest.h"
#include "core/store/trace_store.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#include <sys/resource.h>
#endif

#ifdef __EMSCRIPTEN__
// The node process's CPU time (all its threads, so V8's background compilers count too).
EM_JS(double, node_cpu_seconds, (), {
  if (!globalThis.process || !process.cpuUsage) return 0;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
});
#endif

namespace strata_bench {

// Peak memory of the process so far, in bytes.
inline uint64_t peak_bytes() {
#ifdef __EMSCRIPTEN__
  return static_cast<uint64_t>(__builtin_wasm_memory_size(0)) * 65536;
#else
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
#endif
}

// User + system CPU seconds of the process.
inline double cpu_seconds() {
#ifdef __EMSCRIPTEN__
  return node_cpu_seconds();
#else
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
#endif
}

// The store's digest is the core's (core/store/store_digest.h), which the browser's summary
// gives too (strata.summary({digest: true})).
using strata::store_digest;

// FNV-1a over the pyramid (levels, bins, long events, counter min/max).
inline uint64_t pyramid_digest(const strata::Pyramid& p) {
  strata::Fnv64 d;
  d.pod(p.origin);
  for (const strata::PyramidRow& r : p.rows) d.pod(r.track), d.pod(r.depth);
  for (const strata::PyramidLevel& L : p.levels) {
    d.pod(L.bin_ns), d.vec(L.row_bins), d.vec(L.bin), d.vec(L.count), d.vec(L.busy);
    d.vec(L.longest), d.vec(L.row_long), d.vec(L.long_events);
  }
  for (const auto& L : p.counters.levels) d.vec(L.min), d.vec(L.max);
  return d.h;
}

}  // namespace strata_bench
