#version 300 es
// Graph edges in world units, drawn with the view's transform (the graph viewer's static data:
// uploaded once per layout, so a frame costs uniforms and draw calls, not geometry). No vertex
// buffer and no instancing (software GL runs an instanced draw once per instance): item
// gl_VertexID / u_verts is read from the texture u_items, one RGBA32F texel per item.
// u_mode 0: an item is a polyline segment x0, y0, x1, y1, drawn as the cubic Bézier that leaves
// and enters vertically (control points half-way down at each end's x), cut into u_steps
// straight pieces of u_width CSS px with an antialiased edge: 6 vertices per piece.
// u_mode 1: an item is an arrowhead: tip x, tip y, 1 when it points up (a reversed edge), 0.
precision highp float;
precision highp sampler2D;

uniform sampler2D u_items;
uniform int u_verts;      // vertices per item
uniform vec4 u_color;
uniform vec2 u_viewport;  // CSS px
uniform vec4 u_world;     // CSS px = world * u_world.xy + u_world.zw
uniform float u_steps;    // pieces per curve
uniform float u_width;    // line width, CSS px
uniform float u_arrow;    // arrowhead half-width, CSS px
uniform int u_mode;

out vec4 v_color;
out float v_across;      // CSS px from the centre line
flat out float v_half;   // half the line width

// The curve at t: x eases from p0.x to p1.x (3t^2 - 2t^3, the Bézier's x with those control
// points), y is the Bézier's y with control points at the mid height.
vec2 curve(vec2 p0, vec2 p1, float t) {
  float u = 1.0 - t;
  float s = t * t * (3.0 - 2.0 * t);
  float y = u * u * u * p0.y + 1.5 * (p0.y + p1.y) * u * t + t * t * t * p1.y;
  return vec2(mix(p0.x, p1.x, s), y);
}

vec4 clip_of(vec2 css) {
  return vec4(css.x / u_viewport.x * 2.0 - 1.0, 1.0 - css.y / u_viewport.y * 2.0, 0.0, 1.0);
}

void main() {
  int item = gl_VertexID / u_verts;
  int width = textureSize(u_items, 0).x;
  vec4 a_seg = texelFetch(u_items, ivec2(item % width, item / width), 0);
  int at = gl_VertexID - item * u_verts;
  v_color = u_color;
  int c = at % 6;
  if (u_mode == 1) {
    vec2 tip = a_seg.xy * u_world.xy + u_world.zw;
    float dir = a_seg.z > 0.5 ? 1.0 : -1.0;  // the base is above the tip unless reversed
    vec2 pos = tip;
    if (c == 1) pos = tip + vec2(-u_arrow, dir * 2.0 * u_arrow);
    if (c == 2) pos = tip + vec2(u_arrow, dir * 2.0 * u_arrow);
    v_across = 0.0;
    v_half = 1e4;
    gl_Position = clip_of(pos);
    return;
  }
  float piece = float(at / 6);
  vec2 p0 = a_seg.xy * u_world.xy + u_world.zw;
  vec2 p1 = a_seg.zw * u_world.xy + u_world.zw;
  vec2 q0 = curve(p0, p1, piece / u_steps);
  vec2 q1 = curve(p0, p1, (piece + 1.0) / u_steps);
  vec2 d = q1 - q0;
  float len = length(d);
  vec2 dir = len > 1e-4 ? d / len : vec2(0.0, 1.0);
  vec2 nrm = vec2(-dir.y, dir.x);
  float half_w = u_width * 0.5;
  float reach = half_w + 1.0;  // one more CSS px for the antialiased fringe
  bool at_end = c == 1 || c == 2 || c == 4;
  float side = (c == 2 || c == 4 || c == 5) ? 1.0 : -1.0;
  // Half a pixel past each end, so that the pieces of a curve join without gaps.
  vec2 pos = (at_end ? q1 + dir * 0.5 : q0 - dir * 0.5) + nrm * side * reach;
  v_across = side * reach;
  v_half = half_w;
  gl_Position = clip_of(pos);
}
