#include "received/igtl_client_source.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "base/thread_name.hpp"
#include "received/igtl_wire.hpp"

namespace cineflow::received {

using acquire::SourceError;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kPoll = std::chrono::milliseconds(100);

std::string errnoText(int error) {
  return std::strerror(error);
}

class ConnectionLost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace

IgtlEndpoint IgtlEndpoint::parse(const std::string& spec) {
  if (!spec.starts_with(kIgtlScheme)) {
    throw SourceError(spec + ": an OpenIGTLink server is igtl://HOST[:PORT][#DEVICE]");
  }
  std::string rest = spec.substr(std::strlen(kIgtlScheme));
  IgtlEndpoint endpoint;
  if (const auto hash = rest.find('#'); hash != std::string::npos) {
    endpoint.device = rest.substr(hash + 1);
    rest.resize(hash);
  }
  if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    const std::string port = rest.substr(colon + 1);
    rest.resize(colon);
    char* end = nullptr;
    const long value = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || value < 1 || value > 65535) {
      throw SourceError(spec + ": the port \"" + port + "\" must be a number from 1 to 65535");
    }
    endpoint.port = static_cast<int>(value);
  }
  if (rest.empty()) {
    throw SourceError(spec + ": the server's host is missing (igtl://HOST[:PORT][#DEVICE])");
  }
  if (endpoint.device.size() > 20) {  // IGTL_HEADER_NAME_SIZE
    throw SourceError(spec + ": an OpenIGTLink device name has at most 20 characters");
  }
  endpoint.host = rest;
  return endpoint;
}

std::string IgtlEndpoint::address() const {
  return host + ":" + std::to_string(port);
}

// The connection and the newest image, shared by the receiver thread and the engine's.
struct IgtlClientSource::Receiver {
  IgtlEndpoint endpoint;
  ReceivedFormat format;  // fixed by the first image
  int fd = -1;
  std::atomic<bool> quit{false};
  std::thread thread;
  std::vector<std::byte> body;     // the message being read (grows to the largest seen)
  std::vector<std::byte> discard;  // bodies skipped

  mutable std::mutex mutex;
  std::condition_variable arrived;
  std::vector<std::byte> latest;  // format.frameBytes(): the newest image
  bool fresh = false;             // latest not taken yet
  bool stopped = false;           // the run stopped: readers leave
  std::string error;              // the stream failed: the run ends with this
  bool pictureChanged = false;    // ... because its picture changed (error says how)
  std::string problem;            // why the connection is down ("" while up)
  bool connected = false;
  Clock::time_point since = Clock::now();  // of the last image, or of the problem
  std::uint64_t images = 0, replaced = 0, reconnections = 0, damaged = 0;

  ~Receiver() {
    quit = true;
    if (thread.joinable()) {
      thread.join();
    }
    closeSocket();
  }

  void closeSocket() {
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  }

