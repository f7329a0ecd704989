// Draws static geometry in world units with a per-frame view transform: the graph viewer's
// group boxes, edges (curve shaders) and node boxes (the rect shaders). The items are uploaded
// only when the content changes (once per layout), so a frame costs a few uniforms and one draw
// call per visible range whatever the zoom. No instancing: software GL (SwiftShader, what a
// machine without a GPU gets) runs an instanced draw once per instance, which for 100k edges
// takes seconds; rectangles are repeated per vertex and edges read from a float texture.
// Drawn after the RectBatch and before Dear ImGui, which puts text and highlights on top.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "platform/gl/rect_renderer.h"

namespace strata {

struct WorldPart {
  // Content (world units): rectangles for `under` and `over`; x0, y0, x1, y1 of a curve
  // segment, or tip x, tip y, up (0/1), 0 of an arrowhead (rgba unused: `curve_rgba`).
  std::vector<RectInstance> items;
  // Per frame: the ranges of items to draw ([begin, end) instance indices).
  std::vector<std::pair<uint32_t, uint32_t>> draw;
  uint32_t edge_rgba = 0;  // rects: border colour (0 = a darker shade of the fill)
};

struct WorldLayer {
  // Drawn in this order. Content changes must bump `version` (the buffers are re-uploaded).
  WorldPart under, curves, arrows, over;
  uint64_t version = 0;
  // Per frame.
  bool visible = false;
  float scale = 1, tx = 0, ty = 0;  // CSS px = world * scale + (tx, ty)
  float clip[4] = {0, 0, 0, 0};     // CSS px x, y, w, h: scissor, cleared to `background`
  uint32_t background = 0xFFFFFFFF;
  int curve_steps = 1;  // straight pieces per curve segment
  float line_width = 1, arrow_half = 2;
  uint32_t curve_rgba = 0xFF000000;  // edges and arrowheads
};

class WorldRenderer {
 public:
  bool init();  // compiles shaders; false (and a console message) on failure
  void draw(const WorldLayer& layer, float css_w, float css_h, float scale);

 private:
  struct Buffer {
    unsigned name = 0;  // a vertex buffer (rectangles) or a texture (curves)
    size_t count = 0;   // items
  };
  void upload_rects(Buffer* b, const WorldPart& part);
  void upload_items(Buffer* b, const WorldPart& part);
  void draw_ranges(const Buffer& b, const WorldPart& part, int vertices);
  unsigned rect_program_ = 0, curve_program_ = 0, rect_vao_ = 0, empty_vao_ = 0;
  int r_viewport_ = -1, r_scale_ = -1, r_world_ = -1, r_edge_ = -1;
  int c_viewport_ = -1, c_world_ = -1, c_steps_ = -1, c_width_ = -1, c_arrow_ = -1, c_mode_ = -1,
      c_items_ = -1, c_verts_ = -1, c_color_ = -1;
  int max_texture_ = 2048;
  Buffer under_, curves_, arrows_, over_;
  uint64_t version_ = UINT64_MAX;
};

}  // namespace strata
