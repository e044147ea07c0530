// Acquisition > OpenIGTLink as an operator uses it, with a client written only against
// libOpenIGTLink (tests/peers/igtl_peer.cpp) on the loopback interface: ticking the group serves
// the live image, 8-bit as the display shows it (the display's white level and range, by an
// independent formula here); a port another server holds unticks it with the reason; unticking
// closes the port.

#include <QGroupBox>
#include <QLabel>
#include <QProcess>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "acquisition/acquisition_panel.hpp"
#include "acquisition/igtl_panel.hpp"
#include "link/igtl_server.hpp"
#include "sim_window.hpp"
#include "support/free_port.hpp"
#include "view2d/display_controls.hpp"
#include "view2d/image_view.hpp"

using namespace cineflow;

namespace {

std::uint8_t independentLevel(float dB, double white, double range) {
  const double level = std::floor((dB - (white - range)) * 255.0 / range);
  return static_cast<std::uint8_t>(std::min(255.0, std::max(0.0, level)));
}

}  // namespace

class TestIgtlGui : public QObject {
  Q_OBJECT

 private slots:
  void servesWhatTheDisplayShows() {
    const auto window = test::openSimulatorWindow();
    QVERIFY(window);
    QVERIFY(QTest::qWaitFor([&] { return window->view().framesDisplayed() > 2; }, 60'000));
    ui::IgtlPanel& panel = window->acquisitionPanel().igtlPanel();
    QVERIFY(!panel.isChecked());  // never on unasked
    const int port = test::freeLoopbackPort();
    QVERIFY(port > 0);
    panel.findChild<QSpinBox*>(QStringLiteral("igtlPort"))->setValue(port);
    panel.setChecked(true);  // as a click on the group's box does
    QVERIFY2(panel.serving(), qPrintable(panel.statusText()));

    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedChannels);
    peer.start(QStringLiteral(CINEFLOW_IGTL_PEER_PATH),
               {QStringLiteral("127.0.0.1"), QString::number(port), folder.path(),
                QStringLiteral("--images"), QStringLiteral("2")});
    QVERIFY(QTest::qWaitFor([&] { return peer.state() == QProcess::NotRunning; }, 60'000));
    QCOMPARE(peer.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(panel.statusText().contains(QStringLiteral("images sent")), 5'000);

    // The last image sent is a frame the cineloop kept, mapped as the display maps it.
    QFile raw(folder.filePath(QStringLiteral("image_1.raw")));
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray levels = raw.readAll();
    const double white = window->displayControls().gainDb();
    const double range = window->displayControls().dynamicRangeDb();
    const pipeline::Engine& engine = window->controller().engine();
    std::vector<float> pixels;
    acquire::FrameHeader header;
    process::ImageGeometry geometry;
    bool matched = false;
    for (const acquire::FrameHeader& kept : engine.cineloop().headers()) {
      if (!engine.cineloop().copyImage(kept.sequence, pixels, header, geometry) ||
          static_cast<qsizetype>(geometry.pixels()) != levels.size()) {
        continue;
      }
      matched = true;
      for (std::size_t p = 0; p < geometry.pixels() && matched; ++p) {
        matched = static_cast<std::uint8_t>(levels[static_cast<qsizetype>(p)]) ==
                  independentLevel(pixels[p], white, range);
      }
      if (matched) {
        break;
      }
    }
    QVERIFY2(matched, "the image sent is no kept frame as the display maps it");

    // Another server holds the port: the group unticks and says why.
    panel.setChecked(false);
    QVERIFY(!panel.serving());
    link::IgtlServerOptions other;
    other.port = port;
    other.bindAddress = "0.0.0.0";
    const link::IgtlServer holder(engine, other);
    panel.setChecked(true);
    QVERIFY(!panel.isChecked());
    QVERIFY(!panel.serving());
    QVERIFY2(panel.statusText().contains(QStringLiteral("another server has this port")),
             qPrintable(panel.statusText()));
  }
};

int main(int argc, char** argv) {
  test::useFreshSettings("test_igtl_gui");
  QApplication app(argc, argv);
  TestIgtlGui test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_igtl_gui.moc"
