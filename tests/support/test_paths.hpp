#pragma once
// Where tests find real datasets and the cineflow executable.

#include <string>

namespace cineflow::test {

// Path of `name` in ../shared/data (or $CINEFLOW_DATA_DIR); empty when the file is absent, in
// which case the test QSKIPs with a message naming the file.
std::string sharedDataFile(const std::string& name);
// The built cineflow executable.
std::string appPath();

}  // namespace cineflow::test
