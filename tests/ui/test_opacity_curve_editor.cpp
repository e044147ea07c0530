// The 3-D view's opacity curve editor: its table is the polyline through its points (checked at
// seeded random levels against the straight line between the neighbouring points); dragging,
// adding and removing points with the mouse change the curve as an operator expects, the end
// points keep their levels, and every change is announced.
#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <random>

#include "view3d/opacity_curve_editor.hpp"

using cineflow::ui::OpacityCurveEditor;

class TestOpacityCurveEditor : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    editor_ = std::make_unique<OpacityCurveEditor>();
    editor_->resize(300, 120);
    editor_->show();
    QVERIFY(QTest::qWaitForWindowExposed(editor_.get()));
  }
  void cleanup() { editor_.reset(); }

  void theTableIsThePolyline() {
    std::mt19937 random(20261127);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<QPointF> points = {{0.0, unit(random)}, {1.0, unit(random)}};
    for (int i = 0; i < 5; ++i) {
      points.push_back({unit(random), unit(random)});
    }
    editor_->setPoints(points);
    const auto& sorted = editor_->points();
    QCOMPARE(sorted.size(), std::size_t{7});
    const std::vector<float> table = editor_->table(1001);
    for (int i = 0; i <= 1000; i += 7) {
      const double level = i / 1000.0;
      std::size_t k = 0;
      while (k + 2 < sorted.size() && sorted[k + 1].x() < level) {
        ++k;
      }
      const double t = (level - sorted[k].x()) / (sorted[k + 1].x() - sorted[k].x());
      const double expected = sorted[k].y() + t * (sorted[k + 1].y() - sorted[k].y());
      QVERIFY2(std::abs(table[static_cast<std::size_t>(i)] - expected) < 1e-6,
               qPrintable(QStringLiteral("level %1: %2, not %3")
                              .arg(level)
                              .arg(table[static_cast<std::size_t>(i)])
                              .arg(expected)));
    }
  }

  void dragMovesAPointBetweenItsNeighbours() {
    QSignalSpy changed(editor_.get(), &OpacityCurveEditor::curveChanged);
    const QPoint from = editor_->toWidget(editor_->points()[2]).toPoint();  // (0.9, 0.3)
    const QPoint to = editor_->toWidget({0.7, 0.8}).toPoint();
    drag(from, to);
    QVERIFY(!changed.isEmpty());
    const QPointF moved = editor_->points()[2];
    QVERIFY(std::abs(moved.x() - 0.7) < 0.01 && std::abs(moved.y() - 0.8) < 0.02);
    // Dragged past its neighbour at 0.4, it stops just after it.
    const QPoint far = editor_->toWidget({0.1, 0.5}).toPoint();
    drag(to, far);
    QVERIFY(editor_->points()[2].x() > editor_->points()[1].x());
    QVERIFY(editor_->points()[2].x() < 0.42);
    // The table announced is the curve's.
    QCOMPARE(changed.last().at(0).value<std::vector<float>>(), editor_->table());
  }

  void endPointsKeepTheirLevels() {
    const QPoint first = editor_->toWidget(editor_->points().front()).toPoint();
    const QPoint to = editor_->toWidget({0.3, 0.6}).toPoint();
    drag(first, to);
    QCOMPARE(editor_->points().front().x(), 0.0);
    QVERIFY(std::abs(editor_->points().front().y() - 0.6) < 0.02);
    QVERIFY(std::abs(editor_->table().front() - 0.6f) < 0.02f);
    // Nor do they go: a right-click on an end point leaves it.
    QTest::mouseClick(editor_.get(), Qt::RightButton, Qt::NoModifier,
                      editor_->toWidget(editor_->points().back()).toPoint());
    QCOMPARE(editor_->points().size(), std::size_t{4});
  }

  void pressAddsAndRightClickOrDoubleClickRemoves() {
    const QPoint at = editor_->toWidget({0.65, 0.9}).toPoint();
    QTest::mouseClick(editor_.get(), Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(editor_->points().size(), std::size_t{5});
    QVERIFY(std::abs(editor_->points()[2].x() - 0.65) < 0.01);  // between 0.4 and 0.9
    QVERIFY(std::abs(editor_->table(101)[65] - 0.9f) < 0.02f);
    QTest::mouseClick(editor_.get(), Qt::RightButton, Qt::NoModifier, at);
    QCOMPARE(editor_->points().size(), std::size_t{4});
    QTest::mouseDClick(editor_.get(), Qt::LeftButton, Qt::NoModifier,
                       editor_->toWidget(editor_->points()[1]).toPoint());
    QCOMPARE(editor_->points().size(), std::size_t{3});
    QCOMPARE(editor_->points()[1], QPointF(0.9, 0.3));
  }

 private:
  // Press at `from`, move to `to` with the left button held, release there.
  void drag(QPoint from, QPoint to) {
    QTest::mousePress(editor_.get(), Qt::LeftButton, Qt::NoModifier, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), editor_->mapToGlobal(QPointF(to)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(editor_.get(), &move);
    QTest::mouseRelease(editor_.get(), Qt::LeftButton, Qt::NoModifier, to);
  }

  std::unique_ptr<OpacityCurveEditor> editor_;
};

QTEST_MAIN(TestOpacityCurveEditor)
#include "test_opacity_curve_editor.moc"
