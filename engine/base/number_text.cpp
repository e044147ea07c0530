#include "base/number_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace cineflow::base {

std::optional<double> finiteNumber(std::string_view word) {
  const std::string text(word);  // strtod needs the terminating zero
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace cineflow::base
