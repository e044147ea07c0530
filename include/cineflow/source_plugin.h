/* Cineflow source plugins: the C ABI a lab implements in a shared library to feed Cineflow
 * frames from its own scanner, digitizer or acquisition code (issue 21).
 *
 * A plugin is a shared library (libNAME.so) that exports one function,
 *
 *     const cf_source_plugin* cineflow_source_plugin(void);
 *
 * returning a table that lives as long as the library. Cineflow loads it with dlopen(), checks
 * `abi_version` against CF_SOURCE_PLUGIN_ABI (a table of another version is refused, naming both),
 * and calls its functions from two threads: open/describe/start/close from the controlling thread,
 * read_frame from the acquisition thread; only stop may run while read_frame does.
 *
 * Contract
 *   open        makes a source from the operator's parameters (a JSON object of name: value, the
 *               names and kinds the plugin lists in `parameters_json`); returns NULL and writes
 *               why into `error` (NUL-terminated, at most error_size bytes) when it cannot.
 *   describe    fills `cf_stream` once, after open: the modality ("ultrasound"), the frame's
 *               shape and sample type, the acquisition's geometry and rates. Cineflow validates it
 *               and refuses the source with the plugin's name and the first bad field.
 *   start       (optional, NULL: nothing to do) the operator started acquiring: arm the hardware.
 *               Returns 0, or -1 with `error` set (Cineflow shows it and stays stopped).
 *   read_frame  writes frame `index` into `dst`, exactly cf_stream.frame_bytes bytes of pinned host
 *               memory (the engine's ring slot: no extra copy), fills `info` (the frame's place in
 *               a volume sweep, frames the source lost since its previous frame), and returns how
 *               many bytes it wrote (must equal frame_bytes), or -1 with `error` set. A live source
 *               blocks until its next frame is there (frame_count 0: endless).
 *   stop        (optional; a plugin whose read_frame waits for hardware needs it) the run ends:
 *               called once after each successful start, possibly from another thread while
 *               read_frame is blocked, which must then return promptly (its result is ignored).
 *   close       releases everything open() made. Called once, also after a failure.
 *
 * Every string a plugin returns is UTF-8 and stays valid until close() (or, for the table's, as
 * long as the library). Nothing here throws: a plugin written in C++ must catch its exceptions.
 */
#ifndef CINEFLOW_SOURCE_PLUGIN_H
#define CINEFLOW_SOURCE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CF_SOURCE_PLUGIN_ABI 1u

typedef enum { CF_SAMPLES_INT16 = 0, CF_SAMPLES_FLOAT32 = 1 } cf_sample_type;

/* An ultrasound stream: frames of [transmits][elements][samples] plane-wave channel data. */
typedef struct {
  const char* modality; /* "ultrasound" */
  /* A cf_sample_type. Held as a 32-bit integer (the enum's size), so that Cineflow can check
   * any value a plugin writes here: an enum object holding another value is undefined in C++. */
  int32_t sample_type;
  uint32_t transmits, elements, samples;
  size_t frame_bytes; /* transmits x elements x samples x the sample's size */
  double sampling_frequency_hz, center_frequency_hz, sound_speed_m_s, t0_s;
  const double* angles_rad;             /* [transmits]: the plane waves' steering angles */
  const double* element_x_m;            /* [elements], increasing, array centre at 0 */
  double fractional_bandwidth;          /* -6 dB bandwidth / f0; 0: unknown */
  double pulse_repetition_frequency_hz; /* the frames' rate for Doppler; 0: unknown */
  double frame_rate_hz;       /* the rate frames come at (live) or are replayed at; 0: as taken */
  uint64_t frame_count;       /* frames before the sequence repeats; 0: endless (live) */
  uint32_t frames_per_volume; /* elevation positions per sweep (a volume); 0: a 2-D stream */
  const char* description;    /* one line for the status bar, e.g. "lab scanner 3, probe L11-5" */
} cf_stream;

/* What read_frame says about the frame it wrote. */
typedef struct {
  uint32_t slice_index; /* position within the sweep (0 for a 2-D stream) */
  double elevation_m;   /* the frame's elevation (y) */
  uint64_t lost;        /* frames the source lost since its previous one (Cineflow counts them) */
} cf_frame_info;

typedef struct cf_source cf_source; /* a plugin's own type */

typedef struct {
  uint32_t abi_version; /* CF_SOURCE_PLUGIN_ABI */
  const char* name;     /* shown to the operator and used to choose it: "Lab scanner" */
  const char* summary;  /* one sentence */
  /* The parameters the operator sets, as a JSON array of objects: {"name": "gain_db", "label":
   * "Gain", "kind": "number" | "integer" | "text" | "choice", "default": ..., "min": ..., "max":
   * ..., "choices": [...], "unit": "dB"}. "[]" when there are none. */
  const char* parameters_json;
  cf_source* (*open)(const char* parameters, char* error, size_t error_size);
  int (*describe)(cf_source* source, cf_stream* stream, char* error, size_t error_size);
  int (*start)(cf_source* source, char* error, size_t error_size);
  int64_t (*read_frame)(cf_source* source, uint64_t index, void* dst, size_t bytes,
                        cf_frame_info* info, char* error, size_t error_size);
  void (*stop)(cf_source* source);
  void (*close)(cf_source* source);
} cf_source_plugin;

/* The one symbol a plugin exports. */
typedef const cf_source_plugin* (*cf_source_plugin_entry)(void);
#define CF_SOURCE_PLUGIN_ENTRY "cineflow_source_plugin"

#ifdef __cplusplus
}
#endif

#endif /* CINEFLOW_SOURCE_PLUGIN_H */
