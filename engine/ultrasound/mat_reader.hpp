#pragma once
// Reading MATLAB variables for the import (acquire/mat_import.hpp) through matio: the file and the
// variables it read, each owned once; lookups of variables and struct fields by a mapping's
// "var.field" spec; and failures that name the file, the variable and what was expected.

#include <matio.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cineflow::ultrasound {

struct MatCloser {
  void operator()(mat_t* mat) const { Mat_Close(mat); }
};
struct VarFreer {
  void operator()(matvar_t* var) const { Mat_VarFree(var); }
};
using MatFile = std::unique_ptr<mat_t, MatCloser>;
using MatVar = std::unique_ptr<matvar_t, VarFreer>;

std::size_t elementCount(const matvar_t& var);
// "a 334x128x32 int16 array", "a 1x1 cell array", "a 10x10 double complex array".
std::string describe(const matvar_t& var);
// A literal number ("1540", "-2e-3"); nullopt for anything else.
std::optional<double> parseMatNumber(const std::string& text);

// Calls use(data) with the typed data of a real numeric array (not logical or sparse); false for
// other variables (and for data matio did not read).
template <class Use>
bool withNumbers(const matvar_t& var, Use use) {
  if ((elementCount(var) > 0 && var.data == nullptr) || var.isComplex || var.isLogical) {
    return false;
  }
  switch (var.class_type) {
    case MAT_C_DOUBLE:
      use(static_cast<const double*>(var.data));
      return true;
    case MAT_C_SINGLE:
      use(static_cast<const float*>(var.data));
      return true;
    case MAT_C_INT8:
      use(static_cast<const std::int8_t*>(var.data));
      return true;
    case MAT_C_UINT8:
      use(static_cast<const std::uint8_t*>(var.data));
      return true;
    case MAT_C_INT16:
      use(static_cast<const std::int16_t*>(var.data));
      return true;
    case MAT_C_UINT16:
      use(static_cast<const std::uint16_t*>(var.data));
      return true;
    case MAT_C_INT32:
      use(static_cast<const std::int32_t*>(var.data));
      return true;
    case MAT_C_UINT32:
      use(static_cast<const std::uint32_t*>(var.data));
      return true;
    case MAT_C_INT64:
      use(static_cast<const std::int64_t*>(var.data));
      return true;
    case MAT_C_UINT64:
      use(static_cast<const std::uint64_t*>(var.data));
      return true;
    default:
      return false;
  }
}

// The most bytes one variable may take in memory (a whole recording: MatSource keeps it).
inline constexpr std::uint64_t kMaxVariableBytes = std::uint64_t{8} << 30;

class MatReader {
 public:
  // Opens `path` (v4, v5 or v7.3); throws SourceError naming it when it cannot, and when a v5
  // file's chain of variables runs past its end (a truncated file).
  explicit MatReader(const std::filesystem::path& path);

  // Throws SourceError "<file name>: <why>".
  [[noreturn]] void fail(const std::string& why) const;

  // The variable or struct field `spec` ("RF", "param.fs"), read whole and kept while the reader
  // lives. Throws when the file lacks it (naming the variables it has) or cannot read it.
  const matvar_t& lookup(const std::string& spec, const std::string& role);
  // A real numeric variable's values as doubles.
  std::vector<double> numbers(const std::string& spec, const std::string& role);
  // A literal number or a scalar variable.
  double scalar(const std::string& spec, const std::string& role);
  // Whether `spec` is a literal number or names a variable (and struct fields) that the file has
  // and matio can read.
  bool has(const std::string& spec);
  // The names of the file's top-level variables, read from their headers ("RF, param"), for
  // messages; reading them all is also what modality/file_check.hpp checks a MATLAB file with.
  std::string variableNames();

 private:
  // The top-level variable `name`, read once; null when the file has no variable of that name.
  // Throws when it has one that matio cannot read (a truncated or corrupt file, or no memory).
  const matvar_t* find(const std::string& name, const std::string& role);

  std::filesystem::path path_;
  std::uint64_t fileBytes_ = 0;
  MatFile file_;
  std::vector<std::pair<std::string, MatVar>> vars_;
};

}  // namespace cineflow::ultrasound
