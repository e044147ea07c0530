#include "convert.hpp"

#include <cstdio>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arg_reader.hpp"
#include "oct/dispersion_search.hpp"
#include "oct/oct_simulator.hpp"
#include "oct/oct_writer.hpp"
#include "oct/raw_spectra_import.hpp"
#include "oct_dispersion_option.hpp"
#include "registry/file_check.hpp"
#include "ultrasound/mat_import.hpp"
#include "ultrasound/rf_writer.hpp"

namespace cineflow::app {
namespace {

const char* convertUsage() {
  return R"(Usage: cineflow convert IN.mat OUT.h5 [--map SPEC]
       cineflow convert IN.bin OUT.h5 --describe DESC.json [--oct-dispersion A2,A3[,NM] | auto]
       cineflow convert oct-sim OUT.h5 [--frames N] [--oct-dispersion A2,A3[,NM] | auto]

MATLAB channel data (IN.mat)
Imports RF channel data from a MATLAB file (v5 or v7.3) and writes it as a cineflow.rf/1
recording, sample for sample (integer samples stay int16).

The mapping says where everything is; the default is the Verasonics layout as PyMUST stores it
(RF [samples x elements x frames] and a struct param):
  )"
         "rf=RF;order=samples,elements,frames;fs=param.fs;f0=param.fc;c=param.c;t0=param.t0;"
         "pitch=param.pitch;angles=delays:param.TXdelay;bandwidth=param.bandwidth;"
         "elements=param.Nelements;prf=param.PRF"
         R"(
--map SPEC overrides any of these keys, e.g. --map "rf=data;c=1540;angles=0":
  rf         the RF variable
  order      its dimensions as MATLAB stores them (first = fastest): samples, elements and
             optionally transmits and frames
  fs f0 c t0 pitch
             a variable or struct field (param.fs) or a number (Hz, m/s, s, m)
  angles     a number (radians, every transmit), a variable with one angle per transmit, or
             delays:VAR, a [transmits x elements] matrix of transmit delays in seconds
  bandwidth  fractional bandwidth in percent (empty: none)
  elements   element count to check against the RF (empty: no check)

Raw OCT spectra (IN.bin, --describe DESC.json)
Writes uint16 spectra, frames after frames [frames][ascans][samples] (as OCTproZ, vortex and lab
code save them), as a cineflow.oct/1 recording, count for count. The file must hold the header
and whole frames, nothing else. DESC.json describes them; unknown keys are refused:
  {"samples": 2048, "ascans": 512, "bit_depth": 12,
   "wavelength_first_m": 790e-9, "wavelength_last_m": 890e-9, "centre_wavelength_m": 840e-9,
   "bscans_per_volume": 32, "bidirectional": false, "flyback_ascans": 0,
   "lateral_step_m": 10e-6, "elevation_step_m": 150e-6}
  samples, ascans      per A-scan, per B-scan (flyback included)
  bit_depth            12 or 16
  header_bytes         bytes before the first frame (default 0)
  sample_format        "uint16" (little-endian, default) or "uint16be"
  the wavelength of each sample, one of:
    wavelength_first_m + wavelength_last_m  evenly spaced in wavelength
    wavelength_file                         a text file, one wavelength in metres per line,
                                            relative to DESC.json's folder
    wavelength_polynomial_m                 [c0, c1, ...]: lambda(i) = sum c_k i^k
  centre_wavelength_m  the source's centre wavelength; bandwidth_m (optional) its FWHM
  bscans_per_volume    0: B-scans only
  bidirectional        true when every other B-scan runs back
  flyback_ascans       A-scans at the end of each B-scan that are not imaged
  lateral_step_m, elevation_step_m, line_rate_hz (optional)
  dispersion_a2_rad, dispersion_a3_rad      optional: the compensation that images it,
                       radians of a2 u^2 + a3 u^3, u = (k - k0) / (N dk), k0 = 2 pi / centre
  dispersion_centre_wavelength_m            optional: the wavelength they are stated about
                                            (default centre_wavelength_m)

The OCT simulator (oct-sim)
Records the built-in OCT simulator's raster scan as a cineflow.oct/1 recording.
  --frames N           B-scans in the simulated volume (default 32)

Both OCT forms:
  --oct-dispersion A2,A3[,NM] | auto
                       the dispersion the recording states (replacing DESC.json's or the
                       simulator's): radians about the centre wavelength, or about NM
                       nanometres; auto: the sharpest values for the middle B-scan, printed

Exit status: 0 on success, 1 on an import or write error, 2 on a bad command line.
)";
}

struct ConvertCommand {
  std::vector<std::string> positional;
  std::optional<ultrasound::MatMapping> mapping;
  std::optional<std::string> description;
  std::optional<int> frames;
  std::optional<DispersionOption> dispersion;
};

// Which of the three forms the command line asks for; throws std::invalid_argument when its
// options do not belong together.
void checkForm(const ConvertCommand& command) {
  if (command.positional.size() != 2) {
    throw std::invalid_argument(
        "needs IN.mat, IN.bin or oct-sim, then OUT.h5 (see cineflow convert --help)");
  }
  if (command.positional[0] == "oct-sim") {
    if (command.mapping || command.description) {
      throw std::invalid_argument(std::string(command.mapping ? "--map" : "--describe") +
                                  " is not for oct-sim (see cineflow convert --help)");
    }
    return;
  }
  if (command.frames) {
    throw std::invalid_argument("--frames is for oct-sim only (a file converts whole)");
  }
  if (command.dispersion && !command.description) {
    throw std::invalid_argument(
        "--oct-dispersion is for OCT: raw spectra (--describe) or oct-sim, not MATLAB files");
  }
  if (command.description && command.mapping) {
    throw std::invalid_argument(
        "--map is for MATLAB files, --describe for raw spectra: give one of them");
  }
}

// The dispersion a converted OCT recording states: the option's, or with auto the search's on
// `bscan()` (printed). Throws std::invalid_argument for values the chain cannot apply.
oct::OctDispersion statedDispersion(const DispersionOption& option,
                                    const oct::OctAcquisition& acquisition,
                                    const std::function<std::vector<std::uint16_t>()>& bscan) {
  oct::OctParams params;
  applyDispersion(option, params, acquisition, bscan, " convert");
  params.validate(acquisition);
  return {params.a2, params.a3, params.dispersionCentreM};
}

int convertMat(const ConvertCommand& command) {
  const ultrasound::MatMapping mapping =
      command.mapping.value_or(ultrasound::MatMapping::verasonics());
  const std::string& in = command.positional[0];
  const std::string& out = command.positional[1];
  acquire::checkFileInChildProcess(in);  // matio on a damaged file: only the child goes down
  const ultrasound::ImportedRecording recording = ultrasound::importMat(in, mapping);
  ultrasound::writeRfRecording(out, recording,
                               {{"source", in + " (MATLAB import: " + mapping.toString() + ")"}});
  std::printf("%s\nwrote %llu frames of %d transmit(s) x %d elements x %d samples to %s\n",
              recording.note.c_str(), static_cast<unsigned long long>(recording.frames),
              recording.acq.transmits(), recording.acq.elements(), recording.acq.samples,
              out.c_str());
  return 0;
}

int convertRawSpectra(const ConvertCommand& command) {
  const std::string& in = command.positional[0];
  const std::string& out = command.positional[1];
  oct::RawSpectraDescription description = oct::readRawSpectraDescription(*command.description);
  if (command.dispersion) {
    const std::uint64_t middle = oct::rawFrameCount(in, description) / 2;
    description.dispersion = statedDispersion(*command.dispersion, description.acquisition, [&] {
      return oct::readRawSpectraFrame(in, description, middle);
    });
  }
  const std::uint64_t frames = oct::importRawSpectra(
      in, description, out,
      {{"source", in + " (raw spectra described by " + *command.description + ")"}});
  std::printf("wrote %llu frames of %d A-scans x %d samples to %s\n",
              static_cast<unsigned long long>(frames), description.acquisition.ascans,
              description.acquisition.samples, out.c_str());
  return 0;
}

int convertOctSimulator(const ConvertCommand& command) {
  const std::string& out = command.positional[1];
  oct::OctSimulatorConfig config;
  config.bscans = command.frames.value_or(config.bscans);
  oct::OctSimulator simulator(config);
  // The simulator's dispersion mismatch is what the chain's a2 / a3 compensate.
  oct::OctDispersion dispersion{config.a2, config.a3};
  if (command.dispersion) {
    dispersion = statedDispersion(*command.dispersion, simulator.acquisition(),
                                  [&] { return oct::middleBscan(simulator); });
  }
  oct::recordOctSource(out, simulator, {{"source", simulator.describe()}}, dispersion);
  std::printf("wrote %llu frames of %d A-scans x %d samples to %s (from the %s)\n",
              static_cast<unsigned long long>(simulator.frameCount()),
              simulator.acquisition().ascans, simulator.acquisition().samples, out.c_str(),
              simulator.describe().c_str());
  return 0;
}

}  // namespace

