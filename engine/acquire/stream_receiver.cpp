#include "acquire/stream_receiver.hpp"

#include <cstdint>
#include <set>
#include <string>

#include <zmq.hpp>

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {
namespace {

// Messages a slow receiver lets queue before the sender's sends fail (a live sender then drops
// the frame and its sequence shows the gap): a few frames, not seconds of them.
constexpr int kReceiveHighWater = 8;

}  // namespace

// The connections senders opened and have not closed, by descriptor, from the socket's monitor
// events (in the order they happened: a descriptor reused by a new connection is open again).
class ConnectionWatch final : public zmq::monitor_t {
 public:
  bool open(int connection) {
    while (check_event(0)) {
    }
    return open_.contains(connection);
  }

 private:
  void on_event_accepted(const zmq_event_t& event, const char* /*address*/) override {
    open_.insert(event.value);
  }
  void on_event_disconnected(const zmq_event_t& event, const char* /*address*/) override {
    open_.erase(event.value);
  }

  std::set<int> open_;
};

struct StreamReceiver::Socket {
  zmq::context_t context{1};
  zmq::socket_t socket{context, zmq::socket_type::pull};
  ConnectionWatch watch;  // after the socket: stops watching before the socket closes

  // Discards the rest of a multipart message whose first parts were already taken.
  void drain() {
    while (socket.get(zmq::sockopt::rcvmore)) {
      zmq::message_t part;
      (void)socket.recv(part, zmq::recv_flags::none);
    }
  }
};

StreamReceiver::StreamReceiver(const std::string& endpoint) : socket_(std::make_unique<Socket>()) {
  try {
    socket_->socket.set(zmq::sockopt::rcvhwm, kReceiveHighWater);
    socket_->socket.set(zmq::sockopt::linger, 0);
    socket_->socket.bind(endpoint);
    endpoint_ = socket_->socket.get(zmq::sockopt::last_endpoint);
    // One monitor endpoint per receiver: the address of its socket names it.
    socket_->watch.init(socket_->socket,
                        "inproc://cineflow-stream-" +
                            std::to_string(reinterpret_cast<std::uintptr_t>(socket_.get())),
                        ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED);
  } catch (const zmq::error_t& e) {
    throw SourceError("network stream: cannot listen on '" + endpoint + "': " + e.what());
  }
}

StreamReceiver::~StreamReceiver() = default;

bool StreamReceiver::connected(int connection) {
  try {
    return connection >= 0 && socket_->watch.open(connection);
  } catch (const zmq::error_t& e) {
    throw SourceError("network stream on " + endpoint_ + ": " + e.what());
  }
}

StreamReceiver::Message StreamReceiver::receive(std::chrono::milliseconds timeout,
                                                std::span<std::byte> payload) {
  Message message;
  try {
    zmq::pollitem_t item{socket_->socket.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, timeout) == 0) {
      return message;
    }
    zmq::message_t first;
    if (!socket_->socket.recv(first, zmq::recv_flags::dontwait)) {
      return message;
    }
    message =
        parseStreamMessage(first.to_string_view(), socket_->socket.get(zmq::sockopt::rcvmore));
    // The connection's descriptor (-1 over transports without one): how a second sender shows.
    message.connection = zmq_msg_get(first.handle(), ZMQ_SRCFD);
    if (message.kind != Kind::Frame) {
      if (message.kind == Kind::Malformed) {
        socket_->drain();
      }
      return message;
    }
    std::size_t bytes = 0;
    if (payload.empty()) {
      zmq::message_t ignored;
      (void)socket_->socket.recv(ignored, zmq::recv_flags::none);
      bytes = ignored.size();
    } else {
      const auto received = socket_->socket.recv(
          zmq::mutable_buffer(payload.data(), payload.size()), zmq::recv_flags::none);
      bytes = received ? received->untruncated_size : 0;
    }
    const bool moreAfter = socket_->socket.get(zmq::sockopt::rcvmore);
    std::string problem =
        checkFramePart(bytes, payload.empty() ? bytes : payload.size(), moreAfter);
    if (!problem.empty()) {
      socket_->drain();
      const bool wrongSize = !payload.empty() && bytes != payload.size();
      message.kind = wrongSize ? Kind::Truncated : Kind::Malformed;
      if (!wrongSize) {
        message.meta = nullptr;
      }
      message.problem = std::move(problem);
    }
    return message;
  } catch (const zmq::error_t& e) {
    throw SourceError("network stream on " + endpoint_ + ": " + e.what());
  }
}

}  // namespace cineflow::acquire
