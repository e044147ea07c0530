// The MP4 writer (ui/mp4_writer.hpp) read back with FFmpeg's own decoder: seeded random pictures
// of odd size come back as H.264 of the even size that holds them, frame for frame, at the asked
// frame rate, and the first frame's pixels within what H.264 at the writer's quality changes;
// a failure (an unwritable place, a picture of another size) leaves no file behind.
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QTemporaryDir>
#include <QtTest>

#include "export/mp4_writer.hpp"
#include "mp4_decode.hpp"
#include "support/test_random.hpp"

using namespace cineflow;

namespace {

// Blocks of 16 x 16 pixels in seeded random colours: what H.264 keeps well, unlike noise.
QImage blocks(int width, int height, std::uint64_t seed) {
  test::SeededRandom random(seed);
  QImage image(width, height, QImage::Format_RGB32);
  QPainter painter(&image);
  for (int y = 0; y < height; y += 16) {
    for (int x = 0; x < width; x += 16) {
      painter.fillRect(
          x, y, 16, 16,
          QColor(static_cast<int>(random.integer(0, 255)), static_cast<int>(random.integer(0, 255)),
                 static_cast<int>(random.integer(0, 255))));
    }
  }
  return image;
}

}  // namespace

class TestVideoExport : public QObject {
  Q_OBJECT

 private slots:
  void picturesComeBackFromTheDecoder() {
    QTemporaryDir dir;
    const std::string path = QDir(dir.path()).filePath(QStringLiteral("blocks.mp4")).toStdString();
    constexpr int kFrames = 12, kWidth = 301, kHeight = 203;
    constexpr double kFps = 25.0;
    const QImage first = blocks(kWidth, kHeight, 7);
    {
      ui::Mp4Writer writer(path, kFps);
      writer.write(first);
      for (int f = 1; f < kFrames; ++f) {
        writer.write(blocks(kWidth, kHeight, 7 + static_cast<std::uint64_t>(f)));
      }
      QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));  // only the partial file yet
      writer.finish();
      qInfo("encoder %s", writer.encoder().c_str());
    }
    const test::DecodedVideo video = test::decodeMp4(path);
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.codec, QStringLiteral("h264"));
    QCOMPARE(video.frames, kFrames);
    QCOMPARE(video.width, kWidth + 1);  // padded to even sides for 4:2:0
    QCOMPARE(video.height, kHeight + 1);
    QVERIFY2(std::abs(video.seconds - kFrames / kFps) < 1.5 / kFps,
             qPrintable(QString::number(video.seconds)));
    // Constant rate factor 18 on flat blocks: a few levels of 255 on average (4:2:0 halves the
    // colour resolution at the blocks' edges).
    const double difference = test::meanAbsoluteDifference(first, video.first);
    qInfo("first frame: mean absolute difference %.2f of 255", difference);
    QVERIFY(difference < 6.0);
    // The padding is black.
    QVERIFY(qGray(video.first.pixel(kWidth, kHeight / 2)) < 24);
  }

  void failuresLeaveNoFile() {
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(QStringLiteral("bad.mp4"));
    {
      ui::Mp4Writer writer(path.toStdString(), 20.0);
      writer.write(blocks(64, 48, 1));
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, writer.write(blocks(32, 48, 2)));
    }  // destroyed without finish()
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    ui::Mp4Writer nowhere("/proc/no/such/folder/x.mp4", 20.0);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, nowhere.write(blocks(64, 48, 1)));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, ui::Mp4Writer(path.toStdString(), 0.0));
  }
};

QTEST_MAIN(TestVideoExport)
#include "test_video_export.moc"
