#version 300 es
// Graph edges (curve.vert): coverage falls off over the last CSS pixel of the line's width.
precision mediump float;

in vec4 v_color;
in float v_across;
flat in float v_half;

out vec4 o_color;

void main() {
  float coverage = clamp(v_half + 0.5 - abs(v_across), 0.0, 1.0);
  o_color = vec4(v_color.rgb, v_color.a * coverage);
}
