// cineflow.Acquisition (a plane-wave acquisition's parameters) and cineflow.Source (any source
// the command line opens: a recording, a MATLAB file, a simulator), whose frames a script reads
// as NumPy arrays.
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "modality/modality.hpp"
#include "oct/oct_source.hpp"
#include "py_common.hpp"
#include "py_modules.hpp"
#include "received/received_source.hpp"
#include "registry/source_factory.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::python {
namespace {

using namespace pybind11::literals;

// One opened source; reads are serialised (a source is read by one thread at a time).
class Source {
 public:
  explicit Source(const std::string& spec) {
    if (spec.starts_with("plugin:") || spec.starts_with("zmq:")) {
      throw py::value_error("'" + spec +
                            "' is a live source: its frames stream into an "
                            "Engine (cineflow.Engine(\"" +
                            spec + "\")), they are not read by index");
    }
    py::gil_scoped_release released;
    source_ = acquire::openSource(spec);
  }

  const acquire::FrameSource& source() const { return *source_; }
  std::string modality() const { return source_->modality().name(); }
  std::uint64_t frameCount() const { return source_->frameCount(); }

  // The shape and dtype of one frame as read().
  std::pair<std::vector<py::ssize_t>, py::dtype> frameLayout() const {
    if (const auto* ultrasound = ultrasound::asUltrasound(source_.get())) {
      const acquire::AcquisitionParams& acq = ultrasound->params();
      return {
          {acq.transmits(), acq.elements(), acq.samples},
          py::dtype(ultrasound->sampleType() == acquire::SampleType::Int16 ? "int16" : "float32")};
    }
    if (const oct::OctSource* octSource = oct::asOct(source_.get())) {
      return {{octSource->acquisition().ascans, octSource->acquisition().samples},
              py::dtype("uint16")};
    }
    if (const received::ReceivedSource* received = received::asReceived(source_.get())) {
      const received::ReceivedFormat& format = received->format();
      return {{format.rows, format.cols}, py::dtype(received::toString(format.pixel))};
    }
    return {{static_cast<py::ssize_t>(source_->frameBytes())}, py::dtype("uint8")};
  }

  // Frame `index` (negative counts from the end, as in a list) as a new array.
  py::array read(py::ssize_t index) {
    const std::uint64_t at = position(index);
    auto [shape, dtype] = frameLayout();
    py::array frame(dtype, shape);
    readInto(at, static_cast<std::byte*>(frame.mutable_data()));
    return frame;
  }

  // Frames `slice` selects, stacked: [frames][...one frame's shape].
  py::array readSlice(const py::slice& slice) {
    py::ssize_t start = 0, stop = 0, step = 0, count = 0;
    if (!slice.compute(static_cast<py::ssize_t>(source_->frameCount()), &start, &stop, &step,
                       &count)) {
      throw py::error_already_set();
    }
    auto [shape, dtype] = frameLayout();
    shape.insert(shape.begin(), static_cast<py::ssize_t>(count));
    py::array frames(dtype, shape);
    auto* bytes = static_cast<std::byte*>(frames.mutable_data());
    const std::size_t size = source_->frameBytes();
    for (py::ssize_t i = 0; i < count; ++i) {
      readInto(static_cast<std::uint64_t>(start + i * step),
               bytes + static_cast<std::size_t>(i) * size);
    }
    return frames;
  }

 private:
  std::uint64_t position(py::ssize_t index) const {
    const auto count = static_cast<py::ssize_t>(source_->frameCount());
    const py::ssize_t at = index < 0 ? index + count : index;
    if (at < 0 || at >= count) {
      throw py::index_error("frame " + std::to_string(index) + " of a source with " +
                            acquire::framesText(source_->frameCount()));
    }
    return static_cast<std::uint64_t>(at);
  }

  void readInto(std::uint64_t index, std::byte* bytes) {
    const std::size_t size = source_->frameBytes();
    py::gil_scoped_release released;
    std::scoped_lock lock(mutex_);
    acquire::SliceInfo slice;
    source_->readFrame(index, {bytes, size}, slice);
  }

 public:
  // A plane-wave source's Acquisition, an OCT source's OctAcquisition.
  py::object acquisition() const {
    if (const auto* ultrasound = ultrasound::asUltrasound(source_.get())) {
      return py::cast(ultrasound->params());
    }
    if (const oct::OctSource* octSource = oct::asOct(source_.get())) {
      return octInputOf(*octSource);
    }
    throw py::attribute_error(source_->describe() + " is " + modality() +
                              ": it has no acquisition Cineflow's Python module describes");
  }

 private:
  std::unique_ptr<acquire::FrameSource> source_;
  std::mutex mutex_;
};

std::string describe(const acquire::AcquisitionParams& acq) {
  return "Acquisition(" + std::to_string(acq.transmits()) + " transmits, " +
         std::to_string(acq.elements()) + " elements, " + std::to_string(acq.samples) +
         " samples, fs=" + acquire::numberText(acq.samplingFrequencyHz) +
         " Hz, f0=" + acquire::numberText(acq.centerFrequencyHz) + " Hz)";
}

}  // namespace

