#include "arg_reader.hpp"

namespace cineflow::app {

ArgReader::ArgReader(int argc, char** argv, int first, std::string context)
    : argc_(argc), argv_(argv), index_(first - 1), context_(std::move(context)) {}

bool ArgReader::next() {
  if (index_ + 1 >= argc_) {
    return false;
  }
  current_ = argv_[++index_];
  if (current_ == "--" && !optionsEnded_) {
    optionsEnded_ = true;  // what follows is positional, even when it starts with '-'
    return next();
  }
  const std::size_t equals =
      !optionsEnded_ && current_.starts_with("--") ? current_.find('=') : current_.npos;
  hasInlineValue_ = equals != current_.npos;
  name_ = current_.substr(0, equals);
  inlineValue_ = hasInlineValue_ ? current_.substr(equals + 1) : std::string_view();
  return true;
}

bool ArgReader::positional() const {
  return optionsEnded_ || !current_.starts_with('-') || current_ == "-";
}

bool ArgReader::flag(std::string_view name, std::string_view alias) {
  if (optionsEnded_ || (name_ != name && (alias.empty() || name_ != alias))) {
    return false;
  }
  if (hasInlineValue_) {
    throw std::invalid_argument(context_ + std::string(current_) + ": " + std::string(name_) +
                                " takes no value");
  }
  return true;
}

bool ArgReader::option(std::string_view name) {
  return !optionsEnded_ && name_ == name;
}

std::string ArgReader::value() {
  std::string text;
  if (hasInlineValue_) {
    text = inlineValue_;
  } else if (index_ + 1 < argc_) {
    text = argv_[++index_];
  }
  if (text.empty()) {
    throw std::invalid_argument(context_ + std::string(name_) + " needs a value");
  }
  return text;
}

void ArgReader::rejectUnknown(std::string_view hint) const {
  throw std::invalid_argument(context_ + "unknown option '" + std::string(current_) + "' (" +
                              std::string(hint) + ")");
}

std::invalid_argument ArgReader::error(const std::string& message) const {
  return std::invalid_argument(context_ + std::string(name_) + ": " + message);
}

}  // namespace cineflow::app
