#version 330 core
// A quad covering the viewport, generated from gl_VertexID (a 4-vertex triangle strip); each
// fragment's ray comes from its position in normalised device coordinates (volume.frag).

out vec2 ndc;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  ndc = corner * 2.0 - 1.0;
  gl_Position = vec4(ndc, 0.0, 1.0);
}
