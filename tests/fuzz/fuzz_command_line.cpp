// Fuzzes the cineflow command line (app/cli_options.cpp, app/arg_reader.cpp): the input split at
// NUL bytes is argv[1..]. A std::invalid_argument naming the option is the right answer to a bad
// command line; anything else is a defect.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> arguments{"cineflow"};
  std::string current;
  for (std::size_t k = 0; k < size && arguments.size() < 64; ++k) {
    if (data[k] == 0) {
      arguments.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[k]));
    }
  }
  arguments.push_back(current);
  std::vector<char*> argv;
  for (std::string& argument : arguments) {
    argv.push_back(argument.data());
  }
  argv.push_back(nullptr);
  try {
    (void)cineflow::app::parseCommandLine(static_cast<int>(arguments.size()), argv.data());
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
