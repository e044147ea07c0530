#include "check_file.hpp"

#include <exception>
#include <iostream>

#include "modality/file_check.hpp"

namespace cineflow::app {

int runCheckFile(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: cineflow check-file PATH (run by Cineflow itself before it opens a "
                 "recording or MATLAB file)\n";
    return 2;
  }
  try {
    acquire::readFileForCheck(argv[2]);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
}

}  // namespace cineflow::app
