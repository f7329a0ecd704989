// Draws many rectangles in one instanced call with our own shaders (shaders/rect.*).
// The timeline fills a RectBatch each frame; the renderer uploads it and draws it before
// Dear ImGui draws text and widgets on top.
#pragma once
#include <cstdint>
#include <vector>

namespace strata {

struct RectInstance {
  float x0, y0, x1, y1;  // CSS px
  uint32_t rgba;         // 0xAABBGGRR (bytes R, G, B, A in memory)
};

struct RectBatch {
  std::vector<RectInstance> rects;
  // Scissor in CSS px (x, y, w, h); w <= 0 means none.
  float clip[4] = {0, 0, 0, 0};
  void clear() { rects.clear(); }
  void add(float x0, float y0, float x1, float y1, uint32_t rgba) {
    rects.push_back({x0, y0, x1, y1, rgba});
  }
};

class RectRenderer {
 public:
  bool init();  // compiles shaders; false (and a console message) on failure
  // Draws the batch on a viewport of css_w × css_h CSS px at `scale` device px per CSS px.
  void draw(const RectBatch& batch, float css_w, float css_h, float scale);

 private:
  unsigned program_ = 0, vao_ = 0, vbo_ = 0;
  int u_viewport_ = -1, u_scale_ = -1, u_world_ = -1, u_edge_ = -1;
  size_t capacity_ = 0;
};

}  // namespace strata
