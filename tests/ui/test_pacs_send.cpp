// Sending DICOM files to a PACS (export/pacs_sender.hpp), against a real one: Orthanc, started by
// the test on the loopback interface with its own configuration and storage
// (support/orthanc_server.hpp). What arrives is read back through Orthanc's REST API and compared
// with what was sent: the pixel data byte for byte, and the ultrasound region's physical deltas
// against the geometry the pictures were made from.

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <random>

#include "export/dcmtk.hpp"
#include "export/dicom_export.hpp"
#include "export/pacs_sender.hpp"
#include "support/orthanc_server.hpp"

using namespace cineflow;
using cineflow::test::OrthancServer;

namespace {

const QString kPacsTitle = QStringLiteral("CF_TEST_PACS");
const QString kCineflowTitle = QStringLiteral("CINEFLOW_TEST");

ui::PacsNode nodeOf(const OrthancServer& pacs) {
  ui::PacsNode node;
  node.calledAe = pacs.aeTitle().toStdString();
  node.host = "127.0.0.1";
  node.port = pacs.dicomPort();
  node.callingAe = kCineflowTitle.toStdString();
  node.timeoutSeconds = 10;
  return node;
}

// `frames` pictures of seeded noise, 160 x 120, of a 40 mm x 30 mm image.
ui::DicomPictures noisePictures(int frames, unsigned seed) {
  ui::DicomPictures pictures;
  pictures.geometry.nx = 128;
  pictures.geometry.dx = 40e-3 / 128;
  pictures.geometry.nz = 300;
  pictures.geometry.dz = 30e-3 / 300;
  pictures.geometry.z0 = 5e-3;
  pictures.frameTimeMs = 25;
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> value(0, 255);
  for (int f = 0; f < frames; ++f) {
    QImage image(160, 120, QImage::Format_RGB888);
    for (int y = 0; y < image.height(); ++y) {
      uchar* line = image.scanLine(y);
      for (int x = 0; x < image.width() * 3; ++x) {
        line[x] = static_cast<uchar>(value(random));
      }
    }
    pictures.frames.push_back(image);
  }
  return pictures;
}

QByteArray pixelDataOf(const QString& path) {
  DcmFileFormat file;
  if (file.loadFile(path.toStdString().c_str()).bad()) {
    return {};
  }
  const Uint8* pixels = nullptr;
  unsigned long count = 0;
  if (file.getDataset()->findAndGetUint8Array(DCM_PixelData, pixels, &count).bad() || !pixels) {
    return {};
  }
  return QByteArray(reinterpret_cast<const char*>(pixels), static_cast<qsizetype>(count));
}

QString tagOf(const QString& path, const DcmTagKey& tag) {
  DcmFileFormat file;
  OFString value;
  if (file.loadFile(path.toStdString().c_str()).good()) {
    file.getDataset()->findAndGetOFString(tag, value);
  }
  return QString::fromLatin1(value.c_str());
}

// Orthanc's instance ID of the stored copy of SOP instance `uid` ("" when none).
QString instanceWithUid(const OrthancServer& pacs, const QString& uid) {
  const QJsonArray ids = pacs.getJson(QStringLiteral("/instances")).array();
  for (const QJsonValue& id : ids) {
    const QJsonObject tags =
        pacs.getJson(QStringLiteral("/instances/%1/simplified-tags").arg(id.toString())).object();
    if (tags.value(QStringLiteral("SOPInstanceUID")).toString() == uid) {
      return id.toString();
    }
  }
  return {};
}

std::vector<std::string> writeExports(const QTemporaryDir& dir, int files, int framesEach) {
  std::vector<std::string> paths;
  for (int i = 0; i < files; ++i) {
    const std::string path = dir.filePath(QStringLiteral("export_%1.dcm").arg(i)).toStdString();
    ui::writeUltrasoundDicom(path, noisePictures(framesEach, 1000U + static_cast<unsigned>(i)), {});
    paths.push_back(path);
  }
  return paths;
}

}  // namespace

class TestPacsSend : public QObject {
  Q_OBJECT

 private slots:
  void nodeProblemsAreNamed();
  void echoAnswersAndRefusalsAreExplained();
  void exportsArriveIntact();
  void unreadableFilesAreReportedAndEveryFileKept();
  void aPacsThatDisappearsKeepsTheFiles();
};

