#pragma once
// Text files written whole (bench JSON, traces): through a temporary name and a rename, so that a
// failed write never leaves a partial file under the final name.

#include <string>

namespace cineflow::store {

// Throws std::runtime_error("cannot write <path>: <reason>") and removes the temporary file.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace cineflow::store
