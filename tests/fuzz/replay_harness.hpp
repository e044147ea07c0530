#pragma once
// What the recording harnesses (fuzz_rf_recording, fuzz_oct_recording) do with a source that
// opened from fuzzed bytes: read its first frames as the engine does, decoded and as stored (then
// decoded by the CPU decoder), so that every size the file states is exercised. A damaged frame
// (SourceError, ChunkError) is the right answer to bad bytes; anything else escapes and is a
// defect.
#include <H5Epublic.h>
#include <H5public.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "acquire/frame_source.hpp"
#include "acquire/recording_input.hpp"
#include "process/chunk_codec.hpp"

namespace cineflow::fuzz {

// Once per process: HDF5 prints its error stack for every failed call unless told not to, and
// keeps freed blocks on its own free lists for reuse. With those lists empty every block goes
// back to the allocator, so the sanitizer sees each read of freed memory whatever inputs ran
// before: a defect inside HDF5 on a damaged file then shows on that file alone, not only after
// some other input left a block behind (which made an input of the corpus crash on a later run).
inline void quietHdf5() {
  static const bool quiet = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    H5set_free_list_limits(0, 0, 0, 0, 0, 0);
    return true;
  }();
  (void)quiet;
}

inline void readFirstFrames(acquire::FrameSource& source) {
  std::vector<std::byte> frame(source.frameBytes());
  acquire::SliceInfo slice;
  const std::uint64_t frames = std::min<std::uint64_t>(source.frameCount(), 3);
  for (std::uint64_t index = 0; index < frames; ++index) {
    try {
      source.readFrame(index, frame, slice);
    } catch (const acquire::SourceError&) {
    }
  }
  const acquire::StoredFormat format = source.storedFormat();
  if (format.codec == acquire::ChunkCodec::None) {
    return;
  }
  std::vector<std::byte> chunk(format.maxChunkBytes);
  process::ChunkScratch scratch;
  for (std::uint64_t index = 0; index < frames; ++index) {
    try {
      const std::size_t bytes = source.readStoredFrame(index, chunk, slice);
      if (bytes > 0) {
        process::decodeChunk(std::span(chunk).first(bytes), format.codec, format.elementBytes,
                             frame, scratch);
      }
    } catch (const acquire::SourceError&) {
    } catch (const process::ChunkError&) {
    }
  }
}

// One input: `data` as a whole HDF5 file opened by `Source` from memory (a file image: no disk
// I/O per input), then its first frames read.
template <class Source>
int fuzzRecording(const std::uint8_t* data, std::size_t size) {
  quietHdf5();
  const acquire::RecordingInput input{"fuzzed.h5",
                                      {reinterpret_cast<const std::byte*>(data), size}};
  try {
    Source source(input, 0);
    readFirstFrames(source);
  } catch (const acquire::SourceError&) {
  }
  return 0;
}

}  // namespace cineflow::fuzz
