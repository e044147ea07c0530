#version 330 core
// A quad covering the viewport, generated from gl_VertexID (drawn as a 4-vertex triangle strip),
// so no vertex buffer is needed. Texture row 0 is the shallowest depth and goes at the top.
// Zoom and pan pick the visible part of the image: texture coordinates from windowOrigin to
// windowOrigin + windowSize (normalised, v downward).

uniform vec2 windowOrigin;
uniform float windowSize;

out vec2 texCoord;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  texCoord = windowOrigin + windowSize * vec2(corner.x, 1.0 - corner.y);
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
