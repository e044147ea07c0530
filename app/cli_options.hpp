#pragma once
// The command line of the cineflow executable.

#include <cstdint>
#include <optional>
#include <string>

#include "tune/variant_pins.hpp"

namespace cineflow::app {

struct CliOptions {
  bool help = false;
  bool version = false;
  bool headless = false;
  std::string input = "sim";
  std::optional<std::string> matMap;  // MatMapping::parse() text for a .mat input
  std::string output;
  std::optional<std::string> grid;  // "x0:x1:dx,z0:z1:dz" in mm
  std::optional<double> fNumber;
  std::optional<std::string> apodisation;  // "hann" | "rect"
  // "rf" | "iq" | "doppler" | "power-doppler"; default: RF, or I/Q for bandpass-sampled data
  std::optional<std::string> mode;
  std::optional<double> iqBandwidthPercent;  // of f0; default: the file's, else 100
  std::optional<int> iqDecimation;
  // The Doppler modes (--mode doppler | power-doppler), headless.
  struct Doppler {
    std::optional<double> prfHz;
    std::optional<int> ensemble;
    std::optional<std::string> ensembleMode;  // "sliding" | "block"
    std::optional<std::string> wallFilter;    // DopplerParams::applyWallFilterSpec()
    std::optional<std::string> average;       // "WxZ"
    std::optional<std::string> box;           // "x0:x1,z0:z1" mm
    bool any() const { return prfHz || ensemble || ensembleMode || wallFilter || average || box; }
  } doppler;
  // OCT (an OCT source, headless): dispersion "a2,a3" (rad), a k-linearisation table file or
  // polynomial, the spectral window, the sample's refractive index.
  std::optional<std::string> octDispersion;
  std::optional<std::string> octKTable;
  std::optional<std::string> octKPolynomial;
  std::optional<std::string> octWindow;  // "hann" | "gaussian" | "rect"
  std::optional<double> refractiveIndex;
  bool anyOctOption() const {
    return octDispersion || octKTable || octKPolynomial || octWindow || refractiveIndex;
  }
  // Received images (an OpenIGTLink or cineflow.received/1 source, headless): their levels,
  // received::ReceivedLevels::parse()'s words ("full", "db", "BLACK,WHITE").
  std::optional<std::string> receivedLevels;
  std::string backend = "auto";
  std::uint32_t gpuMemoryBudgetMiB = 0;  // --gpu-memory-budget; 0: no budget
  std::uint64_t frames = 0;              // 0: one pass over the file / one sweep of the simulator
  std::string policy = "block";
  std::string damagedFrames = "stop";                // pipeline::parseDamagedFramePolicy()
  tune::VariantPins variantPins;                     // --variant stage=name and --variants FILE
  bool tune = true;                                  // --no-tune: every stage's default variant
  std::string tracePath;                             // headless: Chrome trace JSON of the run
  std::string reportPath;                            // headless: the run's report as JSON
  std::optional<std::string> recordPath;             // headless: the raw frames' recording
  std::string recordCompression = "bitshuffle-lz4";  // store::parseRecordCompression()
  std::size_t recordBlockBytes = 0;                  // the codec's blocks (0: its default)
  // OpenIGTLink (window and headless): serve the live image on this port (engine/link).
  std::optional<int> igtlPort;
  std::string igtlPixels = "display";  // "display" (8-bit levels) | "db" (float dB)
  std::string igtlBind = "0.0.0.0";
  std::string screenshotPath;
  std::string preset;  // GUI: a preset's name, applied once the source is open
  int afterFrames = 30;
};

// Throws std::invalid_argument with a message naming the offending option.
CliOptions parseCommandLine(int argc, char** argv);
const char* usageText();

}  // namespace cineflow::app
