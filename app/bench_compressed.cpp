// `cineflow bench --compressed`: what a compressed raw recording costs and saves on replay. The
// workload's frames are recorded twice into a temporary folder (store/raw_recorder.hpp), once as
// bitshuffle + LZ4 chunks and once uncompressed; then
//   - the decoder alone: every recorded chunk decoded, GB/s of decoded output (one thread);
//   - replay: each file through the engine flat out, frames/s, beside the pinned host-to-device
//     bound of the same run.
// The files were just written, so replay reads them from the page cache: the uncompressed file's
// advantage here is the disk's absence, which a real archive on a disk does not have.

#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench.hpp"
#include "bench_source.hpp"
#include "compute/backend.hpp"
#include "modality/source_factory.hpp"
#include "oct/oct_modality.hpp"
#include "oct/oct_simulator.hpp"
#include "pipeline/engine.hpp"
#include "process/bitshuffle_lz4.hpp"
#include "store/hdf5_handle.hpp"
#include "store/raw_recorder.hpp"
#include "ultrasound/simulator.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::app {
namespace {

// A temporary folder, removed with everything in it.
class ScratchFolder {
 public:
  ScratchFolder()
      : path_(std::filesystem::temp_directory_path() /
              ("cineflow-bench-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Records `count` frames of `source` into `path`. Returns the chunks' total size.
std::uint64_t record(acquire::FrameSource& source,
                     const std::shared_ptr<const modality::ProcessingSettings>& settings,
                     const std::filesystem::path& path, store::RecordCompression compression,
                     std::uint64_t count) {
  store::RawRecorder recorder(path, source.modality().recordingLayout(source, *settings),
                              compression, store::RecordPolicy::Block);
  std::vector<std::byte> frame(source.frameBytes());
  for (std::uint64_t i = 0; i < count; ++i) {
    acquire::SliceInfo slice;
    source.readFrame(i % source.frameCount(), frame, slice);
    acquire::FrameHeader header;
    header.sequence = i;
    recorder.submit(header, frame);
  }
  const store::RecorderStats stats = recorder.stop();
  if (!stats.error.empty()) {
    throw std::runtime_error(stats.error);
  }
  return stats.compressedBytes;
}

// Decodes every chunk of the compressed recording `path` `repeats` times; GB/s of output.
double decodeRate(const std::filesystem::path& path, const std::string& dataset,
                  std::size_t elementBytes, std::size_t frameBytes, int repeats) {
  const store::ErrorScope quiet;
  const store::H5File file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  const store::H5Dataset frames(
      store::checkId(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), dataset));
  const std::vector<hsize_t> shape = store::datasetShape(frames.get());
  std::vector<std::vector<std::byte>> chunks(shape[0]);
  for (hsize_t f = 0; f < shape[0]; ++f) {
    std::vector<hsize_t> offset(shape.size(), 0);
    offset[0] = f;
    hsize_t bytes = 0;
    store::checkStatus(H5Dget_chunk_storage_size(frames.get(), offset.data(), &bytes), "chunk");
    chunks[f].resize(bytes);
    std::uint32_t mask = 0;
    store::checkStatus(
        H5Dread_chunk(frames.get(), H5P_DEFAULT, offset.data(), &mask, chunks[f].data()),
        "read chunk");
  }
  std::vector<std::byte> out(frameBytes);
  process::ChunkScratch scratch;
  const auto begin = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) {
    for (const auto& chunk : chunks) {
      process::decodeBitshuffleLz4(chunk, elementBytes, out, scratch);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return static_cast<double>(frameBytes) * static_cast<double>(chunks.size()) * repeats / seconds /
         1e9;
}

// `frames` frames of the recording `path` through the engine, unpaced: frames/s.
double replayRate(compute::Backend& backend, const std::filesystem::path& path,
                  const std::shared_ptr<const modality::ProcessingSettings>& settings,
                  std::uint64_t frames) {
  pipeline::EngineConfig config;
  config.pace = false;
  config.framesPerVolume = 0;
  const std::uint64_t warmup = 8;
  config.maxFrames = frames + warmup;
  pipeline::Engine engine(backend, config);
  engine.setSource(acquire::openSource(path.string()));
  engine.setSettings(settings);
  return static_cast<double>(frames) / timeUnpacedRun(engine, warmup);
}

}  // namespace

int runCompressedBench(compute::Backend& backend, const std::string& modality,
                       const std::string& preset, std::uint64_t frames) {
  // The workload's frames: the OCT simulator, the ultrasound simulator ("default") or the
  // course preset's synthetic channel data.
  std::unique_ptr<acquire::FrameSource> source;
  std::shared_ptr<const modality::ProcessingSettings> settings;
  std::uint64_t recorded = 16;
  if (modality == "oct") {
    oct::OctSimulatorConfig config;
    config.ascans = 1024;
    config.bscans = 8;
    source = std::make_unique<oct::OctSimulator>(config);
    recorded = 8;
  } else if (preset == "course") {
    const BenchWorkload workload = benchWorkload(preset);
    source = std::make_unique<BenchSource>(workload.acq, workload.sampleType);
    settings = ultrasound::makeSettings(workload.imaging);
    recorded = 8;
  } else {
    source = acquire::openSource("sim");
  }
  if (!settings) {
    settings = source->modality().defaultSettings(*source);
  }
  const store::RecordingLayout layout = source->modality().recordingLayout(*source, *settings);
  const std::size_t frameBytes = source->frameBytes();
  const ScratchFolder folder;
  const auto compressed = folder.path() / "compressed.h5";
  const auto plain = folder.path() / "plain.h5";
  const std::uint64_t chunkBytes =
      record(*source, settings, compressed, store::RecordCompression::BitshuffleLz4, recorded);
  record(*source, settings, plain, store::RecordCompression::None, recorded);
  const double ratio = static_cast<double>(frameBytes * recorded) / static_cast<double>(chunkBytes);
  const double decodeGbps =
      decodeRate(compressed, layout.dataset, store::bytesOf(layout.sampleKind), frameBytes, 4);
  const double h2dGbps = measureHostToDevice(backend, frameBytes);
  const double plainRate = replayRate(backend, plain, settings, frames);
  const double compressedRate = replayRate(backend, compressed, settings, frames);
  const double boundRate = h2dGbps * 1e9 / static_cast<double>(frameBytes);

  std::printf("backend: %s\n", backend.deviceName().c_str());
  std::printf("recording: %s, %llu frames of %.2f MB, bitshuffle-lz4 %.2fx smaller\n",
              source->describe().c_str(), static_cast<unsigned long long>(recorded),
              static_cast<double>(frameBytes) / 1e6, ratio);
  std::printf("decode (CPU, one thread): %.2f GB/s of decoded frames (%.3f ms per frame)\n",
              decodeGbps, static_cast<double>(frameBytes) / decodeGbps / 1e6);
  std::printf("replay, %llu frames flat out (files in the page cache):\n",
              static_cast<unsigned long long>(frames));
  std::printf("  uncompressed   %8.1f frames/s\n", plainRate);
  std::printf("  bitshuffle-lz4 %8.1f frames/s (%.1f %% of uncompressed)\n", compressedRate,
              100.0 * compressedRate / plainRate);
  std::printf("host-to-device %.2f GB/s: %.1f uncompressed frames/s at most\n", h2dGbps, boundRate);
  return 0;
}

}  // namespace cineflow::app