int runConvert(int argc, char** argv) {
  ConvertCommand command;
  try {
    ArgReader args(argc, argv, 2);
    while (args.next()) {
      if (args.flag("--help", "-h")) {
        std::fputs(convertUsage(), stdout);
        return 0;
      }
      if (args.option("--map")) {
        command.mapping = ultrasound::MatMapping::parse(
            args.value(), command.mapping.value_or(ultrasound::MatMapping::verasonics()));
      } else if (args.option("--describe")) {
        command.description = args.value();
      } else if (args.option("--oct-dispersion")) {
        command.dispersion = parseDispersionOption(args.value());
      } else if (args.option("--frames")) {
        const int frames = args.number<int>();
        if (frames < 1 || frames > 512) {
          throw args.error("expected 1 to 512 B-scans, found " + std::to_string(frames));
        }
        command.frames = frames;
      } else if (args.positional()) {
        command.positional.emplace_back(args.current());
      } else {
        args.rejectUnknown("see cineflow convert --help");
      }
    }
    checkForm(command);
  } catch (const std::exception& e) {
    std::cerr << "cineflow convert: " << e.what() << '\n';
    return 2;
  }
  try {
    if (command.positional[0] == "oct-sim") {
      return convertOctSimulator(command);
    }
    return command.description ? convertRawSpectra(command) : convertMat(command);
  } catch (const std::exception& e) {
    std::cerr << "cineflow convert: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cineflow::app
