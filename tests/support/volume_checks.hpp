#pragma once
// Volume checks shared by the CPU test (tests/unit/test_volumes.cpp) and the CUDA test
// (tests/gpu/test_cuda_volumes.cpp): one body, both backends. They use QTest macros: call them
// from a test slot, then return if QTest::currentTestFailed().

#include "compute/backend.hpp"

namespace cineflow::test {

// Sweeps of tagged frames become volumes: numbered in order, slices in sweep order, each slice
// bit-identical to its cineloop image, MIPs equal to the plain reference; a copy chained onto the
// endpoint stream from the callback is bit-exact.
void checkVolumesAssembleSweepsAndChainCopies(compute::Backend& backend);
// With Drop, while the engine is held now and then: every sweep that a drop cut is abandoned and
// counted, every whole sweep becomes a volume, and every published volume holds one whole sweep in
// order (counted against the frames processed, not against time).
void checkDroppedFramesAbandonSweeps(compute::Backend& backend);
// A VolumeLock keeps its volume from being overwritten while acquisition continues; releasing it
// lets the engine go on.
void checkVolumeLockHoldsTheVolume(compute::Backend& backend);

// A VolumeStore fed by the engine's volume callback with auto-buffer on takes every volume until
// it is full, then stops and says so; "buffer latest" takes the newest volume once space is free.
void checkStoreAutoBuffersUntilFull(compute::Backend& backend);

}  // namespace cineflow::test
