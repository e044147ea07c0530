#include "export/cineloop_export.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>
#include <vector>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageWriter>
#include <QTextStream>

#include "base/durable_rename.hpp"
#include "export/picture_video.hpp"
#include "measure/measurement_list.hpp"

namespace cineflow::ui {
namespace {

// zlib level 1: a speckle picture compresses about as well as at the default level 6 but several
// times faster, which keeps a 256-frame export within seconds.
constexpr int kPngQuality = 90;  // Qt maps quality q to zlib level (100 - q) * 9 / 91 = 0..1

const QString kIndexFileName = QStringLiteral("index.csv");
const QString kMeasurementsFileName = QStringLiteral("measurements.csv");
constexpr double kFallbackVideoRateHz = 20.0;  // frames without usable timestamps

QString temporaryName(const QString& finalName) {
  return QLatin1Char('.') + finalName + QStringLiteral(".part");
}

std::filesystem::path toPath(const QString& path) {
  return std::filesystem::path(QFile::encodeName(path).toStdString());
}

// The files of one export: temporaries until commit() renames them all; whatever is left under a
// temporary or (after a failed commit) final name is removed on destruction.
class StagedFiles {
 public:
  explicit StagedFiles(QDir folder) : folder_(std::move(folder)) {}
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;
  ~StagedFiles() {
    for (const QString& name : committed_) {
      QFile::remove(folder_.filePath(name));
    }
    for (const QString& name : staged_) {
      QFile::remove(folder_.filePath(temporaryName(name)));
    }
  }

  // Path to write `finalName`'s content to; registered for cleanup before anything is written.
  QString stage(const QString& finalName) {
    staged_.push_back(finalName);
    return folder_.filePath(temporaryName(finalName));
  }

  // Renames every temporary to its final name (replacing an older export's file atomically).
  // On failure the files renamed so far are removed again, so no partial set stays behind.
  bool commit(QString& error) {
    while (!staged_.empty()) {
      const QString name = staged_.back();
      // Synced, renamed and its folder synced: a power cut leaves the old file or the new one.
      if (const auto failure = base::publishFile(toPath(folder_.filePath(temporaryName(name))),
                                                 toPath(folder_.filePath(name)))) {
        error = QStringLiteral("cannot save %1: %2: %3")
                    .arg(name, QString::fromStdString(failure->operation),
                         QString::fromStdString(failure->reason));
        return false;
      }
      staged_.pop_back();
      committed_.push_back(name);
    }
    committed_.clear();
    return true;
  }

 private:
  QDir folder_;
  std::vector<QString> staged_;
  std::vector<QString> committed_;
};

struct IndexRow {
  acquire::FrameHeader header;
  QString fileName;
};

// The measurements of the frames whose headers `sequenceOf` lists.
template <class Listed, class SequenceOf>
std::vector<Measurement> measurementsOf(const std::vector<Measurement>& all,
                                        const std::vector<Listed>& listed, SequenceOf sequenceOf) {
  std::vector<Measurement> found;
  for (const Measurement& m : all) {
    if (std::any_of(listed.begin(), listed.end(),
                    [&](const Listed& entry) { return sequenceOf(entry) == m.frame; })) {
      found.push_back(m);
    }
  }
  return found;
}

bool writeText(const QString& path, const QString& text, const QString& name, QString& error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text.toUtf8()) < 0 ||
      !file.flush()) {
    error = QStringLiteral("cannot write %1: %2").arg(name, file.errorString());
    return false;
  }
  return true;
}

bool writeIndex(const QString& path, const std::vector<IndexRow>& rows, QString& error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
    error = QStringLiteral("cannot write %1: %2").arg(kIndexFileName, file.errorString());
    return false;
  }
  QTextStream out(&file);
  out << "sequence,timestamp_ns,elevation_m,file\n";
  for (const IndexRow& row : rows) {
    out << QString::number(row.header.sequence) << ',' << QString::number(row.header.timestampNs)
        << ',' << QString::number(row.header.slice.elevationM, 'g', 9) << ',' << row.fileName
        << '\n';
  }
  out.flush();
  if (out.status() != QTextStream::Ok || !file.flush()) {
    error = QStringLiteral("cannot write %1: %2").arg(kIndexFileName, file.errorString());
    return false;
  }
  file.close();
  return true;
}

CineloopExportResult failure(const QString& target, const QString& reason) {
  CineloopExportResult result;
  result.message = QStringLiteral("Cineloop export to %1 failed: %2").arg(target, reason);
  return result;
}

