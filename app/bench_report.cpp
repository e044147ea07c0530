#include "bench_report.hpp"

#include <cmath>

#include "base/text_file.hpp"
#include "tune/tuner_setup.hpp"

namespace cineflow::app {
namespace {

double ratio(double numerator, double denominator) {
  return denominator > 0 ? numerator / denominator : 0.0;
}

std::string jsonNumber(double value) {
  if (!std::isfinite(value)) {
    return "null";  // JSON has no inf or nan
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string jsonNumber(std::uint64_t value) {
  return std::to_string(value);
}

}  // namespace

double BenchResults::framesPerSecond() const {
  return ratio(static_cast<double>(framesTimed), seconds);
}

double BenchResults::h2dBoundFramesPerSecond() const {
  return ratio(h2dGbps * 1e9, static_cast<double>(frameBytes));
}

double BenchResults::fractionOfH2dBound() const {
  return ratio(framesPerSecond(), h2dBoundFramesPerSecond());
}

double BenchResults::beamformMedianMs() const {
  for (const pipeline::StageStats& stage : stages) {
    if (stage.name == "beamform") {
      return stage.medianMs;
    }
  }
  return 0.0;
}

double BenchResults::ensemblesPerSecond() const {
  if (dopplerEnsemble <= 0) {
    return 0.0;
  }
  return dopplerSliding ? framesPerSecond() : framesPerSecond() / dopplerEnsemble;
}

double BenchResults::beamformPointsPerSecond() const {
  const double points = static_cast<double>(nx) * nz * elements * transmits;
  return ratio(points, beamformMedianMs() * 1e-3);
}

double BenchResults::savingFramesPerSecond() const {
  return ratio(static_cast<double>(savingFramesTimed), savingSeconds);
}

double BenchResults::saveCostFraction() const {
  return savingRun && framesPerSecond() > 0 ? 1.0 - savingFramesPerSecond() / framesPerSecond()
                                            : 0.0;
}

double BenchResults::saveMBps() const {
  return ratio(static_cast<double>(bytesSaved) / 1e6, savingSeconds);
}

void printBenchTable(const BenchResults& r, std::FILE* out) {
  std::fprintf(out, "cineflow bench: %s (%s backend)\n", r.device.c_str(), r.backend.c_str());
  std::fprintf(out, "preset:   %s: %s (%s mode)\n", r.preset.c_str(), r.workloadDescription.c_str(),
               r.mode.c_str());
  std::fprintf(out, "frame:    %d transmits x %d elements x %d samples %s = %.2f MB\n", r.transmits,
               r.elements, r.samples, r.sampleType.c_str(),
               static_cast<double>(r.frameBytes) / 1e6);
  std::fprintf(out, "grid:     %d x %d pixels (x %.2f..%.2f mm, z %.2f..%.2f mm)\n", r.nx, r.nz,
               r.x0Mm, r.x1Mm, r.z0Mm, r.z1Mm);
  std::fprintf(out, "frames:   %llu timed in %.3f s, after %llu warm-up (%llu requested)\n",
               static_cast<unsigned long long>(r.framesTimed), r.seconds,
               static_cast<unsigned long long>(r.warmupFrames),
               static_cast<unsigned long long>(r.framesRequested));
  std::fprintf(out, "observer: %s\n\n",
               r.frameObserver ? "a frame observer copied every image to the host"
                               : "none (no image is copied to the host while timed)");

  std::fprintf(out, "%-18s %12s %12s\n", "stage", "median ms", "p99 ms");
  for (const pipeline::StageStats& stage : r.stages) {
    std::fprintf(out, "%-18s %12.3f %12.3f\n", stage.name.c_str(), stage.medianMs, stage.p99Ms);
  }
  std::fprintf(out, "%-18s %12.3f\n\n", "frame latency", r.frameMedianMs);

  std::fprintf(out, "%-18s %12.1f frames/s\n", "end-to-end", r.framesPerSecond());
  std::fprintf(out, "%-18s %12.2f GB/s   pinned, frame-sized copies\n", "host-to-device",
               r.h2dGbps);
  std::fprintf(out, "%-18s %12.1f frames/s = %.1f %% of it sustained\n", "  H2D bound",
               r.h2dBoundFramesPerSecond(), 100.0 * r.fractionOfH2dBound());
  std::fprintf(out, "%-18s %12.2f GB/s   read + write, %.0f MiB buffer\n", "device-to-device",
               r.d2dGbps, static_cast<double>(r.d2dBufferBytes) / (1024.0 * 1024.0));
  std::fprintf(out, "%-18s %12.4g points/s (pixels x elements x transmits / beamform median)\n",
               "beamformer", r.beamformPointsPerSecond());
  if (r.dopplerEnsemble > 0) {
    std::fprintf(out, "%-18s %12.1f ensembles/s (%d frames, %s, wall filter %s, %d x %d pixels)\n",
                 "doppler", r.ensemblesPerSecond(), r.dopplerEnsemble,
                 r.dopplerSliding ? "sliding" : "block", r.dopplerFilter.c_str(), r.nx, r.nz);
  }
  for (const tune::StageChoice& choice : r.variants) {
    std::fprintf(out, "%-18s %s\n", "variant", tune::describeChoice(choice).c_str());
  }
  if (r.defaultFramesPerSecond > 0) {
    std::fprintf(out,
                 "%-18s %12.1f frames/s with every stage's default implementation (tuned: "
                 "%.1f, %+.1f %%)\n",
                 "untuned", r.defaultFramesPerSecond, r.framesPerSecond(),
                 100.0 * (r.framesPerSecond() / r.defaultFramesPerSecond - 1.0));
  }
  std::fprintf(out,
               "%-18s %12.2f GB/s   = %.1f %% of device-to-device; %.3f ms per %d x %d x %d "
               "volume\n",
               "MIPs", r.mipGbps, 100.0 * r.mipFractionOfD2d(), r.mipSecondsPerVolume * 1e3,
               r.volumeShape.ny, r.volumeShape.nz, r.volumeShape.nx);
  if (r.volumesTimed > 0) {
    std::fprintf(out,
                 "%-18s %12llu in the run; their MIPs on the endpoint stream beside the frames: "
                 "median %.3f ms, p99 %.3f ms\n",
                 "volumes", static_cast<unsigned long long>(r.volumesTimed), r.engineMip.medianMs,
                 r.engineMip.p99Ms);
  }
  if (r.savingRun) {
    std::fprintf(out, "%-18s %12.1f frames/s = %.1f %% slower; %llu volumes saved (%.0f MB/s)\n",
                 "while saving", r.savingFramesPerSecond(), 100.0 * r.saveCostFraction(),
                 static_cast<unsigned long long>(r.volumesSaved), r.saveMBps());
    std::fprintf(out, "%-18s %12.1f ms median, %.1f ms p99 per volume (copy and file)\n",
                 "  each save", r.save.medianMs, r.save.p99Ms);
  }
}

std::string benchJson(const BenchResults& r) {
  std::string json = "{\n";
  const auto field = [&json](const char* key, const std::string& value) {
    json += "  \"";
    json += key;
    json += "\": " + value + ",\n";
  };
  field("device", base::jsonString(r.device));
  field("backend", base::jsonString(r.backend));
  field("modality", base::jsonString(r.modality));
  field("preset", base::jsonString(r.preset));
  field("mode", base::jsonString(r.mode));
  field("frames", jsonNumber(r.framesRequested));
  field("frames_timed", jsonNumber(r.framesTimed));
  field("warmup_frames", jsonNumber(r.warmupFrames));
  field("seconds", jsonNumber(r.seconds));
  field("frame_observer", r.frameObserver ? "true" : "false");
  field("sample_type", base::jsonString(r.sampleType));
  field("frame_bytes", jsonNumber(static_cast<std::uint64_t>(r.frameBytes)));
  field("nx", jsonNumber(static_cast<std::uint64_t>(r.nx)));
  field("nz", jsonNumber(static_cast<std::uint64_t>(r.nz)));
  field("elements", jsonNumber(static_cast<std::uint64_t>(r.elements)));
  field("transmits", jsonNumber(static_cast<std::uint64_t>(r.transmits)));
  field("samples", jsonNumber(static_cast<std::uint64_t>(r.samples)));
  field("h2d_gbps", jsonNumber(r.h2dGbps));
  field("d2d_gbps", jsonNumber(r.d2dGbps));
  field("d2d_buffer_bytes", jsonNumber(static_cast<std::uint64_t>(r.d2dBufferBytes)));
  field("mip_gbps", jsonNumber(r.mipGbps));
  field("mip_fraction_of_d2d", jsonNumber(r.mipFractionOfD2d()));
  field("mip_ms_per_volume", jsonNumber(r.mipSecondsPerVolume * 1e3));
  field("volume_slices", jsonNumber(static_cast<std::uint64_t>(r.volumeShape.ny)));
  field("volumes", jsonNumber(r.volumesTimed));
  if (r.volumesTimed > 0) {
    field("engine_mip_median_ms", jsonNumber(r.engineMip.medianMs));
    field("engine_mip_p99_ms", jsonNumber(r.engineMip.p99Ms));
  }
  if (r.savingRun) {
    field("saving_frames_per_s", jsonNumber(r.savingFramesPerSecond()));
    field("save_cost_fraction", jsonNumber(r.saveCostFraction()));
    field("volumes_saved", jsonNumber(r.volumesSaved));
    field("save_mb_per_s", jsonNumber(r.saveMBps()));
    field("save_median_ms", jsonNumber(r.save.medianMs));
    field("save_p99_ms", jsonNumber(r.save.p99Ms));
  }
  field("frames_per_s", jsonNumber(r.framesPerSecond()));
  field("h2d_bound_frames_per_s", jsonNumber(r.h2dBoundFramesPerSecond()));
  field("fraction_of_h2d_bound", jsonNumber(r.fractionOfH2dBound()));
  field("beamform_points_per_s", jsonNumber(r.beamformPointsPerSecond()));
  if (r.dopplerEnsemble > 0) {
    field("doppler_ensemble", std::to_string(r.dopplerEnsemble));
    field("doppler_ensembles_per_s", jsonNumber(r.ensemblesPerSecond()));
  }
  field("frame_median_ms", jsonNumber(r.frameMedianMs));
  if (r.defaultFramesPerSecond > 0) {
    field("default_variants_frames_per_s", jsonNumber(r.defaultFramesPerSecond));
  }
  json += "  \"variants\": [";
  for (std::size_t i = 0; i < r.variants.size(); ++i) {
    const tune::StageChoice& choice = r.variants[i];
    json += i == 0 ? "\n" : ",\n";
    json += "    {\"stage\": " + base::jsonString(choice.stage) +
            ", \"variant\": " + base::jsonString(choice.variant) +
            ", \"chosen_by\": " + base::jsonString(tune::toString(choice.source)) +
            ", \"measured_ms\": {";
    for (std::size_t v = 0; v < choice.entry.variants.size(); ++v) {
      json += (v == 0 ? "" : ", ") + base::jsonString(choice.entry.variants[v].name) + ": " +
              jsonNumber(choice.entry.variants[v].ms);
    }
    json += "}}";
  }
  json += r.variants.empty() ? "],\n" : "\n  ],\n";
  json += "  \"stages\": [";
  for (std::size_t i = 0; i < r.stages.size(); ++i) {
    const pipeline::StageStats& stage = r.stages[i];
    json += i == 0 ? "\n" : ",\n";
    json += "    {\"name\": " + base::jsonString(stage.name) +
            ", \"variant\": " + base::jsonString(stage.variant) +
            ", \"median_ms\": " + jsonNumber(stage.medianMs) +
            ", \"p99_ms\": " + jsonNumber(stage.p99Ms) + "}";
  }
  json += "\n  ]\n}\n";
  return json;
}

void writeBenchJson(const BenchResults& results, const std::string& path) {
  base::writeFileAtomically(path, benchJson(results));
}

}  // namespace cineflow::app
