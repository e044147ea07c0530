#include "batch/batch_accuracy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "store/hdf5_handle.hpp"

namespace cineflow::app::batch {
namespace {

using Json = nlohmann::ordered_json;
using store::H5Dataset;
using store::H5File;

constexpr double kDynamicRangeDb = 30.0;  // PyMUST's bmode() in the references
// A point is isolated when no other scatterer lies within 2 mm of it (x-z plane); its peak is
// looked for within 1 mm, where no other point's main lobe reaches.
constexpr double kIsolationM = 2.0e-3;
constexpr double kSearchRadiusM = 1.0e-3;

H5File openFile(const std::string& path) {
  H5File file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file) {
    throw std::runtime_error("cannot open " + path);
  }
  return file;
}

// A whole dataset converted to `memType`, with its shape.
template <class T>
std::vector<T> readAll(hid_t file, const char* path, hid_t memType, std::vector<hsize_t>& shape) {
  H5Dataset dataset(store::checkId(H5Dopen2(file, path, H5P_DEFAULT), path));
  shape = store::datasetShape(dataset.get());
  std::size_t count = 1;
  for (const hsize_t d : shape) {
    count *= static_cast<std::size_t>(d);
  }
  std::vector<T> values(count);
  store::checkStatus(H5Dread(dataset.get(), memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                     path);
  return values;
}

// An output (or reference) image grid: pixel coordinates along x and z.
struct Grid {
  std::vector<double> x, z;
  bool same(const Grid& other) const {
    const auto close = [](const std::vector<double>& a, const std::vector<double>& b) {
      if (a.size() != b.size()) {
        return false;
      }
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::abs(a[i] - b[i]) > 1e-9) {
          return false;
        }
      }
      return true;
    };
    return close(x, other.x) && close(z, other.z);
  }
};

struct Output {
  Grid grid;
  std::vector<float> bmode;  // [frames][z][x] dB
  std::size_t frames = 0;
  std::size_t pixels() const { return grid.x.size() * grid.z.size(); }
};

Output readOutput(const std::filesystem::path& path) {
  const H5File file = openFile(path.string());
  Output out;
  out.grid = {store::readDoubleDataset(file.get(), "/x_m"),
              store::readDoubleDataset(file.get(), "/z_m")};
  std::vector<hsize_t> shape;
  out.bmode = readAll<float>(file.get(), "/bmode_db", H5T_NATIVE_FLOAT, shape);
  out.frames = shape.empty() ? 0 : static_cast<std::size_t>(shape[0]);
  return out;
}

// PyMUST's display: 255 (dB - max + DR) / DR, rounded, saturated.
std::vector<double> asUint8(const float* db, std::size_t n) {
  const float peak = *std::max_element(db, db + n);
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = std::clamp(std::round(255.0 * (db[i] - peak + kDynamicRangeDb) / kDynamicRangeDb), 0.0,
                        255.0);
  }
  return out;
}

