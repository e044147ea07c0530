#pragma once
// Export of the cineloop, in one of two forms chosen by the operator:
//
// Pictures (PNG): every kept frame drawn as the display draws it (frame_picture.hpp: physical
// proportions, the display's gain, dynamic range and colour map, optionally rulers and scale bar,
// and the frame's measurements and annotations burnt in), one file per frame, plus index.csv and
// (with measurements) measurements.csv, into a folder the export creates:
//
//   <folder>/frame_<sequence, 6 digits>.png
//   <folder>/index.csv          sequence,timestamp_ns,elevation_m,file
//   <folder>/measurements.csv   MeasurementList::csvHeader(), those of the exported frames
//
// Video (MP4): the same pictures as H.264 video (mp4_writer.hpp) in one file, at the frame rate
// the request gives or, by default, as acquired: at the source's rate (acquisitionRateHz, at most
// kMaxVideoRateHz), each frame held for its real duration, so that it plays in real time.
//
// DICOM: the pictures without rulers (so that one pixel spacing holds across them) with the
// measurements burnt in, as one Ultrasound Multi-frame Image (an Ultrasound Image for one frame)
// with the physical pixel spacing in its Sequence of Ultrasound Regions (dicom_export.hpp).
//
// Data (HDF5): the frames' dB values as they are, in one cineflow.bmode/1 file (BmodeWriter), with
// the acquisition and the processing that made them, and the exported frames' measurements and
// annotations as the root attribute "measurements_csv" (the same CSV text).
//
// Nothing is ever overwritten: the PNG folder must not exist yet (or be empty), the HDF5 file must
// not exist. Every file is first written under a temporary name and renamed only when all of them
// are written, so a failure (unwritable folder, full disk, cancel) leaves neither partial files
// nor a partial set behind, and a folder the export created is removed again.

#include <atomic>
#include <functional>
#include <optional>

#include <QString>

#include "acquire/frame.hpp"
#include "export/dicom_export.hpp"
#include "export/frame_picture.hpp"
#include "measure/measurement.hpp"
#include "pipeline/cineloop.hpp"
#include "store/bmode_writer.hpp"

namespace cineflow::ui {

enum class CineloopExportFormat { Png, Hdf5, Mp4, Dicom };

struct CineloopExportRequest {
  CineloopExportFormat format = CineloopExportFormat::Png;
  QString target;          // PNG: the folder to create; HDF5: the file to create
  PictureOptions picture;  // PNG and MP4
  // MP4: 0 = as acquired (the source's rate, at most kMaxVideoRateHz, each frame held for its
  // real duration: real time); otherwise one video frame per cineloop frame at this rate.
  double videoFramesPerSecond = 0;
  DicomPatient patient;  // DICOM
  // DICOM: the operator asked for the file to go to the PACS once written. exportCineloop() does
  // not send; the cineloop panel hands the written file to its PacsUpload.
  bool sendToPacs = false;
  // Only this frame (the one on screen), in any form; all kept frames when empty.
  std::optional<std::uint64_t> onlyFrame;
  // HDF5 only: what the file records besides the frames (store/bmode_writer.hpp).
  store::FileMetadata metadata;
  store::AttributeMap attributes;
  // Measurements and annotations on the cineloop's frames (matched by sequence number).
  std::vector<Measurement> measurements;
};

struct CineloopExportResult {
  bool ok = false;
  int framesWritten = 0;
  int framesSkipped = 0;  // overwritten by the engine between listing and copying
  QString message;        // for the operator: what was written, or why nothing was
};

// Called after each frame written: (frames done, frames listed).
using ExportProgress = std::function<void(int, int)>;

// Exports every complete cineloop entry (oldest first) as `request` says. Runs on the calling
// thread (any thread: it reads the cineloop through its const reader API only). When `cancel`
// becomes true it stops before the next frame, removes what it wrote and returns a failure.
CineloopExportResult exportCineloop(const pipeline::Cineloop& cineloop,
                                    const CineloopExportRequest& request,
                                    const ExportProgress& progress = {},
                                    const std::atomic<bool>* cancel = nullptr);

// The fastest video "as acquired" makes: faster sources play in real time at this rate.
inline constexpr double kMaxVideoRateHz = 60.0;

// The rate the source acquired frames at: sequence numbers (which count every frame acquired,
// imaged or not) over time; 0 for fewer than two frames.
double acquisitionRateHz(const std::vector<acquire::FrameHeader>& headers);
// The rate these frames were imaged at: their count over time (below acquisitionRateHz when the
// display skipped or dropped frames); 0 for fewer than two frames.
double imagedRateHz(const std::vector<acquire::FrameHeader>& headers);

// "frame_000042.png"
QString cineloopFrameFileName(std::uint64_t sequence);

}  // namespace cineflow::ui
