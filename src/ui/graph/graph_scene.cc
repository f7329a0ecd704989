#include "ui/graph/graph_scene.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "ui/theme.h"

namespace strata {

namespace {

constexpr uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a = 255) {
  return r | g << 8 | b << 16 | a << 24;  // 0xAABBGGRR, as ImGui's IM_COL32
}

// Box colour by opcode family, so data movement, math, control and fusions stand apart.
uint32_t opcode_colour(std::string_view op) {
  auto is = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (op == n) return true;
    return false;
  };
  if (op == "fusion") return rgba(255, 226, 170);
  if (is({"parameter", "constant", "iota"})) return rgba(214, 214, 214);
  if (is({"dot", "convolution", "custom-call"})) return rgba(255, 190, 190);
  if (is({"while", "call", "conditional", "async-start", "async-done"})) return rgba(210, 190, 255);
  if (op.find("all-") == 0 || op.find("reduce-scatter") == 0 || op.find("collective") == 0 ||
      op.find("send") == 0 || op.find("recv") == 0)
    return rgba(180, 230, 255);
  if (is({"reshape", "transpose", "broadcast", "slice", "dynamic-slice", "dynamic-update-slice",
          "concatenate", "copy", "bitcast", "pad", "gather", "scatter", "tuple",
          "get-tuple-element", "copy-start", "copy-done"}))
    return rgba(200, 235, 200);
  if (is({"reduce", "reduce-window", "sort", "select-and-scatter"})) return rgba(240, 210, 240);
  return rgba(220, 232, 248);
}

// The family colour in the theme: each channel times the theme's box tint (the dark theme
// darkens the fills so its light text reads on them).
uint32_t themed(uint32_t rgba_colour) {
  const uint32_t tint = theme::kGraphBoxTint;
  uint32_t out = rgba_colour & 0xFF000000u;
  for (int shift = 0; shift < 24; shift += 8) {
    const uint32_t c = (rgba_colour >> shift) & 0xFF, t = (tint >> shift) & 0xFF;
    out |= ((c * t + 127) / 255) << shift;
  }
  return out;
}

// Items in the index's order.
template <typename Make>
void fill_in_order(const graph::TileIndex& t, std::vector<RectInstance>* out, Make make) {
  out->resize(t.order.size());
  for (size_t k = 0; k < t.order.size(); ++k) (*out)[k] = make(t.order[k]);
}

// Douglas-Peucker: marks the points of p[a..b] to keep so that the polyline through them stays
// within `tol` of every point dropped.
void simplify(const float* p, uint32_t a, uint32_t b, float tol, std::vector<uint8_t>* keep) {
  if (b - a < 2) return;
  const float ax = p[2 * a], ay = p[2 * a + 1], dx = p[2 * b] - ax, dy = p[2 * b + 1] - ay;
  const float len = std::sqrt(dx * dx + dy * dy);
  uint32_t far = a;
  float far_d = -1;
  for (uint32_t k = a + 1; k < b; ++k) {
    const float px = p[2 * k] - ax, py = p[2 * k + 1] - ay;
    const float d = len > 0 ? std::abs(px * dy - py * dx) / len : std::sqrt(px * px + py * py);
    if (d > far_d) far_d = d, far = k;
  }
  if (far_d <= tol) return;
  (*keep)[far] = 1;
  simplify(p, a, far, tol, keep);
  simplify(p, far, b, tol, keep);
}

void add_segment(const float* p, const float* q, std::vector<RectInstance>* seg,
                 std::vector<float>* boxes) {
  seg->push_back({p[0], p[1], q[0], q[1], theme::kGraphEdge});
  // The curve stays within its ends' box (its control points are inside it).
  boxes->insert(boxes->end(), {std::min(p[0], q[0]), std::min(p[1], q[1]), std::max(p[0], q[0]),
                               std::max(p[1], q[1])});
}

}  // namespace

