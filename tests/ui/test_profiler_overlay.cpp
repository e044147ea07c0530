// The profiler overlay in the main window (CPU backend on the simulator, under Xvfb): View >
// Profiler (F2) draws a panel over the live image's top-right corner and nowhere else; the panel is
// dark and translucent (the image shows through) and carries the engine's numbers; turning it off
// restores the image exactly. The panel has rows for the display copy besides the engine's stages.
// A recorded trace holds the engine's tracks and the view's display copies, keyed by the frames
// the engine processed. Reports what the overlay costs: the view's paint time per frame with it
// off and on while live, its own compositing and drawing time, and the statistics poll. Those
// times are the machine's as much as the overlay's (Xvfb's software OpenGL shares the cores), so
// they are printed, not asserted; the windows they are taken over are counted in frames.

#include <QAction>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QtTest>

#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "common/gl_format.hpp"
#include "profiler/trace_capture.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "support/test_paths.hpp"
#include "view2d/image_view.hpp"
#include "view2d/profiler_overlay.hpp"

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
    QSet<qint64> beamformed;  // frames
    QList<qint64> displayed;
    QStringList tracks;
    for (const QJsonValue& value : events) {
      const QJsonObject event = value.toObject();
      const QString name = event.value("name").toString();
      const auto frame =
          static_cast<qint64>(event.value("args").toObject().value("frame").toDouble(-1));
      if (name == "beamform") {
        beamformed.insert(frame);
      } else if (name == "display" && event.value("ph").toString() == "X") {
        displayed << frame;
      } else if (name == "thread_name") {
        tracks << event.value("args").toObject().value("name").toString();
      }
    }
    // One second of the simulator's 20 frames/s: at most 20 frames (60 leaves room for the
    // recording's start and end); at least one, however loaded the machine (no rate is asserted).
    QVERIFY2(beamformed.size() >= 1 && beamformed.size() <= 60,
             qPrintable(QString::number(beamformed.size())));
    QVERIFY2(tracks.contains("compute stream") && tracks.contains("cf-acquire") &&
                 tracks.contains("gui"),
             qPrintable(tracks.join(", ")));
    // The view's copies into its texture, of frames the trace saw processed. The GUI records its
    // spans at once, the engine thread from its next frame on, so frames processed before the
    // recording reached the engine (older than the first traced frame; several on a loaded
    // machine) are displayed without a beamform span: they are left out. Of the rest, the last
    // may be cut by the recording's end.
    const qint64 firstTraced =
        beamformed.isEmpty() ? 0 : *std::min_element(beamformed.begin(), beamformed.end());
    int traced = 0;
    int linked = 0;
    for (const qint64 frame : displayed) {
      if (frame >= firstTraced) {
        ++traced;
        linked += beamformed.contains(frame) ? 1 : 0;
      }
    }
    QVERIFY2(displayed.size() >= 5 && traced >= 3 && linked >= traced - 1,
             qPrintable(QString("%1 display spans, %2 of frames from the first traced one on, %3 "
                                "of them of processed frames")
                            .arg(displayed.size())
                            .arg(traced)
                            .arg(linked)));
  }

  void overlayCostWithAndWithout() {
    auto* profiler = window_->findChild<QAction*>(QStringLiteral("profilerAction"));
    QVERIFY(profiler && !profiler->isChecked());
    cineflow::ui::ImageView& view = window_->view();
    // Paint time per displayed frame over live windows of 20 frames (about a second of the
    // simulator's 20 frames/s), without and with the panel, alternated so that a drift in the
    // machine's load falls on both.
    constexpr std::uint64_t kFramesPerWindow = 20;
    struct Window {
      double paintMs = 0;
      std::uint64_t paints = 0, frames = 0;
      qint64 elapsedMs = 0;
    };
    const auto measure = [&view](Window& into) {
      const double msBefore = view.paintMsTotal();
      const auto paintsBefore = view.paints();
      const auto framesBefore = view.framesDisplayed();
      QElapsedTimer clock;
      clock.start();
      const bool shown = QTest::qWaitFor(
          [&] { return view.framesDisplayed() >= framesBefore + kFramesPerWindow; }, 120'000);
      into.paintMs += view.paintMsTotal() - msBefore;
      into.paints += view.paints() - paintsBefore;
      into.frames += view.framesDisplayed() - framesBefore;
      into.elapsedMs += clock.elapsed();
      return shown;
    };
    Window off, on;
    for (int round = 0; round < 3; ++round) {
      QVERIFY2(measure(off), "the view stopped showing frames without the profiler");
      profiler->trigger();
      QTRY_VERIFY_WITH_TIMEOUT(!view.profilerRect().isEmpty(), 30'000);
      QVERIFY2(measure(on), "the view stopped showing frames with the profiler");
      if (round == 0) {
        const auto snapshot = view.profilerSnapshot();
        QVERIFY(snapshot);
        QStringList others;
        for (const cineflow::pipeline::StageStats& other : snapshot->others) {
          others << QString::fromStdString(other.name);
        }
        QVERIFY2(others.contains("display"), qPrintable(others.join(", ")));
      }
      profiler->trigger();
      QTRY_VERIFY_WITH_TIMEOUT(view.profilerRect().isEmpty(), 30'000);
    }
    const auto perPaint = [](const Window& w) {
      return w.paintMs / std::max<double>(1.0, static_cast<double>(w.paints));
    };
    const auto fps = [](const Window& w) {
      return static_cast<double>(w.frames) * 1000.0 / std::max<double>(1.0, w.elapsedMs);
    };
    const double periodMs = 1000.0 / std::max(fps(on), 1.0);
    qInfo(
        "paint per frame: %.3f ms without the profiler, %.3f ms with it (%.1f and %.1f frames/s, "
        "3 alternating windows of 20 frames each); the difference is %.2f %% of the %.1f ms frame "
        "period, "
        "%.2f %% of a 60 Hz display's 16.7 ms",
        perPaint(off), perPaint(on), fps(off), fps(on),
        100.0 * (perPaint(on) - perPaint(off)) / periodMs, periodMs,
        100.0 * (perPaint(on) - perPaint(off)) / (1000.0 / 60.0));
    // Every paint is timed, with the panel and without.
    QVERIFY(off.paints >= off.frames && on.paints >= on.frames);
    QVERIFY(off.paintMs > 0 && on.paintMs > 0);
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
    cineflow::ui::ImageView& view = window_->view();
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
    // Anchored at the view's top-right corner, inside an 8 px padding, over the image: under the
    // lateral ruler and right of the depth ruler (it never covers their labels).
    const QRect image = view.imageRectInFramebuffer();
    QVERIFY(!image.isEmpty());
    QVERIFY2(
        on.width() - 1 - panel.right() <= qRound(10 * ratio) && panel.top() >= image.top() - 1 &&
            panel.top() <= image.top() + qRound(10 * ratio) && panel.left() >= image.left() - 1,
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

    // Both overlays at once, for the manual: a line profile across the middle of the image.
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
