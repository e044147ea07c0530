// cineflow.Engine: an engine on a source, started, stopped and changed live from a script, its
// frames handed to a Python callable.
//
// Frames reach the callable from a bounded queue (store::BmodeRecorder with a sink that calls
// Python on the recorder's own thread), never from the engine's streams: a slow or failing
// callable never holds a stream. With policy "block" each frame is admitted into the queue before
// the source reads it (the acquisition waits for the callable, as it waits for a slow disk:
// every frame reaches it, in order); with "drop" a full queue drops the frame and counts it.
// Exceptions the callable raises are counted, the last one kept, and the engine goes on. The GIL
// is released whenever the engine works or is waited for. What the callable is handed, and how
// its images outlive the queue's slots: py_frames.hpp.
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "modality/modality.hpp"
#include "pipeline/engine.hpp"
#include "py_common.hpp"
#include "py_frames.hpp"
#include "py_modules.hpp"
#include "py_push_source.hpp"
#include "py_volumes.hpp"
#include "received/received_modality.hpp"
#include "registry/source_factory.hpp"
#include "store/bmode_recorder.hpp"
#include "tune/tuner_setup.hpp"
#include "ultrasound/ultrasound_modality.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::python {
namespace {

using namespace pybind11::literals;

class PyEngine {
 public:
  PyEngine(const py::object& source, const std::string& backendName,
           const std::optional<std::uint64_t>& frames, const std::string& policy, bool pace,
           const std::optional<double>& rate, ImagingArgs imaging,
           const std::map<std::string, std::string>& variants, bool tune, std::size_t storeBytes)
      : backend_(backendFor(backendName)), imaging_(std::move(imaging)), storeBytes_(storeBytes) {
    // As the command line: pinned variants, else the tuning history's choices, measured at
    // start where it has none (tune=False: the pins, every other stage its default, as
    // --no-tune).
    tune::VariantPins pins(variants.begin(), variants.end());
    std::string message;
    tuner_ = tune ? tune::makeTuner(backend_, std::move(pins), message)
                  : tune::makePinsOnlyTuner(backend_, std::move(pins));
    config_.overflow = pipeline::parseOverflowPolicy(policy);
    config_.pace = pace;
    config_.frameRateHz = rate.value_or(0.0);
    config_.validate();
    bool file = false;
    if (const PushSourceHandle* pushed = pushSourceOf(source)) {
      push_ = *pushed;  // shares the script's channel
      spec_ = "a PushSource";
    } else {
      spec_ = source.cast<std::string>();
      file = acquire::readsFileFromOutside(spec_);
    }
    py::gil_scoped_release released;
    source_ = openSource();
    // As the command line: a file ends with its last frame; a simulator, plugin, network stream
    // or push source runs until stop() or its end (frames=0 asks that of a file too: it then
    // replays).
    config_.maxFrames = frames.value_or(file ? source_->frameCount() : 0);
    settings_ = settingsFor(imaging_);
  }

  ~PyEngine() {
    py::gil_scoped_release released;
    shutDown();
  }

  void onFrame(py::object callable, int queue) {
    if (running()) {
      throw std::logic_error("on_frame() is for a stopped engine: stop() first");
    }
    if (queue < 1) {
      throw py::value_error("queue must hold at least 1 frame, not " + std::to_string(queue));
    }
    callable_ = std::move(callable);
    queueSlots_ = queue;
  }

  void onVolume(py::object callable, int queue) {
    if (running()) {
      throw std::logic_error("on_volume() is for a stopped engine: stop() first");
    }
    if (queue < 1) {
      throw py::value_error("queue must hold at least 1 volume, not " + std::to_string(queue));
    }
    volumeCallable_ = std::move(callable);
    volumeQueue_ = queue;
  }

  // The engine's VolumeStore, made on first use with `storeBytes` of the backend's memory.
  std::shared_ptr<Store> store() {
    if (!store_) {
      auto metadata = metadata_;
      py::gil_scoped_release released;
      store_ = std::make_shared<Store>(backend_, storeBytes_, [metadata] {
        std::scoped_lock lock(metadata->mutex);
        return metadata->value;
      });
    }
    return store_;
  }

