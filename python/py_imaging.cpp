// Arrays in, images out: cineflow.bmode and cineflow.beamform on NumPy arrays of channel data,
// with the chosen backend and the tuned variant (the tuning history `cineflow tune` wrote, or
// pinned variants), through the engine's own processor and stages: the same numbers as the
// command line for the same frame.
#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compute/buffer.hpp"
#include "process/log_compress.hpp"
#include "py_common.hpp"
#include "py_modules.hpp"
#include "tune/tuner_setup.hpp"
#include "ultrasound/bmode_processor.hpp"
#include "ultrasound/iq_beamform.hpp"

namespace cineflow::python {
namespace {

using namespace pybind11::literals;

// The raw frame `rf` checked against `acq`: [transmits][elements][samples], or [elements][samples]
// for one transmit.
acquire::SampleType checkFrame(const InputArray& rf, const acquire::AcquisitionParams& acq) {
  const auto& shape = rf.shape;
  const bool threeD = shape.size() == 3 && shape[0] == acq.transmits() &&
                      shape[1] == acq.elements() && shape[2] == acq.samples;
  const bool twoD = shape.size() == 2 && acq.transmits() == 1 && shape[0] == acq.elements() &&
                    shape[1] == acq.samples;
  if (!threeD && !twoD) {
    throw py::value_error("rf has shape " + rf.shapeText() + "; the acquisition takes (" +
                          std::to_string(acq.transmits()) + ", " + std::to_string(acq.elements()) +
                          ", " + std::to_string(acq.samples) +
                          ") (transmits, elements, samples), C order (a PyMUST RF of shape "
                          "(samples, elements) is rf.T, made contiguous)");
  }
  return sampleTypeOf(rf.element);
}

// Selects the beamformer variant `variants` pins ({"beamform": "avx2"}), if any; refuses a name
// this machine's beamformer does not have.
template <class Beamformer>
void pinBeamform(Beamformer& stage, const std::map<std::string, std::string>& variants) {
  const auto pinned = variants.find("beamform");
  if (pinned == variants.end()) {
    return;
  }
  const std::vector<std::string> names = stage.variants();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == pinned->second) {
      stage.selectVariant(i);
      return;
    }
  }
  std::string known;
  for (const std::string& name : names) {
    known += (known.empty() ? "" : ", ") + name;
  }
  throw py::value_error("beamform has no variant '" + pinned->second + "' here (it has " + known +
                        ")");
}

// B-mode (dB) or the complex sum of demodulated input `iq`: the I/Q beamformer, then (dB) log
// compression.
py::object imageOfDemodulated(const InputArray& iq, const acquire::AcquisitionParams& acq,
                              const ultrasound::ImagingParams& imaging, compute::Backend& backend,
                              const std::map<std::string, std::string>& variants, bool complexSum) {
  ultrasound::IqBeamformer beamformer;
  beamformer.configure(backend, acq, imaging, static_cast<std::size_t>(acq.samples));
  pinBeamform(beamformer, variants);
  const process::ImageGeometry grid = imaging.geometry();
  process::LogCompressor log;
  log.configure(backend, grid);
  OutputArray image(iq, backend, {grid.nz, grid.nx},
                    complexSum ? Element::Complex64 : Element::Float32);
  py::gil_scoped_release released;
  compute::DeviceBuffer<std::byte> copy;
  compute::DeviceBuffer<float> envelope(backend, grid.pixels());
  compute::DeviceBuffer<float> summed(backend, complexSum ? grid.pixels() * 2 : 0);
  compute::DeviceBuffer<float> db(backend, complexSum ? 0 : grid.pixels());
  const auto stream = backend.createStream("python");
  beamformer.enqueue(*stream, iqFloats(staged(iq, 0, iq.bytes(), backend, *stream, copy)),
                     envelope.view(), complexSum ? summed.view() : compute::DeviceSpan<float>{});
  if (complexSum) {
    stream->copyAsync(image.data(), summed.data(), summed.bytes());
  } else {
    log.enqueue(*stream, envelope.view(), db.view());
    stream->copyAsync(image.data(), db.data(), db.bytes());
  }
  finishStream(*stream);
  py::gil_scoped_acquire gil;  // the result is a Python object
  return withAxes(image.result(), grid);
}

