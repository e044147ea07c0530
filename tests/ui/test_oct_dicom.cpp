// OCT volumes as DICOM Ophthalmic Tomography Images (export/oct_dicom.hpp): dicom3tools' dciodvfy
// finds no error; the pixels are the B-scans' grey levels byte for byte; the pixel spacing, slice
// thickness, positions and wavelength are those handed in; and the file goes through C-STORE into a
// real PACS (Orthanc, started by the test on the loopback interface) intact.

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <random>

#include "dciodvfy.hpp"
#include "export/dcmtk.hpp"
#include "export/oct_dicom.hpp"
#include "export/pacs_sender.hpp"
#include "support/orthanc_server.hpp"

using namespace cineflow;

namespace {

// 5 B-scans of seeded noise, 96 x 140 pixels, 6 um x 3.5 um, 20 um apart from 1 mm.
ui::OctDicomVolume noiseVolume(unsigned seed) {
  ui::OctDicomVolume volume;
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> level(0, 255);
  for (int f = 0; f < 5; ++f) {
    QImage bscan(96, 140, QImage::Format_RGB32);
    for (int y = 0; y < bscan.height(); ++y) {
      for (int x = 0; x < bscan.width(); ++x) {
        const int v = level(random);
        bscan.setPixel(x, y, qRgb(v, v, v));
      }
    }
    volume.bscans.push_back(bscan);
    volume.elevationMm.push_back(1.0 + 0.02 * f);
  }
  volume.columnSpacingMm = 0.006;
  volume.rowSpacingMm = 0.0035;
  volume.centreWavelengthNm = 840;
  volume.bandwidthNm = 95.5;
  volume.laterality = ui::Laterality::Left;
  volume.acquiredAtNs = 1'780'000'000'123'456'789;
  volume.acquisitionSeconds = 0.25;
  return volume;
}

ui::DicomPatient examplePatient() {
  ui::DicomPatient patient;
  patient.name = QStringLiteral("Doe^Jane");
  patient.id = QStringLiteral("OCT-0042");
  patient.studyDescription = QStringLiteral("Retina");
  return patient;
}

QString text(DcmItem& item, const DcmTagKey& tag) {
  OFString value;
  item.findAndGetOFStringArray(tag, value);
  return QString::fromLatin1(value.c_str());
}

}  // namespace

class TestOctDicom : public QObject {
  Q_OBJECT

 private slots:
  void writesAValidOphthalmicTomographyImage();
  void refusesWhatCannotBeWritten();
  void arrivesInThePacsIntact();
};

void TestOctDicom::writesAValidOphthalmicTomographyImage() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("oct.dcm"));
  const ui::OctDicomVolume volume = noiseVolume(7);
  ui::writeOctDicom(path.toStdString(), volume, examplePatient());

  // dicom3tools holds the OPT image module's three concatenation numbers as Type 1, while its own
  // multi-frame rules refuse them outside a concatenation (a Concatenation UID, more than one
  // part): no single-instance file satisfies both (each way gives three errors). Cineflow writes
  // one whole instance, without them; those three findings are expected, any other is a defect.
  const QStringList knownFindings = {
      QStringLiteral(
          "Error - Missing attribute Type 1 Required Element=<ConcatenationFrameOffsetNumber> "
          "Module=<OphthalmicTomographyImage>"),
      QStringLiteral("Error - Missing attribute Type 1 Required Element=<InConcatenationNumber> "
                     "Module=<OphthalmicTomographyImage>"),
      QStringLiteral(
          "Error - Missing attribute Type 1 Required Element=<InConcatenationTotalNumber> "
          "Module=<OphthalmicTomographyImage>")};
  QStringList findings = test::dciodvfyFindings(path);
  for (const QString& finding : findings) {
    qInfo("dciodvfy: %s", qPrintable(finding));
  }
  for (const QString& known : knownFindings) {
    findings.removeAll(known);
  }
  QVERIFY2(findings.isEmpty(), qPrintable(findings.join(QLatin1Char('\n'))));

  DcmFileFormat file;
  QVERIFY(file.loadFile(path.toStdString().c_str()).good());
  DcmDataset& data = *file.getDataset();
  QCOMPARE(text(data, DCM_SOPClassUID), QString::fromLatin1(ui::kOphthalmicTomographyImageStorage));
  QCOMPARE(text(data, DCM_Modality), QStringLiteral("OPT"));
  QCOMPARE(text(data, DCM_NumberOfFrames), QStringLiteral("5"));
  QCOMPARE(text(data, DCM_ImageLaterality), QStringLiteral("L"));
  QCOMPARE(text(data, DCM_IlluminationWaveLength).toDouble(), 840.0);
  QCOMPARE(text(data, DCM_IlluminationBandwidth).toDouble(), 95.5);
  QCOMPARE(text(data, DCM_PatientName), QStringLiteral("Doe^Jane"));

  DcmItem* shared = nullptr;
  QVERIFY(data.findAndGetSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0).good());
  DcmItem* measures = nullptr;
  QVERIFY(shared->findAndGetSequenceItem(DCM_PixelMeasuresSequence, measures, 0).good());
  const QStringList spacing = text(*measures, DCM_PixelSpacing).split(QLatin1Char('\\'));
  QCOMPARE(spacing.size(), 2);
  QCOMPARE(spacing[0].toDouble(), 0.0035);  // between rows: depth
  QCOMPARE(spacing[1].toDouble(), 0.006);   // between columns: lateral
  QVERIFY(std::abs(text(*measures, DCM_SliceThickness).toDouble() - 0.02) < 1e-12);
  for (unsigned long f = 0; f < 5; ++f) {
    DcmItem* frame = nullptr;
    QVERIFY(data.findAndGetSequenceItem(DCM_PerFrameFunctionalGroupsSequence, frame,
                                        static_cast<int>(f))
                .good());
    DcmItem* position = nullptr;
    QVERIFY(frame->findAndGetSequenceItem(DCM_PlanePositionSequence, position, 0).good());
    const QStringList xyz = text(*position, DCM_ImagePositionPatient).split(QLatin1Char('\\'));
    QCOMPARE(xyz.size(), 3);
    QVERIFY(std::abs(xyz[2].toDouble() - volume.elevationMm[f]) < 1e-12);
  }

  const Uint8* pixels = nullptr;
  unsigned long count = 0;
  QVERIFY(data.findAndGetUint8Array(DCM_PixelData, pixels, &count).good());
  QCOMPARE(count, 5UL * 96 * 140);
  for (std::size_t f = 0; f < 5; ++f) {
    for (int y = 0; y < 140; ++y) {
      for (int x = 0; x < 96; ++x) {
        const int expected = qRed(volume.bscans[f].pixel(x, y));
        const int got =
            pixels[(f * 140 + static_cast<std::size_t>(y)) * 96 + static_cast<std::size_t>(x)];
        if (got != expected) {
          QFAIL(qPrintable(QStringLiteral("frame %1 pixel (%2, %3): %4, expected %5")
                               .arg(f)
                               .arg(x)
                               .arg(y)
                               .arg(got)
                               .arg(expected)));
        }
      }
    }
  }
}

