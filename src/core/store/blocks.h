// Loop helpers of TraceBuilder::finish(): long loops cut into calls of a few thousand
// iterations, and the counting sort several of its passes use.
//
// In the browser, V8 first compiles each wasm function with its baseline compiler and swaps in
// optimized code at the function's next call once it has run enough: there is no on-stack
// replacement for wasm. finish() runs once per load, so a loop over millions of events inside
// one call runs baseline code, 2-3x slower, to its end. Called block by block, the loop body
// is a function of its own that is optimized after the first blocks. Natively this costs one
// call per block.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata {

constexpr size_t kLoopBlock = 8192;

// The body runs in its own (never inlined) function per body type: what V8 optimizes.
template <class Body>
__attribute__((noinline)) void run_block(const Body& body, size_t lo, size_t hi) {
  body(lo, hi);
}

// `f` as a pointer the compiler cannot see through, so calls through it stay calls. noinline
// alone does not survive the wasm link: wasm-opt inlines every function that has a single
// caller, loops and all, which put most blocked loops back into one long baseline-code call.
// A function whose address is taken is in the table, and wasm-opt leaves those alone.
template <class F>
F* opaque_function(F* f) {
  F* volatile p = f;
  return p;
}

// Calls body(lo, hi) for consecutive blocks covering [begin, end), in order.
template <class Body>
void for_blocks(size_t begin, size_t end, const Body& body) {
  if (begin >= end) return;
  auto* run = opaque_function(&run_block<Body>);
  for (size_t lo = begin; lo < end; lo += kLoopBlock) run(body, lo, std::min(end, lo + kLoopBlock));
}

// Calls step() until it returns false, each call in a never-inlined function as above: for
// loops whose length is not known ahead (a walk over protobuf fields); each step() should do
// up to kLoopBlock items.
template <class Step>
__attribute__((noinline)) bool run_step(const Step& step) {
  return step();
}

template <class Step>
void while_blocks(const Step& step) {
  auto* run = opaque_function(&run_step<Step>);
  while (run(step)) {
  }
}

// Stable counting sort of [0, n) by key(i) < range: the order used for grouping events, marks
// and flow steps by track and edges by event, in O(n + range) without comparisons.
// When `ends` is given, it receives where each key's run ends in the order.
template <class Key>
std::vector<uint32_t> counting_order(size_t n, size_t range, Key key,
                                     std::vector<uint32_t>* ends = nullptr) {
  std::vector<uint32_t> first(range + 1, 0);
  for_blocks(0, n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) ++first[key(i) + 1];
  });
  uint32_t sum = 0;
  for_blocks(1, range + 1, [&](size_t lo, size_t hi) {
    uint32_t acc = sum;
    for (size_t k = lo; k < hi; ++k) first[k] = acc += first[k];
    sum = acc;
  });
  std::vector<uint32_t> order(n);
  for_blocks(0, n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) order[first[key(i)]++] = static_cast<uint32_t>(i);
  });
  if (ends) {
    first.pop_back();  // first[k] is now the end of key k's run
    ends->swap(first);
  }
  return order;
}

}  // namespace strata
