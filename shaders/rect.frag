#version 300 es
// Fills a rectangle; rectangles big enough get a one-pixel edge so that adjacent slices of the
// same colour stay distinguishable (as in chrome://tracing): a darker shade of the fill, or
// u_edge when its alpha is not 0 (the graph viewer's box outlines).
precision mediump float;

in vec4 v_color;
in vec2 v_local;
flat in vec2 v_size;

uniform highp float u_scale;  // same precision as in rect.vert, or the link fails
uniform vec4 u_edge;

out vec4 o_color;

void main() {
  vec2 d = min(v_local, v_size - v_local);
  float edge = min(d.x, d.y);
  bool bordered = v_size.x >= 4.0 * u_scale && v_size.y >= 4.0 * u_scale;
  if (bordered && edge < u_scale) {
    o_color = u_edge.a > 0.0 ? u_edge : vec4(v_color.rgb * 0.72, v_color.a);
  } else {
    o_color = v_color;
  }
}
