// `cineflow bench --compressed`: what a compressed raw recording costs and saves on replay. The
// workload's frames are recorded twice into a temporary folder (store/raw_recorder.hpp), once as
// bitshuffle + LZ4 chunks and once uncompressed; then
//   - the decoders alone, GB/s of decoded output: the host decoder as a replay's reader calls it
//     for chunks it cannot stage (frames of 8 blocks or more on the CPU pool), and the engine's
//     decoder on the backend (the CUDA kernel, or the CPU pool), every chunk staged and already in
//     device memory, timed with events;
//   - replay: each file through the engine flat out, frames/s, beside the pinned host-to-device
//     bound of the same run.
// The files were just written, so replay reads them from the page cache: the uncompressed file's
// advantage here is the disk's absence, which a real archive on a disk does not have.

#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench.hpp"
#include "bench_source.hpp"
#include "compute/backend.hpp"
#include "oct/oct_modality.hpp"
#include "oct/oct_simulator.hpp"
#include "pipeline/engine.hpp"
#include "process/chunk_codec.hpp"
#include "process/chunk_decoder.hpp"
#include "registry/source_factory.hpp"
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
                     const std::filesystem::path& path, store::RecordCodec codec,
                     std::uint64_t count) {
  store::RawRecorder recorder(path, source.modality().recordingLayout(source, *settings), codec,
                              store::RecordPolicy::Block);
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

// Every chunk of the frames dataset `dataset` in `path`, as stored.
std::vector<std::vector<std::byte>> readChunks(const std::filesystem::path& path,
                                               const std::string& dataset) {
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
  return chunks;
}

// Decodes every chunk `repeats` times from this thread, as a replay's reader does; GB/s of
// output.
double hostDecodeRate(const std::vector<std::vector<std::byte>>& chunks,
                      const acquire::StoredFormat& format, std::size_t frameBytes, int repeats) {
  std::vector<std::byte> out(frameBytes);
  process::ChunkScratch scratch;
  const auto begin = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) {
    for (const auto& chunk : chunks) {
      process::decodeChunk(chunk, format.codec, format.elementBytes, out, scratch);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return static_cast<double>(frameBytes) * static_cast<double>(chunks.size()) * repeats / seconds /
         1e9;
}

// The engine's decoder on `backend`: every chunk staged and uploaded once, then decoded
// `repeats` times on one stream between two events; GB/s of output. Empty when the chunks cannot
// be staged (blocks over process::kMaxStagedBlockBytes): the replay decodes those on the host.
std::optional<double> backendDecodeRate(compute::Backend& backend,
                                        const std::vector<std::vector<std::byte>>& chunks,
                                        const acquire::StoredFormat& format, std::size_t frameBytes,
                                        int repeats) {
  const std::size_t capacity = process::stagedCapacity(format, frameBytes);
  std::vector<process::StagedChunk> staged(chunks.size());
  compute::PinnedBuffer<std::byte> host(backend, capacity * chunks.size());
  compute::DeviceBuffer<std::byte> device(backend, capacity * chunks.size());
  compute::DeviceBuffer<std::byte> frame(backend, frameBytes);
  compute::DeviceBuffer<int> status(backend, chunks.size());
  process::ChunkLayout layout;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const std::span<std::byte> slot = host.host().subspan(i * capacity, capacity);
    std::copy(chunks[i].begin(), chunks[i].end(), slot.begin());
    if (!process::stageChunk(slot, chunks[i].size(), format, frameBytes, layout, staged[i])) {
      return std::nullopt;
    }
  }
  process::ChunkDecoder decoder;
  decoder.configure(backend, frameBytes);
  auto stream = backend.createStream("decode bench");
  const auto start = backend.createEvent();
  const auto done = backend.createEvent();
  stream->copyAsync(device.data(), host.data(), host.bytes());
  const auto decodeAll = [&] {
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      decoder.enqueue(*stream, device.data() + i * capacity, staged[i], frame.view(),
                      status.data() + i);
    }
  };
  decodeAll();  // warm-up
  stream->record(*start);
  for (int r = 0; r < repeats; ++r) {
    decodeAll();
  }
  stream->record(*done);
  done->synchronize();
  if (const std::string error = stream->takeError(); !error.empty()) {
    throw std::runtime_error(error);
  }
  std::vector<int> statuses(chunks.size());
  stream->copyAsync(statuses.data(), status.data(), statuses.size() * sizeof(int));
  stream->synchronize();
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i] != 0) {
      throw std::runtime_error("decode bench: frame " + std::to_string(i) + ": " +
                               process::chunkStatusText(statuses[i], staged[i].blocks));
    }
  }
  const double seconds = done->elapsedMsSince(*start) * 1e-3;
  return static_cast<double>(frameBytes) * static_cast<double>(chunks.size()) * repeats / seconds /
         1e9;
}

