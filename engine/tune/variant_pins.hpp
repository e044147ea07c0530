#pragma once
// Pinned variants: the operator's choice of implementation for a stage, which the tuner takes
// without measuring (`--variant beamform=avx2`), and tables of them in a file, exported from a
// tuned run and imported into another for a reproducible one (`cineflow tune --export FILE`,
// `--variants FILE`). The file is text, one "stage=variant" per line; '#' starts a comment.

#include <filesystem>
#include <map>
#include <string>

namespace cineflow::tune {

using VariantPins = std::map<std::string, std::string>;  // stage -> variant

// Adds "stage=variant" to `pins`. Throws std::invalid_argument for text without '=' or with an
// empty side.
void addPin(VariantPins& pins, const std::string& text);
// Reads a pin file. Throws std::runtime_error naming the file and line.
VariantPins readPins(const std::filesystem::path& path);
// The table as the file holds it.
std::string pinsText(const VariantPins& pins);

}  // namespace cineflow::tune
