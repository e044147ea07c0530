#include "cli_options.hpp"

#include <stdexcept>

#include "arg_reader.hpp"
#include "oct/k_table_file.hpp"
#include "oct/oct_params.hpp"
#include "pipeline/engine_types.hpp"
#include "process/chunk_codec.hpp"
#include "received/received_format.hpp"
#include "store/raw_recorder.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/mat_import.hpp"

namespace cineflow::app {

const char* usageText() {
  return R"(Usage: cineflow [options]

Live plane-wave ultrasound and spectral-domain OCT imaging. Without --headless, opens the operator window.
An option's value follows it or an '=': --grid -15:15:0.1,5:45:0.1 or --grid=-15:15:0.1,5:45:0.1.

Options:
  --input SOURCE         'sim' (built-in 3-D phantom simulator, default), 'sim-flow' (the
                         built-in flow simulator: a vessel and a rotating disk, for colour
                         Doppler), 'plugin:NAME' or 'plugin:NAME#{JSON parameters}' (a source
                         plugin, found in $CINEFLOW_PLUGIN_PATH or lib/cineflow/plugins next to
                         the executable), 'zmq:ENDPOINT' (frames a sender pushes over ZeroMQ,
                         e.g. zmq:tcp://*:5555; manual: Plugins and streaming),
                         'genicam://ID#DESC.json' (a spectrometer's GenICam camera, ID as
                         cineflow cameras lists it, empty for the first; DESC.json its OCT
                         geometry and features, or an inline {JSON}; manual: Plugins and
                         streaming),
                         'igtl://HOST[:PORT][#DEVICE]' (the IMAGE stream of an OpenIGTLink server,
                         such as PLUS, shown display-only; port 18944 by default),
                         'oct-sim' (the built-in OCT simulator), a cineflow.rf/1, cineflow.oct/1
                         or cineflow.received/1 HDF5 recording, or a MATLAB file (.mat, read with
                         --map)
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
  --mode rf|iq|doppler|power-doppler
                         signal chain: RF (bandpass, DAS on RF, Hilbert envelope) or I/Q
                         (demodulation, DAS on I/Q, |IQ|); default RF, or I/Q for a file
                         sampled below 2 x f0, which only I/Q mode can image. doppler and
                         power-doppler: the I/Q chain and colour Doppler of its beamformed I/Q;
                         --output then also holds velocity_m_s, variance_m2_s2 and power_db
  --iq-bandwidth PERCENT I/Q mode: the low-pass filter's bandwidth in percent of f0 (its -6 dB
                         points at +-half of it around the carrier); default: the file's
                         fractional_bandwidth_percent, else 100
  --iq-decimation N      I/Q mode: keep every Nth demodulated sample (default 1)
  --prf HZ               Doppler: the frames' pulse repetition frequency (default: the file's
                         pulse_repetition_frequency_hz; the flow simulator's 5000)
  --ensemble N           Doppler: frames per estimate, 3 to 128 (default 16)
  --ensemble-mode sliding|block
                         Doppler: an estimate at every frame from the last N (default), or
                         every N frames from the N since the last
  --wall-filter none|regression[:ORDER]|iir[:CUTOFF]|svd[:RANK]
                         Doppler: the clutter filter (default regression:1): polynomial
                         regression of order 0-3, a 2nd-order Butterworth high-pass at CUTOFF
                         x PRF (default 0.05), or the RANK strongest singular components over
                         the colour box removed (default 2)
  --doppler-average WxZ  Doppler: average the autocorrelation over W x Z pixels (odd, default
                         1x1)
  --colour-box X0:X1,Z0:Z1
                         Doppler: estimate flow only in this box (mm; default the whole image)
  --oct-dispersion A2,A3[,NM] | auto
                         OCT: dispersion compensation phase a2 u^2 + a3 u^3 in radians about
                         the centre wavenumber k0, u = (k - k0) / (N dk) over the resampled
                         spectrum (|a2| <= pi N / 2, |a3| <= pi N); k0 from the recording's
                         centre wavelength, or NM nanometres; auto: the sharpest values for
                         the middle B-scan, printed (default: the recording's, else 0,0)
  --oct-k-table FILE     OCT: resample with this table (the raw sample index to read for each
                         output sample, one number per spectrometer sample, text) instead of the
                         recording's wavelength table
  --oct-k-polynomial C0,C1,C2,C3
                         OCT: raw sample index = c0 + c1 j + c2 j^2 + c3 j^3 for output sample j
  --oct-window hann|gaussian|rect
                         OCT: spectral window (default hann)
  --refractive-index N   OCT: group index of the sample; depths are optical path / N (default 1)
  --received-levels full|db|BLACK,WHITE
                         received images: the values shown black and white (BLACK,WHITE;
                         full: the pixel type's range, 0,255 for uint8), or db: the values are
                         dB (default: a recording's own levels, else full; float32: db)
  --frames N             frames to image (default: every frame of the file once, one
                         elevation sweep of the simulator, or a network stream until its
                         sender's "end")
  --policy block|drop    host ring overflow policy (default block: no frame is lost)
  --record FILE.h5       headless: record every raw frame the source delivers, with its
                         sequence number and timestamp, as cineflow.rf/1, cineflow.oct/1 or
                         cineflow.received/1
                         (one frame per chunk; the file is new, never overwritten). With
                         --policy block nothing is lost; with drop, frames the disk cannot
                         take are counted. --output may then be left out
  --record-compression bitshuffle-lz4|lz4|none
                         the recording's chunks (default bitshuffle-lz4: HDF5 filter 32008;
                         lz4: filter 32004; h5py with hdf5plugin reads both). Replaying a
                         compressed recording decodes its chunks on the GPU (or the CPU pool)
  --record-block-size BYTES
                         the compression's blocks (default 8192; 1024 to 1048576, for
                         bitshuffle-lz4 a multiple of 8 samples): smaller blocks give a GPU
                         replay more blocks to decode side by side, at a small cost in size
  --on-damaged-frame stop|skip
                         replay: a frame whose stored bytes are damaged (a corrupt chunk, a
                         checksum that does not match) stops the replay naming the frame
                         (default stop), or is left out, counted and reported (skip)
  --gpu-memory-budget MIB
                         use at most MIB MiB of GPU memory (device memory on the CPU backend)
                         for the pipeline's buffers, e.g. beside another program on the same
                         GPU: a configuration needing more is refused, saying how much
                         (default 0: no budget)
  --variant STAGE=NAME   run the stage's implementation NAME (as `cineflow tune` lists them)
                         instead of the one measured fastest on this machine; repeatable
  --variants FILE        pin the variants of a table `cineflow tune --export` wrote
  --no-tune              run every stage's default implementation (the pinned one where
                         --variant pins it): neither measure nor reuse the tuning history (the
                         cache folder's tuning.json)
  --trace FILE.json      headless: also record the run as Chrome trace JSON (open it in
                         ui.perfetto.dev): the source's reads, uploads and stages per frame
  --report FILE.json     headless: also write the run's report as JSON (cineflow.report/1:
                         frames, frames/s, each stage's median, p99 and max times, latency)
  --igtl-port PORT       serve the live image over OpenIGTLink on this TCP port (3D Slicer's
                         OpenIGTLinkIF, PLUS, MITK connect to it; the protocol's own port is
                         18944): every client gets the newest image in millimetres, the newest
                         volume on request (GET_IMAGE) and a STATUS when imaging starts and
                         stops; a slow client skips to the newest image. In the window, also
                         Acquisition > OpenIGTLink. Headless, it may replace --output
  --igtl-pixels display|db
                         what the images carry: 8-bit levels as displayed (default; headless:
                         the first image's brightest pixel is white, 60 dB down is black) or
                         the float dB values
  --igtl-bind ADDRESS    listen on this IPv4 address only (default 0.0.0.0: every interface;
                         127.0.0.1: this machine only)
  --preset NAME          GUI: apply this preset once the source is open: a shipped one
                         (e.g. 'Verasonics disk Doppler') or one from the presets folder
  --screenshot FILE.png  GUI: save the window after --after-frames frames, then exit
  --after-frames N       frames to display before the screenshot (default 30)
  --version              print the version and exit

Convert:   cineflow convert IN.mat OUT.h5 [--map SPEC]          MATLAB channel data to cineflow.rf/1
           cineflow convert IN.bin OUT.h5 --describe DESC.json  raw OCT spectra to cineflow.oct/1
           cineflow convert oct-sim OUT.h5 [--frames N]       the OCT simulator to cineflow.oct/1
           (cineflow convert --help for details)
Tune:      cineflow tune [--backend cpu|cuda] [--preset default|course] [--mode rf|iq]
                         [--export FILE]  time every stage's implementations, remember the fastest
Benchmark: cineflow bench [--backend cpu|cuda] [--preset default|course] [--mode rf|iq]
                          [--frames N] [--save-volumes DIR] [--trace FILE] [--json FILE]
                          (cineflow bench --help for details)
Batch:     cineflow batch PLAN.json [--jobs N] [--slurm [--wait]] [--collect]
                          a parameter study over many recordings, here or as a Slurm job
                          array (cineflow batch --help for details)
Cameras:   cineflow cameras [ID] [--json]
                          the GenICam cameras reachable now; with ID, what it offers
                          (cineflow cameras --help for details)
Soak:      cineflow soak [--minutes N] [--overload F] [--policy block|drop] [--report FILE]
                          the simulator faster than this machine processes, for minutes, with
                          the display and the recorder attached: every frame accounted for,
                          memory flat (cineflow soak --help for details)
  --help                 print this help and exit

Environment:
  CINEFLOW_CACHE_DIR     where the simulator caches its precomputed frames
                         (default $XDG_CACHE_HOME/cineflow or ~/.cache/cineflow)
  CINEFLOW_THREADS       threads of the CPU backend's pool (default: all cores)
  CINEFLOW_PLUGIN_PATH   folders (separated by ':') searched for source plugins before the shipped
                         ones (see --input)
  CINEFLOW_CUDA_DEVICE   CUDA device index (default 0)
  CINEFLOW_CUDA_SYNC=1   synchronise after every CUDA kernel, to pin down asynchronous faults
  CINEFLOW_SETTINGS_PATH GUI settings file (INI) instead of the user's Qt settings

Exit status: 0 on success, 1 on a processing or file error, 2 on a bad command line.
)";
}

CliOptions parseCommandLine(int argc, char** argv) {
  CliOptions options;
  ArgReader args(argc, argv, 1);
  while (args.next()) {
    if (args.flag("--help", "-h")) {
      options.help = true;
    } else if (args.flag("--version")) {
      options.version = true;
    } else if (args.flag("--headless")) {
      options.headless = true;
    } else if (args.option("--input")) {
      options.input = args.value();
    } else if (args.option("--output")) {
      options.output = args.value();
    } else if (args.option("--grid")) {
      options.grid = args.value();
    } else if (args.option("--fnumber")) {
      options.fNumber = args.number<double>();
    } else if (args.option("--apodisation")) {
      options.apodisation = args.value();
      ultrasound::parseApodisation(*options.apodisation);  // a bad name is a command-line error
    } else if (args.option("--map")) {
      options.matMap = args.value();
      ultrasound::MatMapping::parse(*options.matMap);  // a bad mapping is a command-line error
    } else if (args.option("--mode")) {
      options.mode = args.value();
      ultrasound::parseImagingMode(*options.mode);  // a bad mode is a command-line error
    } else if (args.option("--iq-bandwidth")) {
      options.iqBandwidthPercent = args.number<double>();
    } else if (args.option("--iq-decimation")) {
      options.iqDecimation = args.number<int>();
    } else if (args.option("--prf")) {
      options.doppler.prfHz = args.number<double>();
    } else if (args.option("--ensemble")) {
      options.doppler.ensemble = args.number<int>();
    } else if (args.option("--ensemble-mode")) {
      options.doppler.ensembleMode = args.value();
      ultrasound::parseEnsembleMode(*options.doppler.ensembleMode);  // a command-line error
    } else if (args.option("--wall-filter")) {
      options.doppler.wallFilter = args.value();
      ultrasound::DopplerParams().applyWallFilterSpec(*options.doppler.wallFilter);
    } else if (args.option("--doppler-average")) {
      options.doppler.average = args.value();
      ultrasound::DopplerParams().applyAveragingSpec(*options.doppler.average);
    } else if (args.option("--colour-box") || args.option("--color-box")) {
      options.doppler.box = args.value();
      ultrasound::parseColourBoxMillimetres(*options.doppler.box);
    } else if (args.option("--oct-dispersion")) {
      options.octDispersion = args.value();
    } else if (args.option("--oct-k-table")) {
      options.octKTable = args.value();
    } else if (args.option("--oct-k-polynomial")) {
      options.octKPolynomial = args.value();
      oct::parseKPolynomial(*options.octKPolynomial);  // bad coefficients: a command-line error
    } else if (args.option("--oct-window")) {
      options.octWindow = args.value();
      oct::parseSpectralWindow(*options.octWindow);
    } else if (args.option("--refractive-index")) {
      options.refractiveIndex = args.number<double>();
    } else if (args.option("--received-levels")) {
      options.receivedLevels = args.value();
      received::ReceivedLevels::parse(*options.receivedLevels, received::PixelType::UInt8);
    } else if (args.option("--backend")) {
      options.backend = args.value();
    } else if (args.option("--frames")) {
      options.frames = args.number<std::uint64_t>();
    } else if (args.option("--gpu-memory-budget")) {
      options.gpuMemoryBudgetMiB = args.number<std::uint32_t>();
    } else if (args.option("--policy")) {
      options.policy = args.value();
    } else if (args.option("--record")) {
      options.recordPath = args.value();
    } else if (args.option("--record-compression")) {
      options.recordCompression = args.value();
      store::parseRecordCompression(options.recordCompression);  // a bad name: command line
    } else if (args.option("--record-block-size")) {
      options.recordBlockBytes = args.number<std::size_t>();
      if (options.recordBlockBytes < process::kMinChunkBlockBytes ||
          options.recordBlockBytes > process::kMaxChunkBlockBytes) {
        throw std::invalid_argument("--record-block-size " +
                                    std::to_string(options.recordBlockBytes) + ": blocks are " +
                                    std::to_string(process::kMinChunkBlockBytes) + " to " +
                                    std::to_string(process::kMaxChunkBlockBytes) + " bytes");
      }
    } else if (args.option("--on-damaged-frame")) {
      options.damagedFrames = args.value();
      pipeline::parseDamagedFramePolicy(options.damagedFrames);  // a bad name: command line
    } else if (args.option("--variant")) {
      tune::addPin(options.variantPins, args.value());
    } else if (args.option("--variants")) {
      try {
        for (const auto& [stage, variant] : tune::readPins(args.value())) {
          options.variantPins[stage] = variant;
        }
      } catch (const std::runtime_error& e) {  // the table is part of the command line
        throw std::invalid_argument(std::string("--variants: ") + e.what());
      }
    } else if (args.flag("--no-tune")) {
      options.tune = false;
    } else if (args.option("--trace")) {
      options.tracePath = args.value();
    } else if (args.option("--report")) {
      options.reportPath = args.value();
    } else if (args.option("--preset")) {
      options.preset = args.value();
    } else if (args.option("--igtl-port")) {
      options.igtlPort = args.number<int>();
      if (*options.igtlPort < 1 || *options.igtlPort > 65535) {
        throw std::invalid_argument("--igtl-port " + std::to_string(*options.igtlPort) +
                                    ": a port is 1 to 65535 (OpenIGTLink's own is 18944)");
      }
    } else if (args.option("--igtl-pixels")) {
      options.igtlPixels = args.value();
      if (options.igtlPixels != "display" && options.igtlPixels != "db") {
        throw std::invalid_argument("--igtl-pixels " + options.igtlPixels +
                                    ": display (8-bit, as shown) or db (float dB)");
      }
    } else if (args.option("--igtl-bind")) {
      options.igtlBind = args.value();
    } else if (args.option("--screenshot")) {
      options.screenshotPath = args.value();
    } else if (args.option("--after-frames")) {
      options.afterFrames = args.number<int>();
    } else {
      args.rejectUnknown("see --help");
    }
  }
  if (options.headless && options.output.empty() && !options.recordPath && !options.igtlPort) {
    throw std::invalid_argument(
        "--headless needs --output FILE.h5, --record FILE.h5, --igtl-port PORT or several");
  }
  if (!options.igtlPort && (options.igtlPixels != "display" || options.igtlBind != "0.0.0.0")) {
    throw std::invalid_argument("--igtl-pixels and --igtl-bind need --igtl-port");
  }
  if (options.recordBlockBytes > 0 &&
      (!options.recordPath || options.recordCompression == "none")) {
    throw std::invalid_argument(
        "--record-block-size needs --record with --record-compression bitshuffle-lz4 or lz4");
  }
  if (!options.headless) {
    // The window has its own controls for these; silently ignoring them would mislead.
    if (!options.output.empty() || options.grid || options.fNumber || options.mode ||
        options.apodisation || options.iqBandwidthPercent || options.iqDecimation ||
        options.doppler.any() || options.frames > 0 || options.policy != "block" ||
        !options.tracePath.empty() || !options.reportPath.empty() || options.anyOctOption() ||
        options.recordPath) {
      throw std::invalid_argument(
          "--output, --grid, --fnumber, --apodisation, --mode, --iq-bandwidth, --iq-decimation, "
          "the Doppler options, the --oct- options, --refractive-index, --frames, --policy, "
          "--record, --trace and --report are "
          "used with --headless only (in the window, use the acquisition panel and Record)");
    }
  }
  if (options.headless && !options.preset.empty()) {
    throw std::invalid_argument("--preset is for the window (headless, give the options)");
  }
  if (options.octKTable && options.octKPolynomial) {
    throw std::invalid_argument("--oct-k-table and --oct-k-polynomial exclude each other");
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
