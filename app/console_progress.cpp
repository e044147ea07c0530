#include "console_progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace cineflow::app {

ConsoleProgress::ConsoleProgress() : terminal_(::isatty(STDERR_FILENO) == 1) {}

ConsoleProgress::~ConsoleProgress() {
  finish();
}

void ConsoleProgress::show(const std::string& what, double fraction) {
  char percent[16] = "";
  if (fraction >= 0) {
    std::snprintf(percent, sizeof percent, " %3.0f%%", fraction * 100.0);
  }
  if (terminal_) {
    std::fprintf(stderr, "\rcineflow: %-70.70s%s", what.c_str(), percent);
    open_ = true;
    if (fraction >= 1.0) {
      finish();
    }
    std::fflush(stderr);
    return;
  }
  const std::string line = what + percent;
  if (!shownFirst_ || fraction >= 1.0) {
    std::fprintf(stderr, "cineflow: %s\n", line.c_str());
    shownFirst_ = fraction < 1.0;
    pending_.clear();
    return;
  }
  pending_ = line;
}

void ConsoleProgress::finish() {
  if (open_) {
    std::fputc('\n', stderr);
    open_ = false;
  }
  if (!pending_.empty()) {
    std::fprintf(stderr, "cineflow: %s\n", pending_.c_str());
    pending_.clear();
  }
  shownFirst_ = false;
}

}  // namespace cineflow::app
