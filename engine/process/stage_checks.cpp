#include "process/stage_checks.hpp"

#include <stdexcept>
#include <string>

namespace cineflow::process::detail {

void requireSize(const char* stage, const char* what, std::size_t actual, std::size_t expected) {
  if (actual != expected) {
    throw std::invalid_argument(std::string(stage) + ": " + what + " holds " +
                                std::to_string(actual) + " elements, expected " +
                                std::to_string(expected));
  }
}

void requireData(const char* stage, const char* what, const void* data) {
  if (data == nullptr) {
    throw std::invalid_argument(std::string(stage) + ": " + what + " is null");
  }
}

void throwNotConfigured(const char* stage) {
  throw std::logic_error(std::string(stage) + ": enqueue() before configure()");
}

}  // namespace cineflow::process::detail
