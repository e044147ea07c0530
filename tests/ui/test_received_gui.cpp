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
#include "acquisition/raw_recording.hpp"
#include "bridge/engine_controller.hpp"
#include "common/image.hpp"
#include "received/received_source.hpp"
#include "registry/source_factory.hpp"
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

// Starts the image server peer on `folder` with `arguments`: the port it listens on, or 0.
int startServer(QProcess& server, const QString& folder, const QStringList& arguments) {
  server.setProcessChannelMode(QProcess::ForwardedChannels);
  server.start(QStringLiteral(CINEFLOW_IGTL_IMAGE_SERVER_PATH), QStringList{folder} + arguments);
  if (!server.waitForStarted(10'000) ||
      !QTest::qWaitFor([&] { return QFile::exists(folder + QStringLiteral("/port.txt")); },
                       10'000)) {
    return 0;
  }
  QFile portFile(folder + QStringLiteral("/port.txt"));
  return portFile.open(QIODevice::ReadOnly) ? portFile.readAll().trimmed().toInt() : 0;
}

// A window opened on the image server peer started on `folder` with `arguments`, streaming until
// killed and taking its clients in turn without closing its port (a client that reconnects waits
// in the backlog); null, with a failed check, when either does not start.
std::unique_ptr<ui::MainWindow> openOnServer(QProcess& server, const QString& folder,
                                             const QStringList& arguments) {
  const int port = startServer(server, folder,
                               QStringList{QStringLiteral("--images"), QStringLiteral("100000"),
                                           QStringLiteral("--keep-listening")} +
                                   arguments);
  if (port <= 0) {
    QTest::qFail("the image server peer did not start", __FILE__, __LINE__);
    return nullptr;
  }
  return test::openWindowOn(QStringLiteral("igtl://127.0.0.1:%1").arg(port),
                            test::guiTestBackend());
}

}  // namespace

class TestReceivedGui : public QObject {
  Q_OBJECT

 private slots:
  void showsAServersImagesWithItsLevels() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess server;
    const int port = startServer(server, folder.path(),
                                 {QStringLiteral("--images"), QStringLiteral("1200"),
                                  QStringLiteral("--rate"), QStringLiteral("20")});
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

  // The scanner's depth changes, and with it the server's image size: the window opens the source
  // again by itself and goes on showing, through the levels the operator set; a recording in
  // progress ends with the first picture's frames, complete; the message says what happened.
  void followsAServerWhoseImageChanges() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess server;
    const auto window = openOnServer(
        server, folder.path(),
        {QStringLiteral("--rate"), QStringLiteral("20"), QStringLiteral("--change-on-file"),
         QStringLiteral("--clients"), QStringLiteral("3")});
    QVERIFY(window);
    auto* panel = window->findChild<QGroupBox*>(QStringLiteral("receivedPanel"));
    QVERIFY(panel != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 30'000);
    auto* what = panel->findChild<QLabel*>(QStringLiteral("receivedWhat"));
    QVERIFY2(what->text().contains(QStringLiteral("96 x 64 uint8")), qPrintable(what->text()));
    auto* white = panel->findChild<QDoubleSpinBox*>(QStringLiteral("receivedWhite"));
    white->setValue(127);  // the operator's levels
    const ui::ImageView& view = window->view();
    QTRY_VERIFY_WITH_TIMEOUT(view.displayedFrame() != nullptr &&
                                 isASentImage(*view.displayedFrame(), folder.path(), 0, 127),
                             30'000);
    const QString recorded = folder.filePath(QStringLiteral("first-picture.h5"));
    QCOMPARE(window->recording().start(recorded), QString());
    QTRY_VERIFY_WITH_TIMEOUT(window->recording().stats().written >= 3, 30'000);

    QFile change(folder.filePath(QStringLiteral("change")));  // the depth changes
    QVERIFY(change.open(QIODevice::WriteOnly));
    change.close();
    QTRY_VERIFY_WITH_TIMEOUT(what->text().contains(QStringLiteral("97 x 64 uint8")), 30'000);
    const QString followed = window->controller().followedChange();
    QVERIFY2(followed.contains(QStringLiteral("changed from 96 x 64 uint8")) &&
                 followed.contains(QStringLiteral("to 97 x 64 uint8")),
             qPrintable(followed));
    QVERIFY2(window->lastError().isEmpty(), qPrintable(window->lastError()));
    const QString message = window->findChild<QLabel*>(QStringLiteral("messageLabel"))->text();
    QVERIFY2(message.contains(QStringLiteral("Opened again to follow its new picture")) &&
                 message.contains(QStringLiteral("Recording ended with the source")),
             qPrintable(message));
    QVERIFY(!window->recording().active());
    // Said over the image too, where a narrow window's status line cannot cut it off.
    auto* notice = window->findChild<QLabel*>(QStringLiteral("noticeBanner"));
    QVERIFY(notice != nullptr && notice->isVisible());
    QVERIFY2(notice->text().contains(QStringLiteral("Opened again to follow its new picture")) &&
                 notice->text().contains(QStringLiteral("Recording ended with the source")),
             qPrintable(notice->text()));
    // The new picture, through the levels the operator set.
    QCOMPARE(white->value(), 127.0);
    QTRY_VERIFY_WITH_TIMEOUT(view.displayedFrame() != nullptr &&
                                 view.displayedFrame()->pixels.size() == 97u * 64u &&
                                 isASentImage(*view.displayedFrame(), folder.path(), 0, 127),
                             30'000);
    QVERIFY(window->controller().isRunning());
    // The recording holds the first picture's frames, closed and readable.
    const auto replay = acquire::openSource(recorded.toStdString());
    const received::ReceivedSource* file = received::asReceived(replay.get());
    QVERIFY(file != nullptr);
    QCOMPARE(file->format().cols, 96);
    QVERIFY(replay->frameCount() >= 3);
    server.kill();
    server.waitForFinished(5'000);
  }

  // A picture that keeps changing is followed kFollowLimit times, then reported, not chased.
  void aPictureThatKeepsChangingIsReported() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess server;
    const auto window = openOnServer(
        server, folder.path(),
        {QStringLiteral("--rate"), QStringLiteral("40"), QStringLiteral("--change-every"),
         QStringLiteral("6"), QStringLiteral("--clients"), QStringLiteral("20")});
    QVERIFY(window);
    QTRY_VERIFY_WITH_TIMEOUT(!window->lastError().isEmpty(), 60'000);
    QVERIFY2(window->lastError().contains(QStringLiteral("more than %1 times within %2 s")
                                              .arg(ui::EngineController::kFollowLimit)
                                              .arg(ui::EngineController::kFollowWindow.count())),
             qPrintable(window->lastError()));
    QVERIFY(!window->controller().isRunning());
    server.kill();
    server.waitForFinished(5'000);
  }
};

QTEST_MAIN(TestReceivedGui)
#include "test_received_gui.moc"
