#include "platform/gl/rect_renderer.h"

#include <GLES3/gl3.h>

#include <cmath>
#include <cstddef>

#include "platform/gl/shader_program.h"
#include "shaders_embedded.h"

namespace strata {

bool RectRenderer::init() {
  program_ = link_shader_program(shaders::kRectVert, shaders::kRectFrag);
  if (!program_) return false;
  u_viewport_ = glGetUniformLocation(program_, "u_viewport");
  u_scale_ = glGetUniformLocation(program_, "u_scale");
  u_world_ = glGetUniformLocation(program_, "u_world");
  u_edge_ = glGetUniformLocation(program_, "u_edge");
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(RectInstance), nullptr);
  glVertexAttribDivisor(0, 1);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(RectInstance),
                        reinterpret_cast<void*>(offsetof(RectInstance, rgba)));
  glVertexAttribDivisor(1, 1);
  glBindVertexArray(0);
  return true;
}

void RectRenderer::draw(const RectBatch& batch, float css_w, float css_h, float scale) {
  if (!program_ || batch.rects.empty()) return;
  glUseProgram(program_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  size_t bytes = batch.rects.size() * sizeof(RectInstance);
  if (bytes > capacity_) {  // grow geometrically; orphaning keeps the driver from stalling
    capacity_ = bytes * 3 / 2;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_), nullptr, GL_STREAM_DRAW);
  }
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), batch.rects.data());
  glUniform2f(u_viewport_, css_w, css_h);
  glUniform1f(u_scale_, scale);
  glUniform4f(u_world_, 1, 1, 0, 0);  // the batch is in CSS px already
  glUniform4f(u_edge_, 0, 0, 0, 0);   // edges: a darker shade of the fill
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (batch.clip[2] > 0) {
    glEnable(GL_SCISSOR_TEST);
    // GL's scissor origin is bottom-left, in device pixels.
    glScissor(static_cast<GLint>(std::floor(batch.clip[0] * scale)),
              static_cast<GLint>(std::floor((css_h - batch.clip[1] - batch.clip[3]) * scale)),
              static_cast<GLsizei>(std::ceil(batch.clip[2] * scale)),
              static_cast<GLsizei>(std::ceil(batch.clip[3] * scale)));
  }
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, static_cast<GLsizei>(batch.rects.size()));
  glDisable(GL_SCISSOR_TEST);
  glBindVertexArray(0);
}

}  // namespace strata
