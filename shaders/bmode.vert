#version 330 core
// A quad covering the viewport, generated from gl_VertexID (drawn as a 4-vertex triangle strip),
// so no vertex buffer is needed. Texture row 0 is the shallowest depth and goes at the top.

out vec2 texCoord;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  texCoord = vec2(corner.x, 1.0 - corner.y);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
