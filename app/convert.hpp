#pragma once
// `cineflow convert IN.mat OUT.h5 [--map SPEC]`: imports MATLAB channel data
// (acquire/mat_import.hpp) and writes it as a cineflow.rf/1 recording (store/rf_writer.hpp).

namespace cineflow::app {

// argv[1] is "convert". Exit status 0 on success, 1 on an import or write error, 2 on a bad
// command line.
int runConvert(int argc, char** argv);

}  // namespace cineflow::app
