#include "support/test_paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace cineflow::test {

std::string datasetFile(const std::string& name) {
  const char* env = std::getenv("CINEFLOW_DATA_DIR");
  const std::filesystem::path dir = env != nullptr ? env : CINEFLOW_DATA_DIR;
  const std::filesystem::path file = dir / name;
  std::error_code ec;
  return std::filesystem::is_regular_file(file, ec) ? file.string() : std::string();
}

std::string testDataFile(const std::string& name) {
  const char* env = std::getenv("CINEFLOW_TEST_DATA_DIR");
  const std::filesystem::path dir = env != nullptr
                                        ? std::filesystem::path(env)
                                        : std::filesystem::path(CINEFLOW_TEST_SOURCE_DIR) / "data";
  return (dir / name).string();
}

std::string appPath() {
  return CINEFLOW_APP_PATH;
}

std::string artefactPath(const std::string& name) {
  const char* env = std::getenv("CINEFLOW_TEST_ARTEFACTS");
  const std::filesystem::path dir = env != nullptr ? env : CINEFLOW_TEST_BINARY_DIR;
  return (dir / name).string();
}

}  // namespace cineflow::test