  std::uint64_t keepLatest() {
    if (!engine_) {
      throw std::runtime_error("no volume yet: start() the engine first");
    }
    auto kept = store();
    py::gil_scoped_release released;
    return kept->keepLatest(*engine_);
  }

  void start() {
    if (running()) {
      return;
    }
    if (!volumeCallable_.is_none()) {
      store();
    }
    py::gil_scoped_release released;
    shutDown();
    // The engine owns the source it runs: the first start takes the one opened with the engine
    // (opening is not part of a run; a live source is opened once), later ones open it again.
    std::unique_ptr<acquire::FrameSource> source = source_ ? std::move(source_) : openSource();
    const process::ImageGeometry geometry = source->modality().geometry(*settings_, *source);
    {
      std::scoped_lock lock(metadata_->mutex);
      metadata_->value = source->modality().describe(*source, *settings_);
    }
    engine_ = std::make_unique<pipeline::Engine>(backend_, config_);
    engine_->setTuner(tuner_);
    if (!volumeCallable_.is_none()) {
      {
        py::gil_scoped_acquire gil;
        volumeFeed_ = std::make_unique<VolumeFeed>(store_, volumeCallable_, volumeQueue_);
      }
      engine_->setVolumeCallback(
          [feed = volumeFeed_.get()](const process::VolumeEndpoint& e) { feed->onVolume(e); });
    }
    if (!callable_.is_none()) {
      {
        py::gil_scoped_acquire gil;
        auto sink = std::make_unique<CallbackSink>(callable_, geometry, queueSlots_);
        sink_ = sink.get();
        recorder_ =
            std::make_unique<store::BmodeRecorder>(std::move(sink), geometry.values(), queueSlots_);
      }
      if (config_.overflow == pipeline::OverflowPolicy::Block) {
        source = store::admittingSource(std::move(source), *recorder_);
      }
      engine_->setFrameObserver([recorder = recorder_.get()](const pipeline::CompletedFrame& f) {
        recorder->push(f.header, f.image, f.fresh);
      });
      // A frame skipped as damaged gives its admission back (store/bmode_recorder.hpp).
      engine_->setDiscardObserver(
          [recorder = recorder_.get()](const acquire::FrameHeader&) { recorder->withdraw(); });
    }
    engine_->setSource(std::move(source));
    engine_->setSettings(settings_);
    engine_->start();
  }

  // Until the engine has acquired its `frames` (or failed), then every queued frame has reached
  // the callable. Returns "finished" or "stopped"; raises RuntimeError with the engine's message
  // when it failed, and TimeoutError when `timeout` seconds (None: no limit) passed first.
  std::string wait(const std::optional<double>& timeout) {
    if (!engine_) {
      return "stopped";
    }
    if (timeout && !(*timeout >= 0)) {
      throw py::value_error("timeout must be 0 seconds or more (None: no limit)");
    }
    pipeline::EngineStats stats;
    bool timedOut = false;
    {
      py::gil_scoped_release released;
      const auto deadline =
          std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout.value_or(1e9));
      while (engine_->state() == pipeline::EngineState::Running && !timedOut) {
        timedOut = std::chrono::steady_clock::now() >= deadline;
        if (!timedOut) {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      }
      if (!timedOut) {
        drainQueue();
        if (volumeFeed_) {
          volumeFeed_->drain();
        }
      }
      stats = engine_->stats();
    }
    if (timedOut) {
      PyErr_SetString(PyExc_TimeoutError,
                      ("the engine is still running after " + acquire::numberText(*timeout) +
                       " s (" + std::to_string(stats.processed) +
                       " frames imaged; frames=0 or a live source runs until stop())")
                          .c_str());
      throw py::error_already_set();
    }
    if (stats.state == pipeline::EngineState::Failed) {
      throw std::runtime_error(stats.error.empty() ? "the engine failed" : stats.error);
    }
    return pipeline::toString(stats.state);
  }

  void stop() {
    py::gil_scoped_release released;
    if (engine_) {
      engine_->stop();
      drainQueue();
      if (volumeFeed_) {
        volumeFeed_->drain();
      }
    }
  }