template <class A, class B>
double pearson(const A& a, const B& b, const std::vector<std::size_t>& where) {
  double meanA = 0, meanB = 0;
  for (const std::size_t i : where) {
    meanA += static_cast<double>(a[i]);
    meanB += static_cast<double>(b[i]);
  }
  meanA /= static_cast<double>(where.size());
  meanB /= static_cast<double>(where.size());
  double ab = 0, aa = 0, bb = 0;
  for (const std::size_t i : where) {
    const double da = static_cast<double>(a[i]) - meanA, db = static_cast<double>(b[i]) - meanB;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0;
}

// The parabola's vertex offset (in samples) through three neighbours around a peak.
double vertexOffset(double left, double centre, double right) {
  const double curvature = left - 2 * centre + right;
  return curvature < 0 ? 0.5 * (left - right) / curvature : 0.0;
}

void pointFigures(hid_t recording, const Output& out, Json& figures) {
  std::vector<hsize_t> shape;
  const std::vector<double> scatterers =
      readAll<double>(recording, "/reference/scatterers_m", H5T_NATIVE_DOUBLE, shape);
  const std::size_t nx = out.grid.x.size(), nz = out.grid.z.size();
  if (nx < 3 || nz < 3 || out.frames == 0) {
    figures["accuracy_note"] = "the output is too small to find the points";
    return;
  }
  const double dx = out.grid.x[1] - out.grid.x[0], dz = out.grid.z[1] - out.grid.z[0];
  double worst = 0, sum = 0;
  int found = 0;
  const std::size_t count = scatterers.size() / 3;
  for (std::size_t p = 0; p < count; ++p) {
    const double tx = scatterers[3 * p], tz = scatterers[3 * p + 2];
    bool isolated = true;
    for (std::size_t q = 0; q < count && isolated; ++q) {
      isolated =
          q == p || std::hypot(scatterers[3 * q] - tx, scatterers[3 * q + 2] - tz) > kIsolationM;
    }
    if (!isolated) {
      continue;
    }
    if (tx - kSearchRadiusM < out.grid.x.front() || tx + kSearchRadiusM > out.grid.x.back() ||
        tz - kSearchRadiusM < out.grid.z.front() || tz + kSearchRadiusM > out.grid.z.back()) {
      continue;  // outside this job's grid
    }
    std::size_t peakX = 0, peakZ = 0;
    float peak = -INFINITY;
    for (std::size_t iz = 1; iz + 1 < nz; ++iz) {
      for (std::size_t ix = 1; ix + 1 < nx; ++ix) {
        if (std::hypot(out.grid.x[ix] - tx, out.grid.z[iz] - tz) <= kSearchRadiusM &&
            out.bmode[iz * nx + ix] > peak) {
          peak = out.bmode[iz * nx + ix];
          peakX = ix;
          peakZ = iz;
        }
      }
    }
    if (!std::isfinite(peak)) {
      continue;
    }
    const auto at = [&](std::size_t iz, std::size_t ix) {
      return static_cast<double>(out.bmode[iz * nx + ix]);
    };
    const double x =
        out.grid.x[peakX] + dx * vertexOffset(at(peakZ, peakX - 1), peak, at(peakZ, peakX + 1));
    const double z =
        out.grid.z[peakZ] + dz * vertexOffset(at(peakZ - 1, peakX), peak, at(peakZ + 1, peakX));
    const double error = std::hypot(x - tx, z - tz);
    worst = std::max(worst, error);
    sum += error;
    ++found;
  }
  figures["points"] = found;
  if (found > 0) {
    figures["point_error_max_mm"] = worst * 1e3;
    figures["point_error_mean_mm"] = sum / found * 1e3;
  } else {
    figures["accuracy_note"] = "none of the isolated points lies inside the grid";
  }
}

Grid referenceGrid(hid_t file, const char* holder) {
  H5Dataset dataset(store::checkId(H5Dopen2(file, holder, H5P_DEFAULT), holder));
  const auto axis = [&](const char* name) {
    // The references keep their grid as attributes (x_m, z_m) of the reference image.
    store::H5Attribute attribute(store::checkId(H5Aopen(dataset.get(), name, H5P_DEFAULT), name));
    store::H5Dataspace space(H5Aget_space(attribute.get()));
    std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
    store::checkStatus(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, values.data()), name);
    return values;
  };
  return {axis("x_m"), axis("z_m")};
}

void bmodeFigures(hid_t recording, const Output& out, Json& figures) {
  const Grid grid = referenceGrid(recording, "/reference/bmode_u8");
  if (!grid.same(out.grid)) {
    figures["accuracy_note"] = "the grid is not the reference B-mode's (compare on its grid)";
    return;
  }
  std::vector<hsize_t> shape;
  const std::vector<std::uint8_t> reference =
      readAll<std::uint8_t>(recording, "/reference/bmode_u8", H5T_NATIVE_UINT8, shape);
  const std::size_t n = out.pixels();
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) {
    all[i] = i;
  }
  const std::size_t frames = std::min<std::size_t>(out.frames, shape.empty() ? 0 : shape[0]);
  double worst = 1, sum = 0;
  for (std::size_t f = 0; f < frames; ++f) {
    const double r = pearson(asUint8(out.bmode.data() + f * n, n), reference.data() + f * n, all);
    worst = std::min(worst, r);
    sum += r;
  }
  if (frames > 0) {
    figures["bmode_correlation_min"] = worst;
    figures["bmode_correlation_mean"] = sum / static_cast<double>(frames);
  }
}

