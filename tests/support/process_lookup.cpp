#include "support/process_lookup.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace cineflow::test {

pid_t headlessProcessMentioning(const std::string& needle) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    std::ifstream cmdline(entry.path() / "cmdline");
    std::string text((std::istreambuf_iterator<char>(cmdline)), {});
    std::replace(text.begin(), text.end(), '\0', ' ');
    if (text.find("--headless") != std::string::npos && text.find(needle) != std::string::npos) {
      return static_cast<pid_t>(std::stoi(name));
    }
  }
  return 0;
}

}  // namespace cineflow::test
