// Save as preset… and Delete preset… in the window, on the simulator (CPU backend, under Xvfb):
// the gain and f-number in effect are saved under the name the operator types, the picker shows
// the new preset, and choosing it later brings them back; the dialog refuses an empty name and a
// shipped one and asks before replacing one of the operator's own; a folder that cannot be
// written gives a message and leaves the presets as they were; without a source only the display
// is saved; deleting asks first and removes only the operator's own presets.
#include <cerrno>
#include <filesystem>
#include <functional>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "acquisition/acquisition_panel.hpp"
#include "base/durable_rename.hpp"
#include "bridge/engine_controller.hpp"
#include "message_box_answerer.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "shell/main_window.hpp"
#include "shell/preset_files.hpp"
#include "shell/presets.hpp"
#include "shell/save_preset_dialog.hpp"
#include "sim_window.hpp"
#include "view2d/display_controls.hpp"
#include "view2d/image_view.hpp"

using namespace cineflow;

namespace {

constexpr int kTimeoutMs = 60'000;

// Does `answer` to the next modal dialog of type Dialog once it is up, as the operator would.
template <class Dialog>
class DialogAnswerer {
 public:
  explicit DialogAnswerer(std::function<void(Dialog&)> answer) {
    timer_.setInterval(20);
    QObject::connect(&timer_, &QTimer::timeout, [this, answer = std::move(answer)] {
      auto* dialog = qobject_cast<Dialog*>(QApplication::activeModalWidget());
      if (dialog == nullptr) {
        return;
      }
      timer_.stop();
      answered_ = true;
      answer(*dialog);
    });
    timer_.start();
  }
  bool answered() const { return answered_; }

 private:
  QTimer timer_;
  bool answered_ = false;
};

// Fails the rename that publishes a file, as a read-only file system would (root writes into a
// folder without write permission: the test must not depend on who runs it).
class ReadOnlyRename : public base::FileSystemCalls {
 public:
  int rename(const std::filesystem::path&, const std::filesystem::path&) override { return EROFS; }
};

QStringList pickerNames(const QComboBox& box) {
  QStringList names;
  for (int i = 0; i < box.count(); ++i) {
    names << box.itemText(i);
  }
  return names;
}

}  // namespace

