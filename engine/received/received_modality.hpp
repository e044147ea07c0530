#pragma once
// The received modality (modality/modality.hpp): display-only images another system formed
// (received_source.hpp), shown, measured and recorded as they arrived. Its one stage maps each
// pixel value to the pipeline's dB image, so that the display's gain and dynamic range work on
// them as on Cineflow's own:
//   levels  dB = kReceivedSpanDb (v - white) / (white - black): the white level shows at 0 dB,
//           the black level at -kReceivedSpanDb (the display's default range shows the picture
//           as the sender did; a brighter or darker picture follows from gain and range)
//   as dB   dB = v: float images whose values are decibels already (Cineflow's own "db" stream)
// Defaults: the pixel type's full range (uint8: 0 to 255), float32 as dB.

#include <memory>

#include "modality/modality.hpp"
#include "received/received_format.hpp"
#include "received/received_source.hpp"

namespace cineflow::received {

inline constexpr double kReceivedSpanDb = 60.0;
// The recording schema of received images: /images [frames][rows][cols] of the pixel type, root
// attributes as describe() below.
inline constexpr const char* kReceivedSchema = "cineflow.received/1";

class ReceivedSettings final : public modality::ProcessingSettings {
 public:
  explicit ReceivedSettings(ReceivedLevels levels) : levels_(levels) {}
  const ReceivedLevels& levels() const { return levels_; }
  const modality::Modality& modality() const override;

 private:
  ReceivedLevels levels_;
};

const modality::Modality& receivedModality();
std::shared_ptr<const ReceivedSettings> makeSettings(ReceivedLevels levels);
// `settings` as the received modality's levels; throws std::invalid_argument otherwise.
const ReceivedLevels& requireLevels(const modality::ProcessingSettings& settings);

// Saved files' metadata: "modality" = "received", cols, rows, pixel_type, dx_m, dz_m, x0_m, z0_m,
// device, levels ("levels" | "db"), black_level, white_level, span_db.
store::FileMetadata describe(const ReceivedFormat& format, const ReceivedLevels& levels);
}  // namespace cineflow::received
