// Presets saved from the GUI, without a window (shell/presets.hpp, shell/preset_files.hpp): what
// each modality captures of the parameters in effect, written as a preset file, parses back to
// the same values (ultrasound with its Doppler settings and flow look, OCT, a display-only
// preset); the file name taken from a preset's name is safe and unique; a shipped name or an
// empty one is refused; and a write that fails says why and leaves the folder as it was.
#include <cerrno>
#include <filesystem>
#include <random>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "base/durable_rename.hpp"
#include "modalities/oct/oct_presets.hpp"
#include "modalities/ultrasound/ultrasound_presets.hpp"
#include "shell/preset_files.hpp"
#include "shell/presets.hpp"

using namespace cineflow;
using ui::Preset;

namespace {

// A preset holding `section` of `modality`, through the file format and back.
Preset roundTrip(const QString& modality, std::shared_ptr<const ui::PresetSection> section) {
  Preset preset;
  preset.name = QStringLiteral("Round trip");
  preset.modality = modality;
  preset.gainDb = -7.25;
  preset.dynamicRangeDb = 58.5;
  preset.colourMap = ui::ColourMap::Viridis;
  preset.sections.emplace_back(modality, std::move(section));
  return ui::parsePreset(ui::writePreset(preset), QStringLiteral("written"));
}

// Relative to the value: the grid's millimetre text is scaled by 1e-3 on reading.
bool near(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

// Fails the rename publishFile() does, as a read-only file system would.
class ReadOnlyRename : public base::FileSystemCalls {
 public:
  int rename(const std::filesystem::path&, const std::filesystem::path&) override { return EROFS; }
};

QByteArray contents(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestPresetWriting : public QObject {
  Q_OBJECT

 private slots:
  void anUltrasoundSectionReadsBackAsCaptured() {
    ultrasound::ImagingParams imaging;
    imaging.mode = ultrasound::ImagingMode::PowerDoppler;
    imaging.fNumber = 1.7;
    imaging.apodisation = ultrasound::Apodisation::Rectangular;
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-12:12:0.15,6:33:0.05");
    imaging.iqBandwidthRel = 0.7;
    imaging.doppler.ensemble = 24;
    imaging.doppler.ensembleMode = ultrasound::EnsembleMode::Block;
    imaging.doppler.applyWallFilterSpec("iir:0.08");
    imaging.doppler.applyAveragingSpec("3x5");
    const Preset back = roundTrip(QStringLiteral("ultrasound"),
                                  std::make_shared<ui::UltrasoundPresetSection>(
                                      ui::UltrasoundPresetSection::captured(imaging, 12.5, 0.7)));
    QCOMPARE(back.name, QStringLiteral("Round trip"));
    QCOMPARE(back.modality, QStringLiteral("ultrasound"));
    QCOMPARE(*back.gainDb, -7.25);
    QCOMPARE(*back.dynamicRangeDb, 58.5);
    QVERIFY(*back.colourMap == ui::ColourMap::Viridis);
    QCOMPARE(back.sections.size(), std::size_t{1});
    const auto& us = dynamic_cast<const ui::UltrasoundPresetSection&>(
        *back.section(QStringLiteral("ultrasound")));
    QVERIFY(*us.mode == ultrasound::ImagingMode::PowerDoppler);
    QCOMPARE(*us.fNumber, 1.7);
    QVERIFY(*us.apodisation == ultrasound::Apodisation::Rectangular);
    const ultrasound::ImagingGrid& grid = *us.grid;
    QVERIFY2(near(grid.x0, -12e-3) && near(grid.x1, 12e-3) && near(grid.dx, 0.15e-3) &&
                 near(grid.z0, 6e-3) && near(grid.z1, 33e-3) && near(grid.dz, 0.05e-3),
             grid.toMillimetreString().c_str());
    QVERIFY(near(*us.iqBandwidthPercent, 70.0));
    QCOMPARE(*us.dopplerEnsemble, 24);
    QVERIFY(*us.dopplerEnsembleMode == ultrasound::EnsembleMode::Block);
    QCOMPARE(*us.wallFilter, std::string("iir:0.08"));
    QCOMPARE(*us.dopplerAverage, std::string("3x5"));
    QCOMPARE(*us.flowThresholdDb, 12.5);
    QCOMPARE(*us.flowPriority, 0.7);

    // Applied to the defaults, the section gives back the Doppler parameters captured.
    ultrasound::DopplerParams doppler;
    doppler.applyWallFilterSpec(*us.wallFilter);
    doppler.applyAveragingSpec(*us.dopplerAverage);
    QCOMPARE(doppler.wallFilter, ultrasound::WallFilter::Iir);
    QCOMPARE(doppler.iirCutoff, 0.08);
    QVERIFY(doppler.averageX == 3 && doppler.averageZ == 5);
    // The acquisition's own I/Q bandwidth (0) is not pinned by a preset.
    imaging.iqBandwidthRel = 0;
    QVERIFY(!ui::UltrasoundPresetSection::captured(imaging, 10, 1).iqBandwidthPercent);
  }

  void seededWallFiltersAndGridsReadBack() {
    std::mt19937 random(20261129);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const char* filters[] = {"none", "regression", "iir", "svd"};
    for (int i = 0; i < 40; ++i) {
      ultrasound::ImagingParams imaging;
      imaging.fNumber = 0.1 + 19.9 * unit(random);
      imaging.grid.x0 = -40e-3 * unit(random);
      imaging.grid.x1 = 40e-3 * unit(random);
      imaging.grid.dx = 0.01e-3 + 0.5e-3 * unit(random);
      imaging.grid.z0 = 60e-3 * unit(random);
      imaging.grid.z1 = imaging.grid.z0 + 60e-3 * unit(random);
      imaging.grid.dz = 0.01e-3 + 0.5e-3 * unit(random);
      ultrasound::DopplerParams& d = imaging.doppler;
      d.wallFilter = ultrasound::parseWallFilter(filters[i % 4]);
      d.regressionOrder = i % 4;
      d.iirCutoff = 0.01 + 0.48 * unit(random);
      d.svdRank = 1 + i % 5;
      d.averageX = 1 + 2 * (i % 7);
      d.averageZ = 1 + 2 * (i % 5);
      const Preset back = roundTrip(
          QStringLiteral("ultrasound"),
          std::make_shared<ui::UltrasoundPresetSection>(
              ui::UltrasoundPresetSection::captured(imaging, 60 * unit(random), unit(random))));
      const auto& us = dynamic_cast<const ui::UltrasoundPresetSection&>(
          *back.section(QStringLiteral("ultrasound")));
      QCOMPARE(*us.fNumber, imaging.fNumber);
      const ultrasound::ImagingGrid& grid = *us.grid;
      QVERIFY2(near(grid.x0, imaging.grid.x0) && near(grid.x1, imaging.grid.x1) &&
                   near(grid.dx, imaging.grid.dx) && near(grid.z0, imaging.grid.z0) &&
                   near(grid.z1, imaging.grid.z1) && near(grid.dz, imaging.grid.dz),
               grid.toMillimetreString().c_str());
      ultrasound::DopplerParams read;
      read.applyWallFilterSpec(*us.wallFilter);
      read.applyAveragingSpec(*us.dopplerAverage);
      QCOMPARE(read.wallFilter, d.wallFilter);
      switch (d.wallFilter) {
        case ultrasound::WallFilter::Regression:
          QCOMPARE(read.regressionOrder, d.regressionOrder);
          break;
        case ultrasound::WallFilter::Iir:
          QCOMPARE(read.iirCutoff, d.iirCutoff);  // exactly: the shortest text that reads back
          break;
        case ultrasound::WallFilter::Svd:
          QCOMPARE(read.svdRank, d.svdRank);
          break;
        case ultrasound::WallFilter::None:
          break;
      }
      QVERIFY(read.averageX == d.averageX && read.averageZ == d.averageZ);
    }
  }

  void anOctSectionReadsBackAsCaptured() {
    oct::OctParams params;
    params.window = oct::SpectralWindow::Gaussian;
    params.refractiveIndex = 1.41;
    const Preset back =
        roundTrip(QStringLiteral("oct"),
                  std::make_shared<ui::OctPresetSection>(ui::OctPresetSection::captured(params)));
    QCOMPARE(back.modality, QStringLiteral("oct"));
    const auto* oct =
        dynamic_cast<const ui::OctPresetSection*>(back.section(QStringLiteral("oct")));
    QVERIFY(oct != nullptr);
    QVERIFY(*oct->window == oct::SpectralWindow::Gaussian);
    QCOMPARE(*oct->refractiveIndex, 1.41);
    QVERIFY(back.section(QStringLiteral("ultrasound")) == nullptr);
  }

  void aDisplayOnlyPresetIsForAnySource() {
    Preset preset;
    preset.name = QStringLiteral("Dim sepia");
    preset.gainDb = 3.5;
    preset.dynamicRangeDb = 42;
    preset.colourMap = ui::ColourMap::Sepia;
    const QByteArray json = ui::writePreset(preset);
    QVERIFY2(!json.contains("modality") && !json.contains("ultrasound"), json.constData());
    const Preset back = ui::parsePreset(json, QStringLiteral("written"));
    QVERIFY(back.modality.isEmpty() && back.sections.empty());
    QCOMPARE(*back.gainDb, 3.5);
    QVERIFY(*back.colourMap == ui::ColourMap::Sepia);
  }

  void fileNamesAreSafeAndUnique() {
    QTemporaryDir dir;
    QCOMPARE(ui::presetFileNameFor(QStringLiteral("Carotid (L7-4)"), dir.path()),
             QStringLiteral("carotid-l7-4.json"));
    QCOMPARE(ui::presetFileNameFor(QStringLiteral("../../etc/passwd"), dir.path()),
             QStringLiteral("etc-passwd.json"));
    QCOMPARE(ui::presetFileNameFor(QStringLiteral("Thyroïde / 10 MHz"), dir.path()),
             QStringLiteral("thyro-de-10-mhz.json"));
    QCOMPARE(ui::presetFileNameFor(QStringLiteral("***"), dir.path()),
             QStringLiteral("preset.json"));
    QCOMPARE(ui::presetFileNameFor(QString(200, QLatin1Char('a')), dir.path()).size(), 48 + 5);
    // A taken name gets a number.
    QFile(QDir(dir.path()).filePath(QStringLiteral("carotid.json"))).open(QIODevice::WriteOnly);
    QFile(QDir(dir.path()).filePath(QStringLiteral("carotid-2.json"))).open(QIODevice::WriteOnly);
    QCOMPARE(ui::presetFileNameFor(QStringLiteral("Carotid"), dir.path()),
             QStringLiteral("carotid-3.json"));
  }

  void savingWritesAFileThatLoadsAndReplacesOnlyOwnPresets() {
    QTemporaryDir dir;
    const QString folder = QDir(dir.path()).filePath(QStringLiteral("presets"));  // made on save
    Preset preset;
    preset.name = QStringLiteral(" Carotid ");
    preset.dynamicRangeDb = 44;
    const ui::SavedPreset saved =
        ui::savePresetFile(preset, ui::loadPresets(folder).presets, folder);
    QVERIFY2(saved.error.isEmpty(), qPrintable(saved.error));
    QCOMPARE(QFileInfo(saved.path).fileName(), QStringLiteral("carotid.json"));
    ui::LoadedPresets loaded = ui::loadPresets(folder);
    QVERIFY(loaded.refused.isEmpty());
    const Preset* own = ui::ownPresetNamed(loaded.presets, QStringLiteral("Carotid"));
    QVERIFY(own != nullptr);
    QCOMPARE(*own->dynamicRangeDb, 44.0);
    // Saved again under its name: the same file, the new values, no second file.
    preset.dynamicRangeDb = 61;
    const ui::SavedPreset again = ui::savePresetFile(preset, loaded.presets, folder);
    QCOMPARE(again.path, saved.path);
    loaded = ui::loadPresets(folder);
    QCOMPARE(*ui::ownPresetNamed(loaded.presets, QStringLiteral("Carotid"))->dynamicRangeDb, 61.0);
    QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 1);
    // A shipped preset's name, or none, is refused and nothing is written.
    preset.name = QStringLiteral("Phantom");
    QVERIFY(ui::savePresetFile(preset, loaded.presets, folder).error.contains("shipped"));
    preset.name = QStringLiteral("   ");
    QVERIFY(!ui::savePresetFile(preset, loaded.presets, folder).error.isEmpty());
    QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 1);
    // Deleting: the operator's own only.
    QVERIFY(!ui::deletePresetFile(ui::shippedPresets().front()).isEmpty());
    QCOMPARE(ui::deletePresetFile(*ui::ownPresetNamed(loaded.presets, QStringLiteral("Carotid"))),
             QString());
    QVERIFY(QDir(folder).entryList(QDir::Files).isEmpty());
  }

  void aFailedWriteSaysWhyAndLosesNothing() {
    QTemporaryDir dir;
    const QString folder = dir.path();
    Preset preset;
    preset.name = QStringLiteral("Carotid");
    preset.dynamicRangeDb = 44;
    const ui::SavedPreset saved = ui::savePresetFile(preset, {}, folder);
    QVERIFY(saved.error.isEmpty());
    const QByteArray before = contents(saved.path);
    const std::vector<Preset> presets = ui::loadPresets(folder).presets;
    preset.dynamicRangeDb = 70;
    {
      // A folder the operator may not write in (root may, so its file system refuses as well).
      QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
      ReadOnlyRename readOnly;
      const base::ScopedFileSystemCalls refusing(readOnly);
      const ui::SavedPreset failed = ui::savePresetFile(preset, presets, folder);
      QVERIFY(
          QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
      qInfo("refused: %s", qPrintable(failed.error));
      QVERIFY(failed.path.isEmpty());
      QVERIFY2(failed.error.contains(QStringLiteral("carotid.json")) &&
                   (failed.error.contains(QStringLiteral("ermission")) ||
                    failed.error.contains(QStringLiteral("ead-only"))),
               qPrintable(failed.error));
    }
    QCOMPARE(contents(saved.path), before);  // the old preset is whole
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("carotid.json")});  // no temporary left
  }
};

QTEST_MAIN(TestPresetWriting)
#include "test_preset_writing.moc"
