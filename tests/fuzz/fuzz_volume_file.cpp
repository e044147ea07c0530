// Fuzzes the saved-volume reader (store/volume_reader.hpp; cineflow.volume/1, what review opens)
// with any bytes as an HDF5 file held in memory (memory_file.hpp). StoreError is the right
// answer to a bad file; anything else is a defect.
#include <cstddef>
#include <cstdint>

#include "memory_file.hpp"
#include "replay_harness.hpp"
#include "store/volume_reader.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::quietHdf5();
  const fuzz::MemoryFile file(data, size);
  try {
    (void)store::readVolumeFile(file.path());
  } catch (const store::StoreError&) {
  }
  return 0;
}
