// MATLAB import in the GUI: the mapping dialog starts from the last mapping, its preset restores
// the Verasonics layout, a malformed field is refused with the field's name, and PyMUST's
// PWI_disk.mat (data/original) opens through the controller with that
// mapping, in I/Q mode by itself (it is sampled below 2 f0), and its frames reach the GUI.
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

#include "bridge/engine_controller.hpp"
#include "modalities/ultrasound/mat_import_dialog.hpp"
#include "support/test_paths.hpp"

using cineflow::ultrasound::MatMapping;

class TestMatImportDialog : public QObject {
  Q_OBJECT

 private slots:
  void dialogEditsTheMapping() {
    const MatMapping last = MatMapping::parse("rf=data;c=1540;angles=0");
    cineflow::ui::MatImportDialog dialog(last, QStringLiteral("/data/x.mat"));
    QCOMPARE(dialog.path(), QStringLiteral("/data/x.mat"));
    QCOMPARE(dialog.field("rf").text(), QStringLiteral("data"));
    QCOMPARE(dialog.field("c").text(), QStringLiteral("1540"));
    QCOMPARE(dialog.mapping().toString(), last.toString());
    dialog.field("order").setText(QStringLiteral("samples,elements,transmits,frames"));
    QCOMPARE(dialog.mapping().order.size(), std::size_t{4});
    dialog.field("fs").setText(QStringLiteral("a=b"));
    try {
      (void)dialog.mapping();
      QFAIL("a malformed field was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("fs") != std::string::npos, e.what());
    }
    dialog.field("rf").clear();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)dialog.mapping());
    // The preset puts back the Verasonics layout.
    auto* preset = dialog.findChild<QComboBox*>(QStringLiteral("matPreset"));
    QVERIFY(preset != nullptr);
    preset->setCurrentIndex(0);
    QCOMPARE(dialog.mapping().toString(), MatMapping::verasonics().toString());
  }

  void pwiDiskOpensInIqModeAndDelivers() {
    const std::string mat = cineflow::test::datasetFile("original/PWI_disk.mat");
    if (mat.empty()) {
      QFAIL("data/original/PWI_disk.mat is missing from this clone (data/README.md)");
    }
    cineflow::ui::EngineController controller(cineflow::compute::BackendRequest::Cpu);
    QSignalSpy opened(&controller, &cineflow::ui::EngineController::sourceOpened);
    QSignalSpy failed(&controller, &cineflow::ui::EngineController::errorOccurred);
    controller.open(QString::fromStdString(mat), true, MatMapping::verasonics());
    QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1 || failed.count() > 0, 60'000);
    QVERIFY2(failed.isEmpty(),
             qPrintable(failed.isEmpty() ? QString() : failed.front().front().toString()));
    QVERIFY2(opened.front().front().toString().contains("PWI_disk.mat"),
             qPrintable(opened.front().front().toString()));
    QCOMPARE(controller.imagingParams().mode, cineflow::ultrasound::ImagingMode::Iq);
    QTRY_VERIFY_WITH_TIMEOUT(controller.framesDelivered() >= 3, 60'000);
    controller.stop();
  }
};

QTEST_MAIN(TestMatImportDialog)
#include "test_mat_import_dialog.moc"
