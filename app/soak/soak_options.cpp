#include "soak/soak_options.hpp"

#include <cmath>
#include <cstdio>

#include "arg_reader.hpp"

namespace cineflow::app {
namespace {

constexpr double kMaxMinutes = 7 * 24 * 60;  // a week: longer is a typo

// The option just read as a number in [low, high] (`lowIncluded`) or (low, high].
double numberIn(ArgReader& args, double low, double high, bool lowIncluded) {
  const double value = args.number<double>();
  if (!std::isfinite(value) || value > high || (lowIncluded ? value < low : value <= low)) {
    char range[96];
    std::snprintf(range, sizeof range, "must be %s %g and at most %g",
                  lowIncluded ? "at least" : "more than", low, high);
    throw args.error(range);
  }
  return value;
}

}  // namespace

const char* soakUsage() {
  return R"(Usage: cineflow soak [--minutes N] [--overload F] [--policy block|drop]
                     [--backend auto|cpu|cuda] [--report FILE.json] [--record-dir DIR]
                     [--keep-recording] [--record-compression bitshuffle-lz4|lz4|none]
                     [--calibrate-seconds S | --rate HZ] [--display-hz HZ]

Runs the built-in ultrasound simulator as a live source faster than this machine can process it,
for minutes, with everything a session has attached: the display (a consumer that takes the
newest displayable image about 60 times a second, as the window's display timer does) and the
raw recorder (into a temporary folder, removed at the end). Then checks that nothing went
missing unnoticed and that memory did not grow.

The workload: the simulator with 64 elements at 0.3 mm pitch, one plane wave (0 degrees),
f0 5 MHz, fs 20 MHz, 30 mm deep (832 int16 samples, 106 KB a frame, 16 slices per sweep), its
phantom's three point targets on the axis without speckle or noise, imaged in RF mode on
x -9.45..9.45 mm, z 5..32 mm at lambda/4 by lambda/8 (246 x 702 pixels), and recorded with
bitshuffle + LZ4. Its zeros compress to about 7 KB a frame, so that ten minutes stay well under
2 GB on disk (under 0.7 GB at 150 frames/s); the processing costs what speckle would.

  1. Calibration: the engine runs that workload unthrottled, with the display and the recorder
     attached and the Block policy, for a one-second warm-up and --calibrate-seconds more; the
     processed frames/s of that window is the rate this machine sustains.
  2. The soak: the simulator paced at --overload times that rate, the engine with --policy,
     for --minutes.
  3. A line per minute (and at the end): frames produced by the source, processed, displayed,
     recorded, dropped at the host ring, not recorded (rec-drop), lost by the source; sequence
     gaps at the end of the processed path and of the recorder's input (gaps-proc, gaps-rec),
     images the display skipped because a newer one replaced them, the host ring's occupancy,
     the recorder's queue, processed frames/s over that minute, and resident memory (VmRSS).
  4. The goals, checked on the counts once the engine has stopped and the recording has been
     read back:
       block: nothing dropped, lost or left unrecorded; produced == processed == recorded;
              no sequence gap in the processed images or in the recording
       drop:  produced == processed + dropped (+ damaged); the recorder's written + not
              recorded == what it was offered == produced - dropped; the recording holds every
              frame written; gaps in the processed images == dropped (+ damaged + lost), in the
              recording == dropped + not recorded (+ damaged + lost)
       both:  every path in sequence order, the display fed, no engine or write error
       memory: VmRSS at the last minute <= VmRSS after minute 1 + an allowance for the
              allocator (threads x 128 KiB: glibc's trim threshold per arena) and for HDF5's
              in-memory index of the open recording (80 B per frame recorded since, at most
              8 MiB: it levels off there); a run shorter than 2 minutes takes its baseline
              half-way through instead. The report gives the figures. Built with
              AddressSanitizer or ThreadSanitizer, whose shadow memory grows RSS, it shows this
              goal without judging it.
     Exit status 0 when every goal holds, 1 when one fails (each failure is named on stderr),
     2 for a bad command line. Ctrl-C ends the run early: the engine stops, the counts are
     checked and the recording removed, and it exits with 1; a second Ctrl-C ends it at once.

Options (a value follows its option or an '=': --minutes 10 or --minutes=10):
  --minutes N        how long the soak runs (default 10; fractions such as 0.2 for a quick check)
  --overload F       the source's rate as a multiple of the calibrated rate (default 2)
  --policy P         block (the source waits for a free slot: nothing may be lost) or drop
                     (frames without a free slot are discarded and counted) (default block)
  --backend KIND     auto | cpu | cuda (default auto)
  --report FILE      also write every row, the calibration, the end counts and each goal's
                     verdict as JSON (cineflow.soak/1)
  --record-dir DIR   where the temporary recording folder is made (default: the system's
                     temporary folder)
  --keep-recording   leave the recording in place (its path is printed)
  --record-compression C
                     bitshuffle-lz4 (default), lz4 or none
  --calibrate-seconds S
                     length of the calibration's timed window (default 3, 1 to 60)
  --rate HZ          skip the calibration and take HZ as the sustained rate
  --display-hz HZ    the display consumer's polling rate (default 60)
)";
}

SoakOptions parseSoakOptions(int argc, char** argv) {
  SoakOptions options;
  ArgReader args(argc, argv, 2, "soak: ");
  while (args.next()) {
    if (args.flag("--help", "-h")) {
      options.help = true;
    } else if (args.option("--minutes")) {
      options.minutes = numberIn(args, 0, kMaxMinutes, false);
    } else if (args.option("--overload")) {
      options.overload = numberIn(args, 0, 100, false);
    } else if (args.option("--policy")) {
      options.policy = pipeline::parseOverflowPolicy(args.value());
    } else if (args.option("--backend")) {
      options.backend = compute::parseBackendRequest(args.value());
    } else if (args.option("--report")) {
      options.reportPath = args.value();
    } else if (args.option("--record-dir")) {
      options.recordDir = args.value();
    } else if (args.flag("--keep-recording")) {
      options.keepRecording = true;
    } else if (args.option("--record-compression")) {
      options.compression = store::parseRecordCompression(args.value());
    } else if (args.option("--calibrate-seconds")) {
      options.calibrationSeconds = numberIn(args, 1, 60, true);
    } else if (args.option("--rate")) {
      options.rateHz = numberIn(args, 0, 100000, false);
    } else if (args.option("--display-hz")) {
      options.displayHz = numberIn(args, 0, 1000, false);
    } else {
      args.rejectUnknown("see cineflow soak --help");
    }
  }
  return options;
}

}  // namespace cineflow::app
