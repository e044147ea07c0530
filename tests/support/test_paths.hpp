#pragma once
// Where tests find real datasets and the cineflow executable, and where they leave artefacts.

#include <string>

namespace cineflow::test {

// Path of `name` in the repository's real datasets, data/ (or $CINEFLOW_DATA_DIR: a copy carried
// to another machine); empty when the file is absent, in which case the test fails naming it.
std::string datasetFile(const std::string& name);
// Path of `name` in tests/data (or $CINEFLOW_TEST_DATA_DIR: the tests' reference files carried
// to another machine).
std::string testDataFile(const std::string& name);
// The built cineflow executable.
std::string appPath();
// Where a test saves `name` (a screenshot) for people to look at: $CINEFLOW_TEST_ARTEFACTS when
// set (a run on another machine), otherwise the tests' build folder.
std::string artefactPath(const std::string& name);

}  // namespace cineflow::test
