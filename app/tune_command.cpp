#include "tune_command.hpp"

#include <cstdio>
#include <string>

#include "arg_reader.hpp"
#include "base/text_file.hpp"
#include "bench_source.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "device_fill.hpp"
#include "oct/oct_processor.hpp"
#include "oct/oct_simulator.hpp"
#include "process/mip.hpp"
#include "subcommand.hpp"
#include "ultrasound/bmode_processor.hpp"

namespace cineflow::app {
namespace {

const char* tuneUsage() {
  return R"(Usage: cineflow tune [--backend cpu|cuda] [--preset default|course] [--mode rf|iq]
                     [--export FILE]
       cineflow tune --modality oct [--backend cpu|cuda] [--export FILE]

Times every implementation ("variant") of every stage that has several, on this machine and the
workload's problem size: warm-up runs, then timed runs, the mean of the fastest half. Prints each
variant's time, remembers the fastest in the tuning history (the cache folder's tuning.json), which
later runs of cineflow, bench and the window reuse without measuring, and with --export writes the
choice as a variant table that `cineflow --variants FILE` (or bench) pins for a reproducible run.

Options:
  --backend KIND   auto | cpu | cuda (default auto)
  --preset NAME    the workload, as cineflow bench: default | course
  --mode rf|iq     signal chain (default rf)
  --modality oct   the OCT chain instead, on the B-scans of cineflow bench --modality oct
  --export FILE    write the chosen variants as stage=variant lines
)";
}

struct TuneOptions {
  compute::BackendRequest backend = compute::BackendRequest::Auto;
  std::string preset = "default";
  ultrasound::ImagingMode mode = ultrasound::ImagingMode::Rf;
  std::string modality = "ultrasound";
  std::string exportPath;
  bool help = false;
};

TuneOptions parse(int argc, char** argv) {
  TuneOptions options;
  ArgReader args(argc, argv, 2, "tune: ");
  while (args.next()) {
    if (args.flag("--help", "-h")) {
      options.help = true;
    } else if (args.option("--backend")) {
      options.backend = compute::parseBackendRequest(args.value());
    } else if (args.option("--preset")) {
      options.preset = args.value();
      benchWorkload(options.preset);  // an unknown preset: a usage error
    } else if (args.option("--mode")) {
      options.mode = ultrasound::parseImagingMode(args.value());
    } else if (args.option("--modality")) {
      options.modality = args.value();
      if (options.modality != "ultrasound" && options.modality != "oct") {
        throw args.error("expected ultrasound or oct, not '" + options.modality + "'");
      }
    } else if (args.option("--export")) {
      options.exportPath = args.value();
    } else {
      args.rejectUnknown("see cineflow tune --help");
    }
  }
  return options;
}

// "[##########          ]  50 %  beamform: avx2" on one line, redrawn.
void drawProgress(double fraction, const std::string& what) {
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth + 0.5);
  std::fprintf(stderr, "\r[%s%s] %3d %%  %-40s", std::string(filled, '#').c_str(),
               std::string(kWidth - filled, ' ').c_str(), static_cast<int>(fraction * 100 + 0.5),
               what.c_str());
  std::fflush(stderr);
}

// What `cineflow tune` times: the chain's tunable stages and, for ultrasound, the MIPs of its
// volumes, with the objects they run on.
struct TuneWorkload {
  std::string description;
  std::unique_ptr<modality::FrameProcessor> processor;
  process::MipProjector projector;
  compute::DeviceBuffer<float> volume;
  std::unique_ptr<compute::Stream> stream;
  std::vector<tune::TunableStage> stages;
};

