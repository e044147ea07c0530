// Saves survive a power cut (base/durable_rename.hpp): every staged file, HDF5 (BmodeWriter, and
// so VolumeWriter and the RF writer, through StagedH5File) and text (bench JSON, traces), is
// written and closed, then synced, then renamed onto its final name, then its folder is synced,
// in that order, recorded through the FileSystemCalls hook. When the sync of the file or the
// rename fails, the save reports it as an error, and neither the final name nor a temporary is
// left behind; when the folder's sync fails after the rename, the renamed file is removed again.
#include <QTemporaryDir>
#include <QtTest>

#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "base/durable_rename.hpp"
#include "base/text_file.hpp"
#include "store/bmode_writer.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_random.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;
namespace fs = std::filesystem;

namespace {

// Records each call as text ("sync NAME", "rename FROM -> TO", "sync folder"), lets a check run
// when the file is synced, and fails the call named in `failing` with EIO. The others are real.
class RecordingCalls : public base::FileSystemCalls {
 public:
  std::vector<std::string> calls;
  std::function<void(const fs::path&)> atSyncFile;
  std::string failing;  // "sync", "rename" or "sync folder"

  int syncFile(const fs::path& file) override {
    calls.push_back("sync " + file.filename().string());
    if (atSyncFile) {
      atSyncFile(file);
    }
    return failing == "sync" ? EIO : FileSystemCalls::syncFile(file);
  }
  int rename(const fs::path& from, const fs::path& to) override {
    calls.push_back("rename " + from.filename().string() + " -> " + to.filename().string());
    return failing == "rename" ? EIO : FileSystemCalls::rename(from, to);
  }
  int syncDirectory(const fs::path& directory) override {
    calls.push_back("sync folder " + directory.string());
    return failing == "sync folder" ? EIO : FileSystemCalls::syncDirectory(directory);
  }
};

std::string contentsOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string partialName(const std::string& finalName) {
  return base::temporaryPathFor(finalName).filename().string();
}

}  // namespace

