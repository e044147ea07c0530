#include "support/rf_file_fixture.hpp"

#include <hdf5.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "support/test_random.hpp"

namespace cineflow::test {

namespace {

// The fixture must produce exactly the file asked for; any HDF5 failure is a broken test setup.
hid_t must(hid_t id, const char* what) {
  if (id < 0) {
    std::fprintf(stderr, "rf_file_fixture: %s failed\n", what);
    std::abort();
  }
  return id;
}

void writeDouble(hid_t object, const char* name, double value) {
  const hid_t space = must(H5Screate(H5S_SCALAR), "scalar space");
  const hid_t attribute =
      must(H5Acreate2(object, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT), name);
  must(H5Awrite(attribute, H5T_NATIVE_DOUBLE, &value), name);
  H5Aclose(attribute);
  H5Sclose(space);
}

void writeString(hid_t object, const char* name, const char* value) {
  const hid_t type = must(H5Tcopy(H5T_C_S1), "string type");
  must(H5Tset_size(type, H5T_VARIABLE), "string size");
  must(H5Tset_cset(type, H5T_CSET_UTF8), "string cset");
  const hid_t space = must(H5Screate(H5S_SCALAR), "scalar space");
  const hid_t attribute =
      must(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), name);
  must(H5Awrite(attribute, type, &value), name);
  H5Aclose(attribute);
  H5Sclose(space);
  H5Tclose(type);
}

void writeVector(hid_t file, const char* name, const std::vector<double>& values) {
  const hsize_t dims[1] = {values.size()};
  const hid_t space = must(H5Screate_simple(1, dims, nullptr), "vector space");
  const hid_t dataset = must(
      H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), name);
  if (!values.empty()) {
    must(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
  }
  H5Dclose(dataset);
  H5Sclose(space);
}

// Plausible RF: a decaying carrier plus seeded noise, so that deflate has something to compress.
void fillSamples(const RfFileSpec& spec, RfFileContents& out) {
  const std::size_t total = out.frameSamples * static_cast<std::size_t>(spec.frames);
  SeededRandom random(spec.seed);
  std::vector<double> values(total);
  for (std::size_t i = 0; i < total; ++i) {
    const auto n = static_cast<double>(i % static_cast<std::size_t>(spec.samples));
    values[i] = 3000 * std::exp(-n / spec.samples) * std::sin(2 * std::numbers::pi * 0.25 * n) +
                random.uniform(-200, 200);
  }
  if (spec.float32) {
    out.float32Samples.assign(values.begin(), values.end());
  } else {
    out.int16Samples.resize(total);
    for (std::size_t i = 0; i < total; ++i) {
      out.int16Samples[i] = static_cast<std::int16_t>(std::lround(values[i]));
    }
  }
}

void overwriteFrameChunk(const std::string& path, int frame) {
  haddr_t address = 0;
  hsize_t size = 0;
  {
    const hid_t file = must(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "reopen");
    const hid_t dataset = must(H5Dopen2(file, "/rf", H5P_DEFAULT), "open /rf");
    const hsize_t offset[4] = {static_cast<hsize_t>(frame), 0, 0, 0};
    unsigned filterMask = 0;
    must(H5Dget_chunk_info_by_coord(dataset, offset, &filterMask, &address, &size), "chunk info");
    H5Dclose(dataset);
    H5Fclose(file);
  }
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(static_cast<std::streamoff>(address));
  for (hsize_t i = 0; i < size; ++i) {
    file.put(static_cast<char>(0xA5 ^ (i * 7)));
  }
}

}  // namespace

const char* defectObject(RfDefect defect) {
  switch (defect) {
    case RfDefect::None:
      return "";
    case RfDefect::MissingRfDataset:
    case RfDefect::RfIsGroup:
    case RfDefect::WrongRank:
    case RfDefect::UnsupportedDtype:
    case RfDefect::ZeroFrames:
    case RfDefect::CorruptFrameData:
      return "/rf";
    case RfDefect::MissingSchema:
    case RfDefect::WrongSchema:
      return "schema";
    case RfDefect::MissingAttribute:
      return "sampling_frequency_hz";
    case RfDefect::AttributeWrongType:
      return "sound_speed_m_s";
    case RfDefect::NonPositiveAttribute:
      return "center_frequency_hz";
    case RfDefect::MissingAngles:
    case RfDefect::AnglesShapeMismatch:
      return "/angles_rad";
    case RfDefect::ElementsShapeMismatch:
    case RfDefect::ElementsNotIncreasing:
      return "/element_x_m";
    case RfDefect::ElevationShapeMismatch:
      return "/elevation_m";
  }
  return "?";
}

const char* toString(RfDefect defect) {
  switch (defect) {
    case RfDefect::None:
      return "None";
    case RfDefect::MissingRfDataset:
      return "MissingRfDataset";
    case RfDefect::RfIsGroup:
      return "RfIsGroup";
    case RfDefect::MissingSchema:
      return "MissingSchema";
    case RfDefect::WrongSchema:
      return "WrongSchema";
    case RfDefect::MissingAttribute:
      return "MissingAttribute";
    case RfDefect::AttributeWrongType:
      return "AttributeWrongType";
    case RfDefect::NonPositiveAttribute:
      return "NonPositiveAttribute";
    case RfDefect::WrongRank:
      return "WrongRank";
    case RfDefect::UnsupportedDtype:
      return "UnsupportedDtype";
    case RfDefect::MissingAngles:
      return "MissingAngles";
    case RfDefect::AnglesShapeMismatch:
      return "AnglesShapeMismatch";
    case RfDefect::ElementsShapeMismatch:
      return "ElementsShapeMismatch";
    case RfDefect::ElementsNotIncreasing:
      return "ElementsNotIncreasing";
    case RfDefect::ElevationShapeMismatch:
      return "ElevationShapeMismatch";
    case RfDefect::ZeroFrames:
      return "ZeroFrames";
    case RfDefect::CorruptFrameData:
      return "CorruptFrameData";
  }
  return "?";
}

