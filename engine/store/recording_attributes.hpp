#pragma once
// The numbers a recording's reader requires of its attributes, each refusal in one wording for
// every modality's recordings: "<file>: attribute <name>: expected <what>, found <value>", or
// "<file>: attribute <name>: missing (<where it was looked for>)". Throws acquire::SourceError.
//
// An attribute is looked for on each of the holders in turn (an RF recording's /rf, then its
// root group; an OCT recording's root group). The holders are borrowed: they must stay open while
// the reader is used.

#include <hdf5.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cineflow::store {

class RecordingAttributes {
 public:
  // `missing`: what a refusal of a missing attribute says in brackets ("looked on /rf and on /").
  RecordingAttributes(std::filesystem::path path, std::vector<hid_t> holders, std::string missing);

  // The first holder that has `name`; H5I_INVALID_HID when none does.
  hid_t holder(const char* name) const;
  bool has(const char* name) const { return holder(name) >= 0; }

  double number(const char* name) const;    // required, finite
  double positive(const char* name) const;  // required, > 0
  // Required, whole, in [lo, hi] (a count stored as any number type).
  int whole(const char* name, int lo, int hi) const;
  // Optional: `absent` (or nullopt) when no holder has it, else checked as above.
  double numberOr(const char* name, double absent) const;
  std::optional<double> optionalPositive(const char* name) const;
  std::optional<int> optionalWhole(const char* name, int lo, int hi) const;
  // `value` (read as `name`) when >= 0; else refused, naming the attribute.
  double nonNegative(const char* name, double value) const;

  // Throws acquire::SourceError("<file>: <problem>").
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  [[noreturn]] void refuse(const char* name, const std::string& expected, double found) const;

  std::filesystem::path path_;
  std::vector<hid_t> holders_;
  std::string missing_;
};

}  // namespace cineflow::store