class TestPresetSaving : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    window_ = test::openSimulatorWindow();
    QVERIFY(window_);
    QTRY_VERIFY_WITH_TIMEOUT(window_->controller().isRunning(), kTimeoutMs);
    // The first frame sets the gain (auto gain): the test's changes come after it.
    QTRY_VERIFY_WITH_TIMEOUT(window_->view().displayedFrame() != nullptr, kTimeoutMs);
    box_ = window_->findChild<QComboBox*>(QStringLiteral("presetBox"));
    saveAction_ = window_->findChild<QAction*>(QStringLiteral("savePresetAction"));
    deleteAction_ = window_->findChild<QAction*>(QStringLiteral("deletePresetAction"));
    QVERIFY(box_ != nullptr && saveAction_ != nullptr && deleteAction_ != nullptr);
    QVERIFY(!deleteAction_->isEnabled());  // no presets of the operator's own yet
  }

  void aSavedPresetBringsBackTheGainAndFNumber() {
    ui::DisplayControls& display = window_->displayControls();
    QDoubleSpinBox& fNumber =
        window_->acquisitionPanel().modalityPanel<ui::ImagingPanel>().fNumberBox();
    display.setGainDb(display.gainDb() + 4);
    const double savedGain = display.gainDb();
    fNumber.setValue(1.7);
    QCOMPARE(window_->controller().imagingParams().fNumber, 1.7);

    DialogAnswerer<ui::SavePresetDialog> naming([](ui::SavePresetDialog& dialog) {
      QVERIFY(dialog.nameEdit().text().isEmpty() && !dialog.nameEdit().placeholderText().isEmpty());
      QVERIFY(!dialog.saveButton().isEnabled());
      auto* holds = dialog.findChild<QLabel*>(QStringLiteral("presetHoldsLabel"));
      QVERIFY(holds != nullptr && holds->text().contains(QStringLiteral("Ultrasound")));
      QTest::keyClicks(&dialog.nameEdit(), QStringLiteral("My carotid"));
      QVERIFY(dialog.saveButton().isEnabled());
      QTest::mouseClick(&dialog.saveButton(), Qt::LeftButton);
    });
    saveAction_->trigger();
    QVERIFY(naming.answered());
    QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
    QCOMPARE(box_->currentText(), QStringLiteral("My carotid"));
    const ui::Preset* saved = ui::ownPresetNamed(window_->presets(), QStringLiteral("My carotid"));
    QVERIFY(saved != nullptr);
    QCOMPARE(saved->modality, QStringLiteral("ultrasound"));
    QVERIFY(QFileInfo(saved->origin).dir() == QDir(ui::presetFolder()));
    QVERIFY(deleteAction_->isEnabled());

    // Changed again, then the preset chosen in the picker: both come back.
    display.setGainDb(savedGain - 6);
    fNumber.setValue(2.4);
    QCOMPARE(window_->controller().imagingParams().fNumber, 2.4);
    const int index = box_->findText(QStringLiteral("My carotid"));
    QVERIFY(index > 0);
    box_->setCurrentIndex(index);
    emit box_->activated(index);
    QCOMPARE(display.gainDb(), savedGain);
    QCOMPARE(window_->controller().imagingParams().fNumber, 1.7);
    QCOMPARE(fNumber.value(), 1.7);
  }

  void theDialogRefusesAShippedNameAndAsksBeforeReplacing() {
    test::MessageBoxAnswerer keep(QMessageBox::No);
    QString shippedRefusal;
    bool enabledForShipped = true, stillOpenAfterNo = false;
    DialogAnswerer<ui::SavePresetDialog> naming([&](ui::SavePresetDialog& dialog) {
      QTest::keyClicks(&dialog.nameEdit(), QStringLiteral("Phantom"));
      enabledForShipped = dialog.saveButton().isEnabled();
      shippedRefusal = dialog.refusal().text();
      QTest::keyClick(&dialog.nameEdit(), Qt::Key_Return);      // refused: the dialog stays
      dialog.nameEdit().setText(QStringLiteral("My carotid"));  // one of the operator's own
      QTest::mouseClick(&dialog.saveButton(), Qt::LeftButton);  // asks; No keeps it open
      stillOpenAfterNo = dialog.isVisible();
      dialog.reject();
    });
    const std::size_t before = window_->presets().size();
    saveAction_->trigger();
    QVERIFY(naming.answered());
    QVERIFY(!enabledForShipped);
    QVERIFY2(shippedRefusal.contains(QStringLiteral("shipped")), qPrintable(shippedRefusal));
    QVERIFY(keep.asked());
    QVERIFY2(keep.text().contains(QStringLiteral("My carotid")), qPrintable(keep.text()));
    QVERIFY(stillOpenAfterNo);
    QCOMPARE(window_->presets().size(), before);
    // The shipped name is refused without the dialog too.
    QVERIFY(window_->savePreset(QStringLiteral("Phantom")).contains(QStringLiteral("shipped")));
  }

  void aFolderThatCannotBeWrittenGivesAMessage() {
    const QString folder = ui::presetFolder();
    const QByteArray before = [&] {
      QFile file(ui::ownPresetNamed(window_->presets(), QStringLiteral("My carotid"))->origin);
      return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    QVERIFY(!before.isEmpty());
    QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
    QString newOne, replaced;
    {
      ReadOnlyRename readOnly;
      const base::ScopedFileSystemCalls refusing(readOnly);
      newOne = window_->savePreset(QStringLiteral("Blocked"));
      replaced = window_->savePreset(QStringLiteral("My carotid"));
    }
    QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    qInfo("refused: %s", qPrintable(newOne));
    QVERIFY2(
        newOne.contains(QStringLiteral("not saved")) && newOne.contains(QStringLiteral("cannot")),
        qPrintable(newOne));
    QVERIFY(!replaced.isEmpty());
    QCOMPARE(window_->lastError(), replaced);  // said in the status bar (and a message box)
    QVERIFY(!pickerNames(*box_).contains(QStringLiteral("Blocked")));
    QFile file(ui::ownPresetNamed(window_->presets(), QStringLiteral("My carotid"))->origin);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);  // the preset it would have replaced is whole
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden).size(), 1);
  }

  void withoutASourceOnlyTheDisplayIsSaved() {
    auto bare = std::make_unique<ui::MainWindow>(test::guiTestBackend());
    bare->setInteractiveErrors(false);
    bare->displayControls().setDynamicRangeDb(47);
    QCOMPARE(bare->savePreset(QStringLiteral("Display only")), QString());
    const ui::Preset* saved = ui::ownPresetNamed(bare->presets(), QStringLiteral("Display only"));
    QVERIFY(saved != nullptr);
    QVERIFY(saved->modality.isEmpty() && saved->sections.empty());
    QCOMPARE(*saved->dynamicRangeDb, 47.0);
    QCOMPARE(bare->deletePreset(QStringLiteral("Display only")), QString());
    QVERIFY(ui::ownPresetNamed(bare->presets(), QStringLiteral("Display only")) == nullptr);
  }

  void deletingAsksFirstAndRemovesOnlyOwnPresets() {
    window_->activateWindow();
    QApplication::setActiveWindow(window_.get());
    const auto chooseCarotid = [](QInputDialog& dialog) {
      QVERIFY(!dialog.comboBoxItems().contains(QStringLiteral("Phantom")));  // shipped: not offered
      dialog.setTextValue(QStringLiteral("My carotid"));
      dialog.accept();
    };
    {
      // No: kept.
      DialogAnswerer<QInputDialog> which(chooseCarotid);
      test::MessageBoxAnswerer keep(QMessageBox::No);
      deleteAction_->trigger();
      QVERIFY(which.answered() && keep.asked());
      QVERIFY(ui::ownPresetNamed(window_->presets(), QStringLiteral("My carotid")) != nullptr);
    }
    const QString file =
        ui::ownPresetNamed(window_->presets(), QStringLiteral("My carotid"))->origin;
    {
      DialogAnswerer<QInputDialog> which(chooseCarotid);
      test::MessageBoxAnswerer remove(QMessageBox::Yes);
      deleteAction_->trigger();
      QVERIFY(which.answered() && remove.asked());
    }
    QVERIFY(ui::ownPresetNamed(window_->presets(), QStringLiteral("My carotid")) == nullptr);
    QVERIFY(!QFile::exists(file));
    QVERIFY(!pickerNames(*box_).contains(QStringLiteral("My carotid")));
    QVERIFY(pickerNames(*box_).contains(QStringLiteral("Phantom")));
    QVERIFY(!deleteAction_->isEnabled());
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  std::unique_ptr<ui::MainWindow> window_;
  QComboBox* box_ = nullptr;
  QAction* saveAction_ = nullptr;
  QAction* deleteAction_ = nullptr;
};

int main(int argc, char** argv) {
  // Settings, and so the preset folder beside them, of this run alone.
  QTemporaryDir settings;
  qputenv(ui::kSettingsPathVariable, QDir(settings.path()).filePath("cineflow.ini").toLocal8Bit());
  ui::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestPresetSaving test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_preset_saving.moc"