  // Connects within 3 s; throws ConnectionLost with the reason ("Connection refused").
  void connect() {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int resolved =
        ::getaddrinfo(endpoint.host.c_str(), std::to_string(endpoint.port).c_str(), &hints, &found);
    if (resolved != 0) {
      throw ConnectionLost("no host \"" + endpoint.host + "\": " + ::gai_strerror(resolved));
    }
    std::string reason = "no address";
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      const int s =
          ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
      if (s < 0) {
        reason = errnoText(errno);
        continue;
      }
      int result = ::connect(s, a->ai_addr, a->ai_addrlen);
      if (result != 0 && errno == EINPROGRESS) {
        pollfd p{s, POLLOUT, 0};
        result = ::poll(&p, 1, 3000);
        int error = 0;
        socklen_t length = sizeof error;
        if (result == 1 && ::getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &length) == 0 &&
            error == 0) {
          result = 0;
        } else {
          errno = result == 0 ? ETIMEDOUT : error;
          result = -1;
        }
      }
      if (result == 0) {
        ::freeaddrinfo(found);
        fd = s;
        return;
      }
      reason = errnoText(errno);
      ::close(s);
    }
    ::freeaddrinfo(found);
    throw ConnectionLost(reason);
  }

  // Reads exactly `bytes` into `into`, polling so that `quit` and `keepWaiting` are heard within
  // 100 ms. Throws ConnectionLost.
  template <class KeepWaiting>
  void readExact(std::byte* into, std::size_t bytes, const KeepWaiting& keepWaiting) {
    std::size_t done = 0;
    while (done < bytes) {
      if (quit) {
        throw ConnectionLost("the source closed");
      }
      keepWaiting();
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(kPoll.count()));
      if (ready < 0 && errno != EINTR) {
        throw ConnectionLost(errnoText(errno));
      }
      if (ready <= 0) {
        continue;
      }
      const ssize_t got = ::recv(fd, into + done, bytes - done, 0);
      if (got == 0) {
        throw ConnectionLost("the server closed the connection");
      }
      if (got < 0) {
        if (errno == EAGAIN || errno == EINTR) {
          continue;
        }
        throw ConnectionLost(errnoText(errno));
      }
      done += static_cast<std::size_t>(got);
    }
  }

  // Reads messages until an image of the stream arrives; its pixels stay in `body`.
  template <class KeepWaiting>
  IgtlImage nextImage(const KeepWaiting& keepWaiting) {
    for (;;) {
      std::array<std::byte, kIgtlHeaderBytes> bytes;
      readExact(bytes.data(), bytes.size(), keepWaiting);
      const IgtlHeader header = parseIgtlHeader(bytes);
      if (header.bodyBytes > kIgtlMaxBodyBytes) {
        throw ConnectionLost("the server sent a message of " + std::to_string(header.bodyBytes) +
                             " bytes, larger than any image Cineflow shows (a broken sender?)");
      }
      const bool wanted =
          header.type == "IMAGE" &&
          (endpoint.device.empty() ? format.device.empty() || header.device == format.device
                                   : header.device == endpoint.device);
      const auto size = static_cast<std::size_t>(header.bodyBytes);
      if (!wanted) {
        skip(size, keepWaiting);
        continue;
      }
      if (body.size() < size) {
        body.resize(size);
      }
      readExact(body.data(), size, keepWaiting);
      const std::span<const std::byte> received(body.data(), size);
      if (!crcMatches(header, received)) {
        std::lock_guard lock(mutex);
        ++damaged;
        continue;
      }
      return parseIgtlImage(header, received);
    }
  }

  template <class KeepWaiting>
  void skip(std::size_t bytes, const KeepWaiting& keepWaiting) {
    discard.resize(65536);
    while (bytes > 0) {
      const std::size_t part = std::min(bytes, discard.size());
      readExact(discard.data(), part, keepWaiting);
      bytes -= part;
    }
  }

  void deliver(const IgtlImage& image) {
    if (!image.format.samePicture(format)) {
      fail(
          "the server's image changed from " + format.describe() + " to " + image.format.describe(),
          true);
      return;
    }
    std::lock_guard lock(mutex);
    storeIgtlPixels(image, latest);
    replaced += fresh ? 1 : 0;
    fresh = true;
    ++images;
    since = Clock::now();
    arrived.notify_all();
  }

  void fail(std::string text, bool changed = false) {
    std::lock_guard lock(mutex);
    error = std::move(text);
    pictureChanged = changed;
    arrived.notify_all();
  }

  void down(std::string reason) {
    closeSocket();
    std::lock_guard lock(mutex);
    if (connected) {
      since = Clock::now();  // the connection is lost from now
    }
    connected = false;
    problem = std::move(reason);
  }

  void run() {
    base::setCurrentThreadName("cf-igtl-in");
    const auto none = [] {};
    while (!quit) {
      try {
        if (fd < 0) {
          connect();
          std::lock_guard lock(mutex);
          ++reconnections;  // the first connection was the constructor's
          connected = true;
          problem.clear();
          since = Clock::now();
        }
        deliver(nextImage(none));
      } catch (const UnshowableImage& e) {
        fail(std::string("OpenIGTLink ") + endpoint.address() + ": " + e.what());
      } catch (const ConnectionLost& e) {
        if (quit) {
          break;
        }
        down(e.what());
        for (int i = 0; i < 10 && !quit; ++i) {  // the next try in a second
          std::this_thread::sleep_for(kPoll);
        }
      }
      {
        std::lock_guard lock(mutex);
        if (!error.empty()) {
          break;  // the stream changed: nothing more is shown
        }
      }
    }
    closeSocket();
  }

  // Waits for a fresh image (or the stop, or the stream's error); copies it into `dst` unless
  // empty.
  void take(std::span<std::byte> dst) {
    std::unique_lock lock(mutex);
    arrived.wait(lock, [&] { return fresh || stopped || !error.empty(); });
    if (pictureChanged) {
      throw acquire::SourceChanged(error);
    }
    if (!error.empty()) {
      throw SourceError(error);
    }
    if (stopped) {
      throw acquire::SourceStopped();
    }
    if (!dst.empty()) {
      std::memcpy(dst.data(), latest.data(), latest.size());
    }
    fresh = false;
  }
};

