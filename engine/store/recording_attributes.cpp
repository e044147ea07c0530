#include "store/recording_attributes.hpp"

#include <cmath>

#include "acquire/frame_source.hpp"
#include "store/hdf5_handle.hpp"

namespace cineflow::store {

RecordingAttributes::RecordingAttributes(std::filesystem::path path, std::vector<hid_t> holders,
                                         std::string missing)
    : path_(std::move(path)), holders_(std::move(holders)), missing_(std::move(missing)) {}

hid_t RecordingAttributes::holder(const char* name) const {
  for (const hid_t holder : holders_) {
    if (attributeExists(holder, name)) {
      return holder;
    }
  }
  return H5I_INVALID_HID;
}

void RecordingAttributes::fail(const std::string& problem) const {
  throw acquire::SourceError(path_.string() + ": " + problem);
}

void RecordingAttributes::refuse(const char* name, const std::string& expected,
                                 double found) const {
  fail(std::string("attribute ") + name + ": expected " + expected + ", found " +
       acquire::numberText(found));
}

double RecordingAttributes::number(const char* name) const {
  const hid_t where = holder(name);
  if (where < 0) {
    fail(std::string("attribute ") + name + ": missing (" + missing_ + ")");
  }
  const double value = readNumberAttribute(where, name);
  if (!std::isfinite(value)) {
    refuse(name, "a finite number", value);
  }
  return value;
}

double RecordingAttributes::positive(const char* name) const {
  const double value = number(name);
  if (!(value > 0)) {
    refuse(name, "a positive number", value);
  }
  return value;
}

int RecordingAttributes::whole(const char* name, int lo, int hi) const {
  const double value = number(name);
  if (value != std::floor(value) || value < lo || value > hi) {
    refuse(name, "a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
           value);
  }
  return static_cast<int>(value);
}

double RecordingAttributes::numberOr(const char* name, double absent) const {
  return has(name) ? number(name) : absent;
}

std::optional<double> RecordingAttributes::optionalPositive(const char* name) const {
  return has(name) ? std::optional<double>(positive(name)) : std::nullopt;
}

std::optional<int> RecordingAttributes::optionalWhole(const char* name, int lo, int hi) const {
  return has(name) ? std::optional<int>(whole(name, lo, hi)) : std::nullopt;
}

double RecordingAttributes::nonNegative(const char* name, double value) const {
  if (!(value >= 0)) {
    refuse(name, "a number >= 0", value);
  }
  return value;
}

}  // namespace cineflow::store