  // Changes imaging parameters; live while running (a change of grid with a callable attached
  // restarts the engine, since the queue's slots have the image's size).
  void set(const ImagingArgs& changes) {
    ImagingArgs next = imaging_;
    const auto take = [](auto& field, const auto& change) {
      if (change) {
        field = change;
      }
    };
    take(next.grid, changes.grid);
    take(next.fnumber, changes.fnumber);
    take(next.apodisation, changes.apodisation);
    take(next.mode, changes.mode);
    take(next.iqBandwidthPercent, changes.iqBandwidthPercent);
    take(next.iqDecimation, changes.iqDecimation);
    take(next.prfHz, changes.prfHz);
    take(next.ensemble, changes.ensemble);
    take(next.levels, changes.levels);
    auto settings = settingsFor(next);
    const auto geometryOf = [this](const modality::ProcessingSettings& s) {
      return current().modality().geometry(s, current());
    };
    const bool resized = geometryOf(*settings).values() != geometryOf(*settings_).values();
    imaging_ = next;
    settings_ = settings;
    if (!running()) {
      return;
    }
    if (resized && recorder_) {
      stop();
      start();
      return;
    }
    py::gil_scoped_release released;
    engine_->setSettings(settings_);
  }

  py::dict stats() const {
    if (!engine_) {
      py::dict out;
      out["state"] = "stopped";
      return out;
    }
    py::dict out = engineStatsDict(engine_->stats());
    out["callback_delivered"] = sink_ != nullptr ? sink_->callback().delivered() : 0;
    out["callback_errors"] = sink_ != nullptr ? sink_->callback().errors() : 0;
    out["callback_last_error"] = sink_ != nullptr ? sink_->callback().lastError() : std::string();
    out["callback_dropped"] = recorder_ ? recorder_->framesDropped() : 0;
    out["volume_delivered"] = volumeFeed_ ? volumeFeed_->callback().delivered() : 0;
    out["volume_dropped"] = volumeFeed_ ? volumeFeed_->dropped() : 0;
    out["volume_errors"] = volumeFeed_ ? volumeFeed_->callback().errors() : 0;
    out["volume_last_error"] = volumeFeed_ ? volumeFeed_->callback().lastError() : std::string();
    out["volume_last_drop"] = volumeFeed_ ? volumeFeed_->lastDrop() : std::string();
    return out;
  }

  std::string description() const { return current().describe(); }

 private:
  // The source: ours until a start() hands it to the engine, then the engine's.
  // Throws when a start() could not open the source again.
  const acquire::FrameSource& current() const {
    if (source_) {
      return *source_;
    }
    if (engine_ && engine_->source() != nullptr) {
      return *engine_->source();
    }
    throw std::runtime_error("the source '" + spec_ +
                             "' is not open (the last start() could not "
                             "open it again)");
  }

  bool running() const { return engine_ && engine_->state() == pipeline::EngineState::Running; }

  std::unique_ptr<acquire::FrameSource> openSource() const {
    return push_ ? push_->open() : acquire::openSource(spec_);
  }

  std::shared_ptr<const modality::ProcessingSettings> settingsFor(const ImagingArgs& args) const {
    const acquire::FrameSource& source = current();
    const auto refuse = [&source](bool given, const std::string& what) {
      if (given) {
        throw std::invalid_argument(what + "; " + source.describe() + " is " +
                                    source.modality().name());
      }
    };
    const received::ReceivedSource* received = received::asReceived(&source);
    refuse(args.levels && received == nullptr, "levels apply to received images");
    if (const ultrasound::UltrasoundSource* ultrasound = ultrasound::asUltrasound(&source)) {
      return ultrasound::makeSettings(imagingFor(args, ultrasound->params()));
    }
    refuse(args.grid || args.fnumber || args.apodisation || args.mode || args.iqBandwidthPercent ||
               args.iqDecimation || args.prfHz || args.ensemble,
           "grid, fnumber, apodisation, mode, iq_bandwidth, iq_decimation, prf and ensemble "
           "apply to ultrasound");
    if (received != nullptr && args.levels) {
      return received::makeSettings(
          received::ReceivedLevels::parse(*args.levels, received->format().pixel));
    }
    return source.modality().defaultSettings(source);
  }

