#pragma once
// Accuracy figures of a batch job whose recording carries a known answer (the datasets of
// data/README.md), measured on the job's output file:
//   known scatterers (/reference/scatterers_m [n][x, y, z] in the recording, as the Field II
//     file has): every isolated one (no other within 2 mm; the Field II file's four on the axis)
//     inside the grid, found as the sub-pixel peak of the first frame within 1 mm of it: "points",
//     "point_error_max_mm", "point_error_mean_mm";
//   PyMUST's B-mode (/reference/bmode_u8 with x_m and z_m): each frame as PyMUST shows it (30 dB,
//     each frame's maximum at 0 dB, uint8) against the reference frame, Pearson's correlation:
//     "bmode_correlation_min", "bmode_correlation_mean" (the output's grid must be the
//     reference's; otherwise "accuracy_note" says so);
//   PyMUST's colour Doppler (a plan input's "doppler_reference": /velocity_m_s and /bmode_u8): the
//     last frame's velocity against the reference's inside the disk (where the reference's mean
//     B-mode exceeds 64): "velocity_correlation", "velocity_rms_error_m_s".
// An empty object when the recording has no reference. Never throws: a figure that cannot be
// measured becomes "accuracy_note".

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace cineflow::app::batch {

nlohmann::ordered_json accuracyFigures(const std::string& input,
                                       const std::filesystem::path& output,
                                       const std::string& dopplerReference);

}  // namespace cineflow::app::batch
