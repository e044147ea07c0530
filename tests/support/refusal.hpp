#pragma once
// The message of the acquire::SourceError that `open` throws (empty when it throws none): what
// an operator would read when a source is refused.

#include <QString>

#include "acquire/frame_source.hpp"

namespace cineflow::test {

template <class Open>
QString refusal(Open open) {
  try {
    open();
  } catch (const acquire::SourceError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace cineflow::test
