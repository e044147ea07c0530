/* A Cineflow source plugin to copy (include/cineflow/source_plugin.h): a lab replaces
 * fill_frame() with the call that takes a frame from its scanner or digitizer, and describe()
 * with its probe and sequence. As shipped it makes one point target that swings sideways over
 * speckle-free water, plane-wave channel data of a 64-element, 0.3 mm probe at 5 MHz sampled at
 * 20 MHz, so that a build of the template images something at once.
 *
 * Build it outside the Cineflow tree with
 *     cc -shared -fPIC -O2 -I<cineflow>/include template_plugin.c -o libmy-scanner.so -lm
 * and put the library in a folder of $CINEFLOW_PLUGIN_PATH; then
 *     cineflow --input 'plugin:Template point target#{"depth_mm": 25}'
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cineflow/source_plugin.h"

#define ELEMENTS 64
#define SAMPLES 1024
#define PITCH_M 0.3e-3
#define FS_HZ 20e6
#define F0_HZ 5e6
#define C_M_S 1540.0

struct cf_source {
  double frame_rate_hz;
  double depth_m;
  uint64_t frames; /* 0: endless, as a live scanner */
  double angles[1];
  double element_x[ELEMENTS];
};

static void set_error(char* error, size_t size, const char* text) {
  if (error != NULL && size > 0) {
    snprintf(error, size, "%s", text);
  }
}

/* The value of "name": NUMBER in a flat JSON object, or `fallback`. Enough for the numbers this
 * plugin takes; a plugin with richer parameters would use a JSON library. */
static double number_parameter(const char* json, const char* name, double fallback) {
  char key[64];
  snprintf(key, sizeof key, "\"%s\"", name);
  const char* at = json != NULL ? strstr(json, key) : NULL;
  if (at == NULL) {
    return fallback;
  }
  at = strchr(at + strlen(key), ':');
  return at != NULL ? strtod(at + 1, NULL) : fallback;
}

static cf_source* open_source(const char* parameters, char* error, size_t error_size) {
  cf_source* s = calloc(1, sizeof *s);
  if (s == NULL) {
    set_error(error, error_size, "out of memory");
    return NULL;
  }
  s->frame_rate_hz = number_parameter(parameters, "frame_rate_hz", 20.0);
  s->depth_m = number_parameter(parameters, "depth_mm", 20.0) * 1e-3;
  s->frames = (uint64_t)number_parameter(parameters, "frames", 0.0);
  if (!(s->depth_m > 2e-3 && s->depth_m < 35e-3)) {
    set_error(error, error_size, "depth_mm must lie between 2 and 35 mm");
    free(s);
    return NULL;
  }
  if (!(s->frame_rate_hz > 0 && s->frame_rate_hz <= 1000)) {
    set_error(error, error_size, "frame_rate_hz must lie in (0, 1000]");
    free(s);
    return NULL;
  }
  s->angles[0] = 0.0;
  for (int e = 0; e < ELEMENTS; ++e) {
    s->element_x[e] = (e - (ELEMENTS - 1) / 2.0) * PITCH_M;
  }
  return s;
}

static int describe(cf_source* s, cf_stream* stream, char* error, size_t error_size) {
  (void)error;
  (void)error_size;
  memset(stream, 0, sizeof *stream);
  stream->modality = "ultrasound";
  stream->sample_type = CF_SAMPLES_INT16;
  stream->transmits = 1;
  stream->elements = ELEMENTS;
  stream->samples = SAMPLES;
  stream->frame_bytes = (size_t)ELEMENTS * SAMPLES * sizeof(int16_t);
  stream->sampling_frequency_hz = FS_HZ;
  stream->center_frequency_hz = F0_HZ;
  stream->sound_speed_m_s = C_M_S;
  stream->t0_s = 0.0;
  stream->angles_rad = s->angles;
  stream->element_x_m = s->element_x;
  stream->fractional_bandwidth = 0.6;
  stream->pulse_repetition_frequency_hz = s->frame_rate_hz;
  stream->frame_rate_hz = s->frame_rate_hz;
  stream->frame_count = s->frames;
  stream->frames_per_volume = 0;
  stream->description = "template plugin: one swinging point target";
  return 0;
}

/* The lab's part: one frame of [transmits][elements][samples] int16 into `frame`. */
static void fill_frame(const cf_source* s, uint64_t index, int16_t* frame) {
  const double pi = 3.14159265358979323846;
  const double t = (double)index / s->frame_rate_hz;
  const double x = 5e-3 * sin(2 * pi * 0.5 * t); /* swings +-5 mm at 0.5 Hz */
  const double z = s->depth_m;
  const double sigma = 0.18e-6; /* the pulse's Gaussian envelope, about 60 % bandwidth */
  memset(frame, 0, (size_t)ELEMENTS * SAMPLES * sizeof *frame);
  for (int e = 0; e < ELEMENTS; ++e) {
    const double dx = x - s->element_x[e];
    const double tau = (z + sqrt(dx * dx + z * z)) / C_M_S;
    const int centre = (int)(tau * FS_HZ);
    for (int n = centre - 12; n <= centre + 12; ++n) {
      if (n < 0 || n >= SAMPLES) {
        continue;
      }
      const double u = n / FS_HZ - tau;
      const double v = 8000.0 * exp(-u * u / (2 * sigma * sigma)) * cos(2 * pi * F0_HZ * u);
      frame[(size_t)e * SAMPLES + (size_t)n] = (int16_t)lrint(v);
    }
  }
}

static int64_t read_frame(cf_source* s, uint64_t index, void* dst, size_t bytes,
                          cf_frame_info* info, char* error, size_t error_size) {
  if (bytes != (size_t)ELEMENTS * SAMPLES * sizeof(int16_t)) {
    set_error(error, error_size, "the destination is not one frame");
    return -1;
  }
  fill_frame(s, index, (int16_t*)dst);
  info->slice_index = 0;
  info->elevation_m = 0.0;
  info->lost = 0;
  return (int64_t)bytes;
}

/* A scanner arms its transmit and starts its digitizer here, and stop() disarms it. A read_frame
 * that waits for the hardware must return promptly once stop() ran: keep a flag that stop() sets
 * and the wait checks. This target needs neither: its frames are computed when asked for. */
static int start(cf_source* s, char* error, size_t error_size) {
  (void)s;
  (void)error;
  (void)error_size;
  return 0;
}

static void stop(cf_source* s) {
  (void)s;
}

static void close_source(cf_source* s) {
  free(s);
}

static const cf_source_plugin table = {
    CF_SOURCE_PLUGIN_ABI,
    "Template point target",
    "A point target swinging sideways: the plugin to copy for a lab's own scanner",
    "[{\"name\": \"depth_mm\", \"label\": \"Target depth\", \"kind\": \"number\", \"default\": 20,"
    " \"min\": 2, \"max\": 35, \"unit\": \"mm\"},"
    " {\"name\": \"frame_rate_hz\", \"label\": \"Frame rate\", \"kind\": \"number\","
    " \"default\": 20, \"min\": 1, \"max\": 1000, \"unit\": \"Hz\"},"
    " {\"name\": \"frames\", \"label\": \"Frames (0: live, endless)\", \"kind\": \"integer\","
    " \"default\": 0, \"min\": 0, \"max\": 1000000}]",
    open_source,
    describe,
    start,
    read_frame,
    stop,
    close_source,
};

__attribute__((visibility("default"))) const cf_source_plugin* cineflow_source_plugin(void) {
  return &table;
}
