// One level of the layered layout: a plain graph (no groups) of boxes, laid out with its
// top-left corner at (0, 0). layered_layout.cc runs it once per group and once for the top.
#pragma once
#include <cstdint>
#include <vector>

#include "core/graph/layered_layout.h"

namespace strata::graph {

struct FlatGraph {
  std::vector<float> width, height;
  std::vector<uint32_t> src, dst;  // no self loops, no duplicates, indices in range
  // Optional, per node: kPinTop keeps a source in the top layer, kPinBottom puts a sink in the
  // bottom layer (a group's ports: where edges from outside come in and go out).
  std::vector<uint8_t> pin;
};
constexpr uint8_t kPinTop = 1, kPinBottom = 2;

struct FlatLayout {
  std::vector<float> x, y;  // box centres
  std::vector<int32_t> layer;
  std::vector<uint8_t> reversed;       // per edge
  std::vector<uint32_t> point_offset;  // per edge + 1: interior points, source → target
  std::vector<float> points;           // x, y pairs
  float width = 0, height = 0;
  int64_t crossings = 0;
  int64_t dummies = 0;
};

FlatLayout flat_layout(const FlatGraph& g, const LayoutOptions& opt);

// Crossings between two adjacent layers, given each edge's (upper position, lower position):
// sorts by upper then counts inversions of lower with a Fenwick tree, O(E log E). Exposed
// for the tests' reference counts.
int64_t count_crossings(std::vector<std::pair<uint32_t, uint32_t>>& edges, uint32_t lower_size);

}  // namespace strata::graph