RfFileContents writeRfFile(const std::string& path, const RfFileSpec& spec) {
  const RfDefect d = spec.defect;
  RfFileContents out;
  out.frameSamples = static_cast<std::size_t>(spec.transmits) *
                     static_cast<std::size_t>(spec.elements) *
                     static_cast<std::size_t>(spec.samples);
  fillSamples(spec, out);
  for (int t = 0; t < spec.transmits; ++t) {
    out.anglesRad.push_back((t - (spec.transmits - 1) / 2.0) * 0.1);
  }
  for (int e = 0; e < spec.elements; ++e) {
    out.elementXM.push_back((e - (spec.elements - 1) / 2.0) * 0.3e-3);
  }
  for (int f = 0; f < spec.frames; ++f) {
    out.elevationM.push_back(-2e-3 + 0.5e-3 * f);
  }

  const hid_t file =
      must(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "create");
  hid_t rf = H5I_INVALID_HID;
  if (d == RfDefect::RfIsGroup) {
    rf = must(H5Gcreate2(file, "rf", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group rf");
  } else if (d != RfDefect::MissingRfDataset) {
    const hsize_t frames = d == RfDefect::ZeroFrames ? 0 : static_cast<hsize_t>(spec.frames);
    std::vector<hsize_t> dims = {frames, static_cast<hsize_t>(spec.transmits),
                                 static_cast<hsize_t>(spec.elements),
                                 static_cast<hsize_t>(spec.samples)};
    if (d == RfDefect::WrongRank) {
      dims = {frames, dims[1] * dims[2], dims[3]};
    }
    std::vector<hsize_t> chunk = dims;
    chunk[0] = 1;  // one frame per chunk, deflated, as in the Verasonics recording
    const hid_t space =
        must(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), "rf space");
    const hid_t properties = must(H5Pcreate(H5P_DATASET_CREATE), "dcpl");
    must(H5Pset_chunk(properties, static_cast<int>(chunk.size()), chunk.data()), "chunk");
    must(H5Pset_deflate(properties, 1), "deflate");
    const hid_t fileType = d == RfDefect::UnsupportedDtype ? H5T_STD_I32LE
                           : spec.float32                  ? H5T_IEEE_F32LE
                                                           : H5T_STD_I16LE;
    rf = must(H5Dcreate2(file, "rf", fileType, space, H5P_DEFAULT, properties, H5P_DEFAULT), "rf");
    if (frames > 0) {
      const hid_t memType = spec.float32 ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT16;
      const void* data = spec.float32 ? static_cast<const void*>(out.float32Samples.data())
                                      : static_cast<const void*>(out.int16Samples.data());
      must(H5Dwrite(rf, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write rf");
    }
    H5Pclose(properties);
    H5Sclose(space);
  }

  const hid_t holder = spec.attributesOnRoot || rf < 0 ? file : rf;
  if (d == RfDefect::WrongSchema) {
    writeString(holder, "schema", "cineflow.rf/2");
  } else if (d != RfDefect::MissingSchema) {
    writeString(holder, "schema", "cineflow.rf/1");
  }
  if (d != RfDefect::MissingAttribute) {
    writeDouble(holder, "sampling_frequency_hz", spec.fs);
  }
  writeDouble(holder, "center_frequency_hz", d == RfDefect::NonPositiveAttribute ? 0.0 : spec.f0);
  if (d == RfDefect::AttributeWrongType) {
    writeString(holder, "sound_speed_m_s", "1540");
  } else {
    writeDouble(holder, "sound_speed_m_s", spec.c);
  }
  writeDouble(holder, "t0_s", spec.t0);
  if (spec.fractionalBandwidthPercent >= 0) {
    writeDouble(holder, "fractional_bandwidth_percent", spec.fractionalBandwidthPercent);
  }

  std::vector<double> angles = out.anglesRad;
  if (d == RfDefect::AnglesShapeMismatch) {
    angles.push_back(0.2);
  }
  if (d != RfDefect::MissingAngles) {
    writeVector(file, "angles_rad", angles);
  }
  std::vector<double> elements = out.elementXM;
  if (d == RfDefect::ElementsShapeMismatch) {
    elements.pop_back();
  } else if (d == RfDefect::ElementsNotIncreasing) {
    elements.assign(out.elementXM.rbegin(), out.elementXM.rend());
  }
  writeVector(file, "element_x_m", elements);
  if (spec.withElevation || d == RfDefect::ElevationShapeMismatch) {
    std::vector<double> elevation = out.elevationM;
    if (d == RfDefect::ElevationShapeMismatch) {
      elevation.push_back(1e-3);
      elevation.push_back(2e-3);
    }
    writeVector(file, "elevation_m", elevation);
  }
  if (rf >= 0) {
    (d == RfDefect::RfIsGroup ? H5Gclose : H5Dclose)(rf);
  }
  must(H5Fclose(file), "close");
  if (d == RfDefect::CorruptFrameData) {
    overwriteFrameChunk(path, 1);
  }
  return out;
}

void truncateFile(const std::string& path, double fraction) {
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path,
                               static_cast<std::uintmax_t>(static_cast<double>(size) * fraction));
}

void writeRandomBytes(const std::string& path, std::size_t bytes, std::uint64_t seed) {
  SeededRandom random(seed);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (std::size_t i = 0; i < bytes; ++i) {
    out.put(static_cast<char>(random.integer(0, 255)));
  }
}

}  // namespace cineflow::test
