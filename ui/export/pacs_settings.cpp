#include "export/pacs_settings.hpp"

#include "common/app_settings.hpp"

namespace cineflow::ui {

std::optional<PacsNode> savedPacsNode() {
  const auto settings = openAppSettings();
  namespace k = settings_keys;
  PacsNode node;
  node.calledAe = settings->value(k::kPacsCalledAe).toString().toStdString();
  node.host = settings->value(k::kPacsHost).toString().toStdString();
  if (node.calledAe.empty() || node.host.empty()) {
    return std::nullopt;
  }
  node.port = settings->value(k::kPacsPort, node.port).toInt();
  node.callingAe = settings->value(k::kPacsCallingAe, QString::fromStdString(node.callingAe))
                       .toString()
                       .toStdString();
  node.timeoutSeconds = settings->value(k::kPacsTimeoutSeconds, node.timeoutSeconds).toInt();
  return node;
}

void savePacsNode(const PacsNode& node) {
  const auto settings = openAppSettings();
  namespace k = settings_keys;
  settings->setValue(k::kPacsCalledAe, QString::fromStdString(node.calledAe));
  settings->setValue(k::kPacsHost, QString::fromStdString(node.host));
  settings->setValue(k::kPacsPort, node.port);
  settings->setValue(k::kPacsCallingAe, QString::fromStdString(node.callingAe));
  settings->setValue(k::kPacsTimeoutSeconds, node.timeoutSeconds);
}

}  // namespace cineflow::ui
