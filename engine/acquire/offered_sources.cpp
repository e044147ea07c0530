#include "acquire/offered_sources.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <utility>

namespace cineflow::acquire {
namespace {

struct Offer {
  std::string spec;
  std::string label;
  SourceMaker make;
};

struct Directory {
  std::mutex mutex;
  std::vector<Offer> offers;
  std::uint64_t issued = 0;
};

Directory& directory() {
  static Directory* const instance = new Directory();  // outlives every static token
  return *instance;
}

}  // namespace

SourceOffer::SourceOffer(std::string label, SourceMaker make) {
  Directory& d = directory();
  std::scoped_lock lock(d.mutex);
  spec_ = kPushScheme + std::to_string(++d.issued);
  d.offers.push_back({spec_, std::move(label), std::move(make)});
}

SourceOffer::~SourceOffer() {
  Directory& d = directory();
  std::scoped_lock lock(d.mutex);
  std::erase_if(d.offers, [this](const Offer& offer) { return offer.spec == spec_; });
}

std::unique_ptr<FrameSource> openOffered(const std::string& spec) {
  SourceMaker make;
  std::string names;
  {
    Directory& d = directory();
    std::scoped_lock lock(d.mutex);
    const auto found = std::find_if(d.offers.begin(), d.offers.end(),
                                    [&spec](const Offer& offer) { return offer.spec == spec; });
    if (found != d.offers.end()) {
      make = found->make;
    }
    for (const Offer& offer : d.offers) {
      names += (names.empty() ? "" : ", ") + offer.spec;
    }
  }
  if (!make) {
    throw SourceError(spec + ": no source is offered under this name in this process (a " +
                      "script's PushSource lives as long as the script keeps it; offered now: " +
                      (names.empty() ? std::string("none") : names) + ")");
  }
  return make();
}

std::vector<OfferedSource> offeredSources() {
  Directory& d = directory();
  std::scoped_lock lock(d.mutex);
  std::vector<OfferedSource> list;
  list.reserve(d.offers.size());
  for (const Offer& offer : d.offers) {
    list.push_back({offer.spec, offer.label});
  }
  return list;
}

}  // namespace cineflow::acquire
