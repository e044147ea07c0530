#include "bench_saving.hpp"
#include "ultrasound/ultrasound_modality.hpp"

#include <stdexcept>
#include <system_error>

namespace cineflow::app {
namespace {
constexpr std::size_t kStoreBytes = std::size_t{256} << 20;  // room for a few volumes
}

ContinuousSaver::ContinuousSaver(compute::Backend& backend, pipeline::Engine& engine,
                                 std::filesystem::path folder,
                                 acquire::AcquisitionParams acquisition)
    : engine_(engine),
      folder_(std::move(folder)),
      acquisition_(std::move(acquisition)),
      store_(backend) {
  std::error_code error;
  std::filesystem::create_directories(folder_, error);
  if (error) {
    throw std::runtime_error("bench: --save-volumes: cannot create " + folder_.string() + ": " +
                             error.message());
  }
  const std::string why = store_.setCapacity(kStoreBytes);
  if (!why.empty()) {
    throw std::runtime_error("bench: --save-volumes: " + why);
  }
  saver_ = std::make_unique<store::VolumeSaver>(backend, store_);
}

ContinuousSaver::~ContinuousSaver() {
  saver_.reset();  // joins the I/O thread before the store goes
}

void ContinuousSaver::collect() {
  for (const store::SaveOutcome& outcome : saver_->takeOutcomes()) {
    if (!outcome.ok) {
      throw std::runtime_error("bench: --save-volumes: " + outcome.message);
    }
    std::error_code error;
    totals_.bytesSaved += std::filesystem::file_size(outcome.path, error);
    std::filesystem::remove(outcome.path, error);
    store_.discard(outcome.id);
    ++totals_.volumesSaved;
  }
}

void ContinuousSaver::poll() {
  collect();
  if (saver_->pending() > 0) {
    return;
  }
  {
    // A cheap look (Engine::stats() would copy the statistics windows every poll).
    const process::VolumeLock latest = engine_.lockLatestVolume();
    if (!latest || (started_ > 0 && latest.info().number <= lastNumber_)) {
      return;  // nothing new since the last save
    }
  }
  std::string why;
  const auto id = store_.bufferLatest(engine_.lockLatestVolume(), why);
  if (!id) {
    return;
  }
  const std::uint64_t number = store_.access(*id).info().number;
  if (started_ > 0 && number <= lastNumber_) {
    store_.discard(*id);
    return;
  }
  lastNumber_ = number;
  ++started_;
  saver_->save({*id,
                folder_ / ("bench-volume-" + std::to_string(started_) + ".h5"),
                ultrasound::describeAcquisition(acquisition_),
                {},
                {}});
}

void ContinuousSaver::finish() {
  saver_->waitIdle();
  collect();
  totals_.save = saver_->probe().summary();
}

}  // namespace cineflow::app
