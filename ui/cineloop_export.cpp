#include "cineloop_export.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include <QDir>
#include <QFile>
#include <QImageWriter>
#include <QTextStream>

#include "store/durable_rename.hpp"

namespace cineflow::ui {
namespace {

// zlib level 1: a 248 x 958 speckle image compresses about as well as at the default level 6 but
// several times faster, which keeps a 256-frame export on the GUI thread within seconds.
constexpr int kPngQuality = 90;  // Qt maps quality q to zlib level (100 - q) * 9 / 91 = 0..1

const QString kIndexFileName = QStringLiteral("index.csv");

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
      if (const auto failure = store::publishFile(toPath(folder_.filePath(temporaryName(name))),
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

CineloopExportResult failure(const QString& folder, const QString& reason) {
  CineloopExportResult result;
  result.message = QStringLiteral("Cineloop export to %1 failed: %2").arg(folder, reason);
  return result;
}

}  // namespace

QString cineloopFrameFileName(std::uint64_t sequence) {
  return QStringLiteral("frame_%1.png").arg(sequence, 6, 10, QLatin1Char('0'));
}

void renderGrey(const Frame& frame, const GreyLevels& levels, QImage& image) {
  const int nx = frame.geometry.nx;
  const int nz = frame.geometry.nz;
  if (image.width() != nx || image.height() != nz || image.format() != QImage::Format_Grayscale8) {
    image = QImage(nx, nz, QImage::Format_Grayscale8);
  }
  const float black = static_cast<float>(levels.gainDb - levels.dynamicRangeDb);
  const float scale = 255.0f / static_cast<float>(std::max(levels.dynamicRangeDb, 1e-6));
  for (int z = 0; z < nz; ++z) {
    const float* source = frame.pixels.data() + static_cast<std::size_t>(z) * nx;
    uchar* row = image.scanLine(z);  // rows are padded to 4 bytes: index by x, not by offset
    for (int x = 0; x < nx; ++x) {
      const float grey = std::clamp((source[x] - black) * scale, 0.0f, 255.0f);
      row[x] = static_cast<uchar>(grey + 0.5f);
    }
  }
}

CineloopExportResult exportCineloopPng(const pipeline::Cineloop& cineloop, const QString& folder,
                                       const GreyLevels& levels, const ExportProgress& progress,
                                       const std::atomic<bool>* cancel) {
  if (folder.isEmpty()) {
    return failure(folder, QStringLiteral("no folder given"));
  }
  if (!(levels.dynamicRangeDb > 0)) {
    return failure(folder, QStringLiteral("the dynamic range must be positive"));
  }
  QDir dir(folder);
  if (!dir.mkpath(QStringLiteral("."))) {
    return failure(folder, QStringLiteral("cannot create the folder"));
  }
  const std::vector<acquire::FrameHeader> headers = cineloop.headers();
  if (headers.empty()) {
    return failure(folder, QStringLiteral("the cineloop is empty"));
  }

  StagedFiles files(dir);
  std::vector<IndexRow> rows;
  rows.reserve(headers.size());
  Frame frame;  // reused: copyImage resizes its pixels once
  QImage image;
  int skipped = 0;
  int done = 0;
  for (const acquire::FrameHeader& listed : headers) {
    if (cancel != nullptr && cancel->load()) {
      return failure(folder, QStringLiteral("cancelled"));
    }
    if (progress) {
      progress(done++, static_cast<int>(headers.size()));
    }
    if (!cineloop.copyImage(listed.sequence, frame.pixels, frame.header, frame.geometry)) {
      ++skipped;  // overwritten since headers() was taken
      continue;
    }
    renderGrey(frame, levels, image);
    const QString name = cineloopFrameFileName(frame.header.sequence);
    QImageWriter writer(files.stage(name), "png");
    writer.setQuality(kPngQuality);
    if (!writer.write(image)) {
      return failure(folder, QStringLiteral("cannot write %1: %2").arg(name, writer.errorString()));
    }
    rows.push_back({frame.header, name});
  }
  if (rows.empty()) {
    return failure(folder, QStringLiteral("every frame was overwritten during the export"));
  }

  QString error;
  if (!writeIndex(files.stage(kIndexFileName), rows, error) || !files.commit(error)) {
    return failure(folder, error);
  }
  CineloopExportResult result;
  result.ok = true;
  result.framesWritten = static_cast<int>(rows.size());
  result.framesSkipped = skipped;
  result.message = QStringLiteral("Exported %1 cineloop frames to %2").arg(rows.size()).arg(folder);
  if (skipped > 0) {
    result.message += QStringLiteral(" (%1 overwritten meanwhile, skipped)").arg(skipped);
  }
  return result;
}

}  // namespace cineflow::ui