py::object bmode(const py::handle& rfObject, const acquire::AcquisitionParams& acq,
                 const ImagingArgs& args, const std::string& backendName,
                 const std::map<std::string, std::string>& variants, bool tuned) {
  compute::Backend& backend = backendFor(backendName);
  const InputArray rf =
      inputArray(rfObject, "rf", {Element::Int16, Element::Float32, Element::Complex64}, backend);
  const acquire::SampleType type = checkFrame(rf, acq);
  if (rf.element == Element::Complex64) {
    return imageOfDemodulated(rf, acq, demodulatedImaging(args, acq, false), backend, variants,
                              false);
  }
  const ultrasound::ImagingParams imaging = imagingFor(args, acq);

  ultrasound::BmodeProcessor processor;
  processor.configure(backend, acq, type, imaging);
  chooseVariants(processor, backend, variants, tuned);
  const process::ImageGeometry geometry = processor.geometry();
  std::vector<std::int64_t> shape = {geometry.nz, geometry.nx};
  if (geometry.layers > 1) {
    shape.insert(shape.begin(), geometry.layers);
  }
  OutputArray image(rf, backend, shape);
  {
    py::gil_scoped_release released;
    compute::DeviceBuffer<std::byte> raw;
    compute::DeviceBuffer<float> pixels(backend, geometry.values());
    const auto stream = backend.createStream("python");
    processor.enqueue(*stream, staged(rf, 0, rf.bytes(), backend, *stream, raw), pixels.view(), {});
    stream->copyAsync(image.data(), pixels.data(), pixels.bytes());
    finishStream(*stream);
  }
  return withAxes(image.result(), geometry);
}

py::object beamform(const py::handle& rfObject, const acquire::AcquisitionParams& acq,
                    const ImagingArgs& args, const std::string& backendName,
                    const std::map<std::string, std::string>& variants) {
  compute::Backend& backend = backendFor(backendName);
  const InputArray rf =
      inputArray(rfObject, "rf", {Element::Int16, Element::Float32, Element::Complex64}, backend);
  const acquire::SampleType type = checkFrame(rf, acq);
  if (rf.element == Element::Complex64) {
    return imageOfDemodulated(rf, acq, demodulatedImaging(args, acq, false), backend, variants,
                              true);
  }
  const ultrasound::ImagingParams imaging = imagingFor(args, acq);
  if (ultrasound::isDoppler(imaging.mode)) {
    throw py::value_error("beamform takes mode='rf' or 'iq'; cineflow.doppler images flow");
  }
  const process::ImageGeometry grid = imaging.geometry();
  if (imaging.mode == ultrasound::ImagingMode::Rf) {
    // The RF chain's first two stages: band-pass filtered and interpolated, then delayed and
    // summed.
    ultrasound::BandpassFilter bandpass;
    bandpass.configure(backend, acq, type, imaging);
    ultrasound::DasBeamformer beamformer;
    beamformer.configure(backend, acq, imaging, bandpass.outputRateHz(), bandpass.outputSamples());
    pinBeamform(beamformer, variants);
    OutputArray image(rf, backend, {grid.nz, grid.nx});
    py::gil_scoped_release released;
    compute::DeviceBuffer<std::byte> raw;
    compute::DeviceBuffer<float> filtered(backend, beamformer.rfValues());
    compute::DeviceBuffer<float> summed(backend, grid.pixels());
    const auto stream = backend.createStream("python");
    bandpass.enqueue(*stream, staged(rf, 0, rf.bytes(), backend, *stream, raw), filtered.view());
    beamformer.enqueue(*stream, filtered.view(), summed.view());
    stream->copyAsync(image.data(), summed.data(), summed.bytes());
    finishStream(*stream);
    py::gil_scoped_acquire gil;  // the result is a Python object
    return withAxes(image.result(), grid);
  }
  // I/Q: demodulated, then the complex delay-and-sum, complex64 [nz][nx].
  ultrasound::IqDemodulator demodulator;
  demodulator.configure(backend, acq, type, imaging);
  ultrasound::IqBeamformer beamformer;
  beamformer.configure(backend, acq, imaging, demodulator.iqSamples());
  pinBeamform(beamformer, variants);
  OutputArray image(rf, backend, {grid.nz, grid.nx}, Element::Complex64);
  py::gil_scoped_release released;
  compute::DeviceBuffer<std::byte> raw;
  compute::DeviceBuffer<float> iq(backend, demodulator.iqFloats());
  compute::DeviceBuffer<float> envelope(backend, grid.pixels());
  compute::DeviceBuffer<float> summed(backend, grid.pixels() * 2);
  const auto stream = backend.createStream("python");
  demodulator.enqueue(*stream, staged(rf, 0, rf.bytes(), backend, *stream, raw), iq.view());
  beamformer.enqueue(*stream, iq.view(), envelope.view(), summed.view());
  stream->copyAsync(image.data(), summed.data(), summed.bytes());
  finishStream(*stream);
  py::gil_scoped_acquire gil;  // the result is a Python object
  return withAxes(image.result(), grid);
}

}  // namespace

