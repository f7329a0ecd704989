// What the sliced-load tests share: sliced_import_test and xplane_sliced_test compare a sliced
// import with one pass (the store's digest, the result, the messages, and what the format keeps
// beside the store, as text); engine_sliced_test and engine_sliced_xspace_test drive the engine
// as the engine worker and its slice workers do (web/worker/sliced.js).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/store/trace_store.h"
#include "engine/engine.h"
#include "engine/slice_session.h"
#include "tools/bench_common.h"

namespace strata::testing {

struct SlicedLoad {
  uint64_t digest = 0;
  bool failed = false;
  std::string failure;
  uint64_t records = 0, events = 0;
  std::vector<std::string> errors;
  std::string extra;  // the format's side tables, as text
};

// The file's entry a load has before its bytes come (it sizes the columns).
inline void add_source_file(TraceStore* store, const char* name, size_t bytes,
                            const char* compression = nullptr) {
  SourceFile f;
  f.name = name;
  f.bytes = bytes;
  if (compression) f.compression = compression;
  store->files.push_back(f);
}

inline SlicedLoad summarize_load(const TraceStore& s, bool failed, std::string failure,
                                 uint64_t records, std::string extra) {
  SlicedLoad l;
  l.digest = strata_bench::store_digest(s);
  l.failed = failed;
  l.failure = std::move(failure);
  l.records = records;
  l.events = s.events.size();
  l.errors = s.errors;
  l.extra = std::move(extra);
  return l;
}

inline void expect_same_load(const SlicedLoad& a, const SlicedLoad& b, const std::string& what) {
  EXPECT_EQ(a.digest, b.digest) << what;
  EXPECT_EQ(a.failed, b.failed) << what;
  EXPECT_EQ(a.failure, b.failure) << what;
  EXPECT_EQ(a.records, b.records) << what;
  EXPECT_EQ(a.errors, b.errors) << what;
  EXPECT_TRUE(a.extra == b.extra) << what << ": the side tables differ";
}

// `bytes` into the engine's load, `chunk` bytes at a time, as the worker commits them.
inline void commit_chunks(Engine& e, std::string_view bytes, size_t chunk) {
  for (size_t off = 0; off < bytes.size(); off += chunk) {
    const size_t n = std::min(chunk, bytes.size() - off);
    std::memcpy(e.load_buffer(n), bytes.data() + off, n);
    e.load_commit(n);
  }
}

// A later slice parsed by another worker's session (begun by the caller), encoded, and absorbed
// by the engine, or fed to it when it cannot be: true when absorbed.
inline bool absorb_or_feed(Engine& e, SliceSession& s, std::string_view part, size_t chunk) {
  for (size_t off = 0; off < part.size(); off += chunk) {
    const size_t n = std::min(chunk, part.size() - off);
    std::memcpy(s.buffer(n), part.data() + off, n);
    s.commit(n);
  }
  const std::vector<uint8_t> wire = s.end();
  if (e.load_absorb_slice(wire.data(), wire.size(), part.size())) return true;
  commit_chunks(e, part, chunk);
  return false;
}

}  // namespace strata::testing
