#pragma once
// The OpenIGTLink server (3D Slicer, PLUS, MITK): while the engine images, every connected client
// receives the newest image as an IMAGE message (igtl_image.hpp: physical units, 8-bit display
// levels or float dB), a STATUS message on connecting and whenever the engine starts or stops
// imaging (code 1 "imaging", or 13 "not imaging"), and,
// on a GET_IMAGE request, the newest complete volume (device "<name>Volume"); a GET_STATUS is
// answered with the current state.
//
// The engine is never touched on the frame path: a publisher thread ("cf-igtl-pub") reads the
// newest image through Engine::copyLatest (the cineloop's seqlock, which never blocks the engine)
// and hands the packed message to each client's sender. A client that is still sending the
// previous image when a newer one is ready skips to the newest (counted per client and in
// stats().skipped); a client that disconnects, stalls past the send timeout or sends garbage is
// dropped without affecting the others or the engine. Sockets are Cineflow's own (sends never
// raise SIGPIPE); messages are packed and parsed by libOpenIGTLink.
//
// Threads: an acceptor ("cf-igtl-accept"), the publisher, and a reader and a sender per client.
// The destructor stops and joins them all and closes every socket.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "link/igtl_image.hpp"
#include "pipeline/engine.hpp"

namespace cineflow::link {

struct IgtlServerOptions {
  int port = 18944;                     // OpenIGTLink's registered port; 0: any free port
  std::string bindAddress = "0.0.0.0";  // "127.0.0.1": this machine only
  std::string deviceName = "Cineflow";  // the IMAGE and STATUS messages' device
  LinkPixels pixels = LinkPixels::Display8;
  DisplayMapping mapping;
  // Display8 without a display (headless): the first image sent sets the gain to its brightest
  // pixel, as the display's automatic gain does; `mapping`'s range stays.
  bool autoGain = false;
  int sendTimeoutMs = 2000;  // a client that takes longer for one message is dropped
};

struct IgtlServerStats {
  int clients = 0;                   // connected now
  std::uint64_t connections = 0;     // accepted since start
  std::uint64_t imagesSent = 0;      // IMAGE messages sent, all clients
  std::uint64_t skipped = 0;         // images a slow client skipped for a newer one
  std::uint64_t volumesSent = 0;     // on request
  std::uint64_t disconnected = 0;    // clients that closed their connection
  std::uint64_t clientsDropped = 0;  // stalled past the send timeout, or sent garbage
};

class IgtlServer {
 public:
  // Listens at once; throws std::runtime_error naming the address and the reason (port in use,
  // no permission). `engine` must outlive the server.
  IgtlServer(const pipeline::Engine& engine, IgtlServerOptions options);
  ~IgtlServer();
  IgtlServer(const IgtlServer&) = delete;
  IgtlServer& operator=(const IgtlServer&) = delete;

  int port() const;  // the port listened on (the one chosen when 0 was asked)
  const IgtlServerOptions& options() const;
  // Live: how 8-bit images are mapped, and which pixels are sent, from the next image on.
  void setMapping(const DisplayMapping& mapping);
  void setPixels(LinkPixels pixels);
  IgtlServerStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cineflow::link
