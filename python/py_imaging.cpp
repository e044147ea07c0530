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
#include "py_common.hpp"
#include "py_modules.hpp"
#include "tune/tuner_setup.hpp"
#include "ultrasound/bmode_processor.hpp"

namespace cineflow::python {
namespace {

using namespace pybind11::literals;

// The raw frame `rf` checked against `acq`: [transmits][elements][samples], or [elements][samples]
// for one transmit.
acquire::SampleType checkFrame(const py::array& rf, const acquire::AcquisitionParams& acq) {
  const acquire::SampleType type = sampleTypeOf(rf, "rf");
  const bool threeD = rf.ndim() == 3 && rf.shape(0) == acq.transmits() &&
                      rf.shape(1) == acq.elements() && rf.shape(2) == acq.samples;
  const bool twoD = rf.ndim() == 2 && acq.transmits() == 1 && rf.shape(0) == acq.elements() &&
                    rf.shape(1) == acq.samples;
  if (!threeD && !twoD) {
    throw py::value_error("rf has shape " + shapeText(rf) + "; the acquisition takes (" +
                          std::to_string(acq.transmits()) + ", " + std::to_string(acq.elements()) +
                          ", " + std::to_string(acq.samples) +
                          ") (transmits, elements, samples), C order (a PyMUST RF of shape "
                          "(samples, elements) is rf.T, made contiguous)");
  }
  return type;
}

py::array_t<float> bmode(const py::handle& rfObject, const acquire::AcquisitionParams& acq,
                         const ImagingArgs& args, const std::string& backendName,
                         const std::map<std::string, std::string>& variants, bool tuned) {
  const py::array rf = requireHostArray(rfObject, "rf", {"int16", "float32"});
  const acquire::SampleType type = checkFrame(rf, acq);
  const process::ImagingParams imaging = imagingFor(args, acq);
  compute::Backend& backend = backendFor(backendName);

  process::BmodeProcessor processor;
  processor.configure(backend, acq, type, imaging);
  chooseVariants(processor, backend, variants, tuned);
  const process::ImageGeometry geometry = processor.geometry();
  std::vector<py::ssize_t> shape = {geometry.nz, geometry.nx};
  if (geometry.layers > 1) {
    shape.insert(shape.begin(), geometry.layers);
  }
  py::array_t<float> image(shape);
  float* out = image.mutable_data();
  const std::size_t bytes = static_cast<std::size_t>(rf.nbytes());
  const void* in = rf.data();
  {
    py::gil_scoped_release released;
    compute::DeviceBuffer<std::byte> raw(backend, bytes);
    compute::DeviceBuffer<float> pixels(backend, geometry.values());
    const auto stream = backend.createStream("python");
    stream->copyAsync(raw.data(), in, bytes);
    processor.enqueue(*stream, raw.view(), pixels.view(), {});
    stream->copyAsync(out, pixels.data(), pixels.bytes());
    finishStream(*stream);
  }
  return image;
}

py::array beamform(const py::handle& rfObject, const acquire::AcquisitionParams& acq,
                   const ImagingArgs& args, const std::string& backendName,
                   const std::map<std::string, std::string>& variants) {
  const py::array rf = requireHostArray(rfObject, "rf", {"int16", "float32"});
  const acquire::SampleType type = checkFrame(rf, acq);
  const process::ImagingParams imaging = imagingFor(args, acq);
  if (process::isDoppler(imaging.mode)) {
    throw py::value_error("beamform takes mode='rf' or 'iq'; cineflow.doppler images flow");
  }
  compute::Backend& backend = backendFor(backendName);
  const process::ImageGeometry grid = imaging.geometry();
  const std::size_t bytes = static_cast<std::size_t>(rf.nbytes());
  const void* in = rf.data();
  const auto pick = [&](auto& stage) {
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
  };

  if (imaging.mode == process::ImagingMode::Rf) {
    // The RF chain's first two stages: band-pass filtered and interpolated, then delayed and
    // summed.
    process::BandpassFilter bandpass;
    bandpass.configure(backend, acq, type, imaging);
    process::DasBeamformer beamformer;
    beamformer.configure(backend, acq, imaging, bandpass.outputRateHz(), bandpass.outputSamples());
    pick(beamformer);
    py::array_t<float> image({grid.nz, grid.nx});
    float* out = image.mutable_data();
    py::gil_scoped_release released;
    compute::DeviceBuffer<std::byte> raw(backend, bytes);
    compute::DeviceBuffer<float> filtered(backend, beamformer.rfValues());
    compute::DeviceBuffer<float> summed(backend, grid.pixels());
    const auto stream = backend.createStream("python");
    stream->copyAsync(raw.data(), in, bytes);
    bandpass.enqueue(*stream, raw.view(), filtered.view());
    beamformer.enqueue(*stream, filtered.view(), summed.view());
    stream->copyAsync(out, summed.data(), summed.bytes());
    finishStream(*stream);
    return image;
  }
  // I/Q: demodulated, then the complex delay-and-sum, complex64 [nz][nx].
  process::IqDemodulator demodulator;
  demodulator.configure(backend, acq, type, imaging);
  process::IqBeamformer beamformer;
  beamformer.configure(backend, acq, imaging, demodulator.iqSamples());
  pick(beamformer);
  py::array_t<std::complex<float>> image({grid.nz, grid.nx});
  void* out = image.mutable_data();
  py::gil_scoped_release released;
  compute::DeviceBuffer<std::byte> raw(backend, bytes);
  compute::DeviceBuffer<float> iq(backend, demodulator.iqFloats());
  compute::DeviceBuffer<float> envelope(backend, grid.pixels());
  compute::DeviceBuffer<float> summed(backend, grid.pixels() * 2);
  const auto stream = backend.createStream("python");
  stream->copyAsync(raw.data(), in, bytes);
  demodulator.enqueue(*stream, raw.view(), iq.view());
  beamformer.enqueue(*stream, iq.view(), envelope.view(), summed.view());
  stream->copyAsync(out, summed.data(), summed.bytes());
  finishStream(*stream);
  return image;
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

rf: int16 or float32 NumPy array [transmits][elements][samples] (C order; [elements][samples] for
one transmit). acquisition: cineflow.Acquisition. The keywords are the command line's options:
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
[nz][nx]; mode "iq": the demodulated I/Q summed, complex64 [nz][nx]. The arguments are bmode's.)doc");
}

}  // namespace cineflow::python
