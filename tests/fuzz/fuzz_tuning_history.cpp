// Fuzzes the tuning history (tune/tuning_history.hpp, the cache's tuning.json): any bytes as the
// file. load() never throws: a file it cannot use is an empty history and a message; anything
// else (a throw, a crash, undefined behaviour) is a defect. What loads is saved nowhere.
#include <cstddef>
#include <cstdint>
#include <string>

#include "memory_file.hpp"
#include "tune/tuning_history.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::MemoryFile file(data, size);
  std::string message;
  const tune::TuningHistory history = tune::TuningHistory::load(file.path(), message);
  for (const tune::TuningEntry& entry : history.entries()) {
    (void)history.find(entry.key);
  }
  return 0;
}
