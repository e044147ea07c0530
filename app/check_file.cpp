#include "check_file.hpp"

#include <cstdio>
#include <exception>
#include <iostream>
#include <string_view>

#include "registry/file_check.hpp"

namespace cineflow::app {

namespace {

constexpr const char* kUsage =
    "usage: cineflow check-file PATH\n"
    "  Reads the recording or MATLAB file PATH the way Cineflow opens it, in this process, so\n"
    "  that a file that would crash a reader ends this process and not the program that asked.\n"
    "  Cineflow runs it itself before it opens a file; exit status 0 when the file reads, 1\n"
    "  with the reason when it does not, 2 on a bad command line.\n";

}  // namespace

int runCheckFile(int argc, char** argv) {
  if (argc == 3 && (std::string_view(argv[2]) == "--help" || std::string_view(argv[2]) == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc != 3) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    acquire::prepareCheckProcess();
    acquire::readFileForCheck(argv[2]);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
}

}  // namespace cineflow::app
