// GUI mode where the operator window cannot open, run as a user runs it: without any display, and
// on Qt's offscreen platform (no OpenGL context for the image views). Each ends with exit status 1
// and one message saying why and naming --headless, never with a crash or Qt's own abort; the
// screenshot mode, which builds the same window, too.

#include <QtTest>

#include "support/run_app.hpp"

namespace {

using cineflow::test::AppRun;
using cineflow::test::runApp;

// No display at all, and the platform Qt picks by default (xcb).
const QStringList kNoDisplay = {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"};

void checkRefusal(const AppRun& run, const QString& reason) {
  QVERIFY2(run.exitCode != -2, qPrintable("it crashed: " + run.err));
  QVERIFY2(run.exitCode != -1, "it did not end");
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains(QStringLiteral("cannot open the operator window")),
           qPrintable(run.err));
  QVERIFY2(run.err.contains(reason), qPrintable(run.err));
  QVERIFY2(run.err.contains(QStringLiteral("cineflow --headless --input")), qPrintable(run.err));
  QVERIFY2(!run.err.contains(QStringLiteral("Reinstalling the application")), qPrintable(run.err));
}

}  // namespace

class TestCliNoWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
#ifndef CINEFLOW_TEST_APP_HAS_GUI
    QSKIP("this cineflow is built without its GUI (CINEFLOW_BUILD_UI=OFF): no window to refuse");
#endif
  }

  void withoutADisplayItSaysSoAndPointsAtHeadless_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("environment");
    QTest::addColumn<QString>("reason");
    QTest::newRow("default platform")
        << QStringList{"--input", "sim"} << kNoDisplay << QStringLiteral("no display");
    QTest::newRow("xcb") << QStringList{"--input", "sim"}
                         << QStringList{"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM=xcb"}
                         << QStringLiteral("no X display");
    QTest::newRow("screenshot") << QStringList{"--input", "sim", "--screenshot", "shot.png"}
                                << kNoDisplay << QStringLiteral("no display");
    // Offscreen needs no display, but gives the views no OpenGL context.
    QTest::newRow("offscreen") << QStringList{"--input", "sim", "--backend", "cpu"}
                               << QStringList{"DISPLAY", "WAYLAND_DISPLAY",
                                              "QT_QPA_PLATFORM=offscreen"}
                               << QStringLiteral("no OpenGL context");
    // With a display (real, or none there), offscreen makes contexts but cannot show the views.
    QTest::newRow("offscreen, display kept")
        << QStringList{"--input", "sim", "--backend", "cpu"}
        << QStringList{"QT_QPA_PLATFORM=offscreen"} << QStringLiteral("no OpenGL context");
    QTest::newRow("offscreen screenshot")
        << QStringList{"--input", "sim", "--backend", "cpu", "--screenshot", "shot.png"}
        << QStringList{"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM=offscreen"}
        << QStringLiteral("no OpenGL context");
  }
  void withoutADisplayItSaysSoAndPointsAtHeadless() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, environment);
    QFETCH(QString, reason);
    checkRefusal(runApp(args, 280000, environment), reason);
  }
};

QTEST_GUILESS_MAIN(TestCliNoWindow)
#include "test_cli_no_window.moc"
