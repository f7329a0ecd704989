#version 300 es
// Fills a rectangle; rectangles big enough get a darker one-pixel edge so that adjacent
// slices of the same colour stay distinguishable (as in chrome://tracing).
precision mediump float;

in vec4 v_color;
in vec2 v_local;
flat in vec2 v_size;

uniform highp float u_scale;  // same precision as in rect.vert, or the link fails

out vec4 o_color;

void main() {
  vec2 d = min(v_local, v_size - v_local);
  float edge = min(d.x, d.y);
  bool bordered = v_size.x >= 4.0 * u_scale && v_size.y >= 4.0 * u_scale;
  float shade = (bordered && edge < u_scale) ? 0.72 : 1.0;
  o_color = vec4(v_color.rgb * shade, v_color.a);
}