void TestOctDicom::refusesWhatCannotBeWritten() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::string path = dir.filePath(QStringLiteral("bad.dcm")).toStdString();
  ui::OctDicomVolume noWavelength = noiseVolume(1);
  noWavelength.centreWavelengthNm = 0;
  QVERIFY(QString::fromStdString(ui::octDicomProblem(noWavelength))
              .contains(QStringLiteral("wavelength")));
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, ui::writeOctDicom(path, noWavelength, {}));
  QVERIFY(!QFile::exists(QString::fromStdString(path)));
  QVERIFY(!QFile::exists(QString::fromStdString(path + ".partial")));
  ui::OctDicomVolume backwards = noiseVolume(1);
  std::reverse(backwards.elevationMm.begin(), backwards.elevationMm.end());
  QVERIFY(
      QString::fromStdString(ui::octDicomProblem(backwards)).contains(QStringLiteral("increase")));
  ui::OctDicomVolume mixed = noiseVolume(1);
  mixed.bscans.back() = mixed.bscans.back().scaled(50, 50);
  QVERIFY(QString::fromStdString(ui::octDicomProblem(mixed)).contains(QStringLiteral("same size")));
}

void TestOctDicom::arrivesInThePacsIntact() {
  test::OrthancServer pacs(QStringLiteral("CF_OCT_PACS"), QStringLiteral("CINEFLOW_OCT"));
  if (!pacs.started()) {
    QSKIP(qPrintable(pacs.why()));
  }
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("oct.dcm"));
  ui::writeOctDicom(path.toStdString(), noiseVolume(11), examplePatient());
  ui::PacsNode node{"CF_OCT_PACS", "127.0.0.1", pacs.dicomPort(), "CINEFLOW_OCT", 10};
  const ui::PacsSendReport report = ui::sendToPacs(node, {path.toStdString()});
  QVERIFY2(report.allStored(), report.summary(node).c_str());
  const QJsonArray ids = pacs.getJson(QStringLiteral("/instances")).array();
  QCOMPARE(ids.size(), 1);
  const QString id = ids[0].toString();
  const test::OrthancServer::Reply stored = pacs.get(QStringLiteral("/instances/%1/file").arg(id));
  QCOMPARE(stored.status, 200);
  QFile original(path);
  QVERIFY(original.open(QIODevice::ReadOnly));
  const QString copyPath = dir.filePath(QStringLiteral("from_pacs.dcm"));
  QFile copy(copyPath);
  QVERIFY(copy.open(QIODevice::WriteOnly));
  copy.write(stored.body);
  copy.close();
  DcmFileFormat sent, received;
  QVERIFY(sent.loadFile(path.toStdString().c_str()).good());
  QVERIFY(received.loadFile(copyPath.toStdString().c_str()).good());
  const Uint8* a = nullptr;
  const Uint8* b = nullptr;
  unsigned long na = 0, nb = 0;
  QVERIFY(sent.getDataset()->findAndGetUint8Array(DCM_PixelData, a, &na).good());
  QVERIFY(received.getDataset()->findAndGetUint8Array(DCM_PixelData, b, &nb).good());
  QCOMPARE(nb, na);
  QVERIFY(std::equal(a, a + na, b));
  QCOMPARE(text(*received.getDataset(), DCM_SOPClassUID),
           QString::fromLatin1(ui::kOphthalmicTomographyImageStorage));
  QCOMPARE(text(*received.getDataset(), DCM_IlluminationWaveLength).toDouble(), 840.0);
}

QTEST_GUILESS_MAIN(TestOctDicom)
#include "test_oct_dicom.moc"
