#pragma once
// What `cineflow soak` measures and the goals it checks, as plain values and pure functions
// (no engine, no clock), so that tests can feed them hand-made numbers: the sequence numbers seen
// at the end of one path, one row of figures per sample point, the counts at the end of a run, the
// checks of the count identities and of the memory, and the aligned table lines.

#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/engine_types.hpp"

namespace cineflow::app {

// The sequence numbers that reached the end of one path (processed, recorded, displayed), in the
// order they arrived. Frames are numbered from 0 by the engine, so a number never seen is a frame
// that path lost: `gaps` counts those before the newest seen (leading and between), `disorder`
// counts numbers that did not increase (a repeat or a step back), which no path may show.
struct SequenceTally {
  std::uint64_t count = 0;
  std::uint64_t gaps = 0;
  std::uint64_t disorder = 0;
  std::uint64_t last = 0;  // valid when count > 0

  void see(std::uint64_t sequence);
  // Numbers in [0, end) never seen: gaps, plus those after the newest seen. `end` is the number
  // the next frame would have had (the engine's frames acquired + frames lost).
  std::uint64_t missingBefore(std::uint64_t end) const;
};

// The figures at one sample point (a minute, the memory baseline, the end), cumulative from the
// start of the run except `framesPerSecond` (processed frames/s since the previous row).
struct SoakRow {
  std::string label;  // "1", "2", ... (minutes), "0.50" (a fractional point), "end"
  double seconds = 0;
  std::uint64_t produced = 0;         // frames the source was asked for (EngineStats::acquired)
  std::uint64_t processed = 0;        // images complete (EngineStats::processed)
  std::uint64_t displayed = 0;        // distinct images the display consumer took
  std::uint64_t recorded = 0;         // frames the raw recorder wrote
  std::uint64_t dropped = 0;          // frames the Drop policy discarded at the host ring
  std::uint64_t recorderDropped = 0;  // frames the raw recorder had no slot for
  std::uint64_t lost = 0;             // frames the source lost (EngineStats::lost)
  std::uint64_t damaged = 0;
  std::uint64_t processedGaps = 0;   // SequenceTally::gaps of the processed path
  std::uint64_t recordedGaps = 0;    // of the frames the recorder accepted
  std::uint64_t displaySkipped = 0;  // images the display never showed (newer ones replaced them)
  int ringOccupancy = 0;
  int ringSlots = 0;
  std::uint64_t recorderQueue = 0;  // frames accepted by the recorder, not yet written
  int recorderSlots = 0;
  std::uint64_t recordedBytes = 0;  // the recording's chunks on disk
  std::uint64_t rssBytes = 0;       // VmRSS
  int threads = 0;                  // the process's threads
  double framesPerSecond = 0;
};

// The counts once the run is over: the engine stopped (every admitted frame processed), the
// recorder closed and its file read back.
struct SoakEnd {
  bool engineFailed = false;
  std::string engineError;
  std::string recorderError;
  std::uint64_t produced = 0;
  std::uint64_t processed = 0;
  std::uint64_t dropped = 0;
  std::uint64_t lost = 0;
  std::uint64_t damaged = 0;
  std::uint64_t sequenceEnd = 0;       // produced + lost: the number the next frame would have had
  SequenceTally observed;              // the frame observer (every completed image)
  SequenceTally displayed;             // the display consumer
  std::uint64_t recorderOffered = 0;   // raw frames the engine's tap handed to the recorder
  std::uint64_t recorderAccepted = 0;  // of those, taken into a slot
  std::uint64_t recorded = 0;          // RecorderStats::written
  std::uint64_t recorderDropped = 0;   // RecorderStats::dropped
  std::uint64_t fileFrames = 0;        // frames in the recording's frames dataset, read back
  SequenceTally file;                  // its /sequence
};

// Resident memory at a time after the engine started: all of it (VmRSS), and its anonymous part
// (RssAnon: the heaps, stacks and buffers) and file-backed part (RssFile: the code and data of the
// executable and its libraries, paged in as they are first used).
struct MemorySample {
  double seconds = 0;
  std::uint64_t rssBytes = 0;
  std::uint64_t anonBytes = 0;
  std::uint64_t fileBytes = 0;
};

struct SoakCheck {
  std::string name;
  bool passed = false;
  std::string detail;  // the figures compared, whether it passed or not
  bool judged = true;  // false: measured and shown, but this build cannot judge it (passed)
};

// The count goals. Block: nothing dropped or lost, produced == processed == recorded, and no
// gaps. Drop: produced == processed + dropped + damaged, the recorder's counts add up to what it
// was offered and to what its file holds, and every path's gaps equal the frames that path
// dropped. Both: no path out of order, the engine and the recorder without error, the display fed.
std::vector<SoakCheck> checkCounts(const SoakEnd& end, pipeline::OverflowPolicy policy);

// The memory goal: resident memory at the last row taken while running (the last before "end")
// is at most that at the baseline row plus an allowance of two parts:
//   allocator: glibc keeps up to M_TRIM_THRESHOLD (128 KiB) free at the top of each arena before
//     it gives memory back, and each thread that allocates may have its own arena, so RSS may
//     stand up to threads x 128 KiB above what is in use (the baseline row's thread count);
//   recording index: HDF5 keeps the open recording's chunk index in memory (the extensible
//     array blocks H5Dwrite_chunk adds), measured here (HDF5 1.10.8, one frame per chunk) at
//     65-70 bytes per recorded frame until it levels off at 7.2 MiB after about 140 000 frames
//     (flat from there to 600 000): 80 bytes per frame recorded since the baseline, at most
//     8 MiB in all.
// Anything above that is growth: a leak of N bytes per frame shows after about
// allowance / N frames.
struct MemoryRule {
  double baselineSeconds = 60;
  std::uint64_t bytesPerThread = 128 * 1024;
  std::uint64_t indexBytesPerFrame = 80;
  std::uint64_t indexCapBytes = std::uint64_t{8} << 20;
};
// Where the baseline is taken: after the first minute, or half-way through a run shorter than
// two minutes (the first half being the warm-up: caches, pools and the allocator's arenas filled).
double memoryBaselineSeconds(double runSeconds);
// Fails when no row was taken at the baseline or after it. The detail also gives the highest of
// `series` (samples taken while running) after the baseline, which the goal does not judge.
SoakCheck checkMemory(const std::vector<SoakRow>& rows, const std::vector<MemorySample>& series,
                      const MemoryRule& rule);

// The table: a header line and one aligned line per row (no newline at the end).
std::string tableHeader();
std::string tableLine(const SoakRow& row);

// From the text of /proc/self/status: VmRSS, RssAnon, RssFile (in bytes) and Threads; 0 for a
// field it lacks.
struct ProcessStatus {
  std::uint64_t rssBytes = 0;
  std::uint64_t anonBytes = 0;
  std::uint64_t fileBytes = 0;
  int threads = 0;
};
ProcessStatus parseProcessStatus(const std::string& status);

}  // namespace cineflow::app
