#include "export/pacs_sender.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "export/dcmtk.hpp"

namespace cineflow::ui {
namespace {

std::string aeTitleProblem(const std::string& title, const char* whose) {
  if (title.empty() || title.size() > 16) {
    return std::string(whose) + " AE title must have 1 to 16 characters";
  }
  for (const char c : title) {
    if (c == '\\' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) {
      return std::string(whose) + " AE title \"" + title +
             "\" may hold only printable ASCII characters without a backslash";
    }
  }
  if (title.find_first_not_of(' ') == std::string::npos) {
    return std::string(whose) + " AE title must not be only spaces";
  }
  return {};
}

std::string hex(Uint16 code) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04X", static_cast<unsigned>(code));
  return text;
}

// The association's requester, set up from `node`: non-blocking messages, so that every network
// step gives up after the node's timeout instead of waiting on a PACS that went silent.
void configure(DcmSCU& scu, const PacsNode& node) {
  // DCMTK logs every association step to the console; Cineflow reports in words instead, so only
  // its warnings and errors stay (on standard error, for a log).
  static std::once_flag quiet;
  std::call_once(quiet, [] { OFLog::configure(OFLogger::WARN_LOG_LEVEL); });
  scu.setAETitle(node.callingAe.c_str());
  scu.setPeerAETitle(node.calledAe.c_str());
  scu.setPeerHostName(node.host.c_str());
  scu.setPeerPort(static_cast<Uint16>(node.port));
  scu.setConnectionTimeout(node.timeoutSeconds);
  scu.setACSETimeout(static_cast<Uint32>(node.timeoutSeconds));
  scu.setDIMSETimeout(static_cast<Uint32>(node.timeoutSeconds));
  scu.setDIMSEBlockingMode(DIMSE_NONBLOCKING);
  scu.setDatasetConversionMode(OFTrue);  // a file in a syntax the PACS did not take is converted
}

// Why an association could not be opened, in the operator's words.
std::string associationFailure(const PacsNode& node, const OFCondition& status) {
  const std::string where = describePacsNode(node);
  if (status == DUL_ASSOCIATIONREJECTED) {
    return where + " refused the association: check that its AE title is \"" + node.calledAe +
           "\" and that it accepts \"" + node.callingAe + "\" (" + status.text() + ")";
  }
  if (status == NET_EC_NoAcceptablePresentationContexts) {
    return where + " accepted none of the DICOM classes offered (" + status.text() + ")";
  }
  return "cannot reach " + where + ": " + status.text() +
         " (check that the PACS is running and that the host and port are right)";
}

struct FileSyntax {
  std::string sopClass;
  std::string transferSyntax;
};

// The file's SOP class and transfer syntax, from its meta header (or its data set); the large
// elements are not read.
std::optional<FileSyntax> readSyntax(const std::string& path, std::string& problem) {
  DcmFileFormat file;
  const OFCondition loaded =
      file.loadFile(path.c_str(), EXS_Unknown, EGL_noChange, 4096, ERM_autoDetect);
  if (loaded.bad()) {
    problem = "not a DICOM file that can be read: " + std::string(loaded.text());
    return std::nullopt;
  }
  OFString sopClass;
  OFString syntax;
  file.getMetaInfo()->findAndGetOFString(DCM_MediaStorageSOPClassUID, sopClass);
  if (sopClass.empty()) {
    file.getDataset()->findAndGetOFString(DCM_SOPClassUID, sopClass);
  }
  file.getMetaInfo()->findAndGetOFString(DCM_TransferSyntaxUID, syntax);
  if (syntax.empty()) {
    syntax = DcmXfer(file.getDataset()->getOriginalXfer()).getXferID();
  }
  if (sopClass.empty()) {
    problem = "the file names no SOP class";
    return std::nullopt;
  }
  return FileSyntax{sopClass.c_str(), syntax.c_str()};
}

std::string className(const std::string& sopClass) {
  const char* name = dcmFindNameOfUID(sopClass.c_str(), nullptr);
  return name ? std::string(name) : sopClass;
}

}  // namespace

std::string pacsNodeProblem(const PacsNode& node) {
  if (std::string problem = aeTitleProblem(node.calledAe, "the PACS's"); !problem.empty()) {
    return problem;
  }
  if (std::string problem = aeTitleProblem(node.callingAe, "Cineflow's"); !problem.empty()) {
    return problem;
  }
  if (node.host.empty() || node.host.find_first_of(" \t\r\n") != std::string::npos) {
    return "the PACS's host must be a name or an address without spaces";
  }
  if (node.port < 1 || node.port > 65535) {
    return "the PACS's port must be 1 to 65535, not " + std::to_string(node.port);
  }
  if (node.timeoutSeconds < 1 || node.timeoutSeconds > 600) {
    return "the timeout must be 1 to 600 s, not " + std::to_string(node.timeoutSeconds);
  }
  return {};
}

std::string describePacsNode(const PacsNode& node) {
  return node.calledAe + " at " + node.host + ":" + std::to_string(node.port);
}

PacsReply echoPacs(const PacsNode& node) {
  if (std::string problem = pacsNodeProblem(node); !problem.empty()) {
    return {false, "The PACS settings cannot be used: " + problem + "."};
  }
  DcmSCU scu;
  configure(scu, node);
  OFList<OFString> syntaxes;
  syntaxes.push_back(UID_LittleEndianExplicitTransferSyntax);
  syntaxes.push_back(UID_LittleEndianImplicitTransferSyntax);
  scu.addPresentationContext(UID_VerificationSOPClass, syntaxes);
  if (const OFCondition status = scu.initNetwork(); status.bad()) {
    return {false, "DICOM networking could not start: " + std::string(status.text())};
  }
  if (const OFCondition status = scu.negotiateAssociation(); status.bad()) {
    return {false, associationFailure(node, status) + "."};
  }
  const OFCondition echoed = scu.sendECHORequest(0);
  if (echoed.bad()) {
    scu.abortAssociation();
    return {false, describePacsNode(node) +
                       " did not answer the C-ECHO: " + std::string(echoed.text()) + "."};
  }
  scu.releaseAssociation();
  return {true, describePacsNode(node) + " answered the C-ECHO: the settings work."};
}

