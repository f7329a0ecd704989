// Loading bytes through the Engine the way the engine worker does (web/worker/trace.js): in
// chunks through load_buffer / load_commit, then the memory scan when the trace has memory
// events. Shared by the engine and analysis tests.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/engine.h"

namespace strata::testing {

// Loads `bytes` as file `name` in chunks of `chunk` bytes (0: all at once); false when the load
// failed (e->last_error() says why).
inline bool load_trace(Engine* e, const std::string& name, const std::string& bytes,
                       size_t chunk = 1 << 20) {
  e->load_begin(name, bytes.size());
  if (chunk == 0) chunk = bytes.size() ? bytes.size() : 1;
  for (size_t off = 0; off < bytes.size(); off += chunk) {
    const size_t n = std::min(chunk, bytes.size() - off);
    std::memcpy(e->load_buffer(n), bytes.data() + off, n);
    e->load_commit(n);
  }
  return e->load_end();
}

// The memory scan after a load: when the trace has memory events, its bytes are fed again (all
// at once) for their records. Returns what memory_scan_begin wanted (0: no scan).
inline uint32_t scan_memory(Engine* e, const std::string& bytes) {
  const uint32_t wanted = e->memory_scan_begin();
  if (wanted == 0) return 0;
  std::memcpy(e->load_buffer(bytes.size()), bytes.data(), bytes.size());
  e->memory_scan_feed(e->load_buffer(bytes.size()), bytes.size());
  e->memory_scan_end();
  return wanted;
}

}  // namespace strata::testing
