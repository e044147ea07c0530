// Presets (ui/shell/presets.hpp): the JSON files parse into exactly what they name (the neutral
// fields, and each modality's section through its side of the seam), a bad file is
// refused with its name, the field and the reason while the others load, a file's preset replaces
// a shipped one of its name, and applying one in the window sets the display and the engine's
// imaging parameters (and the panel shows them), or says why not.
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "modalities/oct/oct_presets.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "modalities/ultrasound/ultrasound_presets.hpp"
#include "shell/main_window.hpp"
#include "shell/presets.hpp"
#include "sim_window.hpp"
#include "view2d/display_controls.hpp"

using namespace cineflow;
using ui::Preset;

namespace {

void write(const QString& path, const QByteArray& text) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(text);
}

// A preset's ultrasound section (it must have one).
const ui::UltrasoundPresetSection& ultrasoundOf(const Preset& preset) {
  static const ui::UltrasoundPresetSection none;
  if (const ui::PresetSection* section = preset.section(QStringLiteral("ultrasound"))) {
    return dynamic_cast<const ui::UltrasoundPresetSection&>(*section);
  }
  QTest::qFail("no ultrasound section", __FILE__, __LINE__);
  return none;
}

// The reason parsePreset gives for `json`, or "" when it parses.
QString refusal(const QByteArray& json) {
  try {
    ui::parsePreset(json, QStringLiteral("p.json"));
    return {};
  } catch (const ui::PresetError& e) {
    return QString::fromStdString(e.what());
  }
}

}  // namespace

class TestPresets : public QObject {
  Q_OBJECT

