// An OpenIGTLink image server written only against libOpenIGTLink's messages (ImageMessage,
// StatusMessage), as a PLUS server streams a scanner's images: the peer the OpenIGTLink client
// source's tests receive from. It listens on 127.0.0.1, writes the port it got to FOLDER/port.txt,
// and for each client in turn sends a STATUS, then IMAGE messages of seeded pixels, writing each
// image it sent to FOLDER/sent_<n>.raw (the scalars as sent, n counting over all clients).
//
//   igtl_image_server FOLDER [--type uint8|int8|uint16|int16|float32|rgb|float64]
//       [--cols C] [--rows R] [--spacing DX DZ] [--origin X Y Z] [--device NAME]
//       [--images N] [--rate HZ] [--seed S] [--big-endian] [--other-device]
//       [--change-after K] [--change-every K] [--change-on-file] [--clients M]
//       [--keep-listening] [--pause-ms P] [--cycle K]
//
// Geometry: columns along +R (1, 0, 0), rows along -S (0, 0, -1), as a probe image stands; the
// origin is the image's centre (OpenIGTLink's convention), in mm.
// --images N: images per client, then it closes that client's connection; --clients M: clients
// served one after another (after a pause of --pause-ms without listening to anyone), then it
// exits; --keep-listening: the port stays open between clients, as a server that takes several
// does (the next client waits in the backlog). --change-after K: images from the K-th on have one
// more column; --change-on-file: images sent once FOLDER/change exists have one more column;
// --change-every K: every K images the column count switches between C and C + 1 (a picture that
// keeps changing). --other-device: each image is preceded by one of device "Other" (8 x 8) that a
// client of NAME must skip.
// --big-endian: scalars of more than a byte are sent big-endian (the header says so).
// --rate 0: as fast as the socket takes them. --cycle K: the first K images are made (and written
// to FOLDER) once, then sent again in turn, so that a large stream's rate is the network's and the
// receiver's, not this program's own filling and packing (for throughput measurements).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <igtlImageMessage.h>
#include <igtlStatusMessage.h>

namespace {

struct Options {
  std::string folder;
  std::string type = "uint8";
  int cols = 96, rows = 64;
  float spacing[2] = {0.3f, 0.2f};
  float origin[3] = {1.5f, 0.0f, -10.0f};
  std::string device = "Image_Reference";
  int images = 10;
  double rate = 20;
  unsigned seed = 1;
  bool bigEndian = false;
  bool otherDevice = false;
  int changeAfter = -1;
  int changeEvery = 0;
  bool changeOnFile = false;
  bool keepListening = false;
  int clients = 1;
  int pauseMs = 0;
  int cycle = 0;
};

bool sendAll(int fd, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t sent = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (sent <= 0) {
      return false;
    }
    p += sent;
    bytes -= static_cast<std::size_t>(sent);
  }
  return true;
}

// Listens on 127.0.0.1 (the port of the first call again on later calls); the first call writes
// the port to FOLDER/port.txt. -1 when it cannot.
int listenOnLoopback(const std::string& folder) {
  static int port = 0;  // the same port for every client
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  const int yes = 1;
  ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener, 4) != 0) {
    std::perror("igtl_image_server: listen");
    return -1;
  }
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  if (port == 0) {
    port = ntohs(address.sin_port);
    std::ofstream(folder + "/port.txt.part") << port << "\n";
    std::rename((folder + "/port.txt.part").c_str(), (folder + "/port.txt").c_str());
  }
  return listener;
}

int scalarType(const std::string& type) {
  if (type == "int8")
    return igtl::ImageMessage::TYPE_INT8;
  if (type == "uint16")
    return igtl::ImageMessage::TYPE_UINT16;
  if (type == "int16")
    return igtl::ImageMessage::TYPE_INT16;
  if (type == "float32")
    return igtl::ImageMessage::TYPE_FLOAT32;
  if (type == "float64")
    return igtl::ImageMessage::TYPE_FLOAT64;
  return igtl::ImageMessage::TYPE_UINT8;  // uint8, rgb
}