  // Every frame the queue holds reaches the callable (GIL released by the caller).
  void drainQueue() {
    if (recorder_) {
      recorder_->closeAdmission();
      try {
        recorder_->finish();
      } catch (const std::exception&) {
        // A sink never fails; a finish after an earlier one has nothing left to do.
      }
    }
  }

  // Stops and forgets the engine and its queue (GIL released by the caller).
  void shutDown() {
    if (engine_) {
      engine_->stop();
    }
    drainQueue();
    if (volumeFeed_) {
      volumeFeed_->drain();
    }
    engine_.reset();
    sink_ = nullptr;
    recorder_.reset();
    if (volumeFeed_) {
      volumeFeed_.reset();
    }
    if (tuner_) {
      tune::saveTuning(*tuner_);  // a read-only cache folder costs only the next measurement
    }
  }

  std::string spec_;
  std::optional<PushSourceHandle> push_;  // the script's push source, when it is one
  compute::Backend& backend_;
  ImagingArgs imaging_;
  std::size_t storeBytes_;
  pipeline::EngineConfig config_;
  std::shared_ptr<tune::Tuner> tuner_;
  // The source until a start() hands it to the engine (current() then asks the engine's).
  std::unique_ptr<acquire::FrameSource> source_;
  std::shared_ptr<const modality::ProcessingSettings> settings_;
  py::object callable_ = py::none();
  int queueSlots_ = 8;
  py::object volumeCallable_ = py::none();
  int volumeQueue_ = 4;
  // What saved volumes say about their acquisition and processing; the store outlives the engine
  // when a script holds it, so it reads a copy made at each start.
  struct MetadataBox {
    std::mutex mutex;
    store::FileMetadata value;
  };
  std::shared_ptr<MetadataBox> metadata_ = std::make_shared<MetadataBox>();
  std::shared_ptr<Store> store_;
  std::unique_ptr<VolumeFeed> volumeFeed_;  // before engine_: the engine's callback uses it
  std::unique_ptr<store::BmodeRecorder> recorder_;
  CallbackSink* sink_ = nullptr;  // owned by recorder_
  std::unique_ptr<pipeline::Engine> engine_;
};

// The levels keyword as --received-levels' words: None, "full", "db" or (black, white).
std::optional<std::string> levelsWords(const py::object& levels) {
  if (levels.is_none()) {
    return std::nullopt;
  }
  if (py::isinstance<py::str>(levels)) {
    return levels.cast<std::string>();
  }
  if (py::isinstance<py::sequence>(levels) && py::len(levels) == 2) {
    const auto pair = levels.cast<py::sequence>();
    try {  // any two real numbers (NumPy's too); the parse says which is not finite
      char text[64];
      std::snprintf(text, sizeof text, "%.17g,%.17g", pair[0].cast<double>(),
                    pair[1].cast<double>());
      return std::string(text);
    } catch (const py::cast_error&) {
      // not numbers: said below
    }
  }
  throw py::type_error("levels: expected \"full\", \"db\" or (black, white), not " +
                       py::repr(levels).cast<std::string>());
}

ImagingArgs withLevels(ImagingArgs args, const py::object& levels) {
  args.levels = levelsWords(levels);
  return args;
}

}  // namespace

