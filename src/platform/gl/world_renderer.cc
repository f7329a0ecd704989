#include "platform/gl/world_renderer.h"

#include <GLES3/gl3.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "platform/gl/shader_program.h"
#include "shaders_embedded.h"

namespace strata {

namespace {

void set_rgba(GLint loc, uint32_t c) {
  glUniform4f(loc, (c & 0xFF) / 255.f, ((c >> 8) & 0xFF) / 255.f, ((c >> 16) & 0xFF) / 255.f,
              ((c >> 24) & 0xFF) / 255.f);
}

}  // namespace

bool WorldRenderer::init() {
  rect_program_ = link_shader_program(shaders::kRectVert, shaders::kRectFrag);
  curve_program_ = link_shader_program(shaders::kCurveVert, shaders::kCurveFrag);
  if (!rect_program_ || !curve_program_) return false;
  r_viewport_ = glGetUniformLocation(rect_program_, "u_viewport");
  r_scale_ = glGetUniformLocation(rect_program_, "u_scale");
  r_world_ = glGetUniformLocation(rect_program_, "u_world");
  r_edge_ = glGetUniformLocation(rect_program_, "u_edge");
  c_viewport_ = glGetUniformLocation(curve_program_, "u_viewport");
  c_world_ = glGetUniformLocation(curve_program_, "u_world");
  c_steps_ = glGetUniformLocation(curve_program_, "u_steps");
  c_width_ = glGetUniformLocation(curve_program_, "u_width");
  c_arrow_ = glGetUniformLocation(curve_program_, "u_arrow");
  c_mode_ = glGetUniformLocation(curve_program_, "u_mode");
  c_items_ = glGetUniformLocation(curve_program_, "u_items");
  c_verts_ = glGetUniformLocation(curve_program_, "u_verts");
  c_color_ = glGetUniformLocation(curve_program_, "u_color");
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture_);
  glGenVertexArrays(1, &rect_vao_);
  glGenVertexArrays(1, &empty_vao_);
  for (Buffer* b : {&under_, &over_}) glGenBuffers(1, &b->name);
  for (Buffer* b : {&curves_, &arrows_}) {
    glGenTextures(1, &b->name);
    glBindTexture(GL_TEXTURE_2D, b->name);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindVertexArray(rect_vao_);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glBindVertexArray(0);
  return true;
}

// Each rectangle six times, once per vertex of its two triangles (rect.vert takes the corner
// from gl_VertexID % 6).
void WorldRenderer::upload_rects(Buffer* b, const WorldPart& part) {
  std::vector<RectInstance> v;
  v.reserve(part.items.size() * 6);
  for (const RectInstance& r : part.items) v.insert(v.end(), 6, r);
  glBindBuffer(GL_ARRAY_BUFFER, b->name);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(RectInstance)), v.data(),
               GL_STATIC_DRAW);
  b->count = part.items.size();
}

// One RGBA32F texel per item, in rows of up to 4096 (items past what one texture can hold are
// dropped).
void WorldRenderer::upload_items(Buffer* b, const WorldPart& part) {
  const size_t width = static_cast<size_t>(std::clamp(max_texture_, 1, 4096));
  b->count = std::min(part.items.size(), width * static_cast<size_t>(std::max(max_texture_, 1)));
  const size_t rows = std::max<size_t>((b->count + width - 1) / width, 1);
  std::vector<float> texels(width * rows * 4, 0.f);
  for (size_t k = 0; k < b->count; ++k) {
    const RectInstance& r = part.items[k];
    float* t = &texels[4 * k];
    t[0] = r.x0, t[1] = r.y0, t[2] = r.x1, t[3] = r.y1;
  }
  glBindTexture(GL_TEXTURE_2D, b->name);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, static_cast<GLsizei>(width),
               static_cast<GLsizei>(rows), 0, GL_RGBA, GL_FLOAT, texels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

// One draw per range of items, `vertices` each, their first vertex at item * vertices.
void WorldRenderer::draw_ranges(const Buffer& b, const WorldPart& part, int vertices) {
  for (const auto& [begin, end] : part.draw) {
    const uint32_t last = std::min<uint32_t>(end, static_cast<uint32_t>(b.count));
    if (begin >= last) continue;
    glDrawArrays(GL_TRIANGLES, static_cast<GLint>(begin) * vertices,
                 static_cast<GLsizei>(last - begin) * vertices);
  }
}

void WorldRenderer::draw(const WorldLayer& layer, float css_w, float css_h, float scale) {
  if (!rect_program_ || !layer.visible || layer.clip[2] <= 0 || layer.clip[3] <= 0) return;
  if (layer.version != version_) {
    version_ = layer.version;
    upload_rects(&under_, layer.under);
    upload_items(&curves_, layer.curves);
    upload_items(&arrows_, layer.arrows);
    upload_rects(&over_, layer.over);
  }
  glEnable(GL_SCISSOR_TEST);
  // GL's scissor origin is bottom-left, in device pixels.
  glScissor(static_cast<GLint>(std::floor(layer.clip[0] * scale)),
            static_cast<GLint>(std::floor((css_h - layer.clip[1] - layer.clip[3]) * scale)),
            static_cast<GLsizei>(std::ceil(layer.clip[2] * scale)),
            static_cast<GLsizei>(std::ceil(layer.clip[3] * scale)));
  const uint32_t bg = layer.background;
  glClearColor((bg & 0xFF) / 255.f, ((bg >> 8) & 0xFF) / 255.f, ((bg >> 16) & 0xFF) / 255.f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

  auto rects = [&](const Buffer& b, const WorldPart& part) {
    glUseProgram(rect_program_);
    glBindVertexArray(rect_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, b.name);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(RectInstance), nullptr);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(RectInstance),
                          reinterpret_cast<void*>(offsetof(RectInstance, rgba)));
    glUniform2f(r_viewport_, css_w, css_h);
    glUniform1f(r_scale_, scale);
    glUniform4f(r_world_, layer.scale, layer.scale, layer.tx, layer.ty);
    set_rgba(r_edge_, part.edge_rgba);
    draw_ranges(b, part, 6);
  };
  rects(under_, layer.under);
  glUseProgram(curve_program_);
  glBindVertexArray(empty_vao_);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(c_items_, 0);
  glUniform2f(c_viewport_, css_w, css_h);
  glUniform4f(c_world_, layer.scale, layer.scale, layer.tx, layer.ty);
  glUniform1f(c_steps_, static_cast<float>(layer.curve_steps));
  glUniform1f(c_width_, layer.line_width);
  glUniform1f(c_arrow_, layer.arrow_half);
  set_rgba(c_color_, layer.curve_rgba);
  glBindTexture(GL_TEXTURE_2D, curves_.name);
  glUniform1i(c_mode_, 0);
  glUniform1i(c_verts_, 6 * layer.curve_steps);
  draw_ranges(curves_, layer.curves, 6 * layer.curve_steps);
  glBindTexture(GL_TEXTURE_2D, arrows_.name);
  glUniform1i(c_mode_, 1);
  glUniform1i(c_verts_, 3);
  draw_ranges(arrows_, layer.arrows, 3);
  glBindTexture(GL_TEXTURE_2D, 0);
  rects(over_, layer.over);

  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace strata
