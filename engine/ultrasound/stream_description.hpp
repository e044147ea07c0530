#pragma once
// An outside ultrasound stream's description (a source plugin's cf_stream, a network stream's
// JSON header, which uses the same field names) checked and put in Cineflow's terms. One set of
// rules for every outside source: a stream Cineflow cannot image is refused naming who sent it
// and the first bad field.

#include <cstdint>
#include <string>

#include "acquire/frame.hpp"
#include "cineflow/source_plugin.h"

namespace cineflow::ultrasound {

struct UltrasoundStream {
  acquire::AcquisitionParams params;
  acquire::SampleType sampleType = acquire::SampleType::Int16;
  double frameRateHz = 0;  // the stream's nominal rate (0: unknown)
  // A live stream (frame_count 0) never repeats: the largest count there is.
  std::uint64_t frameCount = 0;
  std::string description;  // the sender's own line, possibly empty
};

// Throws SourceError "<who>: ..." (who: "source plugin 'Lab scanner'") for a stream that is not
// ultrasound, has an unknown sample type, a missing or inconsistent geometry (validate()), a
// frame_bytes that is not transmits x elements x samples x the sample's size, or a bad rate.
UltrasoundStream checkUltrasoundStream(const cf_stream& stream, const std::string& who);

}  // namespace cineflow::ultrasound