void dopplerFigures(const std::string& referencePath, const std::filesystem::path& outputPath,
                    const Output& out, Json& figures) {
  const H5File reference = openFile(referencePath);
  const Grid grid = {store::readDoubleDataset(reference.get(), "/x_m"),
                     store::readDoubleDataset(reference.get(), "/z_m")};
  if (!grid.same(out.grid)) {
    figures["accuracy_note"] = "the grid is not the Doppler reference's (compare on its grid)";
    return;
  }
  const H5File output = openFile(outputPath.string());
  if (!store::linkExists(output.get(), "/velocity_m_s")) {
    figures["accuracy_note"] = "no velocity in the output (--mode doppler compares with it)";
    return;
  }
  std::vector<hsize_t> shape;
  const std::vector<float> velocity =
      readAll<float>(output.get(), "/velocity_m_s", H5T_NATIVE_FLOAT, shape);
  const std::vector<float> expected =
      readAll<float>(reference.get(), "/velocity_m_s", H5T_NATIVE_FLOAT, shape);
  const std::vector<std::uint8_t> bmode =
      readAll<std::uint8_t>(reference.get(), "/bmode_u8", H5T_NATIVE_UINT8, shape);
  const std::size_t n = out.pixels();
  const std::size_t frames = shape.empty() ? 0 : static_cast<std::size_t>(shape[0]);
  if (out.frames == 0 || frames == 0 || expected.size() != n) {
    figures["accuracy_note"] = "the Doppler reference does not match the output's shape";
    return;
  }
  const float* last = velocity.data() + (out.frames - 1) * n;
  std::vector<std::size_t> disk;
  double squared = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double mean = 0;
    for (std::size_t f = 0; f < frames; ++f) {
      mean += bmode[f * n + i];
    }
    if (mean / static_cast<double>(frames) > 64 && std::isfinite(last[i])) {
      disk.push_back(i);
      squared += (last[i] - expected[i]) * (last[i] - expected[i]);
    }
  }
  if (disk.empty()) {
    figures["accuracy_note"] = "no velocity estimated inside the disk";
    return;
  }
  figures["velocity_correlation"] = pearson(last, expected, disk);
  figures["velocity_rms_error_m_s"] = std::sqrt(squared / static_cast<double>(disk.size()));
}

}  // namespace

Json accuracyFigures(const std::string& input, const std::filesystem::path& output,
                     const std::string& dopplerReference) {
  Json figures = Json::object();
  const store::ErrorScope quiet;  // a file without a reference is not an error to print
  try {
    std::error_code error;
    if (!std::filesystem::is_regular_file(input, error) || H5Fis_hdf5(input.c_str()) <= 0) {
      return figures;
    }
    const H5File recording = openFile(input);
    const bool points = store::linkExists(recording.get(), "/reference/scatterers_m");
    const bool bmode = store::linkExists(recording.get(), "/reference/bmode_u8");
    if (!points && !bmode && dopplerReference.empty()) {
      return figures;
    }
    const Output out = readOutput(output);
    if (points) {
      pointFigures(recording.get(), out, figures);
    }
    if (bmode) {
      bmodeFigures(recording.get(), out, figures);
    }
    if (!dopplerReference.empty()) {
      dopplerFigures(dopplerReference, output, out, figures);
    }
  } catch (const std::exception& e) {
    figures["accuracy_note"] = std::string("not measured: ") + e.what();
  }
  return figures;
}

}  // namespace cineflow::app::batch
