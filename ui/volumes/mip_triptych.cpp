#include "volumes/mip_triptych.hpp"

#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QStackedLayout>
#include <QVBoxLayout>

#include "view2d/image_view.hpp"

namespace cineflow::ui {

MipTriptych::MipTriptych(const QString& name, QWidget* parent, QWidget* companion)
    : QWidget(parent) {
  setObjectName(name);
  pages_ = new QStackedLayout(this);
  grid_ = new QWidget(this);
  pages_->addWidget(grid_);
  placeholder_ = new QLabel(tr("No volume yet"), this);
  placeholder_->setObjectName(name + QLatin1String("Placeholder"));
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setEnabled(false);  // greyed: it says what is missing, it is not content
  pages_->addWidget(placeholder_);
  pages_->setCurrentWidget(placeholder_);
  auto* page = new QVBoxLayout(grid_);
  page->setContentsMargins(0, 0, 0, 0);
  page->setSpacing(2);
  stretch_ = new QCheckBox(tr("Stretch thin axes"), grid_);
  stretch_->setObjectName(name + QLatin1String("Stretch"));
  stretch_->setToolTip(
      tr("Fill each panel with its projection, each axis scaled on its own (a sweep a few mm "
         "thick is no longer a strip); off: physical proportions"));
  stretch_->setFocusPolicy(Qt::NoFocus);
  page->addWidget(stretch_, 0, Qt::AlignRight);
  auto* grid = new QGridLayout;
  page->addLayout(grid, 1);
  gridLayout_ = grid;
  hasCompanion_ = companion != nullptr;
  grid->setContentsMargins(0, 0, 0, 0);
  const QString titles[3] = {tr("Through the slab (max over y)"), tr("En face (max over depth)"),
                             tr("Side view (max over x)")};
  const char* suffixes[3] = {"Y", "Z", "X"};
  for (int i = 0; i < 3; ++i) {
    cells_[i] = new QWidget(grid_);
    auto* cell = new QVBoxLayout(cells_[i]);
    cell->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(titles[i], cells_[i]);
    title->setStyleSheet(QStringLiteral("font-size: small"));
    title->setWordWrap(true);  // a narrow dock wraps the title instead of widening
    views_[i] = new ImageView(cells_[i]);
    views_[i]->setObjectName(name + QLatin1String(suffixes[i]));
    views_[i]->setMinimumSize(80, 48);  // the docks share the window with the live view
    views_[i]->setCompact(true);        // a panel's pixels go to the projection, not rulers
    cell->addWidget(title);
    cell->addWidget(views_[i], 1);
    if (companion != nullptr) {
      grid->addWidget(cells_[i], (i + 1) / 2, (i + 1) % 2);
    }
  }
  if (companion == nullptr) {
    arrange(0);
  }
  connect(stretch_, &QCheckBox::toggled, this, [this](bool on) {
    for (ImageView* view : views_) {
      view->setStretch(on);
    }
  });
  if (companion != nullptr) {
    grid->addWidget(companion, 0, 0);
    for (int k = 0; k < 2; ++k) {
      grid->setColumnStretch(k, 1);
      grid->setRowStretch(k, 1);
    }
  } else {
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
  }
}

void MipTriptych::arrange(int lead) {
  lead_ = lead;
  for (QWidget* cell : cells_) {
    gridLayout_->removeWidget(cell);
  }
  gridLayout_->addWidget(cells_[lead], 0, 0, 2, 1);
  int row = 0;
  for (int i = 0; i < 3; ++i) {
    if (i != lead) {
      gridLayout_->addWidget(cells_[i], row++, 1);
    }
  }
}

void MipTriptych::setImages(const VolumeImages& images) {
  if (!hasCompanion_ && images.alongY && images.alongZ) {
    const auto area = [](const Image& frame) {
      return frame.geometry.nx * frame.geometry.dx * frame.geometry.nz * frame.geometry.dz;
    };
    const int lead = area(*images.alongZ) > area(*images.alongY) ? 1 : 0;
    if (lead != lead_) {
      arrange(lead);
    }
  }
  const std::shared_ptr<const Image> frames[3] = {images.alongY, images.alongZ, images.alongX};
  for (int i = 0; i < 3; ++i) {
    if (frames[i]) {
      views_[i]->setFrame(frames[i]);
      pages_->setCurrentWidget(grid_);
    }
  }
}

void MipTriptych::clear(const QString& placeholder) {
  placeholder_->setText(placeholder);
  pages_->setCurrentWidget(placeholder_);
}

bool MipTriptych::showsPlaceholder() const {
  return pages_->currentWidget() == placeholder_;
}

QString MipTriptych::placeholderText() const {
  return placeholder_->text();
}

}  // namespace cineflow::ui
