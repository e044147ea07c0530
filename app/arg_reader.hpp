#pragma once
// One reader for the options of every cineflow command (cineflow, bench, convert), with the
// conventions of GNU tools and QCommandLineParser: an option's value follows it as the next
// argument ("--grid -15:15:0.1,5:45:0.1", whatever that starts with) or after '='
// ("--grid=-15:15:0.1,5:45:0.1"); a flag written with a value ("--headless=yes") is refused; after
// "--" every argument is positional. The reader only splits arguments: each command keeps its own
// options, checks and messages.
//
//   ArgReader args(argc, argv, 1);
//   while (args.next()) {
//     if (args.flag("--headless")) { ... }
//     else if (args.option("--input")) { input = args.value(); }
//     else if (args.positional()) { files.push_back(args.current()); }
//     else { args.rejectUnknown("see --help"); }
//   }

#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cineflow::app {

class ArgReader {
 public:
  // Reads argv[first] .. argv[argc - 1]. `context` starts every message ("bench: ").
  ArgReader(int argc, char** argv, int first, std::string context = {});

  // Moves to the next argument; false when none is left.
  bool next();
  // The argument as written.
  std::string_view current() const { return current_; }
  // Whether it is not an option: it follows "--", or does not start with '-' (or is "-" alone).
  bool positional() const;
  // Whether it is the flag `name` (or `alias`). Throws std::invalid_argument when it carries a
  // value ("--headless=yes: --headless takes no value").
  bool flag(std::string_view name, std::string_view alias = {});
  // Whether it is the option `name`, as "--name VALUE" or "--name=VALUE"; value() reads VALUE.
  bool option(std::string_view name);
  // The value of the option option() matched. Throws std::invalid_argument when there is none
  // or it is empty ("--output needs a value").
  std::string value();
  // value() as a number of type T, the whole text. Throws std::invalid_argument
  // ("--frames: 'ten' is not a valid number").
  template <class T>
  T number();
  // Throws std::invalid_argument("unknown option '<argument>' (<hint>)").
  [[noreturn]] void rejectUnknown(std::string_view hint) const;
  // std::invalid_argument with the context and the matched option's name in front of `message`.
  std::invalid_argument error(const std::string& message) const;

 private:
  int argc_;
  char** argv_;
  int index_;
  std::string context_;
  std::string_view current_;
  std::string_view name_;         // current_ up to '='
  std::string_view inlineValue_;  // after '='
  bool hasInlineValue_ = false;
  bool optionsEnded_ = false;  // "--" was read
};

template <class T>
T ArgReader::number() {
  const std::string text = value();
  T result{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, result);
  if (ec != std::errc() || ptr != end) {
    throw error("'" + text + "' is not a valid number");
  }
  return result;
}

}  // namespace cineflow::app
