#version 330 core
// Log-compressed B-mode display: the image holds absolute dB values, plus the time-gain
// compensation at its depth, and the window [gain - dynamicRange, gain] maps linearly to a level in [0, 1], looked up in a 256-entry colour
// map (grey by default). Doing it here makes gain, dynamic range and the colour map instant:
// changing them re-renders the same texture without touching the engine.
//
// An image with flow (layers = 4) holds its layers one under another in the texture: intensity,
// velocity, variance, power, each nz rows. Colour and power Doppler are then composited as
// ui/flow_display.cpp does it on the CPU (the same maps and rules; test_flow_display compares
// the two): flow shows where its power lies powerThresholdDb above the black level and the
// B-mode level is at most `priority`; NaN flow never shows. Flow is sampled at the nearest pixel
// (interpolating velocities across an aliasing wrap would invent slow flow).

uniform sampler2D image;      // R32F, dB (and the flow layers under it)
uniform sampler2D colourMap;  // 256x1 RGB8
uniform float gainDb;
uniform float dynamicRangeDb;
uniform int layers;           // 1, or 4 with flow
uniform int flowMap;          // 0 off, 1 velocity, 2 power
uniform float aliasingVelocity;
uniform float powerThresholdDb;
uniform float priority;
uniform float powerRangeDb;
// Time-gain compensation (ui/view2d/depth_gain.hpp): dB at band k's depth, (k + 0.5) / 8 of the
// image's depth; linear between bands, flat beyond the first and the last.
uniform float depthGainDb[8];

in vec2 texCoord;
out vec4 fragColor;

vec3 ramp(float t, vec3 a, vec3 b, vec3 c) {
  t = clamp(t, 0.0, 1.0);
  return t < 0.5 ? mix(a, b, t * 2.0) : mix(b, c, t * 2.0 - 1.0);
}

vec3 velocityColour(float ratio) {
  ratio = clamp(ratio, -1.0, 1.0);
  return ratio >= 0.0
             ? ramp(ratio, vec3(0.35, 0.0, 0.0), vec3(1.0, 0.1, 0.0), vec3(1.0, 0.95, 0.2))
             : ramp(-ratio, vec3(0.0, 0.0, 0.4), vec3(0.1, 0.3, 1.0), vec3(0.3, 0.95, 1.0));
}

vec3 powerColour(float level) {
  return ramp(level, vec3(0.3, 0.0, 0.0), vec3(1.0, 0.45, 0.0), vec3(1.0, 1.0, 0.75));
}

void main() {
  ivec2 size = textureSize(image, 0);
  int nz = size.y / layers;
  // The intensity layer, sampled linearly but never across into the layer under it.
  float halfTexel = 0.5 / float(nz);
  float v = clamp(texCoord.y, halfTexel, 1.0 - halfTexel) / float(layers);
  float position = clamp(texCoord.y, 0.0, 1.0) * 8.0 - 0.5;
  int below = clamp(int(floor(position)), 0, 7);
  int above = min(below + 1, 7);
  float t = clamp(position - float(below), 0.0, 1.0);
  float depthGain = mix(depthGainDb[below], depthGainDb[above], t);
  float db = texture(image, vec2(texCoord.x, v)).r + depthGain;
  float level = clamp((db - (gainDb - dynamicRangeDb)) / dynamicRangeDb, 0.0, 1.0);
  // Sample entry centres only, so level 0 and 1 give the first and last entries exactly.
  float entry = (0.5 + level * 255.0) / 256.0;
  vec3 colour = texture(colourMap, vec2(entry, 0.5)).rgb;
  if (layers == 4 && flowMap != 0) {
    ivec2 pixel = ivec2(clamp(int(texCoord.x * float(size.x)), 0, size.x - 1),
                        clamp(int(texCoord.y * float(nz)), 0, nz - 1));
    float velocity = texelFetch(image, pixel + ivec2(0, nz), 0).r;
    float power = texelFetch(image, pixel + ivec2(0, 3 * nz), 0).r;
    float black = gainDb - dynamicRangeDb;
    bool shows = !isnan(power) && !isinf(power) && power >= black + powerThresholdDb &&
                 level <= priority;
    if (shows && flowMap == 2) {
      colour = powerColour((power - black - powerThresholdDb) / powerRangeDb);
    } else if (shows && !isnan(velocity) && aliasingVelocity > 0.0) {
      colour = velocityColour(velocity / aliasingVelocity);
    }
  }
  fragColor = vec4(colour, 1.0);
}