// A folder made for the export: removed again on destruction unless kept (rmdir only removes it
// when empty, which it is once the staged files are gone: declare this before them).
class CreatedFolder {
 public:
  CreatedFolder() = default;
  CreatedFolder(const CreatedFolder&) = delete;
  CreatedFolder& operator=(const CreatedFolder&) = delete;
  ~CreatedFolder() {
    if (!path_.isEmpty() && !kept_) {
      QDir().rmdir(path_);
    }
  }
  // Creates `path` (and missing parents: only `path` itself is removed again) unless it exists.
  bool create(const QString& path) {
    if (QFileInfo(path).isDir()) {
      return true;
    }
    if (!QDir().mkpath(path)) {
      return false;
    }
    path_ = path;
    return true;
  }
  void keep() { kept_ = true; }

 private:
  QString path_;
  bool kept_ = false;
};

// Copies each listed entry into `frame` and calls visit(frame), which returns an error message or
// an empty string. Counts entries overwritten meanwhile in `skipped`. Returns the first error,
// "cancelled", or an empty string.
template <typename Visit>
QString forEachFrame(const pipeline::Cineloop& cineloop,
                     const std::vector<acquire::FrameHeader>& headers,
                     const ExportProgress& progress, const std::atomic<bool>* cancel, int& skipped,
                     Visit visit) {
  Image frame;  // reused: copyImage resizes its pixels once
  int done = 0;
  for (const acquire::FrameHeader& listed : headers) {
    if (cancel != nullptr && cancel->load()) {
      return QStringLiteral("cancelled");
    }
    if (progress) {
      progress(done++, static_cast<int>(headers.size()));
    }
    if (!cineloop.copyImage(listed.sequence, frame.pixels, frame.header, frame.geometry,
                            &frame.fresh)) {
      ++skipped;  // overwritten since headers() was taken
      continue;
    }
    if (QString error = visit(frame); !error.isEmpty()) {
      return error;
    }
  }
  return {};
}

CineloopExportResult succeeded(int written, int skipped, const QString& what,
                               const QString& target) {
  CineloopExportResult result;
  result.ok = true;
  result.framesWritten = written;
  result.framesSkipped = skipped;
  result.message =
      QStringLiteral("Exported %1 cineloop frames as %2 to %3").arg(written).arg(what, target);
  if (skipped > 0) {
    result.message += QStringLiteral(" (%1 overwritten meanwhile, skipped)").arg(skipped);
  }
  return result;
}

CineloopExportResult exportPng(const pipeline::Cineloop& cineloop,
                               const std::vector<acquire::FrameHeader>& headers,
                               const CineloopExportRequest& request, const ExportProgress& progress,
                               const std::atomic<bool>* cancel) {
  const QString& folder = request.target;
  const QFileInfo info(folder);
  if (info.exists() && !info.isDir()) {
    return failure(folder, QStringLiteral("it is not a folder"));
  }
  const QDir dir(folder);
  if (info.exists() &&
      !dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)
           .isEmpty()) {
    return failure(folder,
                   QStringLiteral("the folder already holds files (nothing is overwritten)"));
  }
  CreatedFolder created;
  if (!created.create(folder)) {
    return failure(folder, QStringLiteral("cannot create the folder"));
  }

  StagedFiles files(dir);
  std::vector<IndexRow> rows;
  rows.reserve(headers.size());
  FramePicture picture(request.picture);
  int skipped = 0;
  const QString error =
      forEachFrame(cineloop, headers, progress, cancel, skipped, [&](const Image& frame) {
        const QString name = cineloopFrameFileName(frame.header.sequence);
        const QImage& image = picture.draw(
            frame, QStringLiteral("seq %1").arg(frame.header.sequence), request.measurements);
        QImageWriter writer(files.stage(name), "png");
        writer.setQuality(kPngQuality);
        if (!writer.write(image)) {
          return QStringLiteral("cannot write %1: %2").arg(name, writer.errorString());
        }
        rows.push_back({frame.header, name});
        return QString();
      });
  if (!error.isEmpty()) {
    return failure(folder, error);
  }
  if (rows.empty()) {
    return failure(folder, QStringLiteral("every frame was overwritten during the export"));
  }
  QString commitError;
  const std::vector<Measurement> marks = measurementsOf(
      request.measurements, rows, [](const IndexRow& row) { return row.header.sequence; });
  if (!writeIndex(files.stage(kIndexFileName), rows, commitError) ||
      (!marks.empty() && !writeText(files.stage(kMeasurementsFileName), measurementsCsv(marks),
                                    kMeasurementsFileName, commitError)) ||
      !files.commit(commitError)) {
    return failure(folder, commitError);
  }
  created.keep();
  return succeeded(static_cast<int>(rows.size()), skipped, QStringLiteral("PNG"), folder);
}

