// Live and peak bytes of every operator new of this test binary (heap_counter.cc replaces the
// global operator new and delete; the memory tests are a binary of their own for that reason).
#pragma once
#include <cstddef>

namespace strata::testing {

size_t heap_live();  // bytes requested by operator new and not deleted yet
size_t heap_peak();  // the most heap_live() was since the last reset_heap_peak()
void reset_heap_peak();

}  // namespace strata::testing
