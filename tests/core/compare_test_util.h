// Loading a trace as the compare session's B the way web/worker/compare.js does: in chunks
// through load_buffer / load_commit, then load_end. Shared by the compare tests.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>

#include "engine/compare/compare_session.h"

namespace strata::testing {

// True when B loaded (c->last_error() says why not).
inline bool load_b(CompareSession* c, const std::string& name, const std::string& bytes,
                   size_t chunk = 64 << 10) {
  c->load_begin(name, bytes.size());
  for (size_t off = 0; off < bytes.size(); off += chunk) {
    const size_t n = std::min(chunk, bytes.size() - off);
    std::memcpy(c->load_buffer(n), bytes.data() + off, n);
    c->load_commit(n);
  }
  return c->load_end();
}

}  // namespace strata::testing
