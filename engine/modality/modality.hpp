#pragma once
// The modality seam. The pipeline (engine/pipeline: rings, in-flight slots, cineloop, volume
// assembly), the VolumeStore and saving, the profiler and the GUI's views are modality-neutral:
// they move raw frames as bytes and images as floats [z][x] and never ask which modality runs.
// A modality (engine/ultrasound, engine/oct) contributes, through these interfaces only:
//
//   its sources        acquire::FrameSource: raw frames of a fixed size, and source->modality()
//   its parameters     ProcessingSettings: opaque to the pipeline, which stores them, hands them to
//                      the processor between frames and returns them to whoever asks
//   its stage chain    modality::FrameProcessor from createProcessor(): CPU and CUDA twins behind
//                      compute::Backend, raw bytes in, an image out
//   its defaults,      defaultSettings() and validate() for a given source
//   validation and
//   file metadata      describe(): the attributes saved files carry so the image can be redone
//   its recordings     recordingLayout(): how raw frames are recorded (cineflow.rf/1,
//                      cineflow.oct/1), for the neutral raw recorder (store/raw_recorder.hpp)
//
// Each modality's code sees only its own types (its source and settings subclasses) and turns the
// neutral ones into them in one place (a checked downcast that names what was expected).

#include <memory>

#include "process/image_geometry.hpp"
#include "store/file_metadata.hpp"
#include "store/recording_layout.hpp"

namespace cineflow::acquire {
class FrameSource;
}
namespace cineflow::modality {

class FrameProcessor;  // modality/frame_processor.hpp
class Modality;

// One modality's processing parameters, immutable once made (shared between the controlling
// thread, the engine thread and readers).
class ProcessingSettings {
 public:
  virtual ~ProcessingSettings() = default;
  virtual const Modality& modality() const = 0;
};

class Modality {
 public:
  virtual ~Modality() = default;
  // "ultrasound" | "oct": in messages and in saved files' "modality" attribute.
  virtual const char* name() const = 0;
  // Parameters for a first look at `source`'s frames. Throws std::invalid_argument when the
  // source is not one of this modality's.
  virtual std::shared_ptr<const ProcessingSettings> defaultSettings(
      const acquire::FrameSource& source) const = 0;
  // Throws std::invalid_argument naming the first parameter that cannot image `source`'s frames
  // (settings or source of another modality included).
  virtual void validate(const ProcessingSettings& settings,
                        const acquire::FrameSource& source) const = 0;
  // The image `settings` make of `source`'s frames (validated settings).
  virtual process::ImageGeometry geometry(const ProcessingSettings& settings,
                                          const acquire::FrameSource& source) const = 0;
  // A processor for this modality's frames, configured by the engine before use.
  virtual std::unique_ptr<FrameProcessor> createProcessor() const = 0;
  // The acquisition and processing as saved files record them (store/file_metadata.hpp).
  virtual store::FileMetadata describe(const acquire::FrameSource& source,
                                       const ProcessingSettings& settings) const = 0;
  // How `source`'s raw frames are recorded: the modality's recording schema, with the
  // acquisition (and what of `settings` a replay should start from) in its header.
  virtual store::RecordingLayout recordingLayout(const acquire::FrameSource& source,
                                                 const ProcessingSettings& settings) const = 0;
};

}  // namespace cineflow::modality
