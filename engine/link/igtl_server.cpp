#include "link/igtl_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "link/openigtlink.hpp"

#include "base/thread_name.hpp"

namespace cineflow::link {
namespace {

using Bytes = std::shared_ptr<const std::vector<std::uint8_t>>;
using Clock = std::chrono::steady_clock;

constexpr int kPollMs = 100;  // how often blocked threads look at `stop`
constexpr auto kPublishInterval = std::chrono::milliseconds(2);
constexpr std::uint64_t kMaxRequestBody = 1 << 20;  // a request bigger than this is garbage

std::string errorText(int error) {
  return std::strerror(error);
}

// Sends all of `data`, waiting at most `timeoutMs` in all; false when the peer is gone or slow.
bool sendAll(int fd, const std::vector<std::uint8_t>& data, int timeoutMs) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
  std::size_t sent = 0;
  while (sent < data.size()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      return false;
    }
    pollfd ready{fd, POLLOUT, 0};
    if (::poll(&ready, 1, static_cast<int>(left)) <= 0 || (ready.revents & (POLLERR | POLLHUP))) {
      return false;
    }
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads exactly `size` bytes unless the peer closes, fails, or `stop` turns true.
bool receiveAll(int fd, void* data, std::size_t size, const std::atomic<bool>& stop) {
  auto* out = static_cast<std::uint8_t*>(data);
  std::size_t got = 0;
  while (got < size) {
    if (stop) {
      return false;
    }
    pollfd ready{fd, POLLIN, 0};
    const int polled = ::poll(&ready, 1, kPollMs);
    if (polled == 0 || (polled < 0 && errno == EINTR)) {
      continue;
    }
    if (polled < 0) {
      return false;
    }
    const ssize_t n = ::recv(fd, out + got, size - got, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    got += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

struct Client {
  int fd = -1;
  std::mutex mutex;
  std::condition_variable wake;
  Bytes image;                // the newest image not yet sent (replaced when a newer comes)
  std::deque<Bytes> control;  // status and volumes: every one is sent, in order
  std::atomic<bool> closed{false};
  std::thread reader, sender;

  void close() {
    closed = true;
    ::shutdown(fd, SHUT_RDWR);
    std::lock_guard lock(mutex);
    wake.notify_all();
  }
  void post(Bytes message) {
    std::lock_guard lock(mutex);
    control.push_back(std::move(message));
    wake.notify_all();
  }
};

struct IgtlServer::Impl {
  const pipeline::Engine& engine;
  IgtlServerOptions options;
  int listenFd = -1;
  int port = 0;
  std::atomic<bool> stop{false};

  mutable std::mutex mutex;  // settings, clients and the imaging state
  DisplayMapping mapping;
  LinkPixels pixels;
  bool imaging = false;
  bool gainSet = false;  // autoGain: taken from the first image
  std::vector<std::shared_ptr<Client>> clients;

  std::atomic<std::uint64_t> connections{0}, imagesSent{0}, skipped{0}, volumesSent{0},
      disconnected{0}, clientsDropped{0};
  std::thread acceptor, publisher;

  Impl(const pipeline::Engine& e, IgtlServerOptions o)
      : engine(e), options(std::move(o)), mapping(options.mapping), pixels(options.pixels) {}

  Bytes statusMessage() const {  // under `mutex`
    return std::make_shared<const std::vector<std::uint8_t>>(
        packStatus(options.deviceName, imaging, imaging ? "imaging" : "not imaging"));
  }

  void accept() {
    base::setCurrentThreadName("cf-igtl-accept");
    while (!stop) {
      pollfd ready{listenFd, POLLIN, 0};
      if (::poll(&ready, 1, kPollMs) <= 0) {
        continue;
      }
      const int fd = ::accept(listenFd, nullptr, nullptr);
      if (fd < 0) {
        continue;
      }
      const int on = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
      auto client = std::make_shared<Client>();
      client->fd = fd;
      std::lock_guard lock(mutex);
      client->control.push_back(statusMessage());
      client->sender = std::thread([this, c = client.get()] { send(*c); });
      client->reader = std::thread([this, c = client.get()] { read(*c); });
      clients.push_back(std::move(client));
      ++connections;
    }
  }

  void send(Client& client) {
    base::setCurrentThreadName("cf-igtl-send");
    for (;;) {
      Bytes message;
      bool isImage = false;
      {
        std::unique_lock lock(client.mutex);
        client.wake.wait(
            lock, [&] { return client.closed || stop || client.image || !client.control.empty(); });
        if (client.closed || stop) {
          return;
        }
        if (!client.control.empty()) {
          message = std::move(client.control.front());
          client.control.pop_front();
        } else {
          message = std::move(client.image);
          client.image.reset();
          isImage = true;
        }
      }
      if (!sendAll(client.fd, *message, options.sendTimeoutMs)) {
        drop(client, true);
        return;
      }
      if (isImage) {
        ++imagesSent;
      }
    }
  }

  void read(Client& client) {
    base::setCurrentThreadName("cf-igtl-read");
    const igtl::MessageHeader::Pointer header = igtl::MessageHeader::New();
    std::vector<std::uint8_t> body;
    while (!client.closed && !stop) {
      header->InitPack();
      if (!receiveAll(client.fd, header->GetPackPointer(),
                      static_cast<std::size_t>(header->GetPackSize()), client.closed)) {
        break;
      }
      header->Unpack();
      const auto size = static_cast<std::uint64_t>(header->GetBodySizeToRead());
      if (size > kMaxRequestBody) {
        drop(client, true);  // not a request this server understands: garbage
        return;
      }
      body.resize(size);
      if (size > 0 && !receiveAll(client.fd, body.data(), size, client.closed)) {
        break;
      }
      const std::string type = header->GetDeviceType();
      if (type == "GET_IMAGE") {
        client.post(volumeMessage());
      } else if (type == "GET_STATUS") {
        std::lock_guard lock(mutex);
        client.post(statusMessage());
      }
    }
    drop(client, false);
  }

  // `fault`: the client stalled or sent garbage; otherwise it closed (or the server stops).
  void drop(Client& client, bool fault) {
    if (!client.closed.exchange(true)) {
      if (!stop) {
        ++(fault ? clientsDropped : disconnected);
      }
      client.close();
    }
  }

  // The newest complete volume, or a STATUS saying there is none yet.
  Bytes volumeMessage() {
    std::vector<float> voxels;
    process::VolumeInfo info;
    {
      const process::VolumeLock volume = engine.lockLatestVolume();
      if (volume && volume.done().query()) {
        info = volume.info();
        voxels.resize(volume.view().volume.size());
        engine.backend().copyBlocking(voxels.data(), volume.view().volume.data(),
                                      volume.view().volume.bytes());
      }
    }
    std::lock_guard lock(mutex);
    if (voxels.empty() || info.elevationM.empty()) {
      return std::make_shared<const std::vector<std::uint8_t>>(
          packStatus(options.deviceName + "Volume", false, "no complete volume yet"));
    }
    LinkImage image;
    image.geometry = info.slice;
    image.geometry.layers = 1;
    image.slices = static_cast<int>(info.elevationM.size());
    image.elevationStartM = info.elevationM.front();
    image.elevationStepM =
        image.slices > 1 ? (info.elevationM.back() - info.elevationM.front()) / (image.slices - 1)
                         : 0.0;
    image.dB = voxels;
    ++volumesSent;
    return std::make_shared<const std::vector<std::uint8_t>>(
        packImage(options.deviceName + "Volume", image, pixels, mapping));
  }

  void publish() {
    base::setCurrentThreadName("cf-igtl-pub");
    std::uint64_t last = ~std::uint64_t{0};
    std::vector<float> image;
    acquire::FrameHeader header;
    process::ImageGeometry geometry;
    while (!stop) {
      std::this_thread::sleep_for(kPublishInterval);
      const bool running = engine.state() == pipeline::EngineState::Running;
      std::vector<std::shared_ptr<Client>> gone;
      bool anyone = false;
      {
        std::lock_guard lock(mutex);
        if (running != imaging) {
          imaging = running;
          const Bytes status = statusMessage();
          for (const auto& client : clients) {
            client->post(status);
          }
        }
        for (auto it = clients.begin(); it != clients.end();) {
          if ((*it)->closed) {
            gone.push_back(std::move(*it));
            it = clients.erase(it);
          } else {
            ++it;
          }
        }
        anyone = !clients.empty();  // a client accepted after this waits for the next image
      }
      for (const auto& client : gone) {
        finish(*client);
      }
      if (!anyone || !engine.copyLatest(last, image, header, geometry)) {
        continue;
      }
      last = header.sequence;
      Bytes message;
      std::lock_guard lock(mutex);
      if (options.autoGain && !gainSet && geometry.pixels() > 0 &&
          image.size() >= geometry.pixels()) {
        mapping.gainDb = *std::max_element(
            image.begin(), image.begin() + static_cast<std::ptrdiff_t>(geometry.pixels()));
        gainSet = true;
      }
      try {
        LinkImage link;
        link.geometry = geometry;
        link.dB = std::span<const float>(image).first(geometry.pixels());
        message = std::make_shared<const std::vector<std::uint8_t>>(
            packImage(options.deviceName, link, pixels, mapping));
      } catch (const std::exception&) {
        continue;  // an image without a geometry: nothing to send
      }
      for (const auto& client : clients) {
        std::lock_guard clientLock(client->mutex);
        if (client->image) {
          ++skipped;
        }
        client->image = message;
        client->wake.notify_all();
      }
    }
  }

  static void finish(Client& client) {
    client.close();
    if (client.sender.joinable()) {
      client.sender.join();
    }
    if (client.reader.joinable()) {
      client.reader.join();
    }
    ::close(client.fd);
  }
};

IgtlServer::IgtlServer(const pipeline::Engine& engine, IgtlServerOptions options)
    : impl_(std::make_unique<Impl>(engine, std::move(options))) {
  Impl& s = *impl_;
  const std::string where = s.options.bindAddress + ":" + std::to_string(s.options.port);
  if (s.options.port < 0 || s.options.port > 65535) {
    throw std::runtime_error("OpenIGTLink: the port must be 0 to 65535, not " +
                             std::to_string(s.options.port));
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(s.options.port));
  if (::inet_pton(AF_INET, s.options.bindAddress.c_str(), &address.sin_addr) != 1) {
    throw std::runtime_error("OpenIGTLink: \"" + s.options.bindAddress +
                             "\" is not an IPv4 address to listen on");
  }
  s.listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s.listenFd < 0) {
    throw std::runtime_error("OpenIGTLink: no socket: " + errorText(errno));
  }
  const int on = 1;
  ::setsockopt(s.listenFd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (::bind(s.listenFd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(s.listenFd, 8) != 0) {
    const int error = errno;
    ::close(s.listenFd);
    throw std::runtime_error("OpenIGTLink: cannot listen on " + where + ": " + errorText(error) +
                             (error == EADDRINUSE ? " (another server has this port)" : ""));
  }
  socklen_t length = sizeof address;
  ::getsockname(s.listenFd, reinterpret_cast<sockaddr*>(&address), &length);
  s.port = ntohs(address.sin_port);
  s.acceptor = std::thread([&s] { s.accept(); });
  s.publisher = std::thread([&s] { s.publish(); });
}

IgtlServer::~IgtlServer() {
  Impl& s = *impl_;
  s.stop = true;
  s.acceptor.join();
  s.publisher.join();
  for (const auto& client : s.clients) {
    Impl::finish(*client);
  }
  ::close(s.listenFd);
}

int IgtlServer::port() const {
  return impl_->port;
}

const IgtlServerOptions& IgtlServer::options() const {
  return impl_->options;
}

void IgtlServer::setMapping(const DisplayMapping& mapping) {
  std::lock_guard lock(impl_->mutex);
  impl_->mapping = mapping;
}

void IgtlServer::setPixels(LinkPixels pixels) {
  std::lock_guard lock(impl_->mutex);
  impl_->pixels = pixels;
}

IgtlServerStats IgtlServer::stats() const {
  IgtlServerStats stats;
  {
    std::lock_guard lock(impl_->mutex);
    for (const auto& client : impl_->clients) {
      stats.clients += client->closed ? 0 : 1;
    }
  }
  stats.connections = impl_->connections;
  stats.imagesSent = impl_->imagesSent;
  stats.skipped = impl_->skipped;
  stats.volumesSent = impl_->volumesSent;
  stats.disconnected = impl_->disconnected;
  stats.clientsDropped = impl_->clientsDropped;
  return stats;
}

}  // namespace cineflow::link
