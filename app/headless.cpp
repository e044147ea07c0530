#include "headless.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "base/text_file.hpp"
#include "compute/backend.hpp"
#include "console_progress.hpp"
#include "interrupt_signals.hpp"
#include "link/igtl_server.hpp"
#include "oct/dispersion_search.hpp"
#include "oct/k_table_file.hpp"
#include "oct/oct_modality.hpp"
#include "oct_dispersion_option.hpp"
#include "output_paths.hpp"
#include "pipeline/engine.hpp"
#include "received/received_modality.hpp"
#include "registry/file_check.hpp"
#include "registry/source_factory.hpp"
#include "run_report.hpp"
#include "store/bmode_recorder.hpp"
#include "store/bmode_writer.hpp"
#include "store/raw_recorder.hpp"
#include "subcommand.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::app {
namespace {

constexpr int kSpareRecorderSlots = 8;  // images queued for the disk beyond the pipeline's

ultrasound::ImagingParams imagingFor(const CliOptions& options,
                                     const acquire::AcquisitionParams& acq) {
  ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
  if (options.grid) {
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres(*options.grid);
  }
  if (options.fNumber) {
    imaging.fNumber = *options.fNumber;
  }
  if (options.apodisation) {
    imaging.apodisation = ultrasound::parseApodisation(*options.apodisation);
  }
  if (options.iqBandwidthPercent) {
    imaging.iqBandwidthRel = *options.iqBandwidthPercent / 100.0;
  }
  if (options.iqDecimation) {
    imaging.iqDecimation = *options.iqDecimation;
  }
  if (options.mode) {
    imaging.mode = ultrasound::parseImagingMode(*options.mode);
  } else if (const std::string notice = ultrasound::bandpassSamplingNotice(acq); !notice.empty()) {
    std::cerr << "cineflow: " << options.input << " is " << notice << '\n';
  }
  if (!ultrasound::usesIqChain(imaging.mode) &&
      (options.iqBandwidthPercent || options.iqDecimation)) {
    throw std::invalid_argument(
        "--iq-bandwidth and --iq-decimation act in the I/Q and Doppler modes only (--mode iq)");
  }
  const CliOptions::Doppler& doppler = options.doppler;
  if (doppler.any() && !ultrasound::isDoppler(imaging.mode)) {
    throw std::invalid_argument(
        "--prf, --ensemble, --ensemble-mode, --wall-filter, "
        "--doppler-average and --colour-box act in the Doppler modes only "
        "(--mode doppler or power-doppler)");
  }
  if (doppler.prfHz) {
    imaging.doppler.prfHz = *doppler.prfHz;
  }
  if (doppler.ensemble) {
    imaging.doppler.ensemble = *doppler.ensemble;
  }
  if (doppler.ensembleMode) {
    imaging.doppler.ensembleMode = ultrasound::parseEnsembleMode(*doppler.ensembleMode);
  }
  if (doppler.wallFilter) {
    imaging.doppler.applyWallFilterSpec(*doppler.wallFilter);
  }
  if (doppler.average) {
    imaging.doppler.applyAveragingSpec(*doppler.average);
  }
  if (doppler.box) {
    imaging.doppler.box = ultrasound::parseColourBoxMillimetres(*doppler.box);
  }
  imaging.validate(acq);
  for (const std::string& notice :
       {imaging.coarseRfGridNotice(acq), imaging.gridPastDataNotice(acq)}) {
    if (!notice.empty()) {
      std::cerr << "cineflow: warning: " << notice << '\n';
    }
  }
  return imaging;
}

// The OCT parameters: the recording's, then the options. With --oct-dispersion auto the search
// runs last, on the middle B-scan with every other option in effect.
oct::OctParams octFor(const CliOptions& options, const oct::OctSource& source,
                      acquire::FrameSource& frames) {
  oct::OctParams params =
      oct::requireParams(*source.modality().defaultSettings(source));  // recording's or zeros
  const std::optional<DispersionOption> dispersion =
      options.octDispersion ? std::optional(parseDispersionOption(*options.octDispersion))
                            : std::nullopt;
  if (dispersion && !dispersion->automatic) {
    applyDispersion(*dispersion, params, source.acquisition(), {});
  }
  if (options.octKTable) {
    params.kLinearisation = oct::KLinearisation::Table;
    params.kTable = oct::readKTable(*options.octKTable, source.acquisition().samples);
  }
  if (options.octKPolynomial) {
    params.kLinearisation = oct::KLinearisation::Polynomial;
    params.kPolynomial = oct::parseKPolynomial(*options.octKPolynomial);
  }
  if (options.octWindow) {
    params.window = oct::parseSpectralWindow(*options.octWindow);
  }
  if (options.refractiveIndex) {
    params.refractiveIndex = *options.refractiveIndex;
  }
  if (dispersion && dispersion->automatic) {
    applyDispersion(*dispersion, params, source.acquisition(),
                    [&frames] { return oct::middleBscan(frames); });
  }
  params.validate(source.acquisition());
  return params;
}

// Each modality takes its own options; options of another modality are refused, not ignored.
std::shared_ptr<const modality::ProcessingSettings> settingsFor(const CliOptions& options,
                                                                acquire::FrameSource& source) {
  const std::string modality = source.modality().name();
  const auto refuse = [&](const char* owner, bool given, const char* what) {
    if (modality != owner && given) {
      throw std::invalid_argument(std::string(what) + "; " + source.describe() + " is " + modality);
    }
  };
  refuse("ultrasound",
         options.grid || options.fNumber || options.apodisation || options.mode ||
             options.iqBandwidthPercent || options.iqDecimation || options.doppler.any(),
         "--grid, --fnumber, --apodisation, --mode, --iq-bandwidth, --iq-decimation and the "
         "Doppler options apply to ultrasound");
  refuse("oct", options.anyOctOption(), "the --oct- options and --refractive-index apply to OCT");
  refuse("received", options.receivedLevels.has_value(),
         "--received-levels applies to received images");
  if (const ultrasound::UltrasoundSource* ultrasound = ultrasound::asUltrasound(&source)) {
    return ultrasound::makeSettings(imagingFor(options, ultrasound->params()));
  }
  if (const oct::OctSource* octSource = oct::asOct(&source)) {
    return oct::makeSettings(octFor(options, *octSource, source));
  }
  if (const received::ReceivedSource* received = received::asReceived(&source);
      received != nullptr && options.receivedLevels) {
    return received::makeSettings(
        received::ReceivedLevels::parse(*options.receivedLevels, received->format().pixel));
  }
  return source.modality().defaultSettings(source);
}

void printReport(const pipeline::EngineStats& stats, double seconds, const std::string& device) {
  std::printf("backend: %s\n", device.c_str());
  std::printf("frames: %llu processed, %llu dropped in %.2f s: %.1f frames/s\n",
              static_cast<unsigned long long>(stats.processed),
              static_cast<unsigned long long>(stats.dropped), seconds,
              seconds > 0 ? static_cast<double>(stats.processed) / seconds : 0.0);
  std::printf("%-10s %10s %10s %10s\n", "stage", "median ms", "p99 ms", "max ms");
  for (const pipeline::StageStats& stage : stats.stages) {
    std::printf("%-10s %10.3f %10.3f %10.3f\n", stage.name.c_str(), stage.medianMs, stage.p99Ms,
                stage.maxMs);
  }
  std::printf("%-10s %10.3f\n", "frame", stats.frameMedianMs);
  std::printf("%-10s %10.3f %10.3f %10.3f   (source timestamp to displayable)\n", "latency",
              stats.latency.medianMs, stats.latency.p99Ms, stats.latency.maxMs);
  if (!stats.sourceCounters.empty()) {  // a live source's transport: "40 images, 3 replaced ..."
    std::string counters;
    for (const auto& [name, value] : stats.sourceCounters) {
      counters += (counters.empty() ? "" : ", ") + std::to_string(value) + " " + name;
    }
    std::printf("source: %s\n", counters.c_str());
  }
  if (stats.mip.count > 0) {
    std::printf("%-10s %10.3f %10.3f %10.3f   (per volume, %llu volumes)\n", "mip",
                stats.mip.medianMs, stats.mip.p99Ms, stats.mip.maxMs,
                static_cast<unsigned long long>(stats.volumes));
  }
}

// A Doppler run of fewer frames than one ensemble would end before its first estimate.
void requireWholeEnsemble(const modality::ProcessingSettings& settings, std::uint64_t frames) {
  const auto* ultrasound = dynamic_cast<const ultrasound::UltrasoundSettings*>(&settings);
  if (ultrasound == nullptr || !ultrasound::isDoppler(ultrasound->imaging().mode)) {
    return;
  }
  const int ensemble = ultrasound->imaging().doppler.ensemble;
  if (frames < static_cast<std::uint64_t>(ensemble)) {
    throw std::invalid_argument("--frames " + std::to_string(frames) +
                                " is fewer than one Doppler ensemble of " +
                                std::to_string(ensemble) + " frames: no estimate could be made");
  }
}

// Thrown where the headless run polls for Ctrl-C before its engine runs (the source's open).
struct Interrupted : std::runtime_error {
  explicit Interrupted(int number)
      : std::runtime_error(std::string("interrupted by ") + InterruptSignals::name(number) +
                           " before the first frame; nothing was written"),
        signal(number) {}
  int signal;
};

// What a run that ended early says: on stderr, and in its output file (store/bmode_writer.hpp).
struct EarlyEnd {
  std::string reason;  // empty: the run ended with its last frame
  int exitStatus = 0;
};

// The end of a run: the engine's error, an interrupt, or nothing (it ran to its last frame).
EarlyEnd earlyEndOf(pipeline::EngineState state, const pipeline::EngineStats& stats, int signal) {
  // An interrupt first: closing admission to stop a run can fail its acquisition thread.
  if (signal != 0) {
    return {std::string("interrupted by ") + InterruptSignals::name(signal),
            InterruptSignals::exitStatus(signal)};
  }
  if (state == pipeline::EngineState::Failed) {
    return {"stopped by an error: " + stats.error, 1};
  }
  return {};
}

// "123 of 400 frames, 45.2 frames/s" while a run lasts (the terminal's progress line).
std::string runProgress(const pipeline::EngineStats& stats, std::uint64_t frames, double seconds) {
  char text[128];
  const double rate = seconds > 0 ? static_cast<double>(stats.processed) / seconds : 0.0;
  if (frames > 0 && frames != std::numeric_limits<std::uint64_t>::max()) {
    std::snprintf(text, sizeof text, "imaging: %llu of %llu frames, %.1f frames/s",
                  static_cast<unsigned long long>(stats.processed),
                  static_cast<unsigned long long>(frames), rate);
  } else {
    std::snprintf(text, sizeof text, "imaging: %llu frames, %.1f frames/s (Ctrl-C ends the run)",
                  static_cast<unsigned long long>(stats.processed), rate);
  }
  return text;
}

int runEngine(const CliOptions& options, const InterruptSignals& interrupts,
              const pipeline::EngineConfig& config, compute::Backend& backend,
              std::unique_ptr<acquire::FrameSource> source,
              const std::shared_ptr<const modality::ProcessingSettings>& settings) {
  const modality::Modality& modality = source->modality();
  const process::ImageGeometry geometry = modality.geometry(*settings, *source);
  store::AttributeMap attributes;
  attributes.emplace("backend", backend.deviceName());
  attributes.emplace("source", source->describe());
  attributes.emplace("overflow_policy", std::string(pipeline::toString(config.overflow)));
  // The raw frames as the source delivered them, on the recorder's own thread (Block: the
  // acquisition waits for the disk; Drop: frames it cannot take are counted).
  std::unique_ptr<store::RawRecorder> raw;
  if (options.recordPath) {
    raw = std::make_unique<store::RawRecorder>(
        *options.recordPath, modality.recordingLayout(*source, *settings),
        store::RecordCodec(store::parseRecordCompression(options.recordCompression),
                           options.recordBlockBytes),
        config.overflow == pipeline::OverflowPolicy::Block ? store::RecordPolicy::Block
                                                           : store::RecordPolicy::Drop,
        16, store::AttributeMap{{"source", source->describe()}});
  }
  // The B-mode recorder writes on its own thread; the observer below only queues a copy. Its
  // slots outnumber the frames the pipeline holds, so that admission (Block) throttles only to
  // the disk's pace.
  std::unique_ptr<store::BmodeRecorder> recorder;
  if (!options.output.empty()) {
    recorder = std::make_unique<store::BmodeRecorder>(
        store::bmodeFileSink(std::make_unique<store::BmodeWriter>(
            options.output, geometry, modality.describe(*source, *settings), attributes)),
        geometry.values(), config.hostRingSlots + config.inFlightSlots + kSpareRecorderSlots);
    if (config.overflow == pipeline::OverflowPolicy::Block) {
      source = store::admittingSource(std::move(source), *recorder);  // a slow disk waits here
    }
  }

  pipeline::Engine engine(backend, config);
  const std::shared_ptr<tune::Tuner> tuner =
      startTuning(backend, options.variantPins, options.tune);
  engine.setTuner(tuner);
  if (raw) {
    engine.setRawFrameTap(std::make_shared<const pipeline::RawFrameTap>(
        [&raw](const acquire::FrameHeader& header, std::span<const std::byte> frame) {
          raw->submit(header, frame);
        }));
  }
  std::shared_ptr<profile::TraceRecorder> trace;
  if (!options.tracePath.empty()) {
    trace = std::make_shared<profile::TraceRecorder>();
    engine.setTraceRecorder(trace);
  }
  engine.setSource(std::move(source));
  engine.setSettings(settings);
  if (recorder) {
    engine.setFrameObserver([&recorder](const pipeline::CompletedFrame& frame) {
      recorder->push(frame.header, frame.image, frame.fresh);
    });
    engine.setDiscardObserver([&recorder](const acquire::FrameHeader&) { recorder->withdraw(); });
  }

  // OpenIGTLink: clients see the images while the run lasts (they never hold the engine up).
  std::optional<link::IgtlServer> igtl;
  if (options.igtlPort) {
    link::IgtlServerOptions served;
    served.port = *options.igtlPort;
    served.bindAddress = options.igtlBind;
    served.pixels =
        options.igtlPixels == "db" ? link::LinkPixels::FloatDb : link::LinkPixels::Display8;
    served.autoGain = true;
    igtl.emplace(engine, served);
    std::printf("OpenIGTLink: serving images on %s:%d (%s)\n", options.igtlBind.c_str(),
                igtl->port(), options.igtlPixels == "db" ? "float dB" : "8-bit display levels");
    std::fflush(stdout);
  }

  // The first Ctrl-C or SIGTERM stops the engine, which finishes the frames it has acquired;
  // the output keeps them. A second one ends the process at once.
  ConsoleProgress progress;
  const auto begin = std::chrono::steady_clock::now();
  const auto elapsed = [&begin] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  };
  engine.start();
  pipeline::EngineState state = pipeline::EngineState::Running;
  double shownAt = 0;
  while ((state = engine.waitUntilFinished(std::chrono::milliseconds(100))) ==
         pipeline::EngineState::Running) {
    if (interrupts.received() != 0) {
      break;
    }
    if (progress.onTerminal() && elapsed() - shownAt >= 1.0) {
      shownAt = elapsed();
      progress.show(runProgress(engine.stats(), config.maxFrames, shownAt));
    }
  }
  progress.finish();
  if (recorder) {
    recorder->closeAdmission();  // an acquisition thread waiting there (a failure, a stop) ends
  }
  engine.stop();  // finishes every frame already acquired
  state = engine.state();
  engine.setRawFrameTap(nullptr);
  const store::RecorderStats recorded = raw ? raw->stop() : store::RecorderStats{};
  const double seconds = elapsed();
  const pipeline::EngineStats stats = engine.stats();
  const EarlyEnd early = earlyEndOf(state, stats, interrupts.received());
  if (state == pipeline::EngineState::Failed && interrupts.received() == 0) {
    std::cerr << "cineflow: " << stats.error << '\n';
  }
  if (recorder && !early.reason.empty() && stats.processed == 0) {
    recorder.reset();  // nothing to keep: no file is made (its temporary is removed)
  }
  if (recorder) {
    try {
      if (early.reason.empty()) {
        recorder->finish();
      } else {
        recorder->finishIncomplete(early.reason);
      }
    } catch (const std::exception& e) {
      std::cerr << "cineflow: " << e.what() << '\n';
      return 1;
    }
  }
  printReport(stats, seconds, backend.deviceName());
  if (igtl) {
    const link::IgtlServerStats served = igtl->stats();
    std::printf(
        "OpenIGTLink: %llu connections, %llu images and %llu volumes sent, %llu images skipped "
        "by slow clients, %llu clients dropped as stalled\n",
        static_cast<unsigned long long>(served.connections),
        static_cast<unsigned long long>(served.imagesSent),
        static_cast<unsigned long long>(served.volumesSent),
        static_cast<unsigned long long>(served.skipped),
        static_cast<unsigned long long>(served.clientsDropped));
  }
  for (const tune::StageChoice& choice : stats.variants) {
    std::printf("variant %s\n", tune::describeChoice(choice).c_str());
    if (!choice.replaced.empty()) {
      std::fflush(stdout);
      std::cerr << "cineflow: " << choice.stage << ": measured " << choice.variant
                << " fastest where the tuning history had " << choice.replaced
                << "; images may differ from earlier runs' in their last bits\n";
    }
  }
  finishTuning(tuner.get());
  if (stats.damaged > 0) {
    std::printf("skipped %llu damaged frames (--on-damaged-frame skip); the last: %s\n",
                static_cast<unsigned long long>(stats.damaged), stats.lastDamage.c_str());
  }
  for (const std::string& line : acquire::lostFrameLines(stats.lostByKind)) {
    std::printf("%s\n", line.c_str());
  }
  int status = early.exitStatus;
  try {
    if (!options.reportPath.empty()) {
      base::writeFileAtomically(
          options.reportPath,
          runReportJson(stats, {options.input, options.output, backend.deviceName(), seconds,
                                recorder ? recorder->framesWritten() : 0}));
    }
    if (trace) {
      base::writeFileAtomically(options.tracePath, trace->chromeJson());
      std::printf("wrote %zu trace spans to %s\n", trace->size(), options.tracePath.c_str());
    }
  } catch (const std::exception& e) {
    std::cerr << "cineflow: " << e.what() << '\n';
    status = status == 0 ? 1 : status;
  }
  if (recorder) {
    std::printf("wrote %llu frames (%d x %d pixels) to %s%s\n",
                static_cast<unsigned long long>(recorder->framesWritten()), geometry.nx,
                geometry.nz, options.output.c_str(),
                early.reason.empty() ? "" : " (marked incomplete)");
    if (const std::uint64_t dropped = recorder->framesDropped(); dropped > 0) {
      std::printf(
          "the recorder dropped %llu frames: the disk was slower than the pipeline "
          "(--policy block waits for it instead)\n",
          static_cast<unsigned long long>(dropped));
    }
  }
  if (raw) {
    std::printf("recorded %llu raw frames to %s (%s, %.2f x smaller)",
                static_cast<unsigned long long>(recorded.written), options.recordPath->c_str(),
                options.recordCompression.c_str(),
                recorded.compressedBytes > 0 ? static_cast<double>(recorded.rawBytes) /
                                                   static_cast<double>(recorded.compressedBytes)
                                             : 1.0);
    std::printf(recorded.dropped > 0 ? "; %llu frames not recorded\n" : "\n",
                static_cast<unsigned long long>(recorded.dropped));
    if (!recorded.error.empty()) {
      std::cerr << "cineflow: " << recorded.error << '\n';
      status = status == 0 ? 1 : status;
    }
  }
  if (!early.reason.empty()) {
    std::fflush(stdout);
    std::cerr << "cineflow: the run ended early (" << early.reason << ") after " << stats.processed
              << " frames"
              << (recorder ? "; " + options.output + " keeps them, marked incomplete" : "") << '\n';
  }
  return status;
}

}  // namespace