void bindAcquisition(py::module_& m) {
  py::class_<acquire::AcquisitionParams>(m, "Acquisition",
                                         "A plane-wave acquisition: what the channel data are.")
      .def(py::init([](double fs, double f0, std::vector<double> angles,
                       std::vector<double> elementX, int samples, double c, double t0,
                       double bandwidth, double prf) {
             acquire::AcquisitionParams acq;
             acq.samplingFrequencyHz = fs;
             acq.centerFrequencyHz = f0;
             acq.anglesRad = std::move(angles);
             acq.elementXM = std::move(elementX);
             acq.samples = samples;
             acq.soundSpeedMPerS = c;
             acq.t0S = t0;
             if (bandwidth != 0 && !(bandwidth > 0 && bandwidth < 2)) {
               throw py::value_error("bandwidth=" + acquire::numberText(bandwidth) +
                                     " is outside (0, 2): it is the -6 dB band as a fraction of "
                                     "the centre frequency f0 (0.6 for 60 %), or 0 when unknown");
             }
             acq.fractionalBandwidth = bandwidth;
             acq.pulseRepetitionFrequencyHz = prf;
             acq.validate();
             return acq;
           }),
           py::kw_only(), "fs"_a, "f0"_a, "angles"_a, "element_x"_a, "samples"_a, "c"_a = 1540.0,
           "t0"_a = 0.0, "bandwidth"_a = 0.0, "prf"_a = 0.0,
           "fs, f0 in Hz; angles (rad, one per transmit); element_x (m, lateral element "
           "positions); samples per trace; c (m/s); t0 (s, time of sample 0); bandwidth "
           "(-6 dB, a fraction of f0 in (0, 2); 0: unknown); prf (Hz; 0: unknown). Raises "
           "ValueError naming the first inconsistent field.")
      .def_readonly("fs", &acquire::AcquisitionParams::samplingFrequencyHz)
      .def_readonly("f0", &acquire::AcquisitionParams::centerFrequencyHz)
      .def_readonly("c", &acquire::AcquisitionParams::soundSpeedMPerS)
      .def_readonly("t0", &acquire::AcquisitionParams::t0S)
      .def_readonly("angles", &acquire::AcquisitionParams::anglesRad)
      .def_readonly("element_x", &acquire::AcquisitionParams::elementXM)
      .def_readonly("samples", &acquire::AcquisitionParams::samples)
      .def_readonly("bandwidth", &acquire::AcquisitionParams::fractionalBandwidth)
      .def_readonly("prf", &acquire::AcquisitionParams::pulseRepetitionFrequencyHz)
      .def_property_readonly("transmits", &acquire::AcquisitionParams::transmits)
      .def_property_readonly("elements", &acquire::AcquisitionParams::elements)
      .def("__repr__", &describe);

  py::class_<Source>(m, "Source",
                     "A source the command line opens (--input): a cineflow.rf/1 or "
                     "cineflow.oct/1 recording, a MATLAB file, \"sim\", \"sim-flow\", "
                     "\"oct-sim\". Frames are read by index.")
      .def(py::init<const std::string&>(), "spec"_a)
      .def_property_readonly("modality", &Source::modality)
      .def_property_readonly("frame_count", &Source::frameCount)
      .def_property_readonly(
          "frame_shape", [](const Source& s) { return py::tuple(py::cast(s.frameLayout().first)); })
      .def_property_readonly("dtype", [](const Source& s) { return s.frameLayout().second; })
      .def_property_readonly("acquisition", &Source::acquisition,
                             "Acquisition (ultrasound) or OctAcquisition (OCT)")
      .def("read", &Source::read, "index"_a,
           "Frame `index` as a new NumPy array: ultrasound [transmits][elements][samples] int16 "
           "or float32; OCT [ascans][samples] uint16. A negative index counts from the end; "
           "one past either end raises IndexError.")
      .def("__getitem__", &Source::read, "index"_a, "source[i]: read(i).")
      .def("__getitem__", &Source::readSlice, "frames"_a,
           "source[a:b:c]: those frames stacked into one new array [frames][...].")
      .def(
          "__iter__",
          [](py::object self) {
            // Every frame in order, each read when the loop reaches it.
            auto& source = self.cast<Source&>();
            return py::iter(
                py::module_::import("builtins")
                    .attr("map")(
                        self.attr("read"),
                        py::module_::import("builtins").attr("range")(source.frameCount())));
          },
          "for frame in source: every frame in order, each read when the loop reaches it.")
      .def("__len__", &Source::frameCount, "The number of frames.")
      .def("__repr__", [](const Source& s) { return "Source(" + s.source().describe() + ")"; });
}

}  // namespace cineflow::python
