#include "platform/gl/shader_program.h"

#include <GLES3/gl3.h>

#include <cstdio>

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
}  // namespace

unsigned link_shader_program(const char* vertex_source, const char* fragment_source) {
  GLuint vs = compile(GL_VERTEX_SHADER, vertex_source);
  GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_source);
  if (!vs || !fs) {
    if (vs) glDeleteShader(vs);
    if (fs) glDeleteShader(fs);
    return 0;
  }
  GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glLinkProgram(p);
  glDeleteShader(vs);  // the program keeps them alive while it needs them
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    std::fprintf(stderr, "strata: shader link failed: %s\n", log);
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

}  // namespace strata
