// Replaces the global operator new / delete with malloc / free behind a 16-byte header that
// keeps the requested size, so live and peak bytes are counted exactly whatever the allocator.
#include "heap_counter.h"

#include <cstdlib>
#include <new>

namespace strata::testing {
namespace {

constexpr size_t kHeader = 16;  // keeps the default new alignment
size_t g_live = 0;
size_t g_peak = 0;

void* counted_new(size_t n) {
  auto* p = static_cast<unsigned char*>(std::malloc(n + kHeader));
  if (!p) return nullptr;
  *reinterpret_cast<size_t*>(p) = n;
  g_live += n;
  if (g_live > g_peak) g_peak = g_live;
  return p + kHeader;
}

void counted_delete(void* q) {
  if (!q) return;
  auto* p = static_cast<unsigned char*>(q) - kHeader;
  g_live -= *reinterpret_cast<size_t*>(p);
  std::free(p);
}

void* counted_new_or_throw(size_t n) {
  void* p = counted_new(n);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

size_t heap_live() { return g_live; }
size_t heap_peak() { return g_peak; }
void reset_heap_peak() { g_peak = g_live; }

}  // namespace strata::testing

using strata::testing::counted_delete;
using strata::testing::counted_new;
using strata::testing::counted_new_or_throw;

void* operator new(size_t n) { return counted_new_or_throw(n); }
void* operator new[](size_t n) { return counted_new_or_throw(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return counted_new(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return counted_new(n); }
void operator delete(void* p) noexcept { counted_delete(p); }
void operator delete[](void* p) noexcept { counted_delete(p); }
void operator delete(void* p, size_t) noexcept { counted_delete(p); }
void operator delete[](void* p, size_t) noexcept { counted_delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_delete(p); }
