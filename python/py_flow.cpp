// cineflow.doppler (colour or power Doppler of an ensemble of plane-wave frames) and
// cineflow.oct_bscan (an OCT B-scan from raw spectra): arrays in, images out, through the
// engine's own processors, like bmode.
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "compute/buffer.hpp"
#include "modality/modality.hpp"
#include "oct/dispersion_search.hpp"
#include "oct/oct_modality.hpp"
#include "oct/oct_processor.hpp"
#include "oct/oct_source.hpp"
#include "process/log_compress.hpp"
#include "py_common.hpp"
#include "py_modules.hpp"
#include "tune/tuner_setup.hpp"
#include "ultrasound/bmode_processor.hpp"
#include "ultrasound/flow_estimator.hpp"
#include "ultrasound/iq_beamform.hpp"

namespace cineflow::python {
namespace {

using namespace pybind11::literals;

py::dict flowResult(const OutputArray& layers, const process::ImageGeometry& geometry) {
  return py::dict("bmode"_a = layers.part(0), "velocity"_a = layers.part(1),
                  "variance"_a = layers.part(2), "power"_a = layers.part(3),
                  "aliasing_velocity"_a = geometry.aliasingVelocity);
}

// Doppler of `count` consecutive frames of demodulated I/Q (py_common.hpp, demodulatedImaging):
// each frame's complex sum into the estimator's ensemble, then the last frame's B-mode and the
// latest estimate, the layers BmodeProcessor makes from channel data.
py::dict dopplerOfDemodulated(const InputArray& frames, std::size_t count, std::size_t frameBytes,
                              const acquire::AcquisitionParams& acq,
                              const ultrasound::ImagingParams& imaging, compute::Backend& backend) {
  const process::ImageGeometry grid = imaging.geometry();
  const process::ImageGeometry geometry = imaging.imageGeometry(acq);
  ultrasound::IqBeamformer beamformer;
  beamformer.configure(backend, acq, imaging, static_cast<std::size_t>(acq.samples));
  process::LogCompressor log;
  log.configure(backend, grid);
  ultrasound::FlowEstimator flow;
  flow.configure(backend, grid, imaging.doppler, imaging.doppler.aliasingVelocityFor(acq));
  OutputArray layers(frames, backend, {geometry.layers, geometry.nz, geometry.nx});
  {
    py::gil_scoped_release released;
    compute::DeviceBuffer<std::byte> copy;
    compute::DeviceBuffer<float> envelope(backend, grid.pixels());
    compute::DeviceBuffer<float> image(backend, geometry.values());
    const auto stream = backend.createStream("python");
    const compute::DeviceSpan<float> flowLayers =
        image.view().subspan(grid.pixels(), 3 * grid.pixels());
    for (std::size_t i = 0; i < count; ++i) {
      acquire::FrameHeader header;
      header.sequence = i;
      header.sourceIndex = i;
      beamformer.enqueue(
          *stream, iqFloats(staged(frames, i * frameBytes, frameBytes, backend, *stream, copy)),
          envelope.view(), flow.nextFrame());
      flow.enqueue(*stream, header, flowLayers);
    }
    log.enqueue(*stream, envelope.view(), image.view().subspan(0, grid.pixels()));
    stream->copyAsync(layers.data(), image.data(), image.bytes());
    finishStream(*stream);
  }
  return flowResult(layers, geometry);
}

py::dict doppler(const py::handle& framesObject, const acquire::AcquisitionParams& acq,
                 ImagingArgs args, const std::string& backendName, bool tuned) {
  compute::Backend& backend = backendFor(backendName);
  const InputArray frames = inputArray(
      framesObject, "frames", {Element::Int16, Element::Float32, Element::Complex64}, backend);
  const acquire::SampleType type = sampleTypeOf(frames.element);
  const auto& shape = frames.shape;
  if (shape.size() != 4 || shape[1] != acq.transmits() || shape[2] != acq.elements() ||
      shape[3] != acq.samples) {
    throw py::value_error("frames has shape " + frames.shapeText() + "; Doppler takes (frames, " +
                          std::to_string(acq.transmits()) + ", " + std::to_string(acq.elements()) +
                          ", " + std::to_string(acq.samples) +
                          ") (frames, transmits, elements, samples), C order");
  }
  if (!args.mode) {
    args.mode = "doppler";
  }
  const bool demodulated = frames.element == Element::Complex64;
  const ultrasound::ImagingParams imaging =
      demodulated ? demodulatedImaging(args, acq, true) : imagingFor(args, acq);
  if (!ultrasound::isDoppler(imaging.mode)) {
    throw py::value_error("doppler takes mode='doppler' or 'power-doppler'; bmode images the rest");
  }
  const auto count = static_cast<std::size_t>(shape[0]);
  if (count < static_cast<std::size_t>(imaging.doppler.ensemble)) {
    throw py::value_error(std::to_string(count) + " frames: an estimate needs an ensemble of " +
                          std::to_string(imaging.doppler.ensemble) + " (ensemble=)");
  }
  const std::size_t frameBytes = frames.bytes() / count;
  if (demodulated) {
    return dopplerOfDemodulated(frames, count, frameBytes, acq, imaging, backend);
  }
  ultrasound::BmodeProcessor processor;
  processor.configure(backend, acq, type, imaging);
  chooseVariants(processor, backend, {}, tuned);
  const process::ImageGeometry geometry = processor.geometry();
  OutputArray layers(frames, backend, {geometry.layers, geometry.nz, geometry.nx});
  {
    py::gil_scoped_release released;
    compute::DeviceBuffer<std::byte> raw;
    compute::DeviceBuffer<float> image(backend, geometry.values());
    const auto stream = backend.createStream("python");
    // Consecutive frames of one acquisition: the estimator's ensemble follows their sequence.
    for (std::size_t i = 0; i < count; ++i) {
      acquire::FrameHeader header;
      header.sequence = i;
      header.sourceIndex = i;
      processor.enqueue(*stream, header,
                        staged(frames, i * frameBytes, frameBytes, backend, *stream, raw),
                        image.view(), {});
    }
    stream->copyAsync(layers.data(), image.data(), image.bytes());
    finishStream(*stream);
  }
  return flowResult(layers, geometry);
}

// An OCT source's acquisition with the parameters it states (a recording's dispersion), which
// oct_bscan starts from.
struct OctInput {
  oct::OctAcquisition acquisition;
  oct::OctParams defaults;
};

py::object octBscan(const py::handle& spectraObject, const OctInput& input,
                    const std::optional<std::pair<double, double>>& dispersion,
                    const std::optional<std::string>& window,
                    const std::optional<double>& refractiveIndex, std::uint64_t index,
                    const std::string& backendName, bool tuned) {
  compute::Backend& backend = backendFor(backendName);
  const InputArray spectra = inputArray(spectraObject, "spectra", {Element::UInt16}, backend);
  const oct::OctAcquisition& acq = input.acquisition;
  if (spectra.shape.size() != 2 || spectra.shape[0] != acq.ascans ||
      spectra.shape[1] != acq.samples) {
    throw py::value_error("spectra has shape " + spectra.shapeText() + "; the acquisition takes (" +
                          std::to_string(acq.ascans) + ", " + std::to_string(acq.samples) +
                          ") (A-scans, samples), C order");
  }
  oct::OctParams params = input.defaults;
  if (dispersion) {
    std::tie(params.a2, params.a3) = *dispersion;
  }
  if (window) {
    params.window = oct::parseSpectralWindow(*window);
  }
  if (refractiveIndex) {
    params.refractiveIndex = *refractiveIndex;
  }
  params.validate(acq);
  oct::OctProcessor processor;
  processor.configure(backend, acq, params);
  chooseVariants(processor, backend, {}, tuned);
  const process::ImageGeometry geometry = processor.geometry();
  OutputArray image(spectra, backend, {geometry.nz, geometry.nx});
  py::gil_scoped_release released;
  compute::DeviceBuffer<std::byte> raw;
  compute::DeviceBuffer<float> pixels(backend, geometry.values());
  const auto stream = backend.createStream("python");
  acquire::FrameHeader header;
  header.sequence = index;
  header.sourceIndex = index;  // a bidirectional scan's odd B-scans run right to left
  processor.enqueue(*stream, header, staged(spectra, 0, spectra.bytes(), backend, *stream, raw),
                    pixels.view(), {});
  stream->copyAsync(image.data(), pixels.data(), pixels.bytes());
  finishStream(*stream);
  return image.result();
}

// The automatic dispersion search (dispersion_search.hpp) on one B-scan of raw spectra.
py::dict octDispersionSearch(const py::array_t<std::uint16_t, py::array::c_style>& spectra,
                             const OctInput& input, const std::optional<std::string>& window,
                             const std::optional<double>& centreM) {
  const oct::OctAcquisition& acq = input.acquisition;
  if (spectra.ndim() != 2 || spectra.shape(0) != acq.ascans || spectra.shape(1) != acq.samples) {
    throw py::value_error("spectra must be one B-scan, uint16 (" + std::to_string(acq.ascans) +
                          ", " + std::to_string(acq.samples) + ") (A-scans, samples)");
  }
  oct::OctParams params = input.defaults;
  if (window) {
    params.window = oct::parseSpectralWindow(*window);
  }
  params.dispersionCentreM = centreM.value_or(0.0);
  params.validate(acq);
  oct::DispersionEstimate estimate;
  {
    py::gil_scoped_release released;
    estimate = oct::searchDispersion(
        acq, params,
        std::span<const std::uint16_t>(spectra.data(), static_cast<std::size_t>(spectra.size())));
  }
  return py::dict("a2"_a = estimate.a2, "a3"_a = estimate.a3,
                  "centre_wavelength_m"_a = params.dispersionCentre(acq),
                  "sharpness"_a = estimate.sharpness);
}

}  // namespace

py::object octInputOf(const oct::OctSource& source) {
  return py::cast(OctInput{source.acquisition(),
                           oct::requireParams(*source.modality().defaultSettings(source))});
}

void bindFlow(py::module_& m) {
  py::class_<OctInput>(m, "OctAcquisition",
                       "An OCT source's acquisition (Source(...).acquisition for OCT) and the "
                       "parameters it states, which oct_bscan starts from.")
      .def_property_readonly("ascans", [](const OctInput& i) { return i.acquisition.ascans; })
      .def_property_readonly("samples", [](const OctInput& i) { return i.acquisition.samples; })
      .def_property_readonly("wavelength_m",
                             [](const OctInput& i) { return i.acquisition.wavelengthM; })
      .def_property_readonly("bidirectional",
                             [](const OctInput& i) { return i.acquisition.bidirectional; })
      .def_property_readonly(
          "dispersion",
          [](const OctInput& i) { return py::make_tuple(i.defaults.a2, i.defaults.a3); })
      .def_property_readonly("dispersion_centre_wavelength_m", [](const OctInput& i) {
        return i.defaults.dispersionCentre(i.acquisition);
      });

  m.def(
      "oct_dispersion_search", &octDispersionSearch, "spectra"_a, "acquisition"_a, py::kw_only(),
      "window"_a = py::none(), "centre_wavelength_m"_a = py::none(),
      R"doc(The sharpest dispersion compensation for one B-scan of raw spectra, uint16 [A-scans][samples]
(the GUI's Auto button, the command line's --oct-dispersion auto).

Returns a dict: "a2", "a3" (radians of a2 u^2 + a3 u^3, u = (k - k0) / (N dk)), the
"centre_wavelength_m" they are stated about (k0 = 2 pi / it: centre_wavelength_m, default the
acquisition's), and "sharpness". Pass (a2, a3) to oct_bscan(dispersion=...).)doc");

  m.def(
      "doppler",
      [](const py::handle& frames, const acquire::AcquisitionParams& acq,
         const std::optional<std::string>& mode, const std::optional<std::string>& grid,
         const std::optional<double>& fnumber, const std::optional<std::string>& apodisation,
         const std::optional<double>& iqBandwidth, const std::optional<double>& prf,
         const std::optional<int>& ensemble, const std::optional<std::string>& ensembleMode,
         const std::optional<std::string>& wallFilter, const std::string& backend, bool tuned) {
        ImagingArgs args = imagingArgs(grid, fnumber, apodisation, mode, iqBandwidth);
        args.prfHz = prf;
        args.ensemble = ensemble;
        args.ensembleMode = ensembleMode;
        args.wallFilter = wallFilter;
        return doppler(frames, acq, args, backend, tuned);
      },
      "frames"_a, "acquisition"_a, py::kw_only(), "mode"_a = py::none(), "grid"_a = py::none(),
      "fnumber"_a = py::none(), "apodisation"_a = py::none(), "iq_bandwidth"_a = py::none(),
      "prf"_a = py::none(), "ensemble"_a = py::none(), "ensemble_mode"_a = py::none(),
      "wall_filter"_a = py::none(), "backend"_a = "auto", "tune"_a = true,
      R"doc(Colour (or power) Doppler of consecutive plane-wave frames [frames][transmits][elements][samples].

Returns the estimate of the ensemble that ends at the last frame: a dict of float32 [nz][nx] arrays
"bmode" (dB), "velocity" (m/s, positive towards the probe), "variance" (m^2/s^2), "power" (dB),
NaN outside the colour box, and "aliasing_velocity" (m/s). The keywords are the command line's
Doppler options (--prf, --ensemble, --ensemble-mode, --wall-filter) and bmode's.)doc");

  m.def(
      "oct_bscan",
      [](const py::handle& spectra, const OctInput& acquisition,
         const std::optional<std::pair<double, double>>& dispersion,
         const std::optional<std::string>& window, const std::optional<double>& refractiveIndex,
         std::uint64_t index, const std::string& backend, bool tuned) {
        return octBscan(spectra, acquisition, dispersion, window, refractiveIndex, index, backend,
                        tuned);
      },
      "spectra"_a, "acquisition"_a, py::kw_only(), "dispersion"_a = py::none(),
      "window"_a = py::none(), "refractive_index"_a = py::none(), "index"_a = 0,
      "backend"_a = "auto", "tune"_a = true,
      R"doc(An OCT B-scan (dB, float32 [z][x]) from raw spectra, uint16 [A-scans][samples].

acquisition: Source(...).acquisition of an OCT source. dispersion: (a2, a3) in radians of
a2 u^2 + a3 u^3, u = (k - k0) / (N dk) about the acquisition's dispersion_centre_wavelength_m
(default: what the source states; oct_dispersion_search finds them); window: "hann", "gaussian", "rectangular"; refractive_index; index: the
B-scan's index in its scan (a bidirectional scan's odd ones run right to left). The background is
the B-scan's own mean spectrum.)doc");
}

}  // namespace cineflow::python
