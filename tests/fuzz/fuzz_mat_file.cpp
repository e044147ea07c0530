// Fuzzes the MATLAB import (ultrasound/mat_import.hpp, through matio) with any bytes as a .mat
// file (v4, v5, v7.3), mapped as PyMUST stores Verasonics exports, held in memory
// (memory_file.hpp). SourceError is the right answer to a bad file; a crash, an out-of-bounds
// access, undefined behaviour, a leak or an allocation past libFuzzer's limit is a defect.
#include <cstddef>
#include <cstdint>

#include "memory_file.hpp"
#include "replay_harness.hpp"
#include "ultrasound/mat_import.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::quietHdf5();  // v7.3 files are HDF5
  const fuzz::MemoryFile file(data, size);
  try {
    const ultrasound::ImportedRecording recording =
        ultrasound::importMat(file.path(), ultrasound::MatMapping::verasonics());
    (void)recording.frameBytes(recording.frames - 1);
  } catch (const acquire::SourceError&) {
  }
  return 0;
}
