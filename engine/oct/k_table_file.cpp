#include "oct/k_table_file.hpp"

#include "base/number_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace cineflow::oct {
namespace {

constexpr std::uintmax_t kMaxTableBytes = 4u << 20;

bool isSeparator(char c) {
  return c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Calls `take(word)` for every word of `line` (up to a '#').
template <class Take>
void forEachWord(const std::string& line, Take take) {
  const std::string text = line.substr(0, line.find('#'));
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && isSeparator(text[at])) {
      ++at;
    }
    std::size_t end = at;
    while (end < text.size() && !isSeparator(text[end])) {
      ++end;
    }
    if (end > at) {
      take(text.substr(at, end - at));
    }
    at = end;
  }
}

}  // namespace

std::vector<float> readKTable(const std::filesystem::path& path, int samples) {
  const std::string name = path.string();
  std::error_code error;
  const std::uintmax_t bytes = std::filesystem::file_size(path, error);
  if (error) {
    throw std::invalid_argument("cannot read the k-linearisation table " + name + ": " +
                                error.message());
  }
  if (bytes > kMaxTableBytes) {
    throw std::invalid_argument("the k-linearisation table " + name + " has " +
                                std::to_string(bytes) + " bytes; a table of " +
                                std::to_string(samples) + " numbers is far smaller (at most " +
                                std::to_string(kMaxTableBytes) + " bytes are read)");
  }
  std::ifstream file(path);
  if (!file) {
    throw std::invalid_argument("cannot open the k-linearisation table " + name);
  }
  std::vector<float> table;
  std::string line;
  for (int lineNumber = 1; std::getline(file, line); ++lineNumber) {
    forEachWord(line, [&](const std::string& word) {
      const std::optional<double> value = base::finiteNumber(word);
      if (!value) {
        throw std::invalid_argument("the k-linearisation table " + name + ", line " +
                                    std::to_string(lineNumber) + ": '" + word +
                                    "' is not a finite number");
      }
      table.push_back(static_cast<float>(*value));
    });
  }
  if (file.bad()) {
    throw std::invalid_argument("cannot read the k-linearisation table " + name);
  }
  if (static_cast<int>(table.size()) != samples) {
    throw std::invalid_argument("the k-linearisation table " + name + " has " +
                                std::to_string(table.size()) + " numbers; the spectrometer has " +
                                std::to_string(samples) + " samples per A-scan, one number each");
  }
  return table;
}

std::vector<double> parseKPolynomial(const std::string& text) {
  std::vector<double> coefficients;
  forEachWord(text, [&](const std::string& word) {
    const std::optional<double> value = base::finiteNumber(word);
    if (!value) {
      throw std::invalid_argument("the k-linearisation polynomial: '" + word +
                                  "' is not a finite number");
    }
    coefficients.push_back(*value);
  });
  if (coefficients.empty() || coefficients.size() > 4) {
    throw std::invalid_argument(
        "the k-linearisation polynomial needs 1 to 4 coefficients (c0, c1, "
        "c2, c3), not " +
        std::to_string(coefficients.size()));
  }
  return coefficients;
}

}  // namespace cineflow::oct
