#include "output_paths.hpp"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "store/replay_file.hpp"

namespace cineflow::app {
namespace {

[[noreturn]] void refuse(const char* option, const std::string& path, const std::string& why) {
  throw std::invalid_argument(std::string(option) + " " + path + ": " + why);
}

}  // namespace

void requireWritableFile(const char* option, const std::string& path) {
  const std::filesystem::path file(path);
  if (path.empty() || !file.has_filename()) {
    refuse(option, path, "names no file");
  }
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) {
    refuse(option, path, "is a folder; name a file in it, e.g. " + (file / "out.h5").string());
  }
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : ".";
  if (!std::filesystem::exists(folder, error)) {
    refuse(option, path, "its folder " + folder.string() + " does not exist");
  }
  if (!std::filesystem::is_directory(folder, error)) {
    refuse(option, path, folder.string() + " is not a folder");
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    refuse(option, path,
           "its folder " + folder.string() + " cannot be written (" +
               std::generic_category().message(errno) + ")");
  }
}

void requireReplaceableOutput(const char* option, const std::string& path) {
  requireWritableFile(option, path);
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    return;
  }
  const std::string schema = store::rootSchema(path);
  if (schema != "cineflow.bmode/1") {
    refuse(option, path,
           "exists and is not a Cineflow B-mode output (" +
               (schema.empty() ? std::string("no schema attribute") : "schema \"" + schema + "\"") +
               "); it is never overwritten: choose another name, or remove it first");
  }
}

}  // namespace cineflow::app
