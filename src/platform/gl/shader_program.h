// Compiles and links one GLSL ES 3.0 program from our shaders (shaders/, embedded at build time).
#pragma once

namespace strata {

// The linked program's name, or 0 after printing the compiler's or linker's log to the console.
unsigned link_shader_program(const char* vertex_source, const char* fragment_source);

}  // namespace strata