IgtlClientSource::IgtlClientSource(IgtlEndpoint endpoint, const acquire::ProgressFn& progress,
                                   std::chrono::milliseconds firstImage)
    : endpoint_(std::move(endpoint)), receiver_(std::make_unique<Receiver>()) {
  Receiver& r = *receiver_;
  r.endpoint = endpoint_;
  const std::string address = endpoint_.address();
  const std::string named = endpoint_.device.empty() ? "" : " of device " + endpoint_.device;
  try {
    try {
      r.connect();
    } catch (const ConnectionLost& e) {
      throw SourceError("OpenIGTLink: cannot connect to " + address + ": " + e.what() +
                        " (is the server running and listening there?)");
    }
    const Clock::time_point deadline = Clock::now() + firstImage;
    const auto keepWaiting = [&] {
      if (progress) {
        progress(0, "waiting for the first image" + named + " from " + address);
      }
      if (Clock::now() > deadline) {
        throw SourceError(
            "OpenIGTLink " + address + ": connected, but no image" + named + " arrived in " +
            std::to_string(std::chrono::duration_cast<std::chrono::seconds>(firstImage).count()) +
            " s (is the server streaming an IMAGE" +
            (endpoint_.device.empty() ? std::string() : " of that name") + "?)");
      }
    };
    const IgtlImage first = r.nextImage(keepWaiting);
    r.format = first.format;
    r.latest.resize(r.format.frameBytes());
    storeIgtlPixels(first, r.latest);
    r.images = 1;
  } catch (const ConnectionLost& e) {
    throw SourceError("OpenIGTLink " + address + ": " + e.what() + " before its first image");
  } catch (const UnshowableImage& e) {
    throw SourceError("OpenIGTLink " + address + ": " + e.what());
  }
  format_ = r.format;
  r.connected = true;
  r.since = Clock::now();
  r.thread = std::thread([&r] { r.run(); });
}

IgtlClientSource::~IgtlClientSource() = default;

void IgtlClientSource::readFrame(std::uint64_t /*index*/, std::span<std::byte> dst,
                                 acquire::SliceInfo& slice) {
  if (dst.size() != format_.frameBytes()) {
    throw SourceError("OpenIGTLink: a frame buffer of " + std::to_string(dst.size()) +
                      " bytes for images of " + std::to_string(format_.frameBytes()));
  }
  slice = {};
  receiver_->take(dst);
}

void IgtlClientSource::skipFrame(std::uint64_t /*index*/) {
  receiver_->take({});
}

void IgtlClientSource::startAcquisition() {
  std::lock_guard lock(receiver_->mutex);
  receiver_->stopped = false;
  receiver_->fresh = false;
}

void IgtlClientSource::stopAcquisition() {
  std::lock_guard lock(receiver_->mutex);
  receiver_->stopped = true;
  receiver_->arrived.notify_all();
}

std::string IgtlClientSource::liveStatus() const {
  const Receiver& r = *receiver_;
  std::lock_guard lock(r.mutex);
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - r.since).count();
  if (!r.error.empty()) {
    return {};
  }
  if (!r.connected) {
    return "no connection to " + endpoint_.address() + " for " + std::to_string(seconds) + " s (" +
           r.problem + "); trying again every second";
  }
  if (seconds >= 1) {
    return "waiting for images from " + endpoint_.address() + ": nothing for " +
           std::to_string(seconds) + " s";
  }
  return {};
}

std::vector<std::pair<std::string, std::uint64_t>> IgtlClientSource::transportCounters() const {
  const Receiver& r = *receiver_;
  std::lock_guard lock(r.mutex);
  return {{"images", r.images},
          {"replaced before imaging", r.replaced},
          {"reconnections", r.reconnections},
          {"damaged messages", r.damaged}};
}

std::string IgtlClientSource::describe() const {
  return "OpenIGTLink " + endpoint_.address() + ", " + format_.device + " (" + format_.describe() +
         ")";
}

}  // namespace cineflow::received