class TestDurableRename : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  fs::path path(const char* name) const { return fs::path(dir_.path().toStdString()) / name; }

  // Writes a B-mode file of three frames through BmodeWriter; returns the error message, empty
  // when it was saved.
  std::string saveBmode(const fs::path& target) {
    const process::ImageGeometry geometry{
        .nx = 12, .nz = 20, .x0 = -1e-3, .dx = 0.1e-3, .z0 = 5e-3, .dz = 0.05e-3};
    try {
      store::BmodeWriter writer(target, geometry,
                                ultrasound::describeAcquisition(test::someAcquisition()));
      for (int f = 0; f < 3; ++f) {
        acquire::FrameHeader header;
        header.sequence = static_cast<std::uint64_t>(f);
        writer.appendFrame(header, test::randomFloats(geometry.pixels(),
                                                      40 + static_cast<std::uint64_t>(f), -60, 0));
      }
      writer.finish();
      return {};
    } catch (const store::StoreError& e) {
      return e.what();
    }
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void temporaryLiesBesideTheFinalName() {
    const fs::path temporary = base::temporaryPathFor(path("a.h5"));
    QCOMPARE(temporary.parent_path(), path("a.h5").parent_path());
    QCOMPARE(temporary.filename().string(), "a.h5.partial-" + std::to_string(::getpid()));
  }

  void textFileIsWrittenSyncedRenamedThenItsFolderSynced() {
    const fs::path target = path("bench.json");
    const std::string text = "{\"frames_per_s\": 31.5}\n";
    RecordingCalls recorder;
    bool completeWhenSynced = false;
    recorder.atSyncFile = [&](const fs::path& file) {
      completeWhenSynced = contentsOf(file) == text && !fs::exists(target);
    };
    {
      const base::ScopedFileSystemCalls scope(recorder);
      base::writeFileAtomically(target.string(), text);
    }
    const std::vector<std::string> expected = {
        "sync " + partialName("bench.json"),
        "rename " + partialName("bench.json") + " -> bench.json",
        "sync folder " + target.parent_path().string()};
    QCOMPARE(recorder.calls, expected);
    QVERIFY2(completeWhenSynced, "the file was synced before it was written and closed");
    QCOMPARE(contentsOf(target), text);
    QVERIFY(!test::anyPartialFile(target.parent_path()));
  }

  void hdf5FileIsClosedBeforeItIsSynced() {
    const fs::path target = path("loop.h5");
    RecordingCalls recorder;
    ssize_t openObjects = -1;
    std::vector<hsize_t> shapeWhenSynced;
    recorder.atSyncFile = [&](const fs::path& file) {
      openObjects = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);  // HDF5 let go of everything
      const test::PlainFile plain(file.string());
      if (plain.id >= 0) {
        shapeWhenSynced = test::shapeOf(plain.id, "bmode_db");
      }
    };
    std::string error;
    {
      const base::ScopedFileSystemCalls scope(recorder);
      error = saveBmode(target);
    }
    QVERIFY2(error.empty(), error.c_str());
    const std::vector<std::string> expected = {"sync " + partialName("loop.h5"),
                                               "rename " + partialName("loop.h5") + " -> loop.h5",
                                               "sync folder " + target.parent_path().string()};
    QCOMPARE(recorder.calls, expected);
    QCOMPARE(openObjects, ssize_t{0});
    QCOMPARE(shapeWhenSynced, (std::vector<hsize_t>{3, 20, 12}));  // every frame was in it
    QVERIFY(fs::exists(target));
    QVERIFY(!test::anyPartialFile(target.parent_path()));
  }

  void failureIsReportedAndLeavesNoFile_data() {
    QTest::addColumn<QString>("failing");
    QTest::addColumn<int>("callsMade");
    QTest::newRow("sync of the file") << QStringLiteral("sync") << 1;
    QTest::newRow("rename") << QStringLiteral("rename") << 2;
    QTest::newRow("sync of the folder") << QStringLiteral("sync folder") << 3;
  }

  void failureIsReportedAndLeavesNoFile() {
    QFETCH(QString, failing);
    QFETCH(int, callsMade);
    const std::string operation = failing.toStdString();
    RecordingCalls recorder;
    recorder.failing = operation;
    const fs::path text = path("failed.json");
    const fs::path hdf5 = path("failed.h5");
    std::string textError, hdf5Error;
    {
      const base::ScopedFileSystemCalls scope(recorder);
      try {
        base::writeFileAtomically(text.string(), "{}\n");
      } catch (const std::runtime_error& e) {
        textError = e.what();
      }
      QCOMPARE(recorder.calls.size(), static_cast<std::size_t>(callsMade));
      hdf5Error = saveBmode(hdf5);
      QCOMPARE(recorder.calls.size(), static_cast<std::size_t>(2 * callsMade));
    }
    qInfo("%s", textError.c_str());
    qInfo("%s", hdf5Error.c_str());
    for (const auto& [error, target] : {std::pair{textError, text}, std::pair{hdf5Error, hdf5}}) {
      QVERIFY2(error.find(target.string()) != std::string::npos, error.c_str());
      QVERIFY2(error.find(operation + " ") != std::string::npos, error.c_str());
      QVERIFY2(error.find("Input/output error") != std::string::npos, error.c_str());
      QVERIFY2(!fs::exists(target), target.c_str());
    }
    QVERIFY(!test::anyPartialFile(text.parent_path()));
  }

  void realCallsPublishAndReportWhatIsMissing() {
    const fs::path temporary = base::temporaryPathFor(path("real.txt"));
    std::ofstream(temporary) << "durable\n";
    QVERIFY(!base::publishFile(temporary, path("real.txt")));
    QCOMPARE(contentsOf(path("real.txt")), std::string("durable\n"));
    QVERIFY(!fs::exists(temporary));
    // Nothing to publish: the sync of the missing temporary fails first, and nothing appears.
    const auto failure = base::publishFile(temporary, path("never.txt"));
    QVERIFY(failure);
    QCOMPARE(failure->operation, "sync " + temporary.string());
    QVERIFY(!fs::exists(path("never.txt")));
  }
};

QTEST_GUILESS_MAIN(TestDurableRename)
#include "test_durable_rename.moc"
