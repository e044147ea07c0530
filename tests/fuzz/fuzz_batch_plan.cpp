// Fuzzes the batch plan reader (app/batch/batch_plan.hpp, `cineflow batch PLAN.json`): any bytes
// as the plan's text. Its inputs are expanded without touching the disk (each entry names one
// recording), so that the fuzzer reaches the grid and the option checks. std::invalid_argument
// naming the plan and the field is the right answer to a bad plan; anything else (another throw,
// a crash, undefined behaviour, a leak, an allocation past libFuzzer's limit) is a defect.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "batch/batch_plan.hpp"

using namespace cineflow::app::batch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto oneRecording = [](const std::filesystem::path& plan, const std::string& pattern) {
    const std::filesystem::path path(pattern);
    return std::vector<std::string>{
        (path.is_relative() ? plan.parent_path() / path : path).lexically_normal().string()};
  };
  try {
    const BatchPlan plan = parseBatchPlan(text, "/fuzz/plan.json", oneRecording);
    if (!plan.jobs.empty()) {
      (void)plan.headlessArguments(plan.jobs.front(), plan.outputOf(plan.jobs.front()),
                                   plan.recordOf(plan.jobs.front()));
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
