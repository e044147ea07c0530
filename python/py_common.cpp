#include "py_common.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace cineflow::python {
namespace {

struct Backends {
  std::mutex mutex;
  std::map<compute::BackendRequest, std::unique_ptr<compute::Backend>> made;
  std::string autoFallback;
};

Backends& backends() {
  // Never destroyed: a backend's threads must not be joined after the interpreter has gone.
  static Backends* instance = new Backends;
  return *instance;
}

}  // namespace

compute::Backend& backendFor(const std::string& request) {
  const compute::BackendRequest kind = compute::parseBackendRequest(request);
  Backends& all = backends();
  std::scoped_lock lock(all.mutex);
  auto& slot = all.made[kind];
  if (!slot) {
    std::string fallback;
    slot = compute::createBackend(kind, &fallback);
    if (kind == compute::BackendRequest::Auto) {
      all.autoFallback = fallback;
    }
  }
  return *slot;
}

py::dict engineStatsDict(const pipeline::EngineStats& s) {
  using namespace pybind11::literals;
  py::dict out;
  out["state"] = pipeline::toString(s.state);
  out["error"] = s.error;
  out["acquired"] = s.acquired;
  out["dropped"] = s.dropped;
  out["lost"] = s.lost;
  py::dict counters;
  for (const auto& [name, value] : s.sourceCounters) {
    counters[py::str(name)] = value;
  }
  out["source_counters"] = counters;
  out["processed"] = s.processed;
  out["damaged"] = s.damaged;
  out["volumes"] = s.volumes;
  out["acquisition_fps"] = s.acquisitionFps;
  out["processing_fps"] = s.processingFps;
  out["frame_median_ms"] = s.frameMedianMs;
  py::list stages;
  for (const pipeline::StageStats& stage : s.stages) {
    stages.append(py::dict("name"_a = stage.name, "variant"_a = stage.variant,
                           "count"_a = stage.count, "median_ms"_a = stage.medianMs,
                           "p99_ms"_a = stage.p99Ms, "mean_ms"_a = stage.meanMs,
                           "max_ms"_a = stage.maxMs));
  }
  out["stages"] = stages;
  out["latency_median_ms"] = s.latency.medianMs;
  return out;
}

std::string autoFallbackReason() {
  backendFor("auto");
  std::scoped_lock lock(backends().mutex);
  return backends().autoFallback;
}

ScriptCallback::~ScriptCallback() {
  py::gil_scoped_acquire gil;
  callable_ = py::object();
}

void ScriptCallback::operator()(const py::object& argument) {
  try {
    callable_(argument);
    delivered_.fetch_add(1);
  } catch (py::error_already_set& error) {
    errors_.fetch_add(1);
    std::scoped_lock lock(mutex_);
    lastError_ = error.what();
  }
}

std::string ScriptCallback::lastError() const {
  std::scoped_lock lock(mutex_);
  return lastError_;
}

acquire::SampleType sampleTypeOf(Element element) {
  return element == Element::Int16 ? acquire::SampleType::Int16 : acquire::SampleType::Float32;
}

ImagingArgs imagingArgs(const std::optional<std::string>& grid,
                        const std::optional<double>& fnumber,
                        const std::optional<std::string>& apodisation,
                        const std::optional<std::string>& mode,
                        const std::optional<double>& iqBandwidthPercent,
                        const std::optional<int>& iqDecimation) {
  ImagingArgs args;
  args.grid = grid;
  args.fnumber = fnumber;
  args.apodisation = apodisation;
  args.mode = mode;
  args.iqBandwidthPercent = iqBandwidthPercent;
  args.iqDecimation = iqDecimation;
  return args;
}

void finishStream(compute::Stream& stream) {
  stream.synchronize();
  if (const std::string error = stream.takeError(); !error.empty()) {
    throw std::runtime_error(error);
  }
}

ultrasound::ImagingParams imagingFor(const ImagingArgs& args,
                                     const acquire::AcquisitionParams& acq) {
  acq.validate();
  ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
  if (args.grid) {
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres(*args.grid);
  }
  if (args.fnumber) {
    imaging.fNumber = *args.fnumber;
  }
  if (args.apodisation) {
    imaging.apodisation = ultrasound::parseApodisation(*args.apodisation);
  }
  if (args.mode) {
    imaging.mode = ultrasound::parseImagingMode(*args.mode);
  }
  if (!ultrasound::usesIqChain(imaging.mode) && (args.iqBandwidthPercent || args.iqDecimation)) {
    throw std::invalid_argument(
        "iq_bandwidth and iq_decimation act in the I/Q and Doppler modes only (mode='iq')");
  }
  if (args.iqBandwidthPercent) {
    imaging.iqBandwidthRel = *args.iqBandwidthPercent / 100.0;
  }
  if (args.iqDecimation) {
    imaging.iqDecimation = *args.iqDecimation;
  }
  if ((args.prfHz || args.ensemble || args.ensembleMode || args.wallFilter) &&
      !ultrasound::isDoppler(imaging.mode)) {
    throw std::invalid_argument(
        "prf, ensemble, ensemble_mode and wall_filter act in the Doppler modes only "
        "(mode='doppler' or 'power-doppler')");
  }
  if (args.ensembleMode) {
    imaging.doppler.ensembleMode = ultrasound::parseEnsembleMode(*args.ensembleMode);
  }
  if (args.wallFilter) {
    imaging.doppler.applyWallFilterSpec(*args.wallFilter);
  }
  if (args.prfHz) {
    imaging.doppler.prfHz = *args.prfHz;
  }
  if (args.ensemble) {
    imaging.doppler.ensemble = *args.ensemble;
  }
  imaging.validate(acq);
  return imaging;
}

ultrasound::ImagingParams demodulatedImaging(const ImagingArgs& args,
                                             const acquire::AcquisitionParams& acq,
                                             bool dopplerAllowed) {
  if (args.iqBandwidthPercent || args.iqDecimation) {
    throw py::value_error(
        "complex64 input is already demodulated: iq_bandwidth and iq_decimation do not apply "
        "(give the acquisition the I/Q's own sampling rate)");
  }
  ImagingArgs iq = args;
  if (!iq.mode) {
    iq.mode = "iq";
  }
  const ultrasound::ImagingMode mode = ultrasound::parseImagingMode(*iq.mode);
  if (mode == ultrasound::ImagingMode::Rf || (!dopplerAllowed && ultrasound::isDoppler(mode))) {
    throw py::value_error("complex64 input is I/Q: mode must be 'iq'" +
                          std::string(dopplerAllowed ? ", 'doppler' or 'power-doppler'" : "") +
                          ", not '" + *args.mode + "'");
  }
  return imagingFor(iq, acq);
}

compute::DeviceSpan<const float> iqFloats(compute::DeviceSpan<const std::byte> bytes) {
  return {reinterpret_cast<const float*>(bytes.data()), bytes.size() / sizeof(float)};
}

}  // namespace cineflow::python
