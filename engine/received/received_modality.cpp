#include "received/received_modality.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/number_text.hpp"
#include "received/received_processor.hpp"

namespace cineflow::received {
namespace {

class ReceivedModality final : public modality::Modality {
 public:
  const char* name() const override { return "received"; }

  std::shared_ptr<const modality::ProcessingSettings> defaultSettings(
      const acquire::FrameSource& source) const override {
    const ReceivedSource& received = requireReceived(source);
    return makeSettings(
        received.recordedLevels().value_or(ReceivedLevels::defaultsFor(received.format().pixel)));
  }

  void validate(const modality::ProcessingSettings& settings,
                const acquire::FrameSource& source) const override {
    requireReceived(source).format().validate();
    requireLevels(settings).validate();
  }

  process::ImageGeometry geometry(const modality::ProcessingSettings& settings,
                                  const acquire::FrameSource& source) const override {
    requireLevels(settings);
    return requireReceived(source).format().geometry();
  }

  std::unique_ptr<modality::FrameProcessor> createProcessor() const override {
    return std::make_unique<ReceivedProcessor>();
  }

  store::FileMetadata describe(const acquire::FrameSource& source,
                               const modality::ProcessingSettings& settings) const override {
    return received::describe(requireReceived(source).format(), requireLevels(settings));
  }

  // cineflow.received/1: the images as they arrived.
  store::RecordingLayout recordingLayout(
      const acquire::FrameSource& source,
      const modality::ProcessingSettings& settings) const override {
    const ReceivedFormat& format = requireReceived(source).format();
    store::RecordingLayout layout;
    layout.schema = kReceivedSchema;
    layout.dataset = "images";
    layout.frameDims = {static_cast<std::uint64_t>(format.rows),
                        static_cast<std::uint64_t>(format.cols)};
    layout.sampleKind = sampleKindOf(format.pixel);
    layout.dimensions = "frames, rows, cols";
    layout.header = received::describe(format, requireLevels(settings));
    return layout;
  }

 private:
  static store::SampleKind sampleKindOf(PixelType pixel) {
    switch (pixel) {
      case PixelType::UInt8:
        return store::SampleKind::UInt8;
      case PixelType::Int8:
        return store::SampleKind::Int8;
      case PixelType::UInt16:
        return store::SampleKind::UInt16;
      case PixelType::Int16:
        return store::SampleKind::Int16;
      case PixelType::Float32:
        break;
    }
    return store::SampleKind::Float32;
  }
};

const ReceivedModality kReceived;

}  // namespace

ReceivedLevels ReceivedLevels::defaultsFor(PixelType pixel) {
  switch (pixel) {
    case PixelType::UInt8:
      return {false, 0, 255};
    case PixelType::Int8:
      return {false, -128, 127};
    case PixelType::UInt16:
      return {false, 0, 65535};
    case PixelType::Int16:
      return {false, -32768, 32767};
    case PixelType::Float32:
      break;
  }
  return {true, 0, 0};
}

ReceivedLevels ReceivedLevels::parse(std::string_view text, PixelType pixel) {
  if (text == "full") {
    return defaultsFor(pixel);
  }
  if (text == "db") {
    return {true, 0, 0};
  }
  const std::size_t comma = text.find(',');
  const auto number = [&](std::string_view word, const char* what) {
    const std::optional<double> value = base::finiteNumber(word);
    if (!value) {
      throw std::invalid_argument("received images' levels \"" + std::string(text) + "\": the " +
                                  what + " level '" + std::string(word) +
                                  "' is not a finite number");
    }
    return *value;
  };
  if (comma == std::string_view::npos || text.find(',', comma + 1) != std::string_view::npos) {
    throw std::invalid_argument("received images' levels \"" + std::string(text) +
                                "\": expected full, db or BLACK,WHITE (two numbers)");
  }
  ReceivedLevels levels{false, number(text.substr(0, comma), "black"),
                        number(text.substr(comma + 1), "white")};
  levels.validate();
  return levels;
}

void ReceivedLevels::validate() const {
  if (asDb) {
    return;
  }
  if (!std::isfinite(black) || !std::isfinite(white) || black == white) {
    throw std::invalid_argument("received images: the black level (" + acquire::numberText(black) +
                                ") and the white level (" + acquire::numberText(white) +
                                ") must be finite and differ");
  }
}

const modality::Modality& ReceivedSettings::modality() const {
  return kReceived;
}

const modality::Modality& ReceivedSource::modality() const {
  return kReceived;
}

const modality::Modality& receivedModality() {
  return kReceived;
}

const ReceivedSource* asReceived(const acquire::FrameSource* source) {
  return source != nullptr ? dynamic_cast<const ReceivedSource*>(&source->origin()) : nullptr;
}

const ReceivedSource& requireReceived(const acquire::FrameSource& source) {
  const ReceivedSource* received = asReceived(&source);
  if (received == nullptr) {
    throw std::invalid_argument("received images cannot be read from " + source.describe() +
                                ", a " + source.modality().name() + " source");
  }
  return *received;
}

std::shared_ptr<const ReceivedSettings> makeSettings(ReceivedLevels levels) {
  return std::make_shared<const ReceivedSettings>(levels);
}

const ReceivedLevels& requireLevels(const modality::ProcessingSettings& settings) {
  const auto* received = dynamic_cast<const ReceivedSettings*>(&settings);
  if (received == nullptr) {
    throw std::invalid_argument(std::string("received images need their levels, not ") +
                                settings.modality().name() + " parameters");
  }
  return received->levels();
}

store::FileMetadata describe(const ReceivedFormat& format, const ReceivedLevels& levels) {
  store::FileMetadata metadata;
  metadata.attributes = {
      {"modality", std::string("received")},
      {"cols", std::int64_t{format.cols}},
      {"rows", std::int64_t{format.rows}},
      {"pixel_type", std::string(toString(format.pixel))},
      {"dx_m", format.dxM},
      {"dz_m", format.dzM},
      {"x0_m", format.x0M},
      {"z0_m", format.z0M},
      {"device", format.device},
      {"levels", std::string(levels.asDb ? "db" : "levels")},
      {"black_level", levels.black},
      {"white_level", levels.white},
      {"span_db", kReceivedSpanDb},
  };
  return metadata;
}

}  // namespace cineflow::received
