#include "modality/preset_fields.hpp"

#include <cmath>

namespace cineflow::ui {

PresetFields::PresetFields(const QJsonObject& object, QString where, QString origin)
    : object_(object), where_(std::move(where)), origin_(std::move(origin)) {}

void PresetFields::fail(const QString& field, const QString& why) const {
  throw PresetError(QStringLiteral("%1: %2%3: %4").arg(origin_, where_, field, why).toStdString());
}

std::optional<double> PresetFields::number(const QString& field, double lo, double hi) {
  used_ << field;
  if (!object_.contains(field)) {
    return std::nullopt;
  }
  const QJsonValue v = object_.value(field);
  if (!v.isDouble() || !(v.toDouble() >= lo && v.toDouble() <= hi)) {
    fail(field, QStringLiteral("expected a number from %1 to %2").arg(lo).arg(hi));
  }
  return v.toDouble();
}

std::optional<int> PresetFields::wholeNumber(const QString& field, int lo, int hi) {
  const std::optional<double> n = number(field, lo, hi);
  if (n && *n != std::floor(*n)) {
    fail(field, QStringLiteral("expected a whole number"));
  }
  return n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
}

std::optional<QString> PresetFields::text(const QString& field) {
  used_ << field;
  if (!object_.contains(field)) {
    return std::nullopt;
  }
  if (!object_.value(field).isString()) {
    fail(field, QStringLiteral("expected text"));
  }
  return object_.value(field).toString();
}

std::optional<PresetFields> PresetFields::object(const QString& field) {
  used_ << field;
  if (!object_.contains(field)) {
    return std::nullopt;
  }
  if (!object_.value(field).isObject()) {
    fail(field, QStringLiteral("expected an object"));
  }
  return PresetFields(object_.value(field).toObject(), where_ + field + QLatin1Char('.'), origin_);
}

void PresetFields::refuseOthers() const {
  for (const QString& key : object_.keys()) {
    if (!used_.contains(key)) {
      fail(key, QStringLiteral("not a preset field (misspelt?)"));
    }
  }
}

}  // namespace cineflow::ui
