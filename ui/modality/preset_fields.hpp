#pragma once
// One JSON object of a preset file, read field by field: each field checked (its type, range or
// text), and, once read, the names it does not know refused (a misspelt field is an error, not a
// silent no-op). Every refusal is a PresetError naming the file, the field's path and the reason.

#include <optional>
#include <stdexcept>
#include <string>

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace cineflow::ui {

class PresetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class PresetFields {
 public:
  // `where`: the object's path ("", "display.", ...); `origin`: the file, for errors.
  PresetFields(const QJsonObject& object, QString where, QString origin);

  [[noreturn]] void fail(const QString& field, const QString& why) const;
  std::optional<double> number(const QString& field, double lo, double hi);
  std::optional<int> wholeNumber(const QString& field, int lo, int hi);
  std::optional<QString> text(const QString& field);
  // A field whose text `parse` turns into a value or throws std::invalid_argument.
  template <class Parse>
  auto parsed(const QString& field, Parse parse) -> std::optional<decltype(parse(std::string()))> {
    const std::optional<QString> t = text(field);
    if (!t) {
      return std::nullopt;
    }
    try {
      return parse(t->toStdString());
    } catch (const std::invalid_argument& e) {
      fail(field, QString::fromStdString(e.what()));
    }
  }
  std::optional<PresetFields> object(const QString& field);
  // Fails on the first field no reader above asked for.
  void refuseOthers() const;

 private:
  QJsonObject object_;
  QString where_, origin_;
  QStringList used_;
};

}  // namespace cineflow::ui
