// The profiler overlay in the main window (CPU backend on the simulator, under Xvfb): View >
// Profiler (F2) draws a panel over the live image's top-right corner and nowhere else; the panel is
// dark and translucent (the image shows through) and carries the engine's numbers; turning it off
// restores the image exactly. Reports the overlay's paint time and the statistics poll's cost.

#include <QAction>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

#include "app_settings.hpp"
#include "bmode_view.hpp"
#include "engine_controller.hpp"
#include "gl_format.hpp"
#include "main_window.hpp"
#include "sim_window.hpp"
#include "support/test_paths.hpp"
#include "trace_capture.hpp"

using cineflow::ui::MainWindow;

namespace {
constexpr int kFirstFramesTimeoutMs = 120'000;

// Pixels of `a` and `b` inside `rect` that differ, and the mean grey of `b` there.
struct Difference {
  int changed = 0;
  int total = 0;
};

Difference compare(const QImage& a, const QImage& b, const QRect& rect, const QRect& hole = {}) {
  Difference d;
  const QRect clipped = rect.intersected(a.rect());
  for (int y = clipped.top(); y <= clipped.bottom(); ++y) {
    for (int x = clipped.left(); x <= clipped.right(); ++x) {
      if (hole.contains(x, y)) {
        continue;
      }
      ++d.total;
      d.changed += a.pixel(x, y) != b.pixel(x, y) ? 1 : 0;
    }
  }
  return d;
}
}  // namespace

class TestProfilerOverlay : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_profiler_overlay"); }

 private slots:
  void initTestCase() {
    window_ = cineflow::test::openSimulatorWindow();
    QVERIFY(window_);
    QTRY_VERIFY_WITH_TIMEOUT(
        window_->view().framesDisplayed() >= 8 || !window_->lastError().isEmpty(),
        kFirstFramesTimeoutMs);
    QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
  }

  void recordTraceWritesAPerfettoFile() {
    cineflow::ui::TraceCapture& capture = window_->traceCapture();
    QSignalSpy finished(&capture, &cineflow::ui::TraceCapture::finished);
    const QString path = QString::fromStdString(cineflow::test::artefactPath("gui-trace.json"));
    QFile::remove(path);
    QVERIFY(!capture.start(0, path));  // a bad duration is refused
    QVERIFY(capture.start(1, path));
    QVERIFY(capture.busy());
    QVERIFY(!capture.start(1, path));  // one at a time
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20'000);
    QVERIFY(finished.front().at(1).toBool());
    QVERIFY(!capture.busy());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    const QJsonArray events = document.object().value("traceEvents").toArray();
    int beamform = 0;
    QStringList tracks;
    for (const QJsonValue& value : events) {
      const QJsonObject event = value.toObject();
      beamform += event.value("name").toString() == "beamform" ? 1 : 0;
      if (event.value("name").toString() == "thread_name") {
        tracks << event.value("args").toObject().value("name").toString();
      }
    }
    // About a second of the simulator's 20 frames/s.
    QVERIFY2(beamform >= 5 && beamform <= 60, qPrintable(QString::number(beamform)));
    QVERIFY2(tracks.contains("compute stream") && tracks.contains("cf-acquire"),
             qPrintable(tracks.join(", ")));
  }

  void overlayIsDrawnWhenOnAndGoneWhenOff() {
    auto* profiler = window_->findChild<QAction*>(QStringLiteral("profilerAction"));
    auto* freeze = window_->findChild<QAction*>(QStringLiteral("freezeAction"));
    QVERIFY(profiler && freeze);
    QCOMPARE(profiler->shortcut(), QKeySequence(Qt::Key_F2));
    QVERIFY(profiler->isCheckable() && !profiler->isChecked());

    // Some statistics first, then a still image: the grabs differ only by the overlay.
    QTest::qWait(1500);
    freeze->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().isRunning(), 10'000);
    cineflow::ui::BmodeView& view = window_->view();
    view.update();
    QTest::qWait(200);
    const QImage off = view.grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    QVERIFY(view.profilerRect().isEmpty());

    profiler->trigger();
    QVERIFY(profiler->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(!view.profilerRect().isEmpty(), 5000);
    const QImage on = view.grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    const qreal ratio = view.devicePixelRatioF();
    const QRectF logical = view.profilerRect();
    const QRect panel(qRound(logical.left() * ratio), qRound(logical.top() * ratio),
                      qRound(logical.width() * ratio), qRound(logical.height() * ratio));
    QVERIFY2(panel.right() < on.width() && panel.top() >= 0, "the panel lies inside the view");
    // Anchored at the top-right corner, inside an 8 px padding.
    QVERIFY2(
        on.width() - 1 - panel.right() <= qRound(10 * ratio) && panel.top() <= qRound(10 * ratio),
        qPrintable(QString("panel %1,%2 %3x%4 in %5x%6")
                       .arg(panel.left())
                       .arg(panel.top())
                       .arg(panel.width())
                       .arg(panel.height())
                       .arg(on.width())
                       .arg(on.height())));

    const Difference inside = compare(off, on, panel);
    const Difference outside = compare(off, on, on.rect(), panel.adjusted(-2, -2, 2, 2));
    QVERIFY2(
        inside.changed > inside.total / 2,
        qPrintable(QString("%1 of %2 panel pixels changed").arg(inside.changed).arg(inside.total)));
    QCOMPARE(outside.changed, 0);
    // Dark and translucent: darker than the image under it, but not a flat colour.
    QImage panelPixels = on.copy(panel);
    int brightest = 0;
    qint64 sum = 0;
    for (int y = 0; y < panelPixels.height(); ++y) {
      for (int x = 0; x < panelPixels.width(); ++x) {
        const int grey = qGray(panelPixels.pixel(x, y));
        brightest = std::max(brightest, grey);
        sum += grey;
      }
    }
    const double mean = static_cast<double>(sum) / (panelPixels.width() * panelPixels.height());
    QVERIFY2(mean < 80, qPrintable(QString::number(mean)));
    QVERIFY2(brightest > 150, "the panel's text is light");  // text and bars
    QVERIFY(
        on.save(QString::fromStdString(cineflow::test::artefactPath("test_profiler_overlay.png"))));

    // What the overlay costs: its paint, and the statistics it polls a few times a second.
    QElapsedTimer clock;
    clock.start();
    const auto stats = window_->controller().engine().stats();
    std::vector<cineflow::profile::FrameTiming> timeline;
    window_->controller().engine().copyTimeline(120, timeline);
    const double pollMs = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
    QVERIFY(!stats.stages.empty());
    QVERIFY(!timeline.empty());
    qInfo(
        "profiler overlay: %.3f ms per displayed frame, %.3f ms per snapshot; statistics poll "
        "%.3f ms (%zu stages, %zu frames)",
        view.profilerPaintMs(), view.profilerRenderMs(), pollMs, stats.stages.size(),
        timeline.size());

    // Both overlays at once, for the README: a line profile across the middle of the image.
    view.setProfileLine({-6e-3, 19.5e-3}, {6e-3, 19.5e-3});
    QVERIFY(!view.lineProfile().empty());
    QTest::qWait(200);
    QVERIFY(window_->grab().save(
        QString::fromStdString(cineflow::test::artefactPath("test_profiler_overlay_window.png"))));
    view.clearProfileLine();

    profiler->trigger();
    QVERIFY(!profiler->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(view.profilerRect().isEmpty(), 5000);
    QTest::qWait(200);
    const QImage again = view.grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(compare(off, again, again.rect()).changed, 0);
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestProfilerOverlay)
#include "test_profiler_overlay.moc"
