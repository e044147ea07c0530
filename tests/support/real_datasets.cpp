#include "support/real_datasets.hpp"

#include <hdf5.h>

#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "ultrasound/ultrasound_modality.hpp"

#include "support/image_analysis.hpp"
#include "support/plain_hdf5.hpp"

namespace cineflow::test {
namespace {

std::vector<double> readDoubleArrayAttribute(hid_t object, const char* name) {
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  if (attribute < 0) {
    throw std::runtime_error(std::string("no attribute ") + name);
  }
  const hid_t space = H5Aget_space(attribute);
  std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  const herr_t status = H5Aread(attribute, H5T_NATIVE_DOUBLE, values.data());
  H5Sclose(space);
  H5Aclose(attribute);
  if (status < 0) {
    throw std::runtime_error(std::string("cannot read attribute ") + name);
  }
  return values;
}

}  // namespace

ultrasound::ImagingGrid DiskReference::grid() const {
  ultrasound::ImagingGrid grid;
  grid.x0 = xM.front();
  grid.x1 = xM.back();
  grid.dx = (xM.back() - xM.front()) / static_cast<double>(xM.size() - 1);
  grid.z0 = zM.front();
  grid.z1 = zM.back();
  grid.dz = (zM.back() - zM.front()) / static_cast<double>(zM.size() - 1);
  return grid;
}

DiskReference readDiskReference(const std::string& path) {
  const PlainFile file(path);
  if (file.id < 0) {
    throw std::runtime_error("cannot open " + path);
  }
  DiskReference reference;
  reference.bmode = readAll<std::uint8_t>(file.id, "/reference/bmode_u8", H5T_NATIVE_UINT8);
  const hid_t dataset = H5Dopen2(file.id, "/reference/bmode_u8", H5P_DEFAULT);
  if (dataset < 0 || reference.bmode.empty()) {
    throw std::runtime_error(path + ": cannot read /reference/bmode_u8");
  }
  try {
    reference.xM = readDoubleArrayAttribute(dataset, "x_m");
    reference.zM = readDoubleArrayAttribute(dataset, "z_m");
  } catch (...) {
    H5Dclose(dataset);
    throw;
  }
  H5Dclose(dataset);
  if (reference.xM.size() < 2 || reference.zM.size() < 2 ||
      reference.bmode.size() % reference.pixels() != 0) {
    throw std::runtime_error(path + ": /reference/bmode_u8 does not match its grid");
  }
  return reference;
}

std::vector<std::vector<float>> imageRecording(const std::string& path,
                                               const ultrasound::ImagingParams& imaging,
                                               std::size_t frames) {
  auto backend = compute::createBackend(compute::BackendRequest::Cpu);
  pipeline::EngineConfig config;
  config.pace = false;
  config.maxFrames = frames;
  pipeline::Engine engine(*backend, config);
  engine.setSource(acquire::openSource(path));
  ultrasound::setImaging(engine, imaging);
  std::vector<std::vector<float>> images(frames);
  std::mutex mutex;
  engine.setFrameObserver([&](const pipeline::CompletedFrame& frame) {
    std::lock_guard lock(mutex);
    if (frame.header.sourceIndex < images.size()) {
      images[frame.header.sourceIndex].assign(frame.image.begin(), frame.image.end());
    }
  });
  engine.start();
  const pipeline::EngineState state = engine.waitUntilFinished();
  engine.stop();
  if (state != pipeline::EngineState::Finished) {
    throw std::runtime_error(path + ": the engine did not finish (" + engine.stats().error + ")");
  }
  return images;
}

std::vector<double> bmodeUint8(const std::vector<float>& db, double dynamicRangeDb) {
  const float peak = *std::max_element(db.begin(), db.end());
  std::vector<double> out(db.size());
  for (std::size_t i = 0; i < db.size(); ++i) {
    const double scaled = 255.0 * (db[i] - peak + dynamicRangeDb) / dynamicRangeDb;
    out[i] = std::clamp(std::round(scaled), 0.0, 255.0);
  }
  return out;
}

double pearson(const std::vector<double>& a, const std::uint8_t* b, std::size_t n) {
  double meanA = 0, meanB = 0;
  for (std::size_t i = 0; i < n; ++i) {
    meanA += a[i];
    meanB += b[i];
  }
  meanA /= static_cast<double>(n);
  meanB /= static_cast<double>(n);
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double da = a[i] - meanA, db = b[i] - meanB;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return ab / std::sqrt(aa * bb);
}

std::vector<std::array<double, 3>> readScatterers(const std::string& path) {
  const PlainFile file(path);
  if (file.id < 0) {
    throw std::runtime_error("cannot open " + path);
  }
  const std::vector<hsize_t> shape = shapeOf(file.id, "/reference/scatterers_m");
  if (shape.size() != 2 || shape[1] != 3) {
    throw std::runtime_error(path + ": /reference/scatterers_m is not [n][3]");
  }
  const std::vector<double> values =
      readAll<double>(file.id, "/reference/scatterers_m", H5T_NATIVE_DOUBLE);
  std::vector<std::array<double, 3>> points(values.size() / 3);
  for (std::size_t i = 0; i < points.size(); ++i) {
    points[i] = {values[3 * i], values[3 * i + 1], values[3 * i + 2]};
  }
  return points;
}

std::vector<double> isolatedPointErrors(const std::vector<float>& image,
                                        const process::ImageGeometry& geometry,
                                        const std::vector<std::array<double, 3>>& scatterers) {
  std::vector<double> errors;
  for (double depthM : {10.35e-3, 22.18e-3, 34.00e-3, 45.83e-3}) {
    const auto distance = [depthM](const std::array<double, 3>& s) {
      return std::hypot(s[0], s[2] - depthM);
    };
    const auto truth =
        *std::min_element(scatterers.begin(), scatterers.end(),
                          [&](const auto& a, const auto& b) { return distance(a) < distance(b); });
    const Peak peak = findSubPixelPeak(image, geometry, truth[0], truth[2], 1.0e-3);
    const double error = std::hypot(peak.xM - truth[0], peak.zM - truth[2]);
    qInfo("point at (%.3f, %.3f) mm: peak at (%.3f, %.3f) mm, error %.3f mm", truth[0] * 1e3,
          truth[2] * 1e3, peak.xM * 1e3, peak.zM * 1e3, error * 1e3);
    errors.push_back(error);
  }
  return errors;
}

}  // namespace cineflow::test
