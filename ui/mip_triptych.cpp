#include "mip_triptych.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QStackedLayout>
#include <QVBoxLayout>

#include "bmode_view.hpp"

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
  auto* grid = new QGridLayout(grid_);
  grid->setContentsMargins(0, 0, 0, 0);
  const QString titles[3] = {tr("Through the slab (max over y)"), tr("En face (max over depth)"),
                             tr("Side view (max over x)")};
  const char* suffixes[3] = {"Y", "Z", "X"};
  for (int i = 0; i < 3; ++i) {
    auto* cell = new QVBoxLayout;
    auto* title = new QLabel(titles[i], grid_);
    title->setStyleSheet(QStringLiteral("font-size: small"));
    views_[i] = new BmodeView(grid_);
    views_[i]->setObjectName(name + QLatin1String(suffixes[i]));
    views_[i]->setMinimumSize(80, 48);  // the docks share the window with the live view
    cell->addWidget(title);
    cell->addWidget(views_[i], 1);
    if (companion != nullptr) {
      grid->addLayout(cell, (i + 1) / 2, (i + 1) % 2);
    } else if (i == 0) {
      // The projection through the slab looks like the B-mode: it gets the tall left column.
      grid->addLayout(cell, 0, 0, 2, 1);
    } else {
      grid->addLayout(cell, i - 1, 1);
    }
  }
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

void MipTriptych::setImages(const VolumeImages& images) {
  const std::shared_ptr<const Frame> frames[3] = {images.alongY, images.alongZ, images.alongX};
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