 private slots:
  void aPresetParsesIntoWhatItNames() {
    const Preset p = ui::parsePreset(
        R"({"name": " Carotid ", "modality": "ultrasound",
            "display": {"gain_db": -3.5, "dynamic_range_db": 55, "colour_map": "viridis"},
            "ultrasound": {"mode": "iq", "f_number": 2, "apodisation": "rect",
                           "grid_mm": "-10:10:0.1,5:30:0.05", "iq_bandwidth_percent": 70}})",
        QStringLiteral("c.json"));
    QCOMPARE(p.name, QStringLiteral("Carotid"));
    QCOMPARE(p.modality, QStringLiteral("ultrasound"));
    QCOMPARE(*p.gainDb, -3.5);
    QCOMPARE(*p.dynamicRangeDb, 55.0);
    QVERIFY(*p.colourMap == ui::ColourMap::Viridis);
    const ui::UltrasoundPresetSection& us = ultrasoundOf(p);
    QVERIFY(*us.mode == ultrasound::ImagingMode::Iq);
    QCOMPARE(*us.fNumber, 2.0);
    QVERIFY(*us.apodisation == ultrasound::Apodisation::Rectangular);
    QVERIFY(std::abs(us.grid->x0 + 10e-3) < 1e-12 && std::abs(us.grid->dz - 0.05e-3) < 1e-12);
    QCOMPARE(*us.iqBandwidthPercent, 70.0);
    QVERIFY(!us.flowThresholdDb && !us.flowPriority);
    QCOMPARE(p.sections.size(), std::size_t{1});  // nothing of OCT's
    // Only what it names: a display-only preset leaves the imaging alone.
    const Preset display = ui::parsePreset(R"({"name": "Dim", "display": {"gain_db": -10}})", {});
    QVERIFY(display.gainDb && !display.dynamicRangeDb && display.sections.empty());
    // An OCT preset: its section, read by OCT's side of the seam.
    const Preset oct = ui::shippedPresets().back();
    QCOMPARE(oct.modality, QStringLiteral("oct"));
    QCOMPARE(oct.sections.size(), std::size_t{1});
    const auto* octSection =
        dynamic_cast<const ui::OctPresetSection*>(oct.section(QStringLiteral("oct")));
    QVERIFY(octSection != nullptr && octSection->refractiveIndex);
    QCOMPARE(*octSection->refractiveIndex, 1.38);
    QCOMPARE(ui::shippedPresets().size(), std::size_t{5});
    // A Doppler preset: its ensemble, wall filter, averaging and how flow is shown.
    const Preset flow = ui::parsePreset(
        R"({"name": "Flow", "display": {"flow_threshold_db": 12, "flow_priority": 0.7},
            "ultrasound": {"mode": "power-doppler", "doppler_ensemble": 24,
                           "doppler_ensemble_mode": "block", "wall_filter": "iir:0.08",
                           "doppler_average": "3x5"}})",
        {});
    const ui::UltrasoundPresetSection& doppler = ultrasoundOf(flow);
    QVERIFY(*doppler.mode == ultrasound::ImagingMode::PowerDoppler);
    QCOMPARE(*doppler.dopplerEnsemble, 24);
    QVERIFY(*doppler.dopplerEnsembleMode == ultrasound::EnsembleMode::Block);
    QCOMPARE(*doppler.wallFilter, std::string("iir:0.08"));
    QCOMPARE(*doppler.dopplerAverage, std::string("3x5"));
    QCOMPARE(*doppler.flowThresholdDb, 12.0);
    QCOMPARE(*doppler.flowPriority, 0.7);
  }

  void badPresetsAreRefusedWithTheReason() {
    const std::pair<QByteArray, QString> cases[] = {
        {"{\"name\": \"x\",", "not JSON"},
        {"[1, 2]", "expected one JSON object"},
        {R"({"display": {}})", "name: required"},
        {R"({"name": "x", "modality": "mri"})", "modality: expected ultrasound or oct"},
        {R"({"name": "x", "display": {"dynamic_range_db": 0}})",
         "display.dynamic_range_db: expected a number from 1 to 200"},
        {R"({"name": "x", "display": {"colour_map": "jet"}})",
         "display.colour_map: expected grey, sepia or viridis"},
        {R"({"name": "x", "ultrasound": {"f_number": "1.5"}})",
         "ultrasound.f_number: expected a number"},
        {R"({"name": "x", "ultrasound": {"fnumber": 1.5}})",
         "ultrasound.fnumber: not a preset field"},
        {R"({"name": "x", "ultrasound": {"grid_mm": "10:-10:0.1,5:30:0.1"}})",
         "ultrasound.grid_mm:"},
        {R"({"name": "x", "oct": {"window": "kaiser"}})", "oct.window:"},
        {R"({"name": "x", "ultrasound": 3})", "ultrasound: expected an object"},
        {R"({"name": "x", "ultrasound": {"wall_filter": "fir"}})", "ultrasound.wall_filter:"},
        {R"({"name": "x", "ultrasound": {"doppler_ensemble": 2}})", "ultrasound.doppler_ensemble:"},
        {R"({"name": "x", "ultrasound": {"doppler_ensemble": 7.5}})",
         "ultrasound.doppler_ensemble: expected a whole number"},
        {R"({"name": "x", "display": {"flow_priority": 2}})", "display.flow_priority:"},
    };
    for (const auto& [json, reason] : cases) {
      const QString why = refusal(json);
      QVERIFY2(why.startsWith(QStringLiteral("p.json: ")) && why.contains(reason),
               qPrintable(QStringLiteral("%1 -> \"%2\"").arg(QString::fromUtf8(json), why)));
    }
  }

  void aFolderAddsAndReplacesAndRefusesPerFile() {
    QTemporaryDir dir;
    write(QDir(dir.path()).filePath(QStringLiteral("a_phantom.json")),
          R"({"name": "Phantom", "display": {"dynamic_range_db": 45}})");
    write(QDir(dir.path()).filePath(QStringLiteral("b_bad.json")), R"({"name": 7})");
    write(QDir(dir.path()).filePath(QStringLiteral("c_probe.json")),
          R"({"name": "My probe", "modality": "ultrasound", "ultrasound": {"f_number": 1.2}})");
    write(QDir(dir.path()).filePath(QStringLiteral("notes.txt")), "not a preset");
    const ui::LoadedPresets loaded = ui::loadPresets(dir.path());
    QCOMPARE(loaded.refused.size(), 1);
    QVERIFY(loaded.refused.front().contains(QStringLiteral("b_bad.json: name: expected text")));
    QCOMPARE(loaded.presets.size(), std::size_t{6});  // 5 shipped, one replaced, one added
    const auto phantom = std::find_if(loaded.presets.begin(), loaded.presets.end(),
                                      [](const Preset& p) { return p.name == "Phantom"; });
    QCOMPARE(*phantom->dynamicRangeDb, 45.0);
    QVERIFY(phantom->origin.endsWith(QStringLiteral("a_phantom.json")));
    QCOMPARE(loaded.presets.back().name, QStringLiteral("My probe"));
  }

  void applyingOneSetsTheDisplayAndTheImaging() {
    auto window = test::openSimulatorWindow();
    QVERIFY(window);
    QTRY_VERIFY_WITH_TIMEOUT(window->controller().isRunning(), 60'000);
    // The picker lists the presets for ultrasound sources only.
    auto* box = window->findChild<QComboBox*>(QStringLiteral("presetBox"));
    QVERIFY(box != nullptr);
    QStringList names;
    for (int i = 0; i < box->count(); ++i) {
      names << box->itemText(i);
    }
    QVERIFY2(
        names.contains(QStringLiteral("Phantom")) && !names.contains(QStringLiteral("OCT (skin)")),
        qPrintable(names.join(QStringLiteral(", "))));
    const Preset preset = ui::parsePreset(
        R"({"name": "Test", "display": {"dynamic_range_db": 47, "colour_map": "sepia"},
            "ultrasound": {"f_number": 2.25, "apodisation": "rect"}})",
        QStringLiteral("test"));
    QCOMPARE(window->applyPreset(preset), QString());
    QCOMPARE(window->displayControls().dynamicRangeDb(), 47.0);
    QVERIFY(window->displayControls().colourMap() == ui::ColourMap::Sepia);
    QCOMPARE(window->controller().imagingParams().fNumber, 2.25);
    QVERIFY(window->controller().imagingParams().apodisation ==
            ultrasound::Apodisation::Rectangular);
    QCOMPARE(
        window->acquisitionPanel().modalityPanel<cineflow::ui::ImagingPanel>().fNumberBox().value(),
        2.25);
    // An OCT preset on an ultrasound source: refused, nothing changed.
    const Preset octPreset = ui::shippedPresets().back();
    QVERIFY(!window->applyPreset(octPreset).isEmpty());
    QCOMPARE(window->displayControls().dynamicRangeDb(), 47.0);
    // Imaging the engine refuses (a grid of 7e14 pixels): the reason comes back, the display is
    // set.
    const Preset bad = ui::parsePreset(
        R"({"name": "Tiny", "display": {"dynamic_range_db": 52},
            "ultrasound": {"grid_mm": "-10:10:0.000001,5:40:0.000001"}})",
        QStringLiteral("tiny"));
    const QString why = window->applyPreset(bad);
    qInfo("refused: %s", qPrintable(why));
    QVERIFY(why.contains(QStringLiteral("grid")));
    QCOMPARE(window->displayControls().dynamicRangeDb(), 52.0);
  }
};

int main(int argc, char** argv) {
  test::useFreshSettings("test_presets");
  QApplication app(argc, argv);
  TestPresets test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_presets.moc"
