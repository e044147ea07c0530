// Writes the fuzz harnesses' seed corpora into DIR/<harness>/: valid inputs each harness's format
// starts from (chunks encoded from seeded random frames, typical command lines), so that the
// fuzzer begins inside the formats rather than at random bytes.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "process/chunk_codec.hpp"

using namespace cineflow;

namespace {

void write(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

void chunkSeeds(const std::filesystem::path& folder) {
  std::mt19937 random(26);
  int n = 0;
  for (const acquire::ChunkCodec codec :
       {acquire::ChunkCodec::BitshuffleLz4, acquire::ChunkCodec::Lz4}) {
    for (const std::size_t elementBytes : {std::size_t{2}, std::size_t{4}}) {
      for (const std::size_t elements : {std::size_t{64}, std::size_t{1000}, std::size_t{4096}}) {
        // Echo-like samples: small values and runs, as channel data compresses.
        std::vector<std::byte> frame(elements * elementBytes);
        std::normal_distribution<double> noise(0, 300);
        for (std::size_t k = 0; k < frame.size(); k += elementBytes) {
          const auto value = static_cast<std::int32_t>(noise(random));
          for (std::size_t b = 0; b < elementBytes; ++b) {
            frame[k + b] = static_cast<std::byte>((value >> (8 * b)) & 0xff);
          }
        }
        std::vector<std::byte> chunk;
        const std::size_t bytes = process::encodeChunk(frame, codec, elementBytes, chunk);
        std::vector<std::uint8_t> input = {
            static_cast<std::uint8_t>(codec == acquire::ChunkCodec::BitshuffleLz4 ? 0 : 1),
            static_cast<std::uint8_t>(elementBytes == 2 ? 1 : 2),
            static_cast<std::uint8_t>(elements & 0xff), static_cast<std::uint8_t>(elements >> 8)};
        for (std::size_t k = 0; k < bytes; ++k) {
          input.push_back(static_cast<std::uint8_t>(chunk[k]));
        }
        write(folder / ("chunk-" + std::to_string(n++)), input);
      }
    }
  }
}

void commandLineSeeds(const std::filesystem::path& folder) {
  const std::vector<std::vector<std::string>> lines = {
      {"--headless", "--input", "sim", "--output", "out.h5", "--frames", "8"},
      {"--headless", "--input", "rec.h5", "--output", "o.h5", "--mode", "iq", "--grid",
       "-15:15:0.1,5:45:0.1", "--fnumber", "1.5", "--apodisation", "rect"},
      {"--headless", "--input", "disk.h5", "--output", "d.h5", "--mode", "doppler", "--ensemble",
       "16", "--wall-filter", "svd:2", "--doppler-average", "3x3", "--colour-box", "-5:5,10:30"},
      {"--headless", "--input", "oct-sim", "--output", "o.h5", "--oct-dispersion", "1e-6,0",
       "--oct-window", "gaussian", "--refractive-index", "1.38"},
      {"--input=zmq:tcp://*:5555", "--backend=cpu", "--variant", "beamform=avx2", "--no-tune"},
      {"--headless", "--input", "sim", "--record", "r.h5", "--record-compression", "lz4",
       "--policy", "drop", "--on-damaged-frame", "skip", "--report", "r.json"}};
  int n = 0;
  for (const auto& line : lines) {
    std::vector<std::uint8_t> input;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (k > 0) {
        input.push_back(0);
      }
      input.insert(input.end(), line[k].begin(), line[k].end());
    }
    write(folder / ("line-" + std::to_string(n++)), input);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    return 2;
  }
  const std::filesystem::path root = argv[1];
  chunkSeeds(root / "fuzz_chunk_decode");
  commandLineSeeds(root / "fuzz_command_line");
  return 0;
}
