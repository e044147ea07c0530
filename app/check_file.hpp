#pragma once
// `cineflow check-file PATH`: the child process that reads a file from outside before Cineflow
// opens it (engine modality/file_check.hpp). Exit 0: read; 1: refused, the reader's message on
// stderr; 2: a bad command line. A crash or a loop inside HDF5 or matio ends only this process.

namespace cineflow::app {

int runCheckFile(int argc, char** argv);

}  // namespace cineflow::app
