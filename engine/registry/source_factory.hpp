#pragma once
// Opens a frame source from the operator's words: "sim" (the built-in ultrasound phantom
// simulator), "sim-flow" (the built-in flow simulator for colour Doppler), "plugin:NAME" or
// "plugin:NAME#{JSON parameters}" (a source plugin, acquire/plugin_library.hpp), "zmq:ENDPOINT"
// (frames a sender pushes over ZeroMQ, acquire/stream_receiver.hpp; "zmq:" alone listens on
// tcp://*:5555), "genicam://[ID]#DESCRIPTION" (a spectrometer's GenICam camera, ID as
// `cineflow cameras` lists it, empty for the first; DESCRIPTION a JSON file or an inline JSON
// object, oct/genicam_source.hpp), "push://N" (a source a program of this process offers, such as a
// script's cineflow.PushSource: acquire/offered_sources.hpp), "oct-sim" (the
// built-in OCT simulator, oct/oct_simulator.hpp), "igtl://HOST[:PORT][#DEVICE]" (an OpenIGTLink
// server's images, received/igtl_client_source.hpp), the path of a cineflow.oct/1 or
// cineflow.received/1 recording (told by its root attribute schema), of a cineflow.rf/1 recording,
// or of a MATLAB file (.mat, imported with MatMapping::verasonics() unless a mapping is given).
// Shared by the command line and the GUI.

#include <memory>
#include <string>

#include "acquire/frame_source.hpp"
#include "acquire/offered_sources.hpp"  // kPushScheme
#include "ultrasound/mat_import.hpp"

namespace cineflow::acquire {

inline constexpr const char* kGenicamScheme = "genicam://";

// `frameRateHz` paces recordings (0: the source's own default). Throws SourceError with the reason.
std::unique_ptr<FrameSource> openSource(
    const std::string& spec, double frameRateHz = 0, const ProgressFn& progress = {},
    const ultrasound::MatMapping& matMapping = ultrasound::MatMapping::verasonics());
// Listens on `endpoint` and waits for a sender's header (telling `progress`, which may throw to
// abandon the wait), then opens the source its modality images. Throws SourceError.
std::unique_ptr<FrameSource> openNetworkStream(const std::string& endpoint,
                                               const ProgressFn& progress = {});
// Whether openSource(spec) reads a file from outside (a recording or MATLAB file: everything but
// the simulators, plugins, network streams, cameras and offered sources); reads nothing.
bool readsFileFromOutside(const std::string& spec);
// Whether `spec` ends in .mat (any case); reads nothing, so the GUI thread may ask.
bool hasMatExtension(const std::string& spec);
// Whether `spec` names a MATLAB file: by its extension, else by the text header that v5 and v7.3
// files begin with (a v7.3 file saved as .h5 is still MATLAB's layout). Reads the file's first
// bytes.
bool isMatFile(const std::string& spec);

}  // namespace cineflow::acquire
