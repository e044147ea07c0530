/* Source plugins that misbehave, one way each (chosen at compile time), for test_source_plugins:
 *   FAULT_NO_ENTRY    exports no cineflow_source_plugin
 *   FAULT_ABI         built for ABI 99
 *   FAULT_OPEN        open fails with a reason ("the probe is not connected")
 *   FAULT_START       start fails with a reason ("the transmit voltage is not enabled")
 *   FAULT_STREAM      describes elements that are not in increasing order
 *   FAULT_SIZE        writes 2 bytes fewer than a frame
 *   FAULT_READ        frame 3 fails ("link to the digitizer lost")
 *   FAULT_STALL       from frame 4 on, read_frame waits (a scanner that stopped sending)
 *                     until stop ends the wait, as the ABI asks
 *   (none)            a good 8-element, 1024-sample stream whose samples are index * 100 + k
 */
#ifdef FAULT_STALL
#include <pthread.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cineflow/source_plugin.h"

#define ELEMENTS 8
#define SAMPLES 1024

struct cf_source {
  double angles[1];
  double elements[ELEMENTS];
#ifdef FAULT_STALL
  pthread_mutex_t lock;
  pthread_cond_t wake;
  int stopped;
#endif
};

static cf_source* open_source(const char* parameters, char* error, size_t size) {
  (void)parameters;
#ifdef FAULT_OPEN
  snprintf(error, size, "the probe is not connected");
  return NULL;
#else
  (void)error;
  (void)size;
  cf_source* s = calloc(1, sizeof *s);
  for (int e = 0; e < ELEMENTS; ++e) {
    s->elements[e] = (e - (ELEMENTS - 1) / 2.0) * 0.3e-3;
  }
#ifdef FAULT_STREAM
  s->elements[1] = s->elements[0] - 1e-3;
#endif
#ifdef FAULT_STALL
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->wake, NULL);
#endif
  return s;
#endif
}

static int describe(cf_source* s, cf_stream* stream, char* error, size_t size) {
  (void)error;
  (void)size;
  memset(stream, 0, sizeof *stream);
  stream->modality = "ultrasound";
  stream->sample_type = CF_SAMPLES_INT16;
  stream->transmits = 1;
  stream->elements = ELEMENTS;
  stream->samples = SAMPLES;
  stream->frame_bytes = ELEMENTS * SAMPLES * sizeof(int16_t);
  stream->sampling_frequency_hz = 20e6;
  stream->center_frequency_hz = 5e6;
  stream->sound_speed_m_s = 1540;
  stream->angles_rad = s->angles;
  stream->element_x_m = s->elements;
  stream->frame_rate_hz = 100;
  stream->frame_count = 8;
  stream->description = "faulty test plugin";
  return 0;
}

static int64_t read_frame(cf_source* s, uint64_t index, void* dst, size_t bytes,
                          cf_frame_info* info, char* error, size_t size) {
  (void)s;
#ifdef FAULT_STALL
  if (index >= 4) {
    pthread_mutex_lock(&s->lock);
    while (!s->stopped) {
      pthread_cond_wait(&s->wake, &s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    snprintf(error, size, "stopped while waiting for frame %llu", (unsigned long long)index);
    return -1;
  }
#endif
#ifdef FAULT_READ
  if (index == 3) {
    snprintf(error, size, "link to the digitizer lost");
    return -1;
  }
#else
  (void)error;
  (void)size;
#endif
  int16_t* samples = dst;
  for (size_t k = 0; k < bytes / sizeof(int16_t); ++k) {
    samples[k] = (int16_t)((index * 100 + k) % 30000);
  }
  memset(info, 0, sizeof *info);
#ifdef FAULT_SIZE
  return (int64_t)bytes - 2;
#else
  return (int64_t)bytes;
#endif
}

static int start(cf_source* s, char* error, size_t size) {
  (void)s;
#ifdef FAULT_START
  snprintf(error, size, "the transmit voltage is not enabled");
  return -1;
#else
  (void)error;
  (void)size;
  return 0;
#endif
}

#ifdef FAULT_STALL
static void stop(cf_source* s) {
  pthread_mutex_lock(&s->lock);
  s->stopped = 1;
  pthread_cond_broadcast(&s->wake);
  pthread_mutex_unlock(&s->lock);
}
#endif

static void close_source(cf_source* s) {
#ifdef FAULT_STALL
  pthread_cond_destroy(&s->wake);
  pthread_mutex_destroy(&s->lock);
#endif
  free(s);
}

static const cf_source_plugin table = {
#ifdef FAULT_ABI
    99u,
#else
    CF_SOURCE_PLUGIN_ABI,
#endif
    PLUGIN_NAME,  "misbehaves for the tests", "[]", open_source, describe, start, read_frame,
#ifdef FAULT_STALL
    stop,
#else
    NULL,
#endif
    close_source,
};

#ifdef FAULT_NO_ENTRY
__attribute__((visibility("default"))) const cf_source_plugin* not_the_entry(void) {
  return &table;
}
#else
__attribute__((visibility("default"))) const cf_source_plugin* cineflow_source_plugin(void) {
  return &table;
}
#endif
