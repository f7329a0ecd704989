// The Graph tab's GPU scene: the laid-out graph's group boxes, edges (one curve instance per
// polyline segment, one arrowhead per edge) and node boxes in world units, stored in the order
// of their spatial indexes (core/graph/tile_index.h). Built once per layout and uploaded once
// (platform/gl/world_renderer.h); a frame only picks the index ranges its view meets, so
// neither the CPU nor the upload grows with the graph, at any zoom. Text, the selection and
// hover stay with ImGui, on top.
#pragma once
#include <cstdint>

#include "core/graph/graph_message.h"
#include "core/graph/tile_index.h"
#include "platform/gl/world_renderer.h"

namespace strata {

struct GraphScene {
  uint64_t built_for = 0;    // GraphView::data_version it was built from (0: none)
  bool built_light = false;  // the theme its colours are from
  graph::TileIndex nodes, segments, arrows;
  // Zoomed far out: the edges' polylines simplified within `coarse_tol` world units (most
  // edges become one or two segments), drawn instead while that is under half a pixel. Their
  // instances follow the full set's in WorldLayer::curves.
  graph::TileIndex coarse;
  float coarse_tol = 0;
};

// Fills layer->{under, curves, arrows, over}.items from the graph, in the current theme's
// colours, and bumps layer->version.
void graph_scene_build(const graph::GraphData& d, GraphScene* s, WorldLayer* layer);

// Sets the layer's ranges for the world rectangle in view (everything that meets it, and a
// little more). `arrows`: draw arrowheads (they are too small to see when zoomed far out).
void graph_scene_view(const GraphScene& s, float vx0, float vy0, float vx1, float vy1, bool arrows,
                      WorldLayer* layer);

}  // namespace strata