void graph_scene_build(const graph::GraphData& d, GraphScene* s, WorldLayer* layer) {
  const uint32_t n = static_cast<uint32_t>(d.x.size());
  std::vector<float> boxes(4 * static_cast<size_t>(n));
  for (uint32_t k = 0; k < n; ++k) {
    float* b = &boxes[4 * static_cast<size_t>(k)];
    b[0] = d.x[k] - d.w[k] / 2, b[1] = d.y[k] - d.h[k] / 2;
    b[2] = d.x[k] + d.w[k] / 2, b[3] = d.y[k] + d.h[k] / 2;
  }
  s->nodes = graph::build_tile_index(boxes.data(), n);
  fill_in_order(s->nodes, &layer->over.items, [&](uint32_t k) {
    const float* b = &boxes[4 * static_cast<size_t>(k)];
    return RectInstance{b[0], b[1], b[2], b[3], themed(opcode_colour(d.opcode[k]))};
  });
  layer->over.edge_rgba = theme::kGraphBoxEdge;

  // Edges: every polyline segment is a curve instance; an arrowhead at each edge's end. The
  // coarse set: the polylines simplified within about a pixel of the whole graph on a
  // 2000-pixel screen, for views that far out.
  const uint32_t edges = static_cast<uint32_t>(d.edge_src.size());
  std::vector<RectInstance> seg, tip, coarse;
  std::vector<float> coarse_boxes;
  std::vector<uint8_t> keep;
  s->coarse_tol = std::max(d.width, d.height) / 4000;
  boxes.clear();
  for (uint32_t e = 0; e < edges; ++e) {
    const uint32_t b = d.edge_point_offset[e], end = d.edge_point_offset[e + 1];
    if (end - b < 2) continue;
    const float* p = &d.edge_xy[2 * static_cast<size_t>(b)];
    for (uint32_t k = 0; k + 1 < end - b; ++k) add_segment(p + 2 * k, p + 2 * k + 2, &seg, &boxes);
    keep.assign(end - b, 0);
    keep.front() = keep.back() = 1;
    simplify(p, 0, end - b - 1, s->coarse_tol, &keep);
    for (uint32_t k = 1, prev = 0; k < end - b; ++k)
      if (keep[k]) add_segment(p + 2 * prev, p + 2 * k, &coarse, &coarse_boxes), prev = k;
    tip.push_back({p[2 * (end - b - 1)], p[2 * (end - b - 1) + 1], d.edge_reversed[e] ? 1.f : 0.f,
                   0, theme::kGraphEdge});
  }
  s->segments = graph::build_tile_index(boxes.data(), static_cast<uint32_t>(seg.size()));
  s->coarse = graph::build_tile_index(coarse_boxes.data(), static_cast<uint32_t>(coarse.size()));
  fill_in_order(s->segments, &layer->curves.items, [&](uint32_t k) { return seg[k]; });
  for (uint32_t k : s->coarse.order) layer->curves.items.push_back(coarse[k]);
  boxes.clear();
  for (const RectInstance& t : tip) boxes.insert(boxes.end(), {t.x0, t.y0, t.x0, t.y0});
  s->arrows = graph::build_tile_index(boxes.data(), static_cast<uint32_t>(tip.size()));
  fill_in_order(s->arrows, &layer->arrows.items, [&](uint32_t k) { return tip[k]; });

  // Group boxes: few, all drawn, parents before the groups nested in them (index order).
  layer->under.items.clear();
  for (size_t g = 0; g < d.group_label.size(); ++g) {
    const float* b = &d.group_box[4 * g];
    layer->under.items.push_back({b[0], b[1], b[2], b[3], theme::kGraphGroupFill});
  }
  layer->under.edge_rgba = theme::kGraphGroupEdge;
  ++layer->version;
}

void graph_scene_view(const GraphScene& s, float vx0, float vy0, float vx1, float vy1, bool arrows,
                      WorldLayer* layer) {
  graph::tile_query(s.nodes, vx0, vy0, vx1, vy1, &layer->over.draw);
  if (layer->scale * s.coarse_tol <= 0.5f) {
    graph::tile_query(s.coarse, vx0, vy0, vx1, vy1, &layer->curves.draw);
    const uint32_t base = static_cast<uint32_t>(s.segments.order.size());
    for (auto& r : layer->curves.draw) r.first += base, r.second += base;
  } else {
    graph::tile_query(s.segments, vx0, vy0, vx1, vy1, &layer->curves.draw);
  }
  // An arrowhead is indexed by its tip and reaches ~10 px above or below it.
  const float reach = 12 / std::max(layer->scale, 1e-6f);
  layer->arrows.draw.clear();
  if (arrows) graph::tile_query(s.arrows, vx0, vy0 - reach, vx1, vy1 + reach, &layer->arrows.draw);
  layer->under.draw.clear();
  if (!layer->under.items.empty())
    layer->under.draw.emplace_back(0, static_cast<uint32_t>(layer->under.items.size()));
}

}  // namespace strata