void ultrasoundWorkload(const TuneOptions& options, compute::Backend& backend, TuneWorkload& out) {
  BenchWorkload workload = benchWorkload(options.preset);
  workload.imaging.mode = options.mode;
  workload.imaging.validate(workload.acq);
  auto processor = std::make_unique<ultrasound::BmodeProcessor>();
  processor->configure(backend, workload.acq, workload.sampleType, workload.imaging);
  out.description =
      workload.description + ", " + ultrasound::toString(workload.imaging.mode) + " mode";
  out.stages = processor->tunableStages(backend);
  out.processor = std::move(processor);
  // The MIPs of the workload's volumes (16 slices when it has none), as the engine runs them.
  const process::ImageGeometry geometry = workload.imaging.geometry();
  const int slices = workload.acq.framesPerVolume > 0 ? workload.acq.framesPerVolume : 16;
  out.projector.configure(backend, {slices, geometry.nz, geometry.nx});
  out.volume = compute::DeviceBuffer<float>(backend, out.projector.shape().voxels());
  out.stream = backend.createStream("tune-mip");
  fillWithPattern(backend, *out.stream, out.volume.data(), out.volume.size(), std::size_t{1} << 20,
                  mipVolumePattern);
  out.stages.push_back(out.projector.tunableStage(
      backend, compute::DeviceSpan<const float>(out.volume.data(), out.volume.size()),
      *out.stream));
}

// The OCT chain on the B-scans `cineflow bench --modality oct` times.
void octWorkload(compute::Backend& backend, TuneWorkload& out) {
  oct::OctSimulatorConfig config;
  config.ascans = 1024;
  const oct::OctAcquisition acquisition = oct::OctSimulator::acquisitionOf(config);
  oct::OctParams params;
  params.a2 = config.a2;
  params.a3 = config.a3;
  auto processor = std::make_unique<oct::OctProcessor>();
  processor->configure(backend, acquisition, params);
  out.description = "OCT, " + std::to_string(acquisition.ascans) + " A-scans x " +
                    std::to_string(acquisition.samples) + " samples per B-scan";
  out.stages = processor->tunableStages(backend);
  out.processor = std::move(processor);
}

}  // namespace

int runTune(int argc, char** argv) {
  return runSubcommand<TuneOptions>(
      argc, argv, parse, tuneUsage(), [](const TuneOptions& options, compute::Backend& backend) {
        TuneWorkload workload;
        if (options.modality == "oct") {
          octWorkload(backend, workload);
        } else {
          ultrasoundWorkload(options, backend, workload);
        }
        auto tuner = startTuning(backend, {});
        std::printf("device: %s (%s)\nworkload: %s\n", backend.deviceName().c_str(),
                    backend.hardwareIdentity().c_str(), workload.description.c_str());
        tune::VariantPins chosen;
        const std::vector<tune::TunableStage>& stages = workload.stages;
        if (stages.empty()) {
          std::printf("no stage of this chain has more than one implementation\n");
        }
        for (const tune::TunableStage& stage : stages) {
          const tune::TuningEntry entry = tuner->measure(stage, drawProgress);
          std::fprintf(stderr, "\n");
          std::printf("\n%s (%s):\n  %-34s %10s %9s %5s %8s\n", stage.stage.c_str(),
                      stage.problem.c_str(), "variant", "ms", "sd ms", "runs", "vs best");
          const tune::VariantTiming* best = entry.timing(entry.chosen);
          for (const tune::VariantTiming& v : entry.variants) {
            std::printf("  %-34s %10.3f %9.3f %5d %7.2fx%s\n", v.name.c_str(), v.ms, v.sdMs, v.runs,
                        v.ms / best->ms, v.name == entry.chosen ? "  chosen" : "");
          }
          chosen[stage.stage] = entry.chosen;
        }
        finishTuning(tuner.get());
        if (!stages.empty() && !tuner->unsaved()) {
          std::printf("\nremembered in %s\n", tune::TuningHistory::defaultPath().c_str());
        }
        if (!options.exportPath.empty()) {
          base::writeFileAtomically(options.exportPath, tune::pinsText(chosen));
          std::printf("wrote the variant table %s\n", options.exportPath.c_str());
        }
        return 0;
      });
}

}  // namespace cineflow::app
