#include "export/pacs_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "common/background_job.hpp"
#include "export/pacs_settings.hpp"

namespace cineflow::ui {
namespace {

QLineEdit* titleField(QWidget* parent, const char* name, const QString& placeholder) {
  auto* edit = new QLineEdit(parent);
  edit->setObjectName(QLatin1String(name));
  edit->setPlaceholderText(placeholder);
  edit->setMaxLength(16);
  return edit;
}

// The text as a sentence: its first letter capitalised ("cannot reach ..." -> "Cannot reach ...").
QString sentence(QString text) {
  if (!text.isEmpty()) {
    text[0] = text[0].toUpper();
  }
  return text;
}

}  // namespace

PacsDialog::PacsDialog(const std::optional<PacsNode>& current, QWidget* parent)
    : QDialog(parent), echo_(new BackgroundJob("cf-pacs-echo", this)) {
  setObjectName(QStringLiteral("pacsDialog"));
  setWindowTitle(tr("PACS settings"));
  const PacsNode start = current.value_or(PacsNode{});

  calledAe_ = titleField(this, "pacsCalledAe", tr("the PACS's AE title, e.g. ORTHANC"));
  calledAe_->setText(QString::fromStdString(start.calledAe));
  host_ = new QLineEdit(QString::fromStdString(start.host), this);
  host_->setObjectName(QStringLiteral("pacsHost"));
  host_->setPlaceholderText(tr("name or address, e.g. pacs.hospital.org"));
  port_ = new QSpinBox(this);
  port_->setObjectName(QStringLiteral("pacsPort"));
  port_->setRange(1, 65535);
  port_->setValue(start.port);
  callingAe_ = titleField(this, "pacsCallingAe", tr("Cineflow's AE title, as the PACS knows it"));
  callingAe_->setText(QString::fromStdString(start.callingAe));
  timeout_ = new QSpinBox(this);
  timeout_->setObjectName(QStringLiteral("pacsTimeout"));
  timeout_->setRange(1, 600);
  timeout_->setSuffix(tr(" s"));
  timeout_->setValue(start.timeoutSeconds);
  timeout_->setToolTip(tr("How long to wait for the PACS at each step before giving up"));

  test_ = new QPushButton(tr("Test connection (C-ECHO)"), this);
  test_->setObjectName(QStringLiteral("pacsTestButton"));
  result_ = new QLabel(this);
  result_->setObjectName(QStringLiteral("pacsTestResult"));
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problem_ = new QLabel(this);
  problem_->setObjectName(QStringLiteral("pacsProblem"));
  problem_->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("PACS AE title"), calledAe_);
  form->addRow(tr("Host"), host_);
  form->addRow(tr("Port"), port_);
  form->addRow(tr("Cineflow AE title"), callingAe_);
  form->addRow(tr("Timeout"), timeout_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  ok_ = buttons->button(QDialogButtonBox::Ok);
  ok_->setObjectName(QStringLiteral("pacsOkButton"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(test_);
  layout->addWidget(result_);
  layout->addWidget(problem_);
  layout->addWidget(buttons);
  setMinimumWidth(460);

  for (QLineEdit* edit : {calledAe_, host_, callingAe_}) {
    connect(edit, &QLineEdit::textChanged, this, &PacsDialog::update);
  }
  connect(port_, &QSpinBox::valueChanged, this, &PacsDialog::update);
  connect(timeout_, &QSpinBox::valueChanged, this, &PacsDialog::update);
  connect(test_, &QPushButton::clicked, this, &PacsDialog::test);
  connect(echo_, &BackgroundJob::finished, this, [this](bool ok, const QString& message) {
    result_->setText(sentence(message));
    result_->setStyleSheet(ok ? QStringLiteral("color: #7fd47f")
                              : QStringLiteral("color: #ff8a80"));
    update();
    emit tested(ok, message);
  });
  update();
}

PacsDialog::~PacsDialog() = default;  // echo_ (a child) waits for a test still running

PacsNode PacsDialog::node() const {
  PacsNode node;
  node.calledAe = calledAe_->text().trimmed().toStdString();
  node.host = host_->text().trimmed().toStdString();
  node.port = port_->value();
  node.callingAe = callingAe_->text().trimmed().toStdString();
  node.timeoutSeconds = timeout_->value();
  return node;
}

QString PacsDialog::testResult() const {
  return result_->text();
}

void PacsDialog::update() {
  const QString problem = QString::fromStdString(pacsNodeProblem(node()));
  problem_->setText(problem.isEmpty() ? QString() : sentence(problem) + QLatin1Char('.'));
  problem_->setVisible(!problem.isEmpty());
  ok_->setEnabled(problem.isEmpty());
  test_->setEnabled(problem.isEmpty() && !echo_->running());
}

void PacsDialog::test() {
  const PacsNode typed = node();
  result_->setStyleSheet({});
  result_->setText(tr("Asking %1…").arg(QString::fromStdString(describePacsNode(typed))));
  echo_->start([typed](BackgroundJob&) {
    const PacsReply reply = echoPacs(typed);
    return BackgroundJob::Result{reply.ok, QString::fromStdString(reply.message)};
  });
  update();
}

std::optional<PacsNode> pacsNodeOrAsk(QWidget* parent) {
  if (std::optional<PacsNode> saved = savedPacsNode()) {
    return saved;
  }
  PacsDialog dialog(std::nullopt, parent);
  if (dialog.exec() != QDialog::Accepted) {
    return std::nullopt;
  }
  savePacsNode(dialog.node());
  return dialog.node();
}

}  // namespace cineflow::ui
