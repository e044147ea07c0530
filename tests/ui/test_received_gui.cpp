// Acquisition > OpenIGTLink… as an operator uses it, against an image server written only against
// libOpenIGTLink's messages (tests/peers/igtl_image_server.cpp) on the loopback interface: the
// button asks for the server, the window then shows its images display-only, the Received images
// panel says what arrives, and its levels change what is shown (each shown image one the server
// sent, through the levels by an independent formula here).

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <cmath>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "common/image.hpp"
#include "sim_window.hpp"
#include "view2d/image_view.hpp"

using namespace cineflow;

namespace {

// Whether `shown` is one of the images the server sent, through levels `black`..`white` onto
// -60..0 dB: v -> 60 (v - white) / (white - black).
bool isASentImage(const ui::Image& shown, const QString& folder, double black, double white) {
  if (shown.pixels.size() != shown.geometry.pixels()) {
    return false;
  }
  for (int n = 0;; ++n) {
    QFile raw(folder + QStringLiteral("/sent_%1.raw").arg(n));
    if (!raw.open(QIODevice::ReadOnly)) {
      return false;
    }
    const QByteArray bytes = raw.readAll();
    if (static_cast<std::size_t>(bytes.size()) != shown.pixels.size()) {
      continue;
    }
    bool same = true;
    for (std::size_t i = 0; i < shown.pixels.size() && same; ++i) {
      const double v = static_cast<unsigned char>(bytes[static_cast<qsizetype>(i)]);
      same = std::abs(shown.pixels[i] - 60.0 * (v - white) / (white - black)) < 1e-3;
    }
    if (same) {
      return true;
    }
  }
}

}  // namespace

class TestReceivedGui : public QObject {
  Q_OBJECT

 private slots:
  void showsAServersImagesWithItsLevels() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess server;
    server.setProcessChannelMode(QProcess::ForwardedChannels);
    server.start(QStringLiteral(CINEFLOW_IGTL_IMAGE_SERVER_PATH),
                 {folder.path(), QStringLiteral("--images"), QStringLiteral("1200"),
                  QStringLiteral("--rate"), QStringLiteral("20")});
    QVERIFY(server.waitForStarted(10'000));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(folder.filePath(QStringLiteral("port.txt"))), 10'000);
    QFile portFile(folder.filePath(QStringLiteral("port.txt")));
    QVERIFY(portFile.open(QIODevice::ReadOnly));
    const int port = portFile.readAll().trimmed().toInt();
    QVERIFY(port > 0);

    const auto window = test::openSimulatorWindow();
    QVERIFY(window);
    // The simulator first, as an operator finds the window; then the server.
    QVERIFY(QTest::qWaitFor([&] { return window->view().framesDisplayed() > 2; }, 60'000));
    auto* button = window->findChild<QPushButton*>(QStringLiteral("igtlSourceButton"));
    QVERIFY(button != nullptr);
    // The dialog asks for the server: this machine, the peer's port, any device.
    bool answered = false;
    QTimer::singleShot(200, this, [&] {
      auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      if (dialog == nullptr || dialog->objectName() != QLatin1String("igtlSourceDialog")) {
        return;
      }
      dialog->findChild<QLineEdit*>(QStringLiteral("igtlHost"))->setText("127.0.0.1");
      dialog->findChild<QSpinBox*>(QStringLiteral("igtlSourcePort"))->setValue(port);
      answered = true;
      dialog->accept();
    });
    button->click();
    QVERIFY(answered);
    auto* panel = window->findChild<QGroupBox*>(QStringLiteral("receivedPanel"));
    QVERIFY(panel != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 30'000);
    const QString what = panel->findChild<QLabel*>(QStringLiteral("receivedWhat"))->text();
    QVERIFY2(what.contains(QStringLiteral("Image_Reference: 96 x 64 uint8")), qPrintable(what));

    // As sent, through the uint8 range onto the display's 60 dB.
    const ui::ImageView& view = window->view();
    QTRY_VERIFY_WITH_TIMEOUT(view.displayedFrame() != nullptr &&
                                 isASentImage(*view.displayedFrame(), folder.path(), 0, 255),
                             30'000);
    // A white level of 127: what was mid-grey is now 0 dB, the brightest +60 dB.
    auto* white = panel->findChild<QDoubleSpinBox*>(QStringLiteral("receivedWhite"));
    white->setValue(127);
    QTRY_VERIFY_WITH_TIMEOUT(view.displayedFrame() != nullptr &&
                                 isASentImage(*view.displayedFrame(), folder.path(), 0, 127),
                             30'000);
    QCOMPARE(panel->findChild<QLabel*>(QStringLiteral("receivedMessage"))->isVisible(), false);
    // Levels that cannot map are refused with the reason, and the ones in effect stay.
    white->setValue(0);  // the black level
    QTRY_VERIFY_WITH_TIMEOUT(
        panel->findChild<QLabel*>(QStringLiteral("receivedMessage"))->text().contains("differ"),
        10'000);
    QCOMPARE(white->value(), 127.0);
    server.kill();
    server.waitForFinished(5'000);
  }
};

QTEST_MAIN(TestReceivedGui)
#include "test_received_gui.moc"
