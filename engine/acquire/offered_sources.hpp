#pragma once
// Sources a program offers by name within its own process: a script's push source
// (acquire/push_channel.hpp) offered as "push://N", so that whatever opens sources by the
// operator's words (registry/source_factory.hpp: the GUI started from the script, an Engine)
// opens a source reading from it. The offer lasts as long as its SourceOffer token; opening a
// name no longer offered says so.
//
// Threads: offer, withdraw (the token's destructor), open and list from any thread.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {

inline constexpr const char* kPushScheme = "push://";

// Makes a new source reading what the offering program provides (each open() is one reader).
using SourceMaker = std::function<std::unique_ptr<FrameSource>()>;

// The registration of one offered source; withdraws it when destroyed.
class SourceOffer {
 public:
  // Offers `make` under a new name, "push://1", "push://2", ... (never reused in a process);
  // `label` says what it is ("a script's PushSource: ultrasound, 3 x 128 x 2240 int16").
  SourceOffer(std::string label, SourceMaker make);
  ~SourceOffer();
  SourceOffer(const SourceOffer&) = delete;
  SourceOffer& operator=(const SourceOffer&) = delete;

  const std::string& spec() const { return spec_; }

 private:
  std::string spec_;
};

// A new source from the offer named `spec` ("push://N"); SourceError naming the offers there are
// when none has that name (its program let it go, or it was never offered in this process).
std::unique_ptr<FrameSource> openOffered(const std::string& spec);

struct OfferedSource {
  std::string spec;
  std::string label;
};
// The offers standing now, oldest first.
std::vector<OfferedSource> offeredSources();

}  // namespace cineflow::acquire
