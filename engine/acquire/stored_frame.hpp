#pragma once
// How a source's frames are stored when it can hand them over still compressed: a recording's
// chunks, one frame each (process/chunk_codec.hpp). The engine then carries the compressed bytes
// through the host ring and the upload, and decodes them where it processes the frame, on the
// device or the CPU pool (process/chunk_decoder.hpp).

#include <cstddef>

namespace cineflow::acquire {

enum class ChunkCodec {
  None,           // the source has no compressed frames to hand over
  BitshuffleLz4,  // HDF5 filter 32008 with its LZ4 option
  Lz4,            // HDF5 filter 32004
};

inline const char* toString(ChunkCodec codec) noexcept {
  switch (codec) {
    case ChunkCodec::BitshuffleLz4:
      return "bitshuffle-lz4";
    case ChunkCodec::Lz4:
      return "lz4";
    case ChunkCodec::None:
      break;
  }
  return "none";
}

struct StoredFormat {
  ChunkCodec codec = ChunkCodec::None;
  std::size_t elementBytes = 0;   // bytes of one sample (the bit shuffle's element)
  std::size_t maxChunkBytes = 0;  // the most bytes one stored frame can take
};

}  // namespace cineflow::acquire
