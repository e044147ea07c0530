#include "ultrasound/push_source.hpp"

#include <stdexcept>

namespace cineflow::ultrasound {

PushSource::PushSource(acquire::AcquisitionParams params, acquire::SampleType sampleType,
                       std::shared_ptr<acquire::PushChannel> channel)
    : PushReceiving(std::move(channel)), params_(std::move(params)), sampleType_(sampleType) {
  params_.validate();
  checkChannel();
}

std::string PushSource::describe() const {
  return "pushed frames (" + std::to_string(params_.transmits()) + " transmits, " +
         std::to_string(params_.elements()) + " elements, " + std::to_string(params_.samples) +
         " samples)";
}

}  // namespace cineflow::ultrasound
