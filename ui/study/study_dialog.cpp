#include "study/study_dialog.hpp"

#include <algorithm>

#include <QComboBox>
#include <QDate>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace cineflow::ui {
namespace {

QLineEdit* field(QWidget* parent, const char* name, const QString& placeholder) {
  auto* edit = new QLineEdit(parent);
  edit->setObjectName(QLatin1String(name));
  edit->setPlaceholderText(placeholder);
  return edit;
}

// "1984-03-07" (or "19840307") as DICOM's "19840307"; anything else is returned as typed, for
// studyProblem() to refuse.
std::string dicomDate(const QString& typed) {
  QString date = typed.trimmed();
  if (date.size() == 10 && date[4] == QLatin1Char('-') && date[7] == QLatin1Char('-')) {
    date.remove(QLatin1Char('-'));
  }
  return date.toStdString();
}

QString shownDate(const std::string& dicom) {
  const QDate date = QDate::fromString(QString::fromStdString(dicom), QStringLiteral("yyyyMMdd"));
  return date.isValid() ? date.toString(Qt::ISODate) : QString::fromStdString(dicom);
}

}  // namespace

StudyDialog::StudyDialog(const std::optional<store::StudyInfo>& current, QWidget* parent)
    : QDialog(parent) {
  setObjectName(QStringLiteral("studyDialog"));
  setWindowTitle(tr("Patient and study"));

  patientName_ = field(this, "studyPatientName", tr("Family^Given"));
  patientId_ = field(this, "studyPatientId", tr("the hospital's patient ID"));
  birthDate_ = field(this, "studyBirthDate", tr("YYYY-MM-DD (optional)"));
  sex_ = new QComboBox(this);
  sex_->setObjectName(QStringLiteral("studySex"));
  sex_->addItem(tr("Not given"), QString());
  sex_->addItem(tr("Female"), QStringLiteral("F"));
  sex_->addItem(tr("Male"), QStringLiteral("M"));
  sex_->addItem(tr("Other"), QStringLiteral("O"));
  accession_ = field(this, "studyAccession", tr("the order's number, up to 16 characters"));
  description_ = field(this, "studyDescription", tr("what is examined"));
  referring_ = field(this, "studyReferringPhysician", tr("Family^Given"));
  operator_ = field(this, "studyOperator", tr("Family^Given: who scans"));
  state_ = new QLabel(this);
  state_->setObjectName(QStringLiteral("studyState"));
  state_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problemLabel_ = new QLabel(this);
  problemLabel_->setObjectName(QStringLiteral("studyProblem"));
  problemLabel_->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Patient name"), patientName_);
  form->addRow(tr("Patient ID"), patientId_);
  form->addRow(tr("Birth date"), birthDate_);
  form->addRow(tr("Sex"), sex_);
  form->addRow(tr("Accession number"), accession_);
  form->addRow(tr("Study description"), description_);
  form->addRow(tr("Referring physician"), referring_);
  form->addRow(tr("Operator"), operator_);
  form->addRow(tr("Study"), state_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setObjectName(QStringLiteral("studyOkButton"));
  auto* newButton = buttons->addButton(tr("New study"), QDialogButtonBox::ResetRole);
  newButton->setObjectName(QStringLiteral("studyNewButton"));
  newButton->setToolTip(tr("Empty the form for the next patient; OK begins a new study"));
  newButton->setAutoDefault(false);
  auto* endButton = buttons->addButton(tr("End study"), QDialogButtonBox::DestructiveRole);
  endButton->setObjectName(QStringLiteral("studyEndButton"));
  endButton->setToolTip(tr("No patient from now on: exports are anonymous"));
  endButton->setAutoDefault(false);
  endButton->setEnabled(current.has_value());

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(problemLabel_);
  layout->addWidget(buttons);

  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    update();
    if (problem_.isEmpty()) {
      accept();
    }
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(newButton, &QPushButton::clicked, this, &StudyDialog::newStudy);
  connect(endButton, &QPushButton::clicked, this, [this] {
    ended_ = true;
    accept();
  });
  for (QLineEdit* edit :
       {patientName_, patientId_, birthDate_, accession_, description_, referring_, operator_}) {
    connect(edit, &QLineEdit::textChanged, this, &StudyDialog::update);
  }
  connect(sex_, &QComboBox::currentIndexChanged, this, &StudyDialog::update);

  if (current) {
    kept_.studyInstanceUid = current->studyInstanceUid;
    kept_.studyDate = current->studyDate;
    kept_.studyTime = current->studyTime;
    patientName_->setText(QString::fromStdString(current->patientName));
    patientId_->setText(QString::fromStdString(current->patientId));
    birthDate_->setText(shownDate(current->birthDate));
    sex_->setCurrentIndex(std::max(0, sex_->findData(QString::fromStdString(current->sex))));
    accession_->setText(QString::fromStdString(current->accessionNumber));
    description_->setText(QString::fromStdString(current->studyDescription));
    referring_->setText(QString::fromStdString(current->referringPhysician));
    operator_->setText(QString::fromStdString(current->operatorName));
  }
  update();
}

store::StudyInfo StudyDialog::typed() const {
  store::StudyInfo study = kept_;
  study.patientName = patientName_->text().trimmed().toStdString();
  study.patientId = patientId_->text().trimmed().toStdString();
  study.birthDate = dicomDate(birthDate_->text());
  study.sex = sex_->currentData().toString().toStdString();
  study.accessionNumber = accession_->text().trimmed().toStdString();
  study.studyDescription = description_->text().trimmed().toStdString();
  study.referringPhysician = referring_->text().trimmed().toStdString();
  study.operatorName = operator_->text().trimmed().toStdString();
  return study;
}

std::optional<store::StudyInfo> StudyDialog::study() const {
  const store::StudyInfo study = typed();
  if (ended_ || !study.hasEntries()) {
    return std::nullopt;
  }
  return study;
}

void StudyDialog::newStudy() {
  kept_ = {};
  for (QLineEdit* edit :
       {patientName_, patientId_, birthDate_, accession_, description_, referring_, operator_}) {
    edit->clear();
  }
  sex_->setCurrentIndex(0);
  patientName_->setFocus();
  update();
}

void StudyDialog::update() {
  state_->setText(kept_.studyInstanceUid.empty()
                      ? tr("New study (its UID is made when you press OK)")
                      : QString::fromStdString(kept_.studyInstanceUid));
  const QString today = QDate::currentDate().toString(QStringLiteral("yyyyMMdd"));
  problem_ = QString::fromStdString(store::studyProblem(typed(), today.toStdString()));
  if (problem_.startsWith(QLatin1String("Birth date: not a real date"))) {
    problem_ = tr("Birth date: write a real date as YYYY-MM-DD (\"%1\" is not one)")
                   .arg(birthDate_->text().trimmed());
  }
  ok_->setEnabled(problem_.isEmpty());
  problemLabel_->setText(
      problem_.isEmpty()
          ? QString()
          : QStringLiteral("<span style='color:#e0605a'>%1</span>").arg(problem_.toHtmlEscaped()));
}

}  // namespace cineflow::ui
