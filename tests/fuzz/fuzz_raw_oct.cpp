// Fuzzes raw OCT spectra input (oct/raw_spectra_import.hpp): a JSON description, then the raw
// binary it describes. The input is the description, a NUL byte, then the binary (held in
// memory, memory_file.hpp); a wavelength_file the description names is looked for in a folder
// that does not exist. RawSpectraError is the right answer to a bad description or a binary that
// does not fit it; anything else is a defect.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "memory_file.hpp"
#include "oct/raw_spectra_import.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto* end = data + size;
  const auto* split = std::find(data, end, std::uint8_t{0});
  const std::string_view json(reinterpret_cast<const char*>(data),
                              static_cast<std::size_t>(split - data));
  try {
    const oct::RawSpectraDescription description =
        oct::parseRawSpectraDescription(json, "fuzzed.json", "/nonexistent-cineflow-fuzz");
    const std::uint8_t* binary = split == end ? end : split + 1;
    const fuzz::MemoryFile file(binary, static_cast<std::size_t>(end - binary));
    (void)oct::rawFrameCount(file.path(), description);
  } catch (const oct::RawSpectraError&) {
  }
  return 0;
}