void bindImaging(py::module_& m) {
  m.def(
      "bmode",
      [](const py::handle& rf, const acquire::AcquisitionParams& acq,
         const std::optional<std::string>& grid, const std::optional<double>& fnumber,
         const std::optional<std::string>& apodisation, const std::optional<std::string>& mode,
         const std::optional<double>& iqBandwidth, const std::optional<int>& iqDecimation,
         const std::string& backend, const std::map<std::string, std::string>& variants,
         bool tuned) {
        return bmode(rf, acq,
                     imagingArgs(grid, fnumber, apodisation, mode, iqBandwidth, iqDecimation),
                     backend, variants, tuned);
      },
      "rf"_a, "acquisition"_a, py::kw_only(), "grid"_a = py::none(), "fnumber"_a = py::none(),
      "apodisation"_a = py::none(), "mode"_a = py::none(), "iq_bandwidth"_a = py::none(),
      "iq_decimation"_a = py::none(), "backend"_a = "auto",
      "variants"_a = std::map<std::string, std::string>{}, "tune"_a = true,
      R"doc(B-mode image (dB, float32 [nz][nx]) of one plane-wave frame.

rf: int16 or float32 array [transmits][elements][samples] (C order; [elements][samples] for one
transmit), or complex64 I/Q a scanner or script already demodulated (samples at the acquisition's
fs: the I/Q chain without its demodulator): NumPy (returns NumPy), or a cineflow.DeviceArray or,
on the cuda backend, any GPU array with __cuda_array_interface__ or DLPack (read in place; returns
a cineflow.DeviceArray). acquisition: cineflow.Acquisition. The keywords are the command line's options:
grid "x0:x1:dx,z0:z1:dz" in mm (--grid), fnumber, apodisation ("hann", "rect"), mode ("rf", "iq"),
iq_bandwidth (% of f0), iq_decimation. backend: "auto", "cpu" or "cuda". variants: pinned
variants {"beamform": "avx2"}; other stages take the tuning history's choice (cineflow tune), or
their defaults with tune=False (as --no-tune).)doc");
  m.def(
      "beamform",
      [](const py::handle& rf, const acquire::AcquisitionParams& acq,
         const std::optional<std::string>& grid, const std::optional<double>& fnumber,
         const std::optional<std::string>& apodisation, const std::optional<std::string>& mode,
         const std::optional<double>& iqBandwidth, const std::optional<int>& iqDecimation,
         const std::string& backend, const std::map<std::string, std::string>& variants) {
        return beamform(rf, acq,
                        imagingArgs(grid, fnumber, apodisation, mode, iqBandwidth, iqDecimation),
                        backend, variants);
      },
      "rf"_a, "acquisition"_a, py::kw_only(), "grid"_a = py::none(), "fnumber"_a = py::none(),
      "apodisation"_a = py::none(), "mode"_a = py::none(), "iq_bandwidth"_a = py::none(),
      "iq_decimation"_a = py::none(), "backend"_a = "auto",
      "variants"_a = std::map<std::string, std::string>{},
      R"doc(Delay-and-sum of one plane-wave frame, before detection.

mode "rf" (default for RF-sampled data): the band-pass filtered, interpolated RF summed, float32
[nz][nx]; mode "iq" (and complex64 input, already demodulated): the I/Q summed, complex64
[nz][nx]. The arguments are bmode's.)doc");
}

}  // namespace cineflow::python
