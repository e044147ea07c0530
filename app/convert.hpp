#pragma once
// `cineflow convert`: recordings from elsewhere into Cineflow's recording schemas.
//   convert IN.mat OUT.h5 [--map SPEC]         MATLAB channel data (ultrasound/mat_import.hpp)
//                                              to cineflow.rf/1 (ultrasound/rf_writer.hpp)
//   convert IN.bin OUT.h5 --describe DESC.json raw OCT spectra (oct/raw_spectra_import.hpp) to
//                                              cineflow.oct/1 (oct/oct_writer.hpp)
//   convert oct-sim OUT.h5 [--frames N]        the built-in OCT simulator to cineflow.oct/1

namespace cineflow::app {

// argv[1] is "convert". Exit status 0 on success, 1 on an import or write error, 2 on a bad
// command line.
int runConvert(int argc, char** argv);

}  // namespace cineflow::app
