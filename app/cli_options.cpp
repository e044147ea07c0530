#include "cli_options.hpp"

#include <charconv>
#include <stdexcept>
#include <string_view>

#include "acquire/mat_import.hpp"
#include "process/imaging_params.hpp"

namespace cineflow::app {
namespace {

template <class T>
T parseNumber(std::string_view option, const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    throw std::invalid_argument(std::string(option) + ": '" + text + "' is not a valid number");
  }
  return value;
}

}  // namespace

const char* usageText() {
  return R"(Usage: cineflow [options]

Live plane-wave ultrasound imaging. Without --headless, opens the operator window.

Options:
  --input SOURCE         'sim' (built-in 3-D phantom simulator, default), a cineflow.rf/1
                         HDF5 recording, or a MATLAB file (.mat, read with --map)
  --map SPEC             where a .mat input keeps its RF and parameters (default: the
                         Verasonics layout; see cineflow convert --help)
  --backend KIND         auto | cpu | cuda (default auto: CUDA when a usable device exists)
  --headless             process without a window and write --output
  --output FILE.h5       B-mode output (schema cineflow.bmode/1), headless mode
  --grid X0:X1:DX,Z0:Z1:DZ
                         reconstruction grid in millimetres (default: the array's width,
                         dx = lambda/2, depth 5 mm to the last sample, dz = lambda/8)
  --fnumber F            receive f-number (default 1.5)
  --apodisation hann|rect
                         receive apodisation over the f-number aperture: Hann window (default)
                         or rectangular (uniform, as PyMUST's dasmtx)
  --mode rf|iq           signal chain: RF (bandpass, DAS on RF, Hilbert envelope) or I/Q
                         (demodulation, DAS on I/Q, |IQ|); default RF, or I/Q for a file
                         sampled below 2 x f0, which only I/Q mode can image
  --iq-bandwidth PERCENT I/Q mode: the low-pass filter's bandwidth in percent of f0 (its -6 dB
                         points at +-half of it around the carrier); default: the file's
                         fractional_bandwidth_percent, else 100
  --iq-decimation N      I/Q mode: keep every Nth demodulated sample (default 1)
  --frames N             frames to process (default: every frame of the file once, or one
                         elevation sweep of the simulator)
  --policy block|drop    host ring overflow policy (default block: no frame is lost)
  --trace FILE.json      headless: also record the run as Chrome trace JSON (open it in
                         ui.perfetto.dev): the source's reads, uploads and stages per frame
  --screenshot FILE.png  GUI: save the window after --after-frames frames, then exit
  --after-frames N       frames to display before the screenshot (default 30)
  --version              print the version and exit

Convert:   cineflow convert IN.mat OUT.h5 [--map SPEC]   (cineflow convert --help for details)
Benchmark: cineflow bench [--backend cpu|cuda] [--preset default|course] [--mode rf|iq]
                          [--frames N] [--save-volumes DIR] [--trace FILE] [--json FILE]
                          (cineflow bench --help for details)
  --help                 print this help and exit

Environment:
  CINEFLOW_CACHE_DIR     where the simulator caches its precomputed frames
                         (default $XDG_CACHE_HOME/cineflow or ~/.cache/cineflow)
  CINEFLOW_THREADS       threads of the CPU backend's pool (default: all cores)
  CINEFLOW_CUDA_DEVICE   CUDA device index (default 0)
  CINEFLOW_CUDA_SYNC=1   synchronise after every CUDA kernel, to pin down asynchronous faults
  CINEFLOW_SETTINGS_PATH GUI settings file (INI) instead of the user's Qt settings

Exit status: 0 on success, 1 on a processing or file error, 2 on a bad command line.
)";
}

CliOptions parseCommandLine(int argc, char** argv) {
  CliOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        throw std::invalid_argument(std::string(arg) + " needs a value");
      }
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--version") {
      options.version = true;
    } else if (arg == "--headless") {
      options.headless = true;
    } else if (arg == "--input") {
      options.input = value();
    } else if (arg == "--output") {
      options.output = value();
    } else if (arg == "--grid") {
      options.grid = value();
    } else if (arg == "--fnumber") {
      options.fNumber = parseNumber<double>(arg, value());
    } else if (arg == "--apodisation") {
      options.apodisation = value();
      process::parseApodisation(*options.apodisation);  // a bad name is a command-line error
    } else if (arg == "--map") {
      options.matMap = value();
      acquire::MatMapping::parse(*options.matMap);  // a bad mapping is a command-line error
    } else if (arg == "--mode") {
      options.mode = value();
      process::parseImagingMode(*options.mode);  // a bad mode is a command-line error
    } else if (arg == "--iq-bandwidth") {
      options.iqBandwidthPercent = parseNumber<double>(arg, value());
    } else if (arg == "--iq-decimation") {
      options.iqDecimation = parseNumber<int>(arg, value());
    } else if (arg == "--backend") {
      options.backend = value();
    } else if (arg == "--frames") {
      options.frames = parseNumber<std::uint64_t>(arg, value());
    } else if (arg == "--policy") {
      options.policy = value();
    } else if (arg == "--trace") {
      options.tracePath = value();
    } else if (arg == "--screenshot") {
      options.screenshotPath = value();
    } else if (arg == "--after-frames") {
      options.afterFrames = parseNumber<int>(arg, value());
    } else {
      throw std::invalid_argument("unknown option '" + std::string(arg) + "' (see --help)");
    }
  }
  if (options.headless && options.output.empty()) {
    throw std::invalid_argument("--headless needs --output FILE.h5");
  }
  if (!options.headless) {
    // The window has its own controls for these; silently ignoring them would mislead.
    if (!options.output.empty() || options.grid || options.fNumber || options.mode ||
        options.apodisation || options.iqBandwidthPercent || options.iqDecimation ||
        options.frames > 0 || options.policy != "block" || !options.tracePath.empty()) {
      throw std::invalid_argument(
          "--output, --grid, --fnumber, --apodisation, --mode, --iq-bandwidth, --iq-decimation, "
          "--frames, --policy and --trace are used with --headless only (in the window, use the "
          "acquisition panel)");
    }
  }
  if (options.afterFrames < 1) {
    throw std::invalid_argument("--after-frames must be at least 1");
  }
  if (options.input.empty()) {
    throw std::invalid_argument("--input needs 'sim' or a file path");
  }
  return options;
}

}  // namespace cineflow::app