void bindEngine(py::module_& m) {
  py::class_<PyEngine>(m, "Engine",
                       "An imaging engine on a source (what --input takes, or a "
                       "cineflow.PushSource the script pushes frames into), on a backend.")
      .def(
          py::init([](const py::object& source, const std::string& backend,
                      const std::optional<std::uint64_t>& frames, const std::string& policy,
                      bool pace, const std::optional<double>& rate,
                      const std::optional<std::string>& grid, const std::optional<double>& fnumber,
                      const std::optional<std::string>& apodisation,
                      const std::optional<std::string>& mode,
                      const std::optional<double>& iqBandwidth,
                      const std::optional<int>& iqDecimation, const py::object& levels,
                      const std::map<std::string, std::string>& variants, bool tune,
                      std::size_t storeBytes) {
            return std::make_unique<PyEngine>(
                source, backend, frames, policy, pace, rate,
                withLevels(imagingArgs(grid, fnumber, apodisation, mode, iqBandwidth, iqDecimation),
                           levels),
                variants, tune, storeBytes);
          }),
          "source"_a = py::str("sim"), py::kw_only(), "backend"_a = "auto", "frames"_a = py::none(),
          "policy"_a = "block", "pace"_a = true, "rate"_a = py::none(), "grid"_a = py::none(),
          "fnumber"_a = py::none(), "apodisation"_a = py::none(), "mode"_a = py::none(),
          "iq_bandwidth"_a = py::none(), "iq_decimation"_a = py::none(), "levels"_a = py::none(),
          "variants"_a = std::map<std::string, std::string>{}, "tune"_a = true, "store_bytes"_a = 0,
          "frames: stop after this many (None: a file's last frame, as the command line; a "
          "simulator, plugin or network stream until stop(); 0: until stop(), a file replaying); "
          "policy: \"block\" (lose nothing) or "
          "\"drop\"; pace: at the source's rate (False: flat out); rate: Hz; the imaging "
          "keywords and variants (pinned stage variants) are cineflow.bmode's; levels: "
          "received images' values shown black and white, (black, white), \"full\" (the "
          "pixel type's range) or \"db\" (the values are dB), as --received-levels (None: a "
          "recording's own, else full; float32 db); tune: the "
          "tuning history's variants, measured at start where it has none (False: the pins, "
          "every other stage its default, as --no-tune); store_bytes: the "
          "VolumeStore's reservation (0: half the device's free memory; on the CPU a quarter "
          "of the host's, at most 4 GiB).")
      .def("on_frame", &PyEngine::onFrame, "callback"_a, "queue"_a = 8,
           "Calls callback(frame) for every completed image, from a queue of `queue` frames.")
      .def("on_volume", &PyEngine::onVolume, "callback"_a, "queue"_a = 4,
           "Calls callback(volume) for every complete volume (cineflow.Volume: the volume and its "
           "MIPs, NumPy copies on the CPU, shared DeviceArrays valid in the call on CUDA; "
           "volume.keep() keeps it in the store), at most `queue` waiting.")
      .def_property_readonly("store", &PyEngine::store, "The engine's cineflow.Store.")
      .def("keep_latest", &PyEngine::keepLatest,
           "Copies the latest complete volume into the store; returns its id.")
      .def("start", &PyEngine::start)
      .def("stop", &PyEngine::stop)
      .def("wait", &PyEngine::wait, "timeout"_a = py::none(),
           "Waits until the engine has its frames and every callback has run; returns "
           "\"finished\" (or \"stopped\" after stop()). Raises RuntimeError with the engine's "
           "message when it failed, TimeoutError when `timeout` seconds pass first (None: no "
           "limit).")
      .def(
          "set",
          [](PyEngine& engine, const std::optional<std::string>& grid,
             const std::optional<double>& fnumber, const std::optional<std::string>& apodisation,
             const std::optional<std::string>& mode, const std::optional<double>& iqBandwidth,
             const std::optional<int>& iqDecimation, const py::object& levels) {
            engine.set(withLevels(
                imagingArgs(grid, fnumber, apodisation, mode, iqBandwidth, iqDecimation), levels));
          },
          py::kw_only(), "grid"_a = py::none(), "fnumber"_a = py::none(),
          "apodisation"_a = py::none(), "mode"_a = py::none(), "iq_bandwidth"_a = py::none(),
          "iq_decimation"_a = py::none(), "levels"_a = py::none(),
          "Changes imaging parameters (and received images' levels), live while running.")
      .def("stats", &PyEngine::stats,
           "The engine's counts, rates and per-stage times (the profiler's statistics), and the "
           "callback's deliveries, drops and errors.")
      .def(
          "__enter__", [](PyEngine& engine) -> PyEngine& { return engine; },
          py::return_value_policy::reference)
      .def("__exit__", [](PyEngine& engine, const py::args&) { engine.stop(); })
      .def("__repr__", [](const PyEngine& e) { return "Engine(" + e.description() + ")"; });
}

}  // namespace cineflow::python