void TestPacsSend::nodeProblemsAreNamed() {
  ui::PacsNode node{"ORTHANC", "pacs.example.org", 4242, "CINEFLOW", 10};
  QCOMPARE(QString::fromStdString(ui::pacsNodeProblem(node)), QString());
  QCOMPARE(QString::fromStdString(ui::describePacsNode(node)),
           QStringLiteral("ORTHANC at pacs.example.org:4242"));
  auto problem = [](ui::PacsNode n) { return QString::fromStdString(ui::pacsNodeProblem(n)); };
  ui::PacsNode bad = node;
  bad.calledAe = "A_TITLE_LONGER_THAN16";
  QVERIFY(problem(bad).contains(QStringLiteral("1 to 16 characters")));
  bad = node;
  bad.callingAe = "CINE\\FLOW";
  QVERIFY(problem(bad).contains(QStringLiteral("backslash")));
  bad = node;
  bad.calledAe = "    ";
  QVERIFY(problem(bad).contains(QStringLiteral("only spaces")));
  bad = node;
  bad.port = 70000;
  QVERIFY(problem(bad).contains(QStringLiteral("70000")));
  bad = node;
  bad.host = "";
  QVERIFY(problem(bad).contains(QStringLiteral("host")));
  // Refused before any network step, in words.
  const ui::PacsReply reply = ui::echoPacs(bad);
  QVERIFY(!reply.ok);
  QVERIFY(QString::fromStdString(reply.message).contains(QStringLiteral("cannot be used")));
}

void TestPacsSend::echoAnswersAndRefusalsAreExplained() {
  OrthancServer pacs(kPacsTitle, kCineflowTitle);
  if (!pacs.started()) {
    QSKIP(qPrintable(pacs.why()));
  }
  const ui::PacsNode node = nodeOf(pacs);
  const ui::PacsReply answered = ui::echoPacs(node);
  QVERIFY2(answered.ok, answered.message.c_str());
  QVERIFY(QString::fromStdString(answered.message).contains(QStringLiteral("answered")));

  ui::PacsNode wrongTitle = node;  // the PACS checks the title it is called by
  wrongTitle.calledAe = "NOT_THE_PACS";
  ui::PacsReply refused = ui::echoPacs(wrongTitle);
  QVERIFY(!refused.ok);
  QVERIFY2(QString::fromStdString(refused.message).contains(QStringLiteral("refused")),
           refused.message.c_str());

  ui::PacsNode stranger = node;  // a caller the PACS was not told of
  stranger.callingAe = "STRANGER";
  refused = ui::echoPacs(stranger);
  QVERIFY(!refused.ok);
  QVERIFY2(QString::fromStdString(refused.message).contains(QStringLiteral("\"STRANGER\"")),
           refused.message.c_str());

  pacs.kill();  // nothing listens any more
  const ui::PacsReply unreachable = ui::echoPacs(node);
  QVERIFY(!unreachable.ok);
  QVERIFY2(QString::fromStdString(unreachable.message).contains(QStringLiteral("cannot reach")),
           unreachable.message.c_str());
}

void TestPacsSend::exportsArriveIntact() {
  OrthancServer pacs(kPacsTitle, kCineflowTitle);
  if (!pacs.started()) {
    QSKIP(qPrintable(pacs.why()));
  }
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  // A multi-frame export (Ultrasound Multi-frame Image) and a one-frame one (Ultrasound Image).
  std::vector<std::string> paths = writeExports(dir, 1, 3);
  const std::string single = dir.filePath(QStringLiteral("single.dcm")).toStdString();
  ui::writeUltrasoundDicom(single, noisePictures(1, 77), {});
  paths.push_back(single);

  std::vector<std::pair<int, int>> steps;
  const ui::PacsSendReport report = ui::sendToPacs(
      nodeOf(pacs), paths, [&](int done, int total) { steps.emplace_back(done, total); });
  QVERIFY2(report.allStored(), report.summary(nodeOf(pacs)).c_str());
  QCOMPARE(report.storedCount(), 2);
  QCOMPARE(steps.back(), std::make_pair(2, 2));
  QCOMPARE(pacs.getJson(QStringLiteral("/instances")).array().size(), 2);

  const process::ImageGeometry geometry = noisePictures(1, 0).geometry;
  for (const std::string& path : paths) {
    const QString sent = QString::fromStdString(path);
    const QString id = instanceWithUid(pacs, tagOf(sent, DCM_SOPInstanceUID));
    QVERIFY2(!id.isEmpty(), qPrintable(sent + QStringLiteral(" is not in the PACS")));
    const OrthancServer::Reply stored = pacs.get(QStringLiteral("/instances/%1/file").arg(id));
    QCOMPARE(stored.status, 200);
    const QString copy = dir.filePath(QStringLiteral("from_pacs.dcm"));
    QFile file(copy);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(stored.body), stored.body.size());
    file.close();
    QCOMPARE(tagOf(copy, DCM_SOPClassUID), tagOf(sent, DCM_SOPClassUID));
    const QByteArray original = pixelDataOf(sent);
    QVERIFY(!original.isEmpty());
    QVERIFY2(pixelDataOf(copy) == original, "the stored pixel data differ from the sent");

    // The physical deltas as the PACS holds them: cm per pixel of the 160 x 120 pictures.
    const QJsonObject tags =
        pacs.getJson(QStringLiteral("/instances/%1/simplified-tags").arg(id)).object();
    const QJsonObject region =
        tags.value(QStringLiteral("SequenceOfUltrasoundRegions")).toArray().at(0).toObject();
    const double deltaX = region.value(QStringLiteral("PhysicalDeltaX")).toString().toDouble();
    const double deltaY = region.value(QStringLiteral("PhysicalDeltaY")).toString().toDouble();
    // FD values travel as 8-byte doubles: equal to rounding in the REST API's decimal text.
    QVERIFY2(std::abs(deltaX - geometry.nx * geometry.dx * 100.0 / 160) < 1e-12,
             qPrintable(QString::number(deltaX, 'g', 17)));
    QVERIFY2(std::abs(deltaY - geometry.nz * geometry.dz * 100.0 / 120) < 1e-12,
             qPrintable(QString::number(deltaY, 'g', 17)));
  }
}