// Fills `bytes` with seeded scalars of `type` (little-endian in memory), per image `n`.
void fill(const std::string& type, unsigned seed, int n, std::vector<unsigned char>& bytes) {
  std::mt19937 random(seed * 7919u + static_cast<unsigned>(n));
  if (type == "float32") {
    std::uniform_real_distribution<float> dB(-80.0f, 5.0f);
    for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      const float v = dB(random);
      std::memcpy(&bytes[i], &v, 4);
    }
  } else if (type == "float64") {
    for (std::size_t i = 0; i + 8 <= bytes.size(); i += 8) {
      const double v = 1.0;
      std::memcpy(&bytes[i], &v, 8);
    }
  } else {
    std::uniform_int_distribution<int> byte(0, 255);
    for (unsigned char& b : bytes) {
      b = static_cast<unsigned char>(byte(random));
    }
  }
}

std::vector<unsigned char> packImage(const Options& o, const std::string& device, int cols,
                                     int rows, const std::vector<unsigned char>& scalars) {
  igtl::ImageMessage::Pointer image = igtl::ImageMessage::New();
  image->SetDeviceName(device.c_str());
  image->SetDimensions(cols, rows, 1);
  image->SetSpacing(o.spacing[0], o.spacing[1], 1.0f);
  image->SetScalarType(scalarType(o.type));
  image->SetNumComponents(o.type == "rgb" ? 3 : 1);
  image->SetEndian(o.bigEndian ? igtl::ImageMessage::ENDIAN_BIG
                               : igtl::ImageMessage::ENDIAN_LITTLE);
  float i[3] = {1, 0, 0};
  float j[3] = {0, 0, -1};
  float k[3] = {0, 1, 0};
  image->SetNormals(i, j, k);
  image->SetOrigin(o.origin[0], o.origin[1], o.origin[2]);
  image->AllocateScalars();
  auto* out = static_cast<unsigned char*>(image->GetScalarPointer());
  const int width = image->GetScalarSize();
  for (std::size_t p = 0; p + static_cast<std::size_t>(width) <= scalars.size(); p += width) {
    if (o.bigEndian && width > 1) {
      std::reverse_copy(&scalars[p], &scalars[p] + width, out + p);
    } else {
      std::memcpy(out + p, &scalars[p], static_cast<std::size_t>(width));
    }
  }
  image->Pack();
  const auto* bytes = static_cast<const unsigned char*>(image->GetPackPointer());
  return {bytes, bytes + image->GetPackSize()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: igtl_image_server FOLDER [options]\n");
    return 2;
  }
  Options o;
  o.folder = argv[1];
  for (int a = 2; a < argc; ++a) {
    const std::string arg = argv[a];
    const auto next = [&] { return a + 1 < argc ? std::string(argv[++a]) : std::string(); };
    if (arg == "--type")
      o.type = next();
    else if (arg == "--cols")
      o.cols = std::atoi(next().c_str());
    else if (arg == "--rows")
      o.rows = std::atoi(next().c_str());
    else if (arg == "--spacing") {
      o.spacing[0] = std::strtof(next().c_str(), nullptr);
      o.spacing[1] = std::strtof(next().c_str(), nullptr);
    } else if (arg == "--origin") {
      for (float& v : o.origin)
        v = std::strtof(next().c_str(), nullptr);
    } else if (arg == "--device")
      o.device = next();
    else if (arg == "--images")
      o.images = std::atoi(next().c_str());
    else if (arg == "--rate")
      o.rate = std::strtod(next().c_str(), nullptr);
    else if (arg == "--seed")
      o.seed = static_cast<unsigned>(std::atoi(next().c_str()));
    else if (arg == "--big-endian")
      o.bigEndian = true;
    else if (arg == "--other-device")
      o.otherDevice = true;
    else if (arg == "--change-after")
      o.changeAfter = std::atoi(next().c_str());
    else if (arg == "--change-on-file")
      o.changeOnFile = true;
    else if (arg == "--keep-listening")
      o.keepListening = true;
    else if (arg == "--change-every")
      o.changeEvery = std::atoi(next().c_str());
    else if (arg == "--clients")
      o.clients = std::atoi(next().c_str());
    else if (arg == "--pause-ms")
      o.pauseMs = std::atoi(next().c_str());
    else if (arg == "--cycle")
      o.cycle = std::atoi(next().c_str());
  }
  std::vector<std::vector<unsigned char>> made;  // --cycle: the packed messages sent in turn
  int sent = 0;
  int listener = -1;
  for (int client = 0; client < o.clients; ++client) {
    if (listener < 0) {
      listener = listenOnLoopback(o.folder);
      if (listener < 0) {
        return 1;
      }
    }
    const int fd = ::accept(listener, nullptr, nullptr);
    if (!o.keepListening) {
      ::close(listener);  // nothing listens between clients
      listener = -1;
    }
    if (fd < 0) {
      return 1;
    }
    igtl::StatusMessage::Pointer status = igtl::StatusMessage::New();
    status->SetDeviceName(o.device.c_str());
    status->SetCode(igtl::StatusMessage::STATUS_OK);
    status->SetStatusString("streaming");
    status->Pack();
    sendAll(fd, status->GetPackPointer(), status->GetPackSize());
    using Clock = std::chrono::steady_clock;
    const auto period = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(o.rate > 0 ? 1.0 / o.rate : 0.0));
    auto due = Clock::now();
    const auto pace = [&] {  // the next image a period after this one's due time, never in bursts
      due = std::max(due + period, Clock::now());
      std::this_thread::sleep_until(due);
    };
    for (int n = 0; n < o.images; ++n, ++sent) {
      if (o.cycle > 0 && static_cast<int>(made.size()) == o.cycle) {
        const std::vector<unsigned char>& again = made[static_cast<std::size_t>(sent % o.cycle)];
        if (!sendAll(fd, again.data(), again.size())) {
          break;
        }
        pace();
        continue;
      }
      const bool wider = (o.changeAfter >= 0 && sent >= o.changeAfter) ||
                         (o.changeEvery > 0 && (sent / o.changeEvery) % 2 == 1) ||
                         (o.changeOnFile && ::access((o.folder + "/change").c_str(), F_OK) == 0);
      const int cols = wider ? o.cols + 1 : o.cols;
      const std::size_t components = o.type == "rgb" ? 3 : 1;
      const std::size_t width = o.type == "float64"                       ? 8
                                : o.type == "float32"                     ? 4
                                : o.type == "uint16" || o.type == "int16" ? 2
                                                                          : 1;
      std::vector<unsigned char> scalars(static_cast<std::size_t>(cols) * o.rows * components *
                                         width);
      fill(o.type, o.seed, sent, scalars);
      if (o.otherDevice) {
        Options other = o;
        const std::vector<unsigned char> small(64 * width * components, 7);
        const std::vector<unsigned char> message = packImage(other, "Other", 8, 8, small);
        sendAll(fd, message.data(), message.size());
      }
      const std::vector<unsigned char> message = packImage(o, o.device, cols, o.rows, scalars);
      {
        const std::string stem = o.folder + "/sent_" + std::to_string(sent);
        std::ofstream(stem + ".raw.part", std::ios::binary)
            .write(reinterpret_cast<const char*>(scalars.data()),
                   static_cast<std::streamsize>(scalars.size()));
        std::rename((stem + ".raw.part").c_str(), (stem + ".raw").c_str());
      }
      if (!sendAll(fd, message.data(), message.size())) {
        break;
      }
      if (o.cycle > 0) {
        made.push_back(message);
      }
      pace();
    }
    ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(o.pauseMs));
  }
  return 0;
}
