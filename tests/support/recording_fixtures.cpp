#include "support/recording_fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "modality/modality.hpp"
#include "support/test_paths.hpp"
#include "support/test_random.hpp"

namespace cineflow::test {

oct::OctSimulatorConfig smallOct() {
  oct::OctSimulatorConfig config;
  config.ascans = 48;
  config.samples = 1024;
  config.bscans = 5;
  return config;
}

store::RecordingLayout layoutOf(const acquire::FrameSource& source) {
  return source.modality().recordingLayout(source, *source.modality().defaultSettings(source));
}

std::vector<std::byte> frameOf(acquire::FrameSource& source, std::uint64_t index) {
  std::vector<std::byte> frame(source.frameBytes());
  acquire::SliceInfo slice;
  source.readFrame(index, frame, slice);
  return frame;
}

std::vector<std::byte> smoothSamples(std::uint64_t seed, std::size_t values, std::size_t bytes) {
  SeededRandom random(seed);
  std::vector<std::byte> frame(values * bytes);
  for (std::size_t i = 0; i < values; ++i) {
    const double v =
        1500.0 + 1000.0 * std::sin(0.01 * static_cast<double>(i)) + random.uniform(-30.0, 30.0);
    if (bytes == 4) {
      const auto f = static_cast<float>(v * 1e-3);
      std::memcpy(frame.data() + 4 * i, &f, 4);
    } else {
      const auto s = static_cast<std::uint16_t>(std::lround(v));
      std::memcpy(frame.data() + 2 * i, &s, 2);
    }
  }
  return frame;
}

std::vector<std::byte> storedChunk(hid_t dataset, hsize_t frame) {
  const hid_t space = H5Dget_space(dataset);
  const int rank = H5Sget_simple_extent_ndims(space);
  H5Sclose(space);
  std::vector<hsize_t> offset(static_cast<std::size_t>(rank), 0);
  offset[0] = frame;
  hsize_t bytes = 0;
  if (H5Dget_chunk_storage_size(dataset, offset.data(), &bytes) < 0) {
    throw std::runtime_error("no chunk for frame " + std::to_string(frame));
  }
  std::vector<std::byte> chunk(bytes);
  std::uint32_t mask = 0;
  if (H5Dread_chunk(dataset, H5P_DEFAULT, offset.data(), &mask, chunk.data()) < 0) {
    throw std::runtime_error("cannot read the chunk of frame " + std::to_string(frame));
  }
  return chunk;
}

bool damageChunk(const std::string& path, const char* dataset, hsize_t frame,
                 bool removeChecksums) {
  const hid_t h5 = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (h5 < 0) {
    return false;
  }
  const hid_t frames = H5Dopen2(h5, dataset, H5P_DEFAULT);
  bool changed = false;
  if (frames >= 0) {
    std::vector<std::byte> chunk = storedChunk(frames, frame);
    std::fill(chunk.begin() + 16, chunk.begin() + 48, std::byte{0xff});
    const hid_t space = H5Dget_space(frames);
    std::vector<hsize_t> offset(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
    H5Sclose(space);
    offset[0] = frame;
    changed =
        H5Dwrite_chunk(frames, H5P_DEFAULT, 0, offset.data(), chunk.size(), chunk.data()) >= 0;
    H5Dclose(frames);
  }
  if (changed && removeChecksums) {
    changed = H5Ldelete(h5, "chunk_xxh3", H5P_DEFAULT) >= 0 &&
              H5Ldelete(h5, "frame_xxh3", H5P_DEFAULT) >= 0;
  }
  return H5Fclose(h5) >= 0 && changed;
}

ReferenceFrames readReference(const std::string& file, const std::string& dataset,
                              const std::string& plain) {
  const std::string path = testDataFile(file);
  const hid_t h5 = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (h5 < 0) {
    throw std::runtime_error("cannot open " + path);
  }
  const hid_t data = H5Dopen2(h5, dataset.c_str(), H5P_DEFAULT);
  const hid_t values = H5Dopen2(h5, plain.c_str(), H5P_DEFAULT);
  if (data < 0 || values < 0) {
    H5Fclose(h5);
    throw std::runtime_error(path + ": no " + dataset + " or " + plain);
  }
  const hid_t type = H5Dget_type(data);
  const hid_t space = H5Dget_space(data);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  ReferenceFrames result;
  result.elementBytes = H5Tget_size(type);
  result.frameBytes = result.elementBytes;
  for (int d = 1; d < rank; ++d) {
    result.frameBytes *= dims[static_cast<std::size_t>(d)];
  }
  result.expected.resize(result.frameBytes * dims[0]);
  const bool read =
      H5Dread(values, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, result.expected.data()) >= 0;
  for (hsize_t f = 0; read && f < dims[0]; ++f) {
    result.chunks.push_back(storedChunk(data, f));
  }
  H5Sclose(space);
  H5Tclose(type);
  H5Dclose(values);
  H5Dclose(data);
  H5Fclose(h5);
  if (!read) {
    throw std::runtime_error(path + ": cannot read " + plain);
  }
  return result;
}

}  // namespace cineflow::test
