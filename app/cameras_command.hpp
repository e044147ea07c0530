#pragma once
// `cineflow cameras [ID] [--json]`: the GenICam cameras reachable now (acquire/genicam_camera.hpp),
// one line each; with ID, what that camera offers for a spectrometer description (pixel formats,
// the one Cineflow reads marked, size, exposure, line and frame rate, trigger sources). Exit 0;
// 1 when ID cannot be opened; 2 on a bad command line.

namespace cineflow::app {

// argv[1] is "cameras".
int runCameras(int argc, char** argv);

}  // namespace cineflow::app
