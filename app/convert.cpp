#include "convert.hpp"

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "arg_reader.hpp"
#include "ultrasound/mat_import.hpp"
#include "ultrasound/rf_writer.hpp"

namespace cineflow::app {
namespace {

const char* convertUsage() {
  return R"(Usage: cineflow convert IN.mat OUT.h5 [--map SPEC]

Imports RF channel data from a MATLAB file (v5 or v7.3) and writes it as a cineflow.rf/1
recording, sample for sample (integer samples stay int16).

The mapping says where everything is; the default is the Verasonics layout as PyMUST stores it
(RF [samples x elements x frames] and a struct param):
  )"
         "rf=RF;order=samples,elements,frames;fs=param.fs;f0=param.fc;c=param.c;t0=param.t0;"
         "pitch=param.pitch;angles=delays:param.TXdelay;bandwidth=param.bandwidth;"
         "elements=param.Nelements"
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

Exit status: 0 on success, 1 on an import or write error, 2 on a bad command line.
)";
}

}  // namespace

int runConvert(int argc, char** argv) {
  std::vector<std::string> positional;
  acquire::MatMapping mapping = acquire::MatMapping::verasonics();
  try {
    ArgReader args(argc, argv, 2);
    while (args.next()) {
      if (args.flag("--help", "-h")) {
        std::fputs(convertUsage(), stdout);
        return 0;
      }
      if (args.option("--map")) {
        mapping = acquire::MatMapping::parse(args.value(), mapping);
      } else if (args.positional()) {
        positional.emplace_back(args.current());
      } else {
        args.rejectUnknown("see cineflow convert --help");
      }
    }
    if (positional.size() != 2) {
      throw std::invalid_argument("needs IN.mat and OUT.h5 (see cineflow convert --help)");
    }
  } catch (const std::exception& e) {
    std::cerr << "cineflow convert: " << e.what() << '\n';
    return 2;
  }
  try {
    const acquire::ImportedRecording recording = acquire::importMat(positional[0], mapping);
    store::writeRfRecording(
        positional[1], recording,
        {{"source", positional[0] + " (MATLAB import: " + mapping.toString() + ")"}});
    std::printf("%s\nwrote %llu frames of %d transmit(s) x %d elements x %d samples to %s\n",
                recording.note.c_str(), static_cast<unsigned long long>(recording.frames),
                recording.acq.transmits(), recording.acq.elements(), recording.acq.samples,
                positional[1].c_str());
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "cineflow convert: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cineflow::app
