#include "platform/gl/world_renderer.h"

#include <GLES3/gl3.h>

#include <cmath>
#include <cstddef>
#include <cstdio>

#include "shaders_embedded.h"

namespace strata {

namespace {

GLuint compile(GLenum type, const char* src) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::fprintf(stderr, "strata: shader compile failed: %s\n", log);
    glDeleteShader(s);
    return 0;
  }
  return s;
}

GLuint link(const char* vert, const char* frag) {
  GLuint vs = compile(GL_VERTEX_SHADER, vert), fs = compile(GL_FRAGMENT_SHADER, frag);
  if (!vs || !fs) return 0;
  GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    std::fprintf(stderr, "strata: shader link failed: %s\n", log);
    return 0;
  }
  return p;
}

void set_rgba(GLint loc, uint32_t c) {
  glUniform4f(loc, (c & 0xFF) / 255.f, ((c >> 8) & 0xFF) / 255.f, ((c >> 16) & 0xFF) / 255.f,
              ((c >> 24) & 0xFF) / 255.f);
}

}  // namespace

bool WorldRenderer::init() {
  rect_program_ = link(shaders::kRectVert, shaders::kRectFrag);
  curve_program_ = link(shaders::kCurveVert, shaders::kCurveFrag);
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
  glGenVertexArrays(1, &vao_);
  for (Buffer* b : {&under_, &curves_, &arrows_, &over_}) glGenBuffers(1, &b->vbo);
  glBindVertexArray(vao_);
  glEnableVertexAttribArray(0);
  glVertexAttribDivisor(0, 1);
  glEnableVertexAttribArray(1);
  glVertexAttribDivisor(1, 1);
  glBindVertexArray(0);
  return true;
}

void WorldRenderer::upload(Buffer* b, const WorldPart& part) {
  glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
  const size_t bytes = part.items.size() * sizeof(RectInstance);
  b->count = part.items.size();
  if (bytes > b->capacity || bytes < b->capacity / 4) {  // grow, or give memory back
    b->capacity = bytes;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), part.items.data(),
                 GL_STATIC_DRAW);
  } else if (bytes) {
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), part.items.data());
  }
}

// One instanced draw per range: the attributes are pointed at the range's first instance
// (WebGL2 has no base instance).
void WorldRenderer::draw_part(const Buffer& b, const WorldPart& part, int vertices) {
  glBindBuffer(GL_ARRAY_BUFFER, b.vbo);
  for (const auto& [begin, end] : part.draw) {
    if (end > b.count || begin >= end) continue;
    const size_t at = begin * sizeof(RectInstance);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(RectInstance),
                          reinterpret_cast<void*>(at));
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(RectInstance),
                          reinterpret_cast<void*>(at + offsetof(RectInstance, rgba)));
    glDrawArraysInstanced(GL_TRIANGLES, 0, vertices, static_cast<GLsizei>(end - begin));
  }
}

void WorldRenderer::draw(const WorldLayer& layer, float css_w, float css_h, float scale) {
  if (!rect_program_ || !layer.visible || layer.clip[2] <= 0 || layer.clip[3] <= 0) return;
  if (layer.version != version_) {
    version_ = layer.version;
    upload(&under_, layer.under);
    upload(&curves_, layer.curves);
    upload(&arrows_, layer.arrows);
    upload(&over_, layer.over);
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
  glBindVertexArray(vao_);

  auto rects = [&](const Buffer& b, const WorldPart& part) {
    glUseProgram(rect_program_);
    glUniform2f(r_viewport_, css_w, css_h);
    glUniform1f(r_scale_, scale);
    glUniform4f(r_world_, layer.scale, layer.scale, layer.tx, layer.ty);
    set_rgba(r_edge_, part.edge_rgba);
    draw_part(b, part, 6);
  };
  rects(under_, layer.under);
  glUseProgram(curve_program_);
  glUniform2f(c_viewport_, css_w, css_h);
  glUniform4f(c_world_, layer.scale, layer.scale, layer.tx, layer.ty);
  glUniform1f(c_steps_, static_cast<float>(layer.curve_steps));
  glUniform1f(c_width_, layer.line_width);
  glUniform1f(c_arrow_, layer.arrow_half);
  glUniform1i(c_mode_, 0);
  draw_part(curves_, layer.curves, 6 * layer.curve_steps);
  glUniform1i(c_mode_, 1);
  draw_part(arrows_, layer.arrows, 3);
  rects(over_, layer.over);

  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace strata
