#include "acquisition/plugin_parameter_form.hpp"

#include <limits>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace cineflow::ui {
namespace {

// The plugin's default (JSON text) as a Qt value; null when it has none or it does not parse.
QJsonValue defaultValue(const acquire::PluginParameter& parameter) {
  const QByteArray text =
      QByteArray("[") + QByteArray::fromStdString(parameter.defaultText) + QByteArray("]");
  const QJsonDocument document = QJsonDocument::fromJson(text);
  return document.isArray() && !document.array().isEmpty() ? document.array().first()
                                                           : QJsonValue();
}

QString suffix(const acquire::PluginParameter& parameter) {
  return parameter.unit.empty() ? QString() : " " + QString::fromStdString(parameter.unit);
}

QWidget* editorFor(const acquire::PluginParameter& parameter, QWidget* parent) {
  const QJsonValue initial = defaultValue(parameter);
  const QString name = QString::fromStdString("plugin_" + parameter.name);
  if (parameter.kind == "integer") {
    auto* box = new QSpinBox(parent);
    box->setRange(
        parameter.hasRange ? static_cast<int>(parameter.min) : std::numeric_limits<int>::min(),
        parameter.hasRange ? static_cast<int>(parameter.max) : std::numeric_limits<int>::max());
    box->setSuffix(suffix(parameter));
    box->setValue(initial.toInt());
    box->setObjectName(name);
    return box;
  }
  if (parameter.kind == "number") {
    auto* box = new QDoubleSpinBox(parent);
    box->setDecimals(2);
    box->setRange(parameter.hasRange ? parameter.min : -1e12,
                  parameter.hasRange ? parameter.max : 1e12);
    box->setSuffix(suffix(parameter));
    box->setValue(initial.toDouble());
    box->setObjectName(name);
    return box;
  }
  if (parameter.kind == "choice") {
    auto* box = new QComboBox(parent);
    for (const std::string& choice : parameter.choices) {
      box->addItem(QString::fromStdString(choice));
    }
    box->setCurrentText(initial.toString());
    box->setObjectName(name);
    return box;
  }
  auto* edit = new QLineEdit(initial.toString(), parent);  // "text"
  edit->setObjectName(name);
  return edit;
}

}  // namespace

PluginParameterForm::PluginParameterForm(const std::vector<acquire::PluginParameter>& parameters,
                                         QWidget* parent)
    : QWidget(parent) {
  auto* layout = new QFormLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  for (const acquire::PluginParameter& parameter : parameters) {
    QWidget* editor = editorFor(parameter, this);
    const std::string& label = parameter.label.empty() ? parameter.name : parameter.label;
    layout->addRow(QString::fromStdString(label), editor);
    fields_.push_back({parameter, editor});
  }
  if (parameters.empty()) {
    layout->addRow(new QLabel(tr("This source has no parameters."), this));
  }
}

std::string PluginParameterForm::values() const {
  QJsonObject object;
  for (const Field& field : fields_) {
    const QString key = QString::fromStdString(field.parameter.name);
    if (const auto* integer = qobject_cast<const QSpinBox*>(field.editor)) {
      object.insert(key, integer->value());
    } else if (const auto* number = qobject_cast<const QDoubleSpinBox*>(field.editor)) {
      object.insert(key, number->value());
    } else if (const auto* choice = qobject_cast<const QComboBox*>(field.editor)) {
      object.insert(key, choice->currentText());
    } else if (const auto* text = qobject_cast<const QLineEdit*>(field.editor)) {
      object.insert(key, text->text());
    }
  }
  return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

}  // namespace cineflow::ui
