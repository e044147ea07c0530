#pragma once
// Numbers a person typed: an option's value, a word of a table file.

#include <optional>
#include <string_view>

namespace cineflow::base {

// The finite number the whole of `word` spells (strtod's syntax: "-1.5", "+2", "3e-4", "0x1p3";
// no surrounding text, not "inf" or "nan", not out of double's range), or nothing.
std::optional<double> finiteNumber(std::string_view word);

}  // namespace cineflow::base
