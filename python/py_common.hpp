#pragma once
// What the Python module's files share: the backends it runs on (one per kind, made on first
// use and kept for the module's life), and the
// parsing of imaging keyword arguments the way the command line parses its options (the engine's
// parsers: the same messages).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "pipeline/engine_types.hpp"
#include "py_device.hpp"
#include "tune/tuner_setup.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::python {

namespace py = pybind11;

// The backend for "auto", "cpu" or "cuda" (made once per kind; "auto" is CUDA when a device
// answers, else the CPU). Throws std::invalid_argument for another word and std::runtime_error
// when "cuda" has no device (the command line's messages).
compute::Backend& backendFor(const std::string& request);
// An engine's figures as Engine.stats() and cineflow.gui() give them: state, error, acquired,
// dropped, lost, source_counters, processed, damaged, volumes, the rates, stages, latency.
py::dict engineStatsDict(const pipeline::EngineStats& stats);

// Why "auto" runs on the CPU ("CUDA unavailable: ..."), empty when it runs on CUDA.
std::string autoFallbackReason();

// The imaging keyword arguments, each optional as the command line's options are.
struct ImagingArgs {
  std::optional<std::string> grid;         // "x0:x1:dx,z0:z1:dz" in millimetres (--grid)
  std::optional<double> fnumber;           // --fnumber
  std::optional<std::string> apodisation;  // "hann" | "rect"
  std::optional<std::string> mode;         // "rf" | "iq" | "doppler" | "power-doppler"
  std::optional<double> iqBandwidthPercent;
  std::optional<int> iqDecimation;
  std::optional<double> prfHz;
  std::optional<int> ensemble;
  std::optional<std::string> ensembleMode;  // "sliding" | "block"
  std::optional<std::string> wallFilter;    // --wall-filter's words
  std::optional<std::string> levels;        // received images: --received-levels' words
};
// The arguments as ImagingArgs (the keywords every imaging call shares).
ImagingArgs imagingArgs(const std::optional<std::string>& grid,
                        const std::optional<double>& fnumber,
                        const std::optional<std::string>& apodisation,
                        const std::optional<std::string>& mode,
                        const std::optional<double>& iqBandwidthPercent = {},
                        const std::optional<int>& iqDecimation = {});
// ImagingParams::defaultsFor(acq) with `args` applied, validated for `acq`. Throws
// std::invalid_argument (ValueError in Python) with the command line's messages.
ultrasound::ImagingParams imagingFor(const ImagingArgs& args,
                                     const acquire::AcquisitionParams& acq);

// Channel data a scanner or a script already demodulated (complex64 [transmits][elements][S], S
// samples at the acquisition's fs from its t0): the I/Q chain without its demodulator. A phase
// convention other than Cineflow's (a demodulation without t0) is one constant phase for every
// sample, which neither the magnitude nor Doppler's lag-one phase sees. Returns the imaging
// parameters (I/Q mode unless `args` names another, no decimation); refuses, with the reason,
// iq_bandwidth, iq_decimation, RF mode and (unless `dopplerAllowed`) Doppler modes.
ultrasound::ImagingParams demodulatedImaging(const ImagingArgs& args,
                                             const acquire::AcquisitionParams& acq,
                                             bool dopplerAllowed);
// The demodulated input as the I/Q beamformer reads it: interleaved float32 (re, im).
compute::DeviceSpan<const float> iqFloats(compute::DeviceSpan<const std::byte> bytes);

// Waits for `stream` and raises (RuntimeError) what it reported.
void finishStream(compute::Stream& stream);

// Selects `processor`'s tunable stages' variants: `pins` ({"beamform": "avx2"}), else the tuning
// history's choice, else the default; with tuned = false only the pins (as --no-tune).
template <class Processor>
void chooseVariants(Processor& processor, compute::Backend& backend,
                    const std::map<std::string, std::string>& pins, bool tuned) {
  std::string message;
  tune::VariantPins pinned(pins.begin(), pins.end());
  const auto tuner = tuned ? tune::makeTuner(backend, std::move(pinned), message)
                           : tune::makePinsOnlyTuner(backend, std::move(pinned));
  if (tuner) {
    for (const tune::TunableStage& stage : processor.tunableStages(backend)) {
      tuner->choose(stage, /*mayMeasure=*/false);
    }
  }
}

// A script's callable called from one of Cineflow's threads (GIL held by the caller): what it
// raises is counted and the last message kept, never passed on (the thread goes on).
class ScriptCallback {
 public:
  explicit ScriptCallback(py::object callable) : callable_(std::move(callable)) {}
  ~ScriptCallback();  // drops the callable under the GIL
  ScriptCallback(const ScriptCallback&) = delete;
  ScriptCallback& operator=(const ScriptCallback&) = delete;

  void operator()(const py::object& argument);
  std::uint64_t delivered() const { return delivered_.load(); }  // calls that returned
  std::uint64_t errors() const { return errors_.load(); }        // calls that raised
  std::string lastError() const;

 private:
  py::object callable_;
  std::atomic<std::uint64_t> delivered_{0};
  std::atomic<std::uint64_t> errors_{0};
  mutable std::mutex mutex_;
  std::string lastError_;
};

// The sample type of an array call's raw input (int16 or float32).
acquire::SampleType sampleTypeOf(Element element);

}  // namespace cineflow::python
