#include "view2d/profiler_overlay.hpp"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace cineflow::ui {
namespace {

// "beamform · avx512": a stage with several implementations names the one it ran.
QString stageLabel(const pipeline::StageStats& stage) {
  const QString name = QString::fromStdString(stage.name);
  return stage.variant.empty()
             ? name
             : name + QStringLiteral(" · ") + QString::fromStdString(stage.variant);
}

constexpr qreal kPadding = 8;
constexpr qreal kTimelineHeight = 64;
constexpr int kValueColumns = 6;  // last, median, p99, max, mean, std
constexpr int kMinValueColumns = 2;
constexpr qreal kMinPointSize = 6.0;
const QColor kPanel(12, 14, 18, 200);
const QColor kText(225, 228, 235);
const QColor kDim(150, 155, 165);

QString ms(double value) {
  return QString::number(value, 'f', value < 10 ? 3 : 1);
}

}  // namespace

QColor stageColour(int index) {
  static const QColor colours[] = {
      QColor(94, 129, 172),  QColor(163, 190, 140), QColor(235, 203, 139), QColor(208, 135, 112),
      QColor(180, 142, 173), QColor(136, 192, 208), QColor(191, 97, 106),  QColor(216, 222, 233)};
  return colours[static_cast<std::size_t>(index) % std::size(colours)];
}

