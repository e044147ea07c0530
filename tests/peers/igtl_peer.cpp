// An OpenIGTLink client written only against libOpenIGTLink (its ClientSocket, MessageHeader,
// ImageMessage and StatusMessage), as 3D Slicer or a PLUS client would use the library: the peer
// the OpenIGTLink server's tests talk to. It connects, and writes what it receives into a folder:
//   image_<n>.txt / .raw    the n-th IMAGE (from 0): dims, spacing, origin, normals, scalar type,
//                           device; the scalars as received
//   volume.txt / volume.raw the answer to its GET_IMAGE (with --volume)
//   status.txt              one line per STATUS: "<code> <status string>"
//
//   igtl_peer HOST PORT FOLDER --images N [--volume] [--stall-after K] [--until-not-imaging]
//
// --stall-after K: after K images it stops reading (a client that hangs) until killed.
// --until-not-imaging: after the rest, it waits for a STATUS with code 13 (imaging stopped).
// Exits 0 when done; 1, saying why, when the server went away first.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include <igtlClientSocket.h>
#include <igtlImageMessage.h>
#include <igtlMessageHeader.h>
#include <igtlStatusMessage.h>

namespace {

// Writes <stem>.raw, then <stem>.txt, each whole under a temporary name first: a reader that
// sees the .txt sees both complete.
bool writeImage(igtl::ImageMessage& image, const std::string& stem) {
  {
    std::ofstream raw(stem + ".raw.part", std::ios::binary);
    raw.write(static_cast<const char*>(image.GetScalarPointer()), image.GetImageSize());
    if (!raw) {
      return false;
    }
  }
  std::rename((stem + ".raw.part").c_str(), (stem + ".raw").c_str());
  int size[3];
  float spacing[3], origin[3], normals[3][3];
  image.GetDimensions(size);
  image.GetSpacing(spacing);
  image.GetOrigin(origin);
  image.GetNormals(normals);
  std::ofstream text(stem + ".txt.part");
  text.precision(9);
  text << "device " << image.GetDeviceName() << "\n";
  text << "dims " << size[0] << " " << size[1] << " " << size[2] << "\n";
  text << "spacing " << spacing[0] << " " << spacing[1] << " " << spacing[2] << "\n";
  text << "origin " << origin[0] << " " << origin[1] << " " << origin[2] << "\n";
  text << "normals";
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      text << " " << normals[i][j];
    }
  }
  text << "\ntype " << image.GetScalarType() << "\n";
  text.close();
  if (!text) {
    return false;
  }
  return std::rename((stem + ".txt.part").c_str(), (stem + ".txt").c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: igtl_peer HOST PORT FOLDER --images N [--volume] "
                 "[--stall-after K] [--until-not-imaging]\n");
    return 2;
  }
  const std::string host = argv[1];
  const int port = std::atoi(argv[2]);
  const std::string folder = argv[3];
  int images = 1;
  int stallAfter = -1;
  bool volume = false;
  bool untilNotImaging = false;
  for (int i = 4; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--images" && i + 1 < argc) {
      images = std::atoi(argv[++i]);
    } else if (arg == "--stall-after" && i + 1 < argc) {
      stallAfter = std::atoi(argv[++i]);
    } else if (arg == "--volume") {
      volume = true;
    } else if (arg == "--until-not-imaging") {
      untilNotImaging = true;
    }
  }
  igtl::ClientSocket::Pointer socket = igtl::ClientSocket::New();
  if (socket->ConnectToServer(host.c_str(), port) != 0) {
    std::fprintf(stderr, "igtl_peer: cannot connect to %s:%d\n", host.c_str(), port);
    return 1;
  }
  std::ofstream status(folder + "/status.txt");
  int received = 0;
  bool volumeAsked = false;
  bool volumeReceived = !volume;
  bool notImaging = false;
  igtl::MessageHeader::Pointer header = igtl::MessageHeader::New();
  for (;;) {
    if (received >= images && volumeReceived && (!untilNotImaging || notImaging)) {
      socket->CloseSocket();
      return 0;
    }
    if (stallAfter >= 0 && received >= stallAfter) {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::seconds(1));  // hangs until killed
      }
    }
    if (volume && !volumeAsked && received >= 1) {
      igtl::GetImageMessage::Pointer ask = igtl::GetImageMessage::New();
      ask->SetDeviceName("");
      ask->Pack();
      socket->Send(ask->GetPackPointer(), ask->GetPackSize());
      volumeAsked = true;
    }
    header->InitPack();
    if (socket->Receive(header->GetPackPointer(), header->GetPackSize()) != header->GetPackSize()) {
      std::fprintf(stderr, "igtl_peer: the server closed the connection\n");
      return 1;
    }
    header->Unpack();
    const std::string type = header->GetDeviceType();
    const std::string device = header->GetDeviceName();
    if (type == "IMAGE") {
      igtl::ImageMessage::Pointer image = igtl::ImageMessage::New();
      image->SetMessageHeader(header);
      image->AllocatePack();
      socket->Receive(image->GetPackBodyPointer(), image->GetPackBodySize());
      if (!(image->Unpack(1) & igtl::MessageHeader::UNPACK_BODY)) {
        std::fprintf(stderr, "igtl_peer: an IMAGE that does not unpack\n");
        return 1;
      }
      const bool isVolume =
          device.size() > 6 && device.compare(device.size() - 6, 6, "Volume") == 0;
      if (isVolume) {
        writeImage(*image, folder + "/volume");
        volumeReceived = true;
      } else if (received < images) {
        writeImage(*image, folder + "/image_" + std::to_string(received));
        ++received;
      }
    } else if (type == "STATUS") {
      igtl::StatusMessage::Pointer message = igtl::StatusMessage::New();
      message->SetMessageHeader(header);
      message->AllocatePack();
      socket->Receive(message->GetPackBodyPointer(), message->GetPackBodySize());
      message->Unpack(1);
      status << message->GetCode() << " " << message->GetStatusString() << std::endl;
      const bool volumeRefused =
          device.size() > 6 && device.compare(device.size() - 6, 6, "Volume") == 0;
      if (volumeRefused) {
        volumeAsked = false;  // none yet: ask again after the next image
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      } else if (message->GetCode() == igtl::StatusMessage::STATUS_NOT_READY &&
                 received >= images && volumeReceived) {
        notImaging = true;
      }
    } else {
      socket->Skip(header->GetBodySizeToRead(), 0);
    }
  }
}