// The exports to one file never overwrite: the failure for a target that exists.
std::optional<CineloopExportResult> refuseExisting(const QString& file) {
  if (QFileInfo::exists(file)) {
    return failure(file, QStringLiteral("the file exists already (nothing is overwritten)"));
  }
  return std::nullopt;
}

CineloopExportResult exportMp4(const pipeline::Cineloop& cineloop,
                               const std::vector<acquire::FrameHeader>& headers,
                               const CineloopExportRequest& request, const ExportProgress& progress,
                               const std::atomic<bool>* cancel) {
  const QString& file = request.target;
  // As acquired: the source's rate (at most kMaxVideoRateHz), each frame held for its real
  // duration, so that the video plays in real time even when the display imaged only some of
  // the source's frames. A chosen rate: one video frame per cineloop frame.
  const bool asAcquired = !(request.videoFramesPerSecond > 0);
  const double acquired = std::min(acquisitionRateHz(headers), kMaxVideoRateHz);
  const double fps = !asAcquired    ? request.videoFramesPerSecond
                     : acquired > 0 ? acquired
                                    : kFallbackVideoRateHz;
  const std::int64_t start = headers.empty() ? 0 : headers.front().timestampNs;
  std::int64_t written = 0;  // video frames so far
  int skipped = 0;
  const PictureVideoResult video = writePictureVideo(
      QString::fromStdString(toPath(file).string()), fps, request.picture, request.measurements,
      [&](const FrameSink& sink) {
        std::size_t index = 0;
        return forEachFrame(cineloop, headers, progress, cancel, skipped, [&](const Image& frame) {
          while (index < headers.size() && headers[index].sequence != frame.header.sequence) {
            ++index;
          }
          int repeats = 1;
          if (asAcquired && acquired > 0 && index + 1 < headers.size()) {
            // Up to the next frame's time on the video's clock.
            const auto until = static_cast<std::int64_t>(std::llround(
                static_cast<double>(headers[index + 1].timestampNs - start) * 1e-9 * fps));
            repeats = static_cast<int>(std::max<std::int64_t>(1, until - written));
          }
          written += repeats;
          sink(frame, repeats);
          return QString();
        });
      });
  if (!video.error.isEmpty()) {
    return failure(file, video.frames == 0 && skipped > 0
                             ? QStringLiteral("every frame was overwritten during the export")
                             : video.error);
  }
  return succeeded(video.frames, skipped, QStringLiteral("MP4 (%1 frames/s)").arg(fps, 0, 'f', 1),
                   file);
}

CineloopExportResult exportDicom(const pipeline::Cineloop& cineloop,
                                 const std::vector<acquire::FrameHeader>& headers,
                                 const CineloopExportRequest& request,
                                 const ExportProgress& progress, const std::atomic<bool>* cancel) {
  const QString& file = request.target;
  PictureOptions options = request.picture;
  options.annotations = false;  // no rulers: the pixel spacing holds over the whole picture
  FramePicture picture(options);
  DicomPictures pictures;
  // The frames' real spacing: the rate at which they were imaged.
  const double rate = imagedRateHz(headers);
  pictures.frameTimeMs = rate > 0 ? 1000.0 / rate : 1000.0 / kFallbackVideoRateHz;
  int skipped = 0;
  const QString error =
      forEachFrame(cineloop, headers, progress, cancel, skipped, [&](const Image& frame) {
        if (!pictures.frames.empty() && !(frame.geometry == pictures.geometry)) {
          ++skipped;  // made before the grid changed: one file holds one grid
          return QString();
        }
        pictures.geometry = frame.geometry;
        pictures.frames.push_back(picture.draw(frame, {}, request.measurements).copy());
        return QString();
      });
  if (!error.isEmpty()) {
    return failure(file, error);
  }
  if (pictures.frames.empty()) {
    return failure(file, QStringLiteral("every frame was overwritten during the export"));
  }
  pictures.burnedInAnnotation =
      options.measurements && !measurementsOf(request.measurements, headers, [](const auto& h) {
                                 return h.sequence;
                               }).empty();
  try {
    writeUltrasoundDicom(toPath(file).string(), pictures, request.patient);
  } catch (const std::exception& exception) {
    return failure(file, QString::fromStdString(exception.what()));
  }
  return succeeded(static_cast<int>(pictures.frames.size()), skipped, QStringLiteral("DICOM"),
                   file);
}