QRectF paintProfiler(QPainter& painter, const QRectF& area, const ProfilerSnapshot& s) {
  painter.save();
  const QString footers[] = {
      QCoreApplication::translate("ProfilerOverlay", "fps  acq %1 · proc %2 · disp %3")
          .arg(s.acquisitionFps, 0, 'f', 1)
          .arg(s.processingFps, 0, 'f', 1)
          .arg(s.displayFps, 0, 'f', 1),
      QCoreApplication::translate("ProfilerOverlay", "ring %1 / %2 · dropped %3 · memory %4")
          .arg(s.ringOccupancy)
          .arg(s.ringSlots)
          .arg(s.dropped)
          .arg(s.memoryTotalGiB > 0 ? QCoreApplication::translate("ProfilerOverlay", "%1 / %2 GiB")
                                          .arg(s.memoryUsedGiB, 0, 'f', 2)
                                          .arg(s.memoryTotalGiB, 0, 'f', 1)
                                    : QCoreApplication::translate("ProfilerOverlay", "n/a")),
      QCoreApplication::translate("ProfilerOverlay",
                                  "last %n frame(s) by stage · overlay %1 ms/frame, %2 ms/update",
                                  nullptr, static_cast<int>(s.timeline.size()))
          .arg(s.overlayMs, 0, 'f', 2)
          .arg(s.overlayRenderMs, 0, 'f', 1)};
  // Sized from its text: the widest name, `columns` value columns and the widest footer line
  // (rounded up, so that no glyph is cut by a fraction of a pixel).
  const auto namesWidth = [&s](const QFontMetricsF& m) {
    qreal names = m.horizontalAdvance(QStringLiteral("latency"));
    for (const auto* list : {&s.stages, &s.others}) {
      for (const pipeline::StageStats& stage : *list) {
        names = std::max(names, m.horizontalAdvance(stageLabel(stage)));
      }
    }
    return std::ceil(names) + 1;
  };
  const auto valueWidthOf = [](const QFontMetricsF& m) {
    return std::ceil(m.horizontalAdvance(QStringLiteral(" 0000.000")));
  };
  const auto widthFor = [&](const QFontMetricsF& m, int columns) {
    qreal footer = 0;
    for (const QString& line : footers) {
      footer = std::max(footer, std::ceil(m.horizontalAdvance(line)) + 1);
    }
    const qreal table = m.height() + namesWidth(m) + kPadding + columns * valueWidthOf(m);
    return kPadding * 2 + std::max(table, footer);
  };
  // A narrow view gets a smaller font, down to 6 pt, then fewer value columns (the first two,
  // last and median, always stay).
  QFont font = painter.font();
  const qreal room = area.width() - 2 * kPadding;
  int columns = kValueColumns;
  for (int attempt = 0; attempt < 8 && font.pointSizeF() > kMinPointSize; ++attempt) {
    const qreal needed = widthFor(QFontMetricsF(font), columns);
    if (needed <= room) {
      break;
    }
    font.setPointSizeF(std::max(
        kMinPointSize, std::min(font.pointSizeF() - 0.25, font.pointSizeF() * room / needed)));
  }
  while (columns > kMinValueColumns && widthFor(QFontMetricsF(font), columns) > room) {
    --columns;
  }
  painter.setFont(font);
  const QFontMetricsF metrics(font);
  const qreal line = metrics.height();
  const qreal valueWidth = valueWidthOf(metrics);
  const qreal width = widthFor(metrics, columns);
  const qreal nameWidth = width - kPadding * 2 - line - columns * valueWidth;
  // The header, the stages, the others, latency, and three lines of rates.
  const int rows = 1 + static_cast<int>(s.stages.size() + s.others.size()) + 1 + 3;
  const qreal height = kPadding * 3 + rows * line + kTimelineHeight;
  const QRectF panel(area.right() - width - kPadding, area.top() + kPadding, width, height);
  painter.setPen(Qt::NoPen);
  painter.setBrush(kPanel);
  painter.drawRoundedRect(panel, 4, 4);

  qreal y = panel.top() + kPadding;
  const qreal left = panel.left() + kPadding;
  const auto text = [&](qreal x, qreal w, const QString& value, const QColor& colour,
                        Qt::Alignment align) {
    painter.setPen(colour);
    painter.drawText(QRectF(x, y, w, line), align | Qt::AlignVCenter, value);
  };
  const qreal valuesLeft = left + line + nameWidth;
  const QString headers[kValueColumns] = {QStringLiteral("last"), QStringLiteral("median"),
                                          QStringLiteral("p99"),  QStringLiteral("max"),
                                          QStringLiteral("mean"), QStringLiteral("std")};
  text(left + line, nameWidth, QStringLiteral("ms"), kDim, Qt::AlignLeft);
  for (int c = 0; c < columns; ++c) {
    text(valuesLeft + c * valueWidth, valueWidth, headers[c], kDim, Qt::AlignRight);
  }
  y += line;
  const auto row = [&](const pipeline::StageStats& stage, const QColor* swatch) {
    if (swatch != nullptr) {
      painter.setPen(Qt::NoPen);
      painter.setBrush(*swatch);
      painter.drawRect(QRectF(left + 2, y + line * 0.25, line * 0.5, line * 0.5));
    }
    text(left + line, nameWidth, stageLabel(stage), kText, Qt::AlignLeft);
    const double values[kValueColumns] = {stage.lastMs, stage.medianMs, stage.p99Ms,
                                          stage.maxMs,  stage.meanMs,   stage.stdMs};
    for (int c = 0; c < columns; ++c) {
      text(valuesLeft + c * valueWidth, valueWidth, ms(values[c]), kText, Qt::AlignRight);
    }
    y += line;
  };
  for (std::size_t i = 0; i < s.stages.size(); ++i) {
    const QColor colour = stageColour(static_cast<int>(i));
    row(s.stages[i], &colour);
  }
  for (const pipeline::StageStats& other : s.others) {
    row(other, nullptr);
  }
  row(s.latency, nullptr);
  const qreal full = width - 2 * kPadding;
  for (std::size_t i = 0; i < std::size(footers); ++i) {
    text(left, full, metrics.elidedText(footers[i], Qt::ElideRight, full),
         i + 1 < std::size(footers) ? kText : kDim, Qt::AlignLeft);
    y += line;
  }
  y += kPadding / 2;

  // The timeline: a bar per frame, its stages stacked bottom-up, scaled to the tallest frame.
  const QRectF plot(left, y, full, kTimelineHeight);
  float tallest = 0;
  for (const profile::FrameTiming& t : s.timeline) {
    float sum = 0;
    for (int i = 0; i < t.stages; ++i) {
      sum += t.stageMs[static_cast<std::size_t>(i)];
    }
    tallest = std::max(tallest, sum);
  }
  if (!s.timeline.empty() && tallest > 0) {
    const qreal barWidth = plot.width() / static_cast<qreal>(s.timeline.size());
    painter.setPen(Qt::NoPen);
    for (std::size_t f = 0; f < s.timeline.size(); ++f) {
      const profile::FrameTiming& t = s.timeline[f];
      qreal bottom = plot.bottom();
      for (int i = 0; i < t.stages; ++i) {
        const qreal h = plot.height() * t.stageMs[static_cast<std::size_t>(i)] / tallest;
        painter.setBrush(stageColour(i));
        painter.drawRect(QRectF(plot.left() + f * barWidth, bottom - h,
                                std::max<qreal>(barWidth - 0.5, 0.5), h));
        bottom -= h;
      }
    }
    painter.setPen(kDim);
    painter.drawText(plot.adjusted(2, 0, 0, 0), Qt::AlignTop | Qt::AlignLeft,
                     QCoreApplication::translate("ProfilerOverlay", "%1 ms").arg(ms(tallest)));
  }
  painter.restore();
  return panel;
}

}  // namespace cineflow::ui
