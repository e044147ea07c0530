// EngineController's OpenIGTLink server (link/igtl_server.hpp): started and stopped by the
// operator (Acquisition > OpenIGTLink) or the command line (--igtl-port), its 8-bit images mapped
// as the display maps them.

#include <exception>

#include "bridge/engine_controller.hpp"

namespace cineflow::ui {

QString EngineController::startIgtlServer(const link::IgtlServerOptions& options) {
  igtl_.reset();  // a running one first: its port may be the one asked for
  link::IgtlServerOptions served = options;
  served.mapping = igtlMapping_;
  try {
    igtl_ = std::make_unique<link::IgtlServer>(*engine_, served);
  } catch (const std::exception& error) {
    return QString::fromUtf8(error.what());
  }
  return {};
}

void EngineController::stopIgtlServer() {
  igtl_.reset();
}

void EngineController::setIgtlMapping(const link::DisplayMapping& mapping) {
  igtlMapping_ = mapping;
  if (igtl_) {
    igtl_->setMapping(mapping);
  }
}

void EngineController::setIgtlPixels(link::LinkPixels pixels) {
  if (igtl_) {
    igtl_->setPixels(pixels);
  }
}

}  // namespace cineflow::ui
