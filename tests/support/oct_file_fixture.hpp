#pragma once
// What the cineflow.oct/1 tests share: an acquisition with every field set, seeded random spectra,
// and edits of a written recording with the plain HDF5 C API (no Cineflow code), standing in for
// another tool that damages or extends a file.

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "oct/oct_acquisition.hpp"

namespace cineflow::test {

// 64 samples (wavelengths falling from 880 to 800 nm), 24 A-scans of which 2 flyback, 12 bits,
// 3 B-scans per volume, bidirectional; every other field distinct from its default.
oct::OctAcquisition someOctAcquisition();
// Seeded random counts over the whole uint16 range (above 2^12 too: readers pass them on),
// never zero: [frames][ascans][samples].
std::vector<std::uint16_t> randomSpectra(const oct::OctAcquisition& acq, std::uint64_t frames,
                                         std::uint64_t seed);

// Writes a good recording of 4 frames of someOctAcquisition() (randomSpectra with `seed`,
// dispersion a2 = 12.5, a3 = -3.25 rad) to `path`; returns its spectra.
std::vector<std::uint16_t> writeGoodOctRecording(const std::string& path, std::uint64_t seed = 11);

// A file opened for writing with plain HDF5; closed on destruction. Edits the root group.
class PlainEditor {
 public:
  explicit PlainEditor(const std::string& path);
  ~PlainEditor();
  PlainEditor(const PlainEditor&) = delete;
  PlainEditor& operator=(const PlainEditor&) = delete;

  hid_t file() const { return file_; }
  void setNumber(const char* name, double value) const;       // float64 attribute
  void setString(const char* name, const char* value) const;  // variable-length string attribute
  // Removes attribute `name`, or else the link `name`.
  void remove(const char* name) const;
  // Replaces dataset `name` by one of `type` and `dims` holding `values` (converted from double;
  // none: left unwritten).
  void replaceDataset(const char* name, hid_t type, const std::vector<hsize_t>& dims,
                      const std::vector<double>& values = {}) const;

 private:
  hid_t file_;
};

}  // namespace cineflow::test
