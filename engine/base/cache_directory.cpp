#include "base/cache_directory.hpp"

#include <cstdlib>
#include <string>
#include <system_error>

namespace cineflow::base {

std::filesystem::path cacheDirectory() {
  auto env = [](const char* name) -> std::string {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
  };
  if (const std::string dir = env("CINEFLOW_CACHE_DIR"); !dir.empty()) {
    return dir;
  }
  if (const std::string dir = env("XDG_CACHE_HOME"); !dir.empty()) {
    return std::filesystem::path(dir) / "cineflow";
  }
  if (const std::string home = env("HOME"); !home.empty()) {
    return std::filesystem::path(home) / ".cache" / "cineflow";
  }
  std::error_code ec;
  return std::filesystem::temp_directory_path(ec) / "cineflow-cache";
}

}  // namespace cineflow::base
