#include "engine/bundle_partial.h"

#include <algorithm>

namespace strata {

namespace {

// The last run starting at or before `key` (by `field`), or runs.end().
template <typename F>
std::vector<PartialStore::Run>::const_iterator run_at(const std::vector<PartialStore::Run>& runs,
                                                      uint32_t key, F field) {
  auto it = std::upper_bound(runs.begin(), runs.end(), key,
                             [&](uint32_t k, const auto& r) { return k < field(r); });
  return it == runs.begin() ? runs.end() : it - 1;
}

}  // namespace

uint32_t PartialStore::global(uint32_t local) const {
  auto r = run_at(runs, local, [](const Run& x) { return x.local; });
  return r == runs.end() ? kNone : r->global + (local - r->local);
}

uint32_t PartialStore::local(uint32_t global) const {
  auto r = run_at(runs, global, [](const Run& x) { return x.global; });
  if (r == runs.end() || global - r->global >= r->count) return kNone;
  return r->local + (global - r->global);
}

uint32_t PartialStore::before(uint32_t global) const {
  auto r = run_at(runs, global, [](const Run& x) { return x.global; });
  if (r == runs.end()) return 0;
  return r->local + std::min(global - r->global, r->count);
}

}  // namespace strata
