#version 330 core
// Ray casting of a volume of dB values (a 3-D R32F texture, s: x, t: depth, r: elevation).
//
// Each fragment's ray runs through the volume in texture coordinates: clipToTexture takes the
// near and far points of the fragment (orthographic: parallel rays) back into them, and the ray is
// cut to the clipping box [clipMin, clipMax] (the six clipping planes). Samples are `stepTexels`
// voxels apart. dB maps to a level in [0, 1] as in 2-D ([gain - dynamicRange, gain]).
//
// mode 0, maximum intensity: the largest level on the ray, through the colour map.
// mode 1, volume rendering: front-to-back compositing; each sample's opacity is the transfer
//   function's (opacityTable, for a reference step of one voxel, corrected for the step), its
//   colour the colour map's; the ray stops once it is 99 % opaque (early ray termination).
// mode 2, iso-surface: the first crossing of isoLevel, refined by bisection, shaded (Blinn-Phong,
//   a headlight) with the gradient in physical units (voxelMm), coloured by the colour map.
//
// Empty-space skipping: `bricks` holds the largest dB of each 8^3 block. A block that cannot
// change the result (MIP: not above the maximum so far; compositing: fully transparent; iso: below
// the level) is jumped over to its far face.

in vec2 ndc;
out vec4 colour;

uniform sampler3D volume;
uniform sampler3D bricks;
uniform sampler2D colourMap;     // 256 x 1 RGB
uniform sampler2D opacityTable;  // 256 x 1 R
uniform mat4 clipToTexture;
uniform vec3 clipMin;
uniform vec3 clipMax;
uniform vec3 voxels;       // nx, nz, ny
uniform vec3 brickCount;   // bricks along s, t, r
uniform vec3 voxelMm;      // voxel size in mm along s, t, r
uniform float stepTexels;  // samples per voxel: 1 / stepTexels
uniform float gainDb;
uniform float dynamicRangeDb;
uniform float opacityFloor;  // the lowest level with any opacity (compositing's skip threshold)
uniform float isoLevel;
uniform int mode;
uniform vec3 viewDirection;  // the ray's direction in texture coordinates, normalised in mm
uniform vec3 background;

float levelOf(float db) {
  return clamp((db - (gainDb - dynamicRangeDb)) / dynamicRangeDb, 0.0, 1.0);
}

float levelAt(vec3 p) { return levelOf(texture(volume, p).r); }

// The ray's parameter where it leaves the box [lo, hi] going from p along d.
float exitOf(vec3 p, vec3 d, vec3 lo, vec3 hi) {
  vec3 inverse = 1.0 / d;
  vec3 t1 = (lo - p) * inverse;
  vec3 t2 = (hi - p) * inverse;
  vec3 far = max(t1, t2);
  return min(min(far.x, far.y), far.z);
}

vec3 gradientAt(vec3 p) {
  vec3 h = 1.0 / voxels;
  vec3 g = vec3(levelAt(p + vec3(h.x, 0, 0)) - levelAt(p - vec3(h.x, 0, 0)),
                levelAt(p + vec3(0, h.y, 0)) - levelAt(p - vec3(0, h.y, 0)),
                levelAt(p + vec3(0, 0, h.z)) - levelAt(p - vec3(0, 0, h.z)));
  return g / (2.0 * voxelMm);
}

void main() {
  vec4 nearPoint = clipToTexture * vec4(ndc, -1.0, 1.0);
  vec4 farPoint = clipToTexture * vec4(ndc, 1.0, 1.0);
  vec3 start = nearPoint.xyz / nearPoint.w;
  vec3 end = farPoint.xyz / farPoint.w;
  vec3 d = end - start;
  // Cut the ray to the clipping box (slab method).
  vec3 inverse = 1.0 / d;
  vec3 t1 = (clipMin - start) * inverse;
  vec3 t2 = (clipMax - start) * inverse;
  vec3 tNear = min(t1, t2);
  vec3 tFar = max(t1, t2);
  float enter = max(max(max(tNear.x, tNear.y), tNear.z), 0.0);
  float leave = min(min(min(tFar.x, tFar.y), tFar.z), 1.0);
  if (enter >= leave) {
    colour = vec4(background, 1.0);
    return;
  }
  // One step: stepTexels voxels along the ray, in ray parameter units.
  float voxelsPerUnit = length(d * voxels);
  float dt = stepTexels / max(voxelsPerUnit, 1e-6);
  float opacityCorrection = stepTexels;

  float best = 0.0;
  vec3 accumulated = vec3(0.0);
  float alpha = 0.0;
  bool hit = false;
  vec3 hitPoint = vec3(0.0);
  float previous = -1.0;
  float t = enter;
  for (int i = 0; i < 8192 && t <= leave; ++i) {
    vec3 p = start + t * d;
    // Empty-space skipping over a whole brick.
    // Brick b covers voxels [8b, 8b + 8) along each axis (the last one fewer).
    vec3 brick = min(floor(clamp(p, 0.0, 1.0) * voxels / 8.0), brickCount - 1.0);
    float brickLevel = levelOf(texelFetch(bricks, ivec3(brick), 0).r);
    float threshold = mode == 0 ? best : (mode == 1 ? opacityFloor : isoLevel);
    bool empty = mode == 0 ? brickLevel <= best : brickLevel < threshold;
    if (empty) {
      float beyond = exitOf(p, d, brick * 8.0 / voxels, min((brick + 1.0) * 8.0 / voxels, 1.0));
      t = max(t + beyond, t) + dt * 0.5;  // just past the brick's far face
      previous = -1.0;
      continue;
    }
    float level = levelAt(p);
    if (mode == 0) {
      best = max(best, level);
      if (best >= 1.0) {
        break;  // early ray termination: nothing is brighter than white
      }
    } else if (mode == 1) {
      float a = texture(opacityTable, vec2(level, 0.5)).r;
      a = 1.0 - pow(1.0 - min(a, 0.999), opacityCorrection);
      vec3 c = texture(colourMap, vec2(level, 0.5)).rgb;
      accumulated += (1.0 - alpha) * a * c;
      alpha += (1.0 - alpha) * a;
      if (alpha >= 0.99) {
        break;  // early ray termination
      }
    } else if (level >= isoLevel) {
      // Refine the crossing between the previous sample and this one.
      float lo = previous >= 0.0 ? t - dt : t;
      float hi = t;
      for (int k = 0; k < 6 && previous >= 0.0; ++k) {
        float mid = 0.5 * (lo + hi);
        if (levelAt(start + mid * d) >= isoLevel) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
      hit = true;
      hitPoint = start + hi * d;
      break;
    }
    previous = level;
    t += dt;
  }

  if (mode == 0) {
    colour = vec4(texture(colourMap, vec2(best, 0.5)).rgb, 1.0);
  } else if (mode == 1) {
    colour = vec4(accumulated + (1.0 - alpha) * background, 1.0);
  } else if (hit) {
    vec3 normal = gradientAt(hitPoint);
    float strength = length(normal);
    normal = strength > 0.0 ? -normal / strength : -viewDirection;
    vec3 light = -viewDirection;  // a headlight
    float diffuse = abs(dot(normal, light));
    vec3 halfway = normalize(light - viewDirection);
    float specular = pow(abs(dot(normal, halfway)), 40.0);
    vec3 base = texture(colourMap, vec2(max(isoLevel, 0.6), 0.5)).rgb;
    colour = vec4(base * (0.2 + 0.8 * diffuse) + vec3(0.35 * specular), 1.0);
  } else {
    colour = vec4(background, 1.0);
  }
}
