#pragma once
// Boundary checks shared by the stages (house style rule 6, docs/development.md): one wording for
// every stage.

#include <cstddef>

namespace cineflow::process::detail {

// Throws std::invalid_argument "<stage>: <what> holds <actual> elements, expected <expected>".
void requireSize(const char* stage, const char* what, std::size_t actual, std::size_t expected);
// Throws std::invalid_argument "<stage>: <what> is null" when `data` is null.
void requireData(const char* stage, const char* what, const void* data);
// Throws std::logic_error "<stage>: not configured".
[[noreturn]] void throwNotConfigured(const char* stage);

}  // namespace cineflow::process::detail
