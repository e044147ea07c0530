#include "cameras_command.hpp"

#include <cstdio>
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "acquire/genicam_camera.hpp"
#include "arg_reader.hpp"

namespace cineflow::app {
namespace {

const char* camerasUsage() {
  return R"(Usage: cineflow cameras [ID] [--json]

Lists the GenICam cameras (GigE Vision, USB3 Vision) reachable now, one per line: the ID that
--input genicam://ID#DESC.json takes, vendor and model, serial number, address and protocol.
With ID, opens that camera and says what a spectrometer description can ask of it: the pixel
formats it offers (those Cineflow reads are marked *), its size now and at most, whether it has
an exposure time, a line rate and a frame rate, and its trigger sources.

Options:
  --json                 print JSON instead (a list of cameras, or the one camera's offer)
  --help                 print this help and exit

Exit status: 0 on success, 1 when ID cannot be opened, 2 on a bad command line.
)";
}

struct CamerasCommand {
  bool help = false;
  bool json = false;
  std::optional<std::string> id;
};

CamerasCommand parseCameras(int argc, char** argv) {
  CamerasCommand command;
  ArgReader args(argc, argv, 2, "cameras: ");
  while (args.next()) {
    if (args.flag("--help")) {
      command.help = true;
    } else if (args.flag("--json")) {
      command.json = true;
    } else if (args.positional() && !command.id) {
      command.id = args.current();
    } else {
      args.rejectUnknown("see cineflow cameras --help");
    }
  }
  return command;
}

int listAll(bool json) {
  const std::vector<acquire::CameraInfo> cameras = acquire::listCameras();
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const acquire::CameraInfo& camera : cameras) {
      list.push_back({{"id", camera.id},
                      {"vendor", camera.vendor},
                      {"model", camera.model},
                      {"serial", camera.serial},
                      {"address", camera.address},
                      {"protocol", camera.protocol}});
    }
    std::cout << list.dump(2) << '\n';
    return 0;
  }
  if (cameras.empty()) {
    std::cout << "No GenICam camera found (powered, on this computer's network or USB, and not "
                 "open in another program?)\n";
    return 0;
  }
  for (const acquire::CameraInfo& camera : cameras) {
    std::cout << camera.id << "  " << camera.vendor << ' ' << camera.model << ", serial "
              << camera.serial << ", " << camera.address << " (" << camera.protocol << ")\n";
  }
  return 0;
}

int showOne(const std::string& id, bool json) {
  const acquire::GenicamCamera camera(id);
  const acquire::CameraCapabilities offered = camera.capabilities();
  if (json) {
    nlohmann::json formats = nlohmann::json::array();
    for (const std::string& format : offered.pixelFormats) {
      formats.push_back({{"name", format}, {"read", acquire::bytesPerPixel(format) > 0}});
    }
    std::cout << nlohmann::json{{"id", camera.id()},
                                {"camera", camera.describe()},
                                {"pixel_formats", formats},
                                {"pixel_format", offered.pixelFormat},
                                {"width", offered.width},
                                {"height", offered.height},
                                {"width_max", offered.widthMax},
                                {"height_max", offered.heightMax},
                                {"exposure", offered.exposure},
                                {"line_rate", offered.lineRate},
                                {"frame_rate", offered.frameRate},
                                {"trigger_sources", offered.triggerSources}}
                     .dump(2)
              << '\n';
    return 0;
  }
  std::string formats;
  for (const std::string& format : offered.pixelFormats) {
    formats +=
        (formats.empty() ? "" : " ") + format + (acquire::bytesPerPixel(format) > 0 ? "*" : "");
  }
  std::string triggers;
  for (const std::string& source : offered.triggerSources) {
    triggers += (triggers.empty() ? "" : " ") + source;
  }
  const auto yes = [](bool has) { return has ? "yes" : "no"; };
  std::cout << camera.describe() << '\n'
            << "  pixel formats   " << formats << "   (* Cineflow reads it)\n"
            << "  pixel format    " << offered.pixelFormat << '\n'
            << "  size            " << offered.width << " x " << offered.height << " (at most "
            << offered.widthMax << " x " << offered.heightMax << "): samples x A-scans\n"
            << "  exposure time   " << yes(offered.exposure) << '\n'
            << "  line rate       " << yes(offered.lineRate) << '\n'
            << "  frame rate      " << yes(offered.frameRate) << '\n'
            << "  trigger sources " << (triggers.empty() ? "none" : triggers) << '\n';
  return 0;
}

}  // namespace

int runCameras(int argc, char** argv) {
  CamerasCommand command;
  try {
    command = parseCameras(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cineflow: " << e.what() << '\n';
    return 2;
  }
  if (command.help) {
    std::fputs(camerasUsage(), stdout);
    return 0;
  }
  try {
    return command.id ? showOne(*command.id, command.json) : listAll(command.json);
  } catch (const std::exception& e) {
    std::cerr << "cineflow cameras: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cineflow::app
