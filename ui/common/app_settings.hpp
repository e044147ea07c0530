#pragma once
// Where the GUI keeps its settings between runs (window geometry and dock layout, acquisition and
// display choices): QSettings for organisation "Cineflow", application "Cineflow", unless the
// environment variable CINEFLOW_SETTINGS_PATH names an INI file to use instead (tests and
// side-by-side installations use it so that the operator's own settings stay untouched).

#include <memory>

#include <QSettings>

namespace cineflow::ui {

inline constexpr const char* kSettingsPathVariable = "CINEFLOW_SETTINGS_PATH";

// A fresh handle on the settings store; changes reach the store when it is destroyed or synced.
std::unique_ptr<QSettings> openAppSettings();

// Keys, so that writers and readers agree on one spelling.
namespace settings_keys {
inline constexpr const char* kWindowGeometry = "window/geometry";
inline constexpr const char* kWindowState = "window/state";
inline constexpr const char* kFrameRateHz = "acquisition/frameRateHz";
inline constexpr const char* kOverflowPolicy = "acquisition/overflowPolicy";
inline constexpr const char* kDynamicRangeDb = "display/dynamicRangeDb";
inline constexpr const char* kColourMap = "display/colourMap";        // ColourMap as an int
inline constexpr const char* kDepthGain = "display/depthGain";        // DepthGain::toText()
inline constexpr const char* kMatMapping = "acquisition/matMapping";  // MatMapping::toString()
inline constexpr const char* kMatPath = "acquisition/matPath";
// The PACS that "Send to PACS" stores to (export/pacs_settings.hpp).
inline constexpr const char* kPacsCalledAe = "pacs/calledAe";
inline constexpr const char* kPacsHost = "pacs/host";
inline constexpr const char* kPacsPort = "pacs/port";
inline constexpr const char* kPacsCallingAe = "pacs/callingAe";
inline constexpr const char* kPacsTimeoutSeconds = "pacs/timeoutSeconds";
// The OpenIGTLink server's port, pixels (0: 8-bit, 1: float dB) and "this machine only".
inline constexpr const char* kIgtlPort = "igtl/port";
inline constexpr const char* kIgtlPixels = "igtl/pixels";
inline constexpr const char* kIgtlLocalOnly = "igtl/localOnly";
// The OpenIGTLink server last received from: "igtl://HOST:PORT#DEVICE".
inline constexpr const char* kIgtlSource = "igtl/source";
}  // namespace settings_keys

}  // namespace cineflow::ui
