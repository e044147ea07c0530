#version 330 core
// Log-compressed B-mode display: the image holds absolute dB values, and the window
// [gain - dynamicRange, gain] maps linearly to grey [0, 1]. Doing it here makes gain and dynamic
// range instant: changing them re-renders the same texture without touching the engine.

uniform sampler2D image;  // R32F, dB
uniform float gainDb;
uniform float dynamicRangeDb;

in vec2 texCoord;
out vec4 fragColor;

void main() {
  float db = texture(image, texCoord).r;
  float grey = clamp((db - (gainDb - dynamicRangeDb)) / dynamicRangeDb, 0.0, 1.0);
  fragColor = vec4(vec3(grey), 1.0);
}