void TestPacsSend::unreadableFilesAreReportedAndEveryFileKept() {
  OrthancServer pacs(kPacsTitle, kCineflowTitle);
  if (!pacs.started()) {
    QSKIP(qPrintable(pacs.why()));
  }
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  std::vector<std::string> paths = writeExports(dir, 1, 2);
  const QString text = dir.filePath(QStringLiteral("notes.dcm"));
  QFile notes(text);
  QVERIFY(notes.open(QIODevice::WriteOnly));
  notes.write("not a DICOM file at all\n");
  notes.close();
  paths.insert(paths.begin(), text.toStdString());
  paths.push_back(dir.filePath(QStringLiteral("missing.dcm")).toStdString());

  const ui::PacsSendReport report = ui::sendToPacs(nodeOf(pacs), paths);
  QCOMPARE(report.files.size(), std::size_t{3});
  QVERIFY(!report.files[0].stored);
  QVERIFY2(QString::fromStdString(report.files[0].message).contains(QStringLiteral("not a DICOM")),
           report.files[0].message.c_str());
  QVERIFY2(report.files[1].stored, report.files[1].message.c_str());
  QVERIFY(!report.files[2].stored);
  const QString summary = QString::fromStdString(report.summary(nodeOf(pacs)));
  QVERIFY2(summary.startsWith(QStringLiteral("1 of 3 files stored on CF_TEST_PACS at 127.0.0.1:")),
           qPrintable(summary));
  QVERIFY(summary.contains(QStringLiteral("kept")));
  QCOMPARE(pacs.getJson(QStringLiteral("/instances")).array().size(), 1);
  QVERIFY(QFile::exists(text));
  QVERIFY(QFile::exists(QString::fromStdString(paths[1])));
}

void TestPacsSend::aPacsThatDisappearsKeepsTheFiles() {
  OrthancServer pacs(kPacsTitle, kCineflowTitle);
  if (!pacs.started()) {
    QSKIP(qPrintable(pacs.why()));
  }
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::vector<std::string> paths = writeExports(dir, 6, 4);
  std::vector<QByteArray> before;
  for (const std::string& path : paths) {
    before.push_back(pixelDataOf(QString::fromStdString(path)));
  }
  // The PACS is killed before the fourth file goes.
  const ui::PacsSendReport report = ui::sendToPacs(nodeOf(pacs), paths, [&](int done, int) {
    if (done == 3) {
      pacs.kill();
    }
  });
  const QString summary = QString::fromStdString(report.summary(nodeOf(pacs)));
  QCOMPARE(report.storedCount(), 3);
  for (int i = 3; i < 6; ++i) {
    QVERIFY(!report.files[static_cast<std::size_t>(i)].stored);
  }
  QVERIFY2(summary.contains(QStringLiteral("connection")), qPrintable(summary));
  QVERIFY2(summary.contains(QStringLiteral("Every file is kept")), qPrintable(summary));
  for (std::size_t i = 0; i < paths.size(); ++i) {
    QCOMPARE(pixelDataOf(QString::fromStdString(paths[i])), before[i]);
  }
}

QTEST_GUILESS_MAIN(TestPacsSend)
#include "test_pacs_send.moc"
