#pragma once
// One line of progress on stderr for the commands that take a while (opening a recording,
// waiting for a sender, a long headless run). On a terminal the line rewrites itself ("\r") and
// is ended before anything else is printed; where stderr is a file or a pipe (a log, a batch
// job) only the first and the last message are written, each as a whole line, so that nothing
// is glued onto the next message.
//
// Threading: one thread (the command's).

#include <string>

namespace cineflow::app {

class ConsoleProgress {
 public:
  ConsoleProgress();
  ~ConsoleProgress();  // finish()
  ConsoleProgress(const ConsoleProgress&) = delete;
  ConsoleProgress& operator=(const ConsoleProgress&) = delete;

  // `what`, with `fraction` (0..1) as a percentage when it is >= 0. A fraction of 1 ends the
  // line: the last message stays.
  void show(const std::string& what, double fraction = -1);
  // Ends a line left open, or (not a terminal) writes the last message not yet written.
  void finish();
  bool onTerminal() const { return terminal_; }

 private:
  bool terminal_;
  bool open_ = false;        // a terminal line without its newline yet
  bool shownFirst_ = false;  // not a terminal: the first message was written
  std::string pending_;      // not a terminal: the latest message, not yet written
};

}  // namespace cineflow::app
