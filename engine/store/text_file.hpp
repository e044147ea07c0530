#pragma once
// Text files written whole (bench JSON, traces): through a temporary name and a rename, so that a
// failed write never leaves a partial file under the final name; and the JSON strings in them.

#include <string>
#include <string_view>

namespace cineflow::store {

// `text` as a JSON string literal: quoted, with quotes, backslashes and control characters
// escaped.
std::string jsonString(std::string_view text);

// Throws std::runtime_error("cannot write <path>: <reason>") and removes the temporary file.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace cineflow::store
