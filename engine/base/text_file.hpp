#pragma once
// Text files written whole (bench JSON, traces): through a temporary name, synced and renamed
// (base/durable_rename.hpp), so that neither a failed write nor a power cut leaves a partial file
// under the final name; and the JSON strings in them.

#include <string>
#include <string_view>

namespace cineflow::base {

// `text` as a JSON string literal: quoted, with quotes, backslashes and control characters
// escaped.
std::string jsonString(std::string_view text);

// Writes "<path>.partial-<pid>", then publishes it as `path`. Throws
// std::runtime_error("cannot write <path>: <reason>") and removes the temporary file.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace cineflow::base
