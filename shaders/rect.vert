#version 300 es
// Instanced rectangles: slices, folded runs, counter bars, row backgrounds, selection; and the
// graph viewer's boxes, kept in world units and placed by u_world (identity for the timeline).
// One instance = one rectangle + a colour; the 6 vertices of its two triangles come from
// gl_VertexID, so there is no vertex buffer, only the instance buffer. (The graph viewer draws
// without instancing, each rectangle repeated for its 6 vertices: gl_VertexID counts on.)
precision highp float;

layout(location = 0) in vec4 a_rect;   // x0, y0, x1, y1 (y down)
layout(location = 1) in vec4 a_color;  // RGBA, normalised from bytes

uniform vec2 u_viewport;  // CSS px
uniform float u_scale;    // device px per CSS px
uniform vec4 u_world;     // CSS px = a_rect * u_world.xy + u_world.zw

out vec4 v_color;
out vec2 v_local;        // device px from the rectangle's top-left
flat out vec2 v_size;    // rectangle size in device px

void main() {
  int id = gl_VertexID % 6;
  vec2 corner = vec2((id == 1 || id == 2 || id == 4) ? 1.0 : 0.0,
                     (id == 2 || id == 4 || id == 5) ? 1.0 : 0.0);
  vec2 p0 = a_rect.xy * u_world.xy + u_world.zw;
  // Never thinner than one device pixel: a sub-pixel slice must still show.
  vec2 p1 = max(a_rect.zw * u_world.xy + u_world.zw, p0 + vec2(1.0 / u_scale));
  vec2 pos = mix(p0, p1, corner);
  v_local = (pos - p0) * u_scale;
  v_size = (p1 - p0) * u_scale;
  v_color = a_color;
  gl_Position = vec4(pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - pos.y / u_viewport.y * 2.0, 0.0, 1.0);
}
