#pragma once
// Where a recording's bytes come from: the file at `path`, or, when `image` is not empty, a whole
// file's bytes held in memory (received over a network, handed over by a script, a fuzz input),
// which `path` then only names in messages. A reader copies an image when it opens it: the bytes
// need not outlive the reader.

#include <cstddef>
#include <filesystem>
#include <span>

namespace cineflow::acquire {

struct RecordingInput {
  std::filesystem::path path;
  std::span<const std::byte> image;
};

}  // namespace cineflow::acquire
