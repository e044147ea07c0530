#version 330 core
// Log-compressed B-mode display: the image holds absolute dB values, and the window
// [gain - dynamicRange, gain] maps linearly to a level in [0, 1], looked up in a 256-entry colour
// map (grey by default). Doing it here makes gain, dynamic range and the colour map instant:
// changing them re-renders the same texture without touching the engine.

uniform sampler2D image;      // R32F, dB
uniform sampler2D colourMap;  // 256x1 RGB8
uniform float gainDb;
uniform float dynamicRangeDb;

in vec2 texCoord;
out vec4 fragColor;

void main() {
  float db = texture(image, texCoord).r;
  float level = clamp((db - (gainDb - dynamicRangeDb)) / dynamicRangeDb, 0.0, 1.0);
  // Sample entry centres only, so level 0 and 1 give the first and last entries exactly.
  float entry = (0.5 + level * 255.0) / 256.0;
  fragColor = vec4(texture(colourMap, vec2(entry, 0.5)).rgb, 1.0);
}
