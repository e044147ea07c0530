#pragma once
// The files a headless run writes when it ends (--output, --report, --trace), checked before it
// starts, so that a name that cannot be written fails at once and not after a long run: the
// folder exists, is a folder and can be written; the name is not a folder; and --output never
// replaces a file that is not an earlier run's output (a recording, a saved volume, a colleague's
// data, anything else).

#include <string>

namespace cineflow::app {

// Throws std::invalid_argument "<option> <path>: <why>" when `path` cannot be written as a file.
void requireWritableFile(const char* option, const std::string& path);
// requireWritableFile(), and an existing file there must be an earlier run's output (root
// attribute schema "cineflow.bmode/1"), which the run then replaces.
void requireReplaceableOutput(const char* option, const std::string& path);

}  // namespace cineflow::app