CineloopExportResult exportHdf5(const pipeline::Cineloop& cineloop,
                                const std::vector<acquire::FrameHeader>& headers,
                                const CineloopExportRequest& request,
                                const ExportProgress& progress, const std::atomic<bool>* cancel) {
  const QString& file = request.target;
  try {
    std::unique_ptr<store::BmodeWriter> writer;  // made with the first frame's geometry
    process::ImageGeometry geometry;
    int skipped = 0;
    const QString error =
        forEachFrame(cineloop, headers, progress, cancel, skipped, [&](const Image& frame) {
          if (!writer) {
            store::AttributeMap attributes = request.attributes;
            const std::vector<Measurement> marks =
                measurementsOf(request.measurements, headers,
                               [](const acquire::FrameHeader& h) { return h.sequence; });
            if (!marks.empty()) {
              attributes["measurements_csv"] = measurementsCsv(marks).toStdString();
            }
            writer = std::make_unique<store::BmodeWriter>(toPath(file), frame.geometry,
                                                          request.metadata, attributes);
            geometry = frame.geometry;
          }
          if (!(frame.geometry == geometry)) {
            ++skipped;  // made before the grid changed: one file holds one grid
            return QString();
          }
          writer->appendFrame(frame.header, frame.pixels, frame.fresh);
          return QString();
        });
    if (!error.isEmpty()) {
      return failure(file, error);
    }
    if (!writer || writer->frames() == 0) {
      return failure(file, QStringLiteral("every frame was overwritten during the export"));
    }
    writer->finish();
    return succeeded(static_cast<int>(writer->frames()), skipped, QStringLiteral("HDF5"), file);
  } catch (const std::exception& exception) {
    return failure(file, QString::fromUtf8(exception.what()));
  }
}

}  // namespace

double acquisitionRateHz(const std::vector<acquire::FrameHeader>& headers) {
  if (headers.size() < 2 || headers.back().timestampNs <= headers.front().timestampNs ||
      headers.back().sequence <= headers.front().sequence) {
    return 0.0;
  }
  return 1e9 * static_cast<double>(headers.back().sequence - headers.front().sequence) /
         static_cast<double>(headers.back().timestampNs - headers.front().timestampNs);
}

double imagedRateHz(const std::vector<acquire::FrameHeader>& headers) {
  if (headers.size() < 2 || headers.back().timestampNs <= headers.front().timestampNs) {
    return 0.0;
  }
  return 1e9 * static_cast<double>(headers.size() - 1) /
         static_cast<double>(headers.back().timestampNs - headers.front().timestampNs);
}

QString cineloopFrameFileName(std::uint64_t sequence) {
  return QStringLiteral("frame_%1.png").arg(sequence, 6, 10, QLatin1Char('0'));
}

CineloopExportResult exportCineloop(const pipeline::Cineloop& cineloop,
                                    const CineloopExportRequest& request,
                                    const ExportProgress& progress,
                                    const std::atomic<bool>* cancel) {
  if (request.target.isEmpty()) {
    return failure(request.target, QStringLiteral("no folder given"));
  }
  if (request.format != CineloopExportFormat::Hdf5 && !(request.picture.look.dynamicRangeDb > 0)) {
    return failure(request.target, QStringLiteral("the dynamic range must be positive"));
  }
  std::vector<acquire::FrameHeader> headers = cineloop.headers();
  if (request.onlyFrame) {
    std::erase_if(headers,
                  [&](const acquire::FrameHeader& h) { return h.sequence != *request.onlyFrame; });
    if (headers.empty()) {
      return failure(
          request.target,
          QStringLiteral("frame %1 is no longer in the cineloop").arg(*request.onlyFrame));
    }
  }
  if (headers.empty()) {
    return failure(request.target, QStringLiteral("the cineloop is empty"));
  }
  if (request.format != CineloopExportFormat::Png) {
    if (auto refused = refuseExisting(request.target)) {
      return *refused;
    }
  }
  switch (request.format) {
    case CineloopExportFormat::Png:
      return exportPng(cineloop, headers, request, progress, cancel);
    case CineloopExportFormat::Mp4:
      return exportMp4(cineloop, headers, request, progress, cancel);
    case CineloopExportFormat::Dicom:
      return exportDicom(cineloop, headers, request, progress, cancel);
    case CineloopExportFormat::Hdf5:
      break;
  }
  return exportHdf5(cineloop, headers, request, progress, cancel);
}

}  // namespace cineflow::ui
