#include "registry/source_factory.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "acquire/offered_sources.hpp"
#include "oct/genicam_source.hpp"
#include "oct/oct_file_source.hpp"
#include "oct/oct_simulator.hpp"
#include "received/igtl_client_source.hpp"
#include "received/received_file_source.hpp"
#include "received/received_modality.hpp"
#include "registry/file_check.hpp"
#include "store/replay_file.hpp"
#include "ultrasound/flow_simulator.hpp"
#include "ultrasound/plugin_source.hpp"
#include "ultrasound/rf_file_source.hpp"
#include "ultrasound/simulator.hpp"
#include "ultrasound/stream_source.hpp"

namespace cineflow::acquire {

bool hasMatExtension(const std::string& spec) {
  std::string extension = std::filesystem::path(spec).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".mat";
}

bool isMatFile(const std::string& spec) {
  if (hasMatExtension(spec)) {
    return true;
  }
  // v5 and v7.3 files open with a text header "MATLAB 5.0 MAT-file" / "MATLAB 7.3 MAT-file".
  std::ifstream file(spec, std::ios::binary);
  std::array<char, 6> head{};
  return file.read(head.data(), head.size()) && std::string_view(head.data(), 6) == "MATLAB";
}

bool readsFileFromOutside(const std::string& spec) {
  return spec != "sim" && spec != "sim-flow" && spec != "oct-sim" && !spec.starts_with("plugin:") &&
         !spec.starts_with("zmq:") && !spec.starts_with(kGenicamScheme) &&
         !spec.starts_with(kPushScheme) && !spec.starts_with(received::kIgtlScheme);
}

std::unique_ptr<FrameSource> openNetworkStream(const std::string& endpoint,
                                               const ProgressFn& progress) {
  auto feed = std::make_unique<StreamFeed>(endpoint.empty() ? "tcp://*:5555" : endpoint, progress);
  const auto modality = feed->header().find("modality");
  if (modality != feed->header().end() && *modality == "ultrasound") {
    return std::make_unique<ultrasound::NetworkSource>(std::move(feed), progress);
  }
  throw SourceError("network stream on " + feed->endpoint() + ": the header's \"modality\" is " +
                    (modality == feed->header().end() ? std::string("missing") : modality->dump()) +
                    "; streams of \"ultrasound\" channel data are imaged");
}

std::unique_ptr<FrameSource> openSource(const std::string& spec, double frameRateHz,
                                        const ProgressFn& progress,
                                        const ultrasound::MatMapping& matMapping) {
  if (spec == "sim") {
    ultrasound::SimulatorConfig config;
    if (frameRateHz > 0) {
      config.frameRateHz = frameRateHz;
    }
    return std::make_unique<ultrasound::Simulator>(config, progress);
  }
  // "plugin:NAME" or "plugin:NAME#{json parameters}" (NAME may be a library's path).
  if (spec.starts_with("plugin:")) {
    const std::string rest = spec.substr(7);
    const auto hash = rest.find('#');
    const std::string name = rest.substr(0, hash);
    const std::string parameters = hash == std::string::npos ? "{}" : rest.substr(hash + 1);
    return std::make_unique<ultrasound::PluginSource>(findPlugin(name), parameters);
  }
  // "zmq:ENDPOINT": frames pushed by a sender over ZeroMQ ("zmq:tcp://*:5555").
  if (spec.starts_with("zmq:")) {
    return openNetworkStream(spec.substr(4), progress);
  }
  // "genicam://[ID]#DESCRIPTION": a spectrometer's camera (oct/genicam_source.hpp).
  if (spec.starts_with(kGenicamScheme)) {
    const std::string rest = spec.substr(std::string_view(kGenicamScheme).size());
    const auto hash = rest.find('#');
    if (hash == std::string::npos || hash + 1 == rest.size()) {
      throw SourceError(spec +
                        ": the OCT geometry is missing: genicam://ID#spectrometer.json, a JSON "
                        "description of the wavelengths and the scan (manual: Plugins and "
                        "streaming, GenICam cameras)");
    }
    return std::make_unique<oct::GenicamSource>(rest.substr(0, hash),
                                                oct::readGenicamDescription(rest.substr(hash + 1)));
  }
  // "igtl://HOST[:PORT][#DEVICE]": an OpenIGTLink server's images (received/igtl_client_source).
  if (spec.starts_with(received::kIgtlScheme)) {
    return std::make_unique<received::IgtlClientSource>(received::IgtlEndpoint::parse(spec),
                                                        progress);
  }
  // "push://N": a source this process's program offers (a script's PushSource).
  if (spec.starts_with(kPushScheme)) {
    return openOffered(spec);
  }
  if (spec == "sim-flow") {
    ultrasound::FlowSimulatorConfig config;
    if (frameRateHz > 0) {
      config.system.frameRateHz = frameRateHz;
    }
    return std::make_unique<ultrasound::FlowSimulator>(config, progress);
  }
  if (spec == "oct-sim") {
    oct::OctSimulatorConfig config;
    if (frameRateHz > 0) {
      config.frameRateHz = frameRateHz;
    }
    return std::make_unique<oct::OctSimulator>(config, progress);
  }
  // A file from outside: read first in a separate process, where a crash inside HDF5 or matio on
  // a damaged file takes only that process down (registry/file_check.hpp).
  checkFileInChildProcess(spec, progress);
  const double rate = frameRateHz > 0 ? frameRateHz : 20.0;
  if (isMatFile(spec)) {
    return std::make_unique<ultrasound::MatSource>(
        ultrasound::importMat(spec, matMapping, progress),
        std::filesystem::path(spec).filename().string(), rate);
  }
  // Recordings say what they are: an OCT recording by its root schema; anything else (RF
  // recordings, which may keep their schema on /rf, and files that are not recordings at all) is
  // left to the RF reader, whose messages say what a file is instead.
  const std::string schema = store::rootSchema(spec);
  if (schema == oct::kOctSchema) {
    return std::make_unique<oct::OctFileSource>(spec, rate);
  }
  if (schema == received::kReceivedSchema) {
    return std::make_unique<received::ReceivedFileSource>(spec, rate);
  }
  return std::make_unique<ultrasound::RfFileSource>(spec, rate);
}

}  // namespace cineflow::acquire
