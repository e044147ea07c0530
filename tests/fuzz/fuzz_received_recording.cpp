// Fuzzes the cineflow.received/1 reader (received/received_file_source.hpp) with any bytes as a
// whole HDF5 file (replay_harness.hpp). SourceError is the right answer to a bad file; a crash, an
// out-of-bounds access, undefined behaviour, a leak or an allocation past libFuzzer's limit is a
// defect.
#include <cstddef>
#include <cstdint>

#include "received/received_file_source.hpp"
#include "replay_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return cineflow::fuzz::fuzzRecording<cineflow::received::ReceivedFileSource>(data, size);
}