int runHeadless(const CliOptions& options) {
  // From here on the first Ctrl-C or SIGTERM ends the run with what it has (the open of a source,
  // a simulator's synthesis included, is abandoned); a second one ends the process at once.
  const InterruptSignals interrupts;
  try {
    // The files written at the end are checked first: a name that cannot be written fails now,
    // not after the run.
    if (!options.output.empty()) {
      requireReplaceableOutput("--output", options.output);
    }
    if (!options.reportPath.empty()) {
      requireWritableFile("--report", options.reportPath);
    }
    if (!options.tracePath.empty()) {
      requireWritableFile("--trace", options.tracePath);
    }
    // A file from outside is checked in a separate process (registry/file_check.hpp) while the
    // backend starts (on CUDA, the device's context); openSource() below takes the verdict.
    const acquire::FileCheckAhead fileCheck(options.input);
    std::string fallback;
    auto backend = compute::createBackend(compute::parseBackendRequest(options.backend), &fallback);
    backend->setDeviceMemoryBudget(std::size_t{options.gpuMemoryBudgetMiB} << 20);
    if (!fallback.empty()) {
      std::cerr << "cineflow: " << fallback << "; using the CPU backend\n";
    }
    const ultrasound::MatMapping mapping =
        options.matMap ? ultrasound::MatMapping::parse(*options.matMap) : ultrasound::MatMapping{};
    ConsoleProgress openProgress;
    auto source = acquire::openSource(
        options.input, 0,
        [&openProgress, &interrupts](double fraction, const std::string& what) {
          if (const int signal = interrupts.received(); signal != 0) {
            throw Interrupted(signal);
          }
          openProgress.show(what, fraction);
        },
        mapping);
    openProgress.finish();
    const auto settings = settingsFor(options, *source);
    source->modality().validate(*settings, *source);
    pipeline::EngineConfig config;
    config.pace = false;  // a file or the simulator, processed as fast as the backend can
    config.overflow = pipeline::parseOverflowPolicy(options.policy);
    config.damagedFrames = pipeline::parseDamagedFramePolicy(options.damagedFrames);
    config.maxFrames = options.frames > 0 ? options.frames : source->frameCount();
    source->endWithSender(options.frames == 0);  // a network stream ends with its sender's "end"
    config.cineloopFrames = 8;
    requireWholeEnsemble(*settings, config.maxFrames);
    return runEngine(options, interrupts, config, *backend, std::move(source), settings);
  } catch (const Interrupted& e) {
    std::cerr << "\ncineflow: " << e.what() << '\n';
    return InterruptSignals::exitStatus(e.signal);
  } catch (const std::invalid_argument& e) {
    std::cerr << "cineflow: " << e.what() << '\n';  // a value the command line gave
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cineflow: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cineflow::app
