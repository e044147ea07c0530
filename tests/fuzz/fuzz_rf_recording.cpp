// Fuzzes the cineflow.rf/1 reader (ultrasound/rf_file_source.hpp) with any bytes as a whole HDF5
// file (replay_harness.hpp). SourceError is the right answer to a bad file; a crash, an
// out-of-bounds access, undefined behaviour, a leak or an allocation past libFuzzer's limit is a
// defect.
#include <cstddef>
#include <cstdint>

#include "replay_harness.hpp"
#include "ultrasound/rf_file_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return cineflow::fuzz::fuzzRecording<cineflow::ultrasound::RfFileSource>(data, size);
}
