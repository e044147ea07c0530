#include "tune/variant_pins.hpp"

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace cineflow::tune {
namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

}  // namespace

void addPin(VariantPins& pins, const std::string& text) {
  const auto equals = text.find('=');
  const std::string stage = equals == std::string::npos ? "" : trimmed(text.substr(0, equals));
  const std::string variant = equals == std::string::npos ? "" : trimmed(text.substr(equals + 1));
  if (stage.empty() || variant.empty()) {
    throw std::invalid_argument(
        "a variant pin is stage=variant (as `cineflow tune` lists them), "
        "not '" +
        text + "'");
  }
  pins[stage] = variant;
}

VariantPins readPins(const std::filesystem::path& path) {
  // Bounds before reading: a table is a few lines; a device or a huge file is not one.
  constexpr std::uintmax_t kMaxTableBytes = 1 << 20;
  std::error_code error;
  const bool regular = std::filesystem::is_regular_file(path, error);
  const std::uintmax_t bytes = regular ? std::filesystem::file_size(path, error) : 0;
  if (!regular || error || bytes > kMaxTableBytes) {
    throw std::runtime_error(
        "cannot read the variant table " + path.string() +
        (regular && !error ? " (" + std::to_string(bytes) + " bytes; a table has at most 1 MiB)"
                           : std::string(" (not a file)")));
  }
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("cannot read the variant table " + path.string());
  }
  VariantPins pins;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = trimmed(line.substr(0, line.find('#')));
    if (text.empty()) {
      continue;
    }
    try {
      addPin(pins, text);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path.string() + ", line " + std::to_string(number) + ": " +
                               e.what());
    }
  }
  return pins;
}

std::string pinsText(const VariantPins& pins) {
  std::string text = "# Cineflow variant table: stage=variant (cineflow --variants FILE)\n";
  for (const auto& [stage, variant] : pins) {
    text += stage + "=" + variant + "\n";
  }
  return text;
}

}  // namespace cineflow::tune