// `frames` frames of the recording `path` through the engine, unpaced (timeUnpacedRun: no frame
// observer).
TimedRun replayRate(compute::Backend& backend, const std::filesystem::path& path,
                    const std::shared_ptr<const modality::ProcessingSettings>& settings,
                    std::uint64_t frames) {
  const std::uint64_t warmup = 8;
  const pipeline::EngineConfig config = benchEngineConfig(frames, warmup);
  pipeline::Engine engine(backend, config);
  engine.setSource(acquire::openSource(path.string()));
  engine.setSettings(settings);
  return timeUnpacedRun(engine, warmup);
}

}  // namespace

int runCompressedBench(compute::Backend& backend, const std::string& modality,
                       const std::string& preset, std::uint64_t frames, std::size_t blockBytes) {
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
      record(*source, settings, compressed,
             store::RecordCodec(store::RecordCompression::BitshuffleLz4, blockBytes), recorded);
  record(*source, settings, plain, store::RecordCompression::None, recorded);
  const double ratio = static_cast<double>(frameBytes * recorded) / static_cast<double>(chunkBytes);
  const acquire::StoredFormat format{
      acquire::ChunkCodec::BitshuffleLz4, store::bytesOf(layout.sampleKind),
      process::chunkBound(frameBytes, acquire::ChunkCodec::BitshuffleLz4,
                          store::bytesOf(layout.sampleKind), blockBytes)};
  const auto chunks = readChunks(compressed, layout.dataset);
  const double decodeGbps = hostDecodeRate(chunks, format, frameBytes, 4);
  const int repeats = backend.kind() == compute::BackendKind::Cuda ? 50 : 4;
  const std::optional<double> engineDecodeGbps =
      backendDecodeRate(backend, chunks, format, frameBytes, repeats);
  const double h2dGbps = measureHostToDevice(backend, frameBytes);
  const TimedRun plainRun = replayRate(backend, plain, settings, frames);
  const TimedRun compressedRun = replayRate(backend, compressed, settings, frames);
  const double plainRate = plainRun.framesPerSecond();
  const double compressedRate = compressedRun.framesPerSecond();
  const double boundRate = h2dGbps * 1e9 / static_cast<double>(frameBytes);

  std::printf("backend: %s\n", backend.deviceName().c_str());
  const std::size_t elementBytes = store::bytesOf(layout.sampleKind);
  std::printf(
      "recording: %s, %llu frames of %.2f MB, bitshuffle-lz4 in blocks of %zu bytes, %.2fx "
      "smaller\n",
      source->describe().c_str(), static_cast<unsigned long long>(recorded),
      static_cast<double>(frameBytes) / 1e6,
      process::chunkBlockBytes(acquire::ChunkCodec::BitshuffleLz4, elementBytes, blockBytes),
      ratio);
  std::printf("decode (host, as a replay reads): %.2f GB/s of decoded frames (%.3f ms per frame)\n",
              decodeGbps, static_cast<double>(frameBytes) / decodeGbps / 1e6);
  const char* const decoder =
      backend.kind() == compute::BackendKind::Cuda ? "CUDA kernel" : "CPU pool";
  if (engineDecodeGbps) {
    std::printf("decode (replay's decoder, %s): %.2f GB/s of decoded frames (%.3f ms per frame)\n",
                decoder, *engineDecodeGbps,
                static_cast<double>(frameBytes) / *engineDecodeGbps / 1e6);
  } else {
    std::printf(
        "decode (replay's decoder, %s): not used: blocks over %zu bytes are decoded on the host "
        "as the replay reads them\n",
        decoder, process::kMaxStagedBlockBytes);
  }
  std::printf("replay, %llu frames flat out (files in the page cache), frame observer: %s\n",
              static_cast<unsigned long long>(frames),
              plainRun.frameObserver || compressedRun.frameObserver ? "yes" : "none");
  std::printf("  uncompressed   %8.1f frames/s\n", plainRate);
  std::printf("  bitshuffle-lz4 %8.1f frames/s (%.1f %% of uncompressed)\n", compressedRate,
              100.0 * compressedRate / plainRate);
  std::printf(
      "host-to-device %.2f GB/s: %.1f uncompressed frames/s at most; compressed replay "
      "at %.1f %% of that bound\n",
      h2dGbps, boundRate, 100.0 * compressedRate / boundRate);
  return 0;
}

}  // namespace cineflow::app