int PacsSendReport::storedCount() const {
  return static_cast<int>(
      std::count_if(files.begin(), files.end(), [](const PacsFileOutcome& f) { return f.stored; }));
}

std::string PacsSendReport::summary(const PacsNode& node) const {
  const int stored = storedCount();
  std::string text = std::to_string(stored) + " of " + std::to_string(files.size()) +
                     (files.size() == 1 ? " file" : " files") + " stored on " +
                     describePacsNode(node) + ".";
  if (cancelled) {
    text += " Sending was cancelled.";
  }
  for (const PacsFileOutcome& file : files) {
    if (!file.stored) {
      text += "\n" + file.path + ": " + file.message;
    }
  }
  if (stored < static_cast<int>(files.size())) {
    text += "\nEvery file is kept where it was.";
  }
  return text;
}

PacsSendReport sendToPacs(const PacsNode& node, const std::vector<std::string>& paths,
                          const PacsProgress& progress, const std::atomic<bool>* cancel) {
  PacsSendReport report;
  report.files.resize(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    report.files[i].path = paths[i];
    report.files[i].message = "not sent";
  }
  const auto failAll = [&](const std::string& why) {
    for (PacsFileOutcome& file : report.files) {
      if (!file.stored && file.message == "not sent") {
        file.message = "not sent: " + why;
      }
    }
    return report;
  };
  if (std::string problem = pacsNodeProblem(node); !problem.empty()) {
    return failAll("the PACS settings cannot be used: " + problem);
  }

  // Every file's class and syntax first: one presentation context per class, proposing each
  // syntax its files are in, then the two uncompressed ones every PACS takes.
  std::vector<std::optional<FileSyntax>> syntaxOf(paths.size());
  std::map<std::string, std::set<std::string>> syntaxesOfClass;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::string problem;
    syntaxOf[i] = readSyntax(paths[i], problem);
    if (syntaxOf[i]) {
      syntaxesOfClass[syntaxOf[i]->sopClass].insert(syntaxOf[i]->transferSyntax);
    } else {
      report.files[i].message = problem;
    }
  }
  if (syntaxesOfClass.empty()) {
    return report;
  }
  DcmSCU scu;
  configure(scu, node);
  for (const auto& [sopClass, own] : syntaxesOfClass) {
    OFList<OFString> syntaxes;
    for (const std::string& syntax : own) {
      syntaxes.push_back(syntax.c_str());
    }
    for (const char* plain :
         {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax}) {
      if (own.count(plain) == 0) {
        syntaxes.push_back(plain);
      }
    }
    scu.addPresentationContext(sopClass.c_str(), syntaxes);
  }
  if (const OFCondition status = scu.initNetwork(); status.bad()) {
    return failAll("DICOM networking could not start: " + std::string(status.text()));
  }
  if (const OFCondition status = scu.negotiateAssociation(); status.bad()) {
    return failAll(associationFailure(node, status));
  }

  bool connected = true;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (progress) {
      progress(static_cast<int>(i), static_cast<int>(paths.size()));
    }
    if (!syntaxOf[i]) {
      continue;
    }
    if (cancel && cancel->load()) {
      report.cancelled = true;
      break;
    }
    PacsFileOutcome& outcome = report.files[i];
    const FileSyntax& syntax = *syntaxOf[i];
    T_ASC_PresentationContextID context =
        scu.findPresentationContextID(syntax.sopClass.c_str(), syntax.transferSyntax.c_str());
    if (context == 0) {
      context = scu.findAnyPresentationContextID(syntax.sopClass.c_str(), "");
    }
    if (context == 0) {
      outcome.message =
          "not sent: " + describePacsNode(node) + " does not accept " + className(syntax.sopClass);
      continue;
    }
    Uint16 status = 0;
    const OFCondition sent =
        scu.sendSTORERequest(context, OFFilename(paths[i].c_str()), nullptr, status);
    if (sent.bad()) {
      // A message that could not be exchanged leaves the association unusable: the rest waits.
      outcome.message = "not stored: the connection to " + describePacsNode(node) +
                        " failed while sending (" + std::string(sent.text()) + ")";
      connected = false;
      failAll("the connection to " + describePacsNode(node) + " was lost before it");
      break;
    }
    if (status == STATUS_Success) {
      outcome.stored = true;
      outcome.message = "stored";
    } else if ((status & 0xf000) == 0xb000) {
      outcome.stored = true;
      outcome.message =
          "stored with warning " + hex(status) + " (" + DU_cstoreStatusString(status) + ")";
    } else {
      outcome.message = "refused by " + describePacsNode(node) + " with status " + hex(status) +
                        " (" + DU_cstoreStatusString(status) + ")";
    }
  }
  if (report.cancelled) {
    failAll("sending was cancelled");
  }
  if (progress) {
    progress(static_cast<int>(paths.size()), static_cast<int>(paths.size()));
  }
  if (connected) {
    scu.releaseAssociation();
  } else {
    scu.abortAssociation();
  }
  return report;
}

}  // namespace cineflow::ui
