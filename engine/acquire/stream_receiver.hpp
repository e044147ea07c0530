#pragma once
// StreamReceiver: frames pushed to Cineflow over ZeroMQ by another process or machine (a lab's
// acquisition script in Python or MATLAB, tools/send_frames.py). Cineflow binds a PULL socket at
// the endpoint; senders connect PUSH sockets to it, and may come and go.
//
// The message layout, cineflow.stream/1 (manual: Plugins and streaming): every
// message is multipart and its first part is one UTF-8 JSON object whose "type" says what it is:
//   header  the stream's description: {"type": "header", "schema": "cineflow.stream/1",
//           "modality": "ultrasound", ...the modality's fields}; one part. Sent first, and again
//           from time to time so that a receiver started later learns the stream.
//   frame   {"type": "frame", "sequence": n, "timestamp_ns": t, ...optional per-frame fields},
//           then a second part: the frame's bytes (little-endian samples).
//   end     {"type": "end"}: the sender finished on purpose; one part.
// Nothing here knows a modality: the source that owns a receiver reads the header's fields.
// Used from one thread at a time (it may move between threads: the engine hands over under a
// lock).

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "acquire/stream_message.hpp"

namespace cineflow::acquire {

inline constexpr const char* kStreamSchema = "cineflow.stream/1";

class StreamReceiver {
 public:
  // Binds to `endpoint` (a ZeroMQ endpoint: "tcp://*:5555", "tcp://127.0.0.1:5555",
  // "ipc:///tmp/scanner"). Throws SourceError naming the endpoint when it cannot.
  explicit StreamReceiver(const std::string& endpoint);
  ~StreamReceiver();
  StreamReceiver(const StreamReceiver&) = delete;
  StreamReceiver& operator=(const StreamReceiver&) = delete;

  using Kind = StreamMessage::Kind;
  using Message = StreamMessage;

  // Waits up to `timeout` for the next message. A frame's bytes are received straight into
  // `payload` and must fill it exactly (a frame of another size is Truncated, and `payload` then
  // holds part of it); an empty `payload`
  // takes a frame's bytes nowhere (before the header says how many there are), and the frame is
  // still returned. Throws SourceError only when the socket itself fails.
  Message receive(std::chrono::milliseconds timeout, std::span<std::byte> payload);

  // Whether the sender's connection a message came on (StreamMessage::connection) is still open:
  // false once the sender closed it or its process ended, and for -1.
  bool connected(int connection);

  // The endpoint as bound ("tcp://0.0.0.0:5555"; a wildcard port resolved).
  const std::string& endpoint() const { return endpoint_; }

 private:
  struct Socket;
  std::unique_ptr<Socket> socket_;
  std::string endpoint_;
};

}  // namespace cineflow::acquire
