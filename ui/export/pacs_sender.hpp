#pragma once
// Sending DICOM files to a PACS over DICOM networking (DCMTK's dcmnet): C-ECHO to test the
// settings, C-STORE to send. Cineflow is the association's requester (a storage SCU) under its own
// AE title; the PACS is named by its AE title, host and port (PacsNode, kept in the settings by
// pacs_settings.hpp).
//
// Sending never changes, moves or removes a file: a PACS that refuses a file, refuses the
// association, or disappears mid-send leaves every file where it was, and the report says, per
// file, whether the PACS stored it and, if not, why, in words (the PACS's status code included).
//
// Both calls block for at most about the node's timeout per network step; they run on a worker
// (BackgroundJob), never on the GUI thread. Thread-safe: each call opens its own association.

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace cineflow::ui {

struct PacsNode {
  std::string calledAe;                // the PACS's AE title
  std::string host;                    // name or address
  int port = 104;                      // the PACS's DICOM port
  std::string callingAe = "CINEFLOW";  // Cineflow's own AE title, as the PACS knows it
  int timeoutSeconds = 10;             // connection and each message
};

// What is wrong with `node`, in words ("" when it can be used): AE titles of 1 to 16 characters
// without a backslash or control character, a host, a port of 1 to 65535, a timeout of 1 to 600 s.
std::string pacsNodeProblem(const PacsNode& node);

// "ORTHANC at pacs.example.org:4242"
std::string describePacsNode(const PacsNode& node);

struct PacsReply {
  bool ok = false;
  std::string message;  // for the operator: what the PACS answered, or why it did not
};

// C-ECHO: opens an association, asks the PACS to answer, releases.
PacsReply echoPacs(const PacsNode& node);

struct PacsFileOutcome {
  std::string path;
  bool stored = false;  // the PACS answered success (or a warning: stored with a change)
  std::string message;  // "stored", "stored with warning 0xB000 (...)", or why not
};

struct PacsSendReport {
  std::vector<PacsFileOutcome> files;  // one per path handed in, in that order
  bool cancelled = false;
  int storedCount() const;
  bool allStored() const { return storedCount() == static_cast<int>(files.size()); }
  // One paragraph for the operator: how many were stored where, and each file that was not, why.
  std::string summary(const PacsNode& node) const;
};

// Called after each file: (files done, files in all).
using PacsProgress = std::function<void(int, int)>;

// C-STORE of every file in `paths` on one association (proposing each file's SOP class in its
// own transfer syntax and in explicit and implicit VR little endian). A file that is not DICOM or
// whose class the PACS refused is reported and skipped; a lost association ends the send with
// the rest reported unsent. `cancel` is read between files.
PacsSendReport sendToPacs(const PacsNode& node, const std::vector<std::string>& paths,
                          const PacsProgress& progress = {},
                          const std::atomic<bool>* cancel = nullptr);

}  // namespace cineflow::ui
