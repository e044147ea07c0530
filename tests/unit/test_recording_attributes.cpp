// store/recording_attributes.hpp: the numbers a recording's reader requires of its attributes,
// on a real HDF5 file. Each refusal names the file and the attribute and says what was expected
// and found; an attribute is found on the first holder that has it (an RF recording's /rf before
// its root); optional attributes give their default when absent and are checked when present.

#include <QtTest>

#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "acquire/frame_source.hpp"
#include "store/hdf5_handle.hpp"
#include "store/recording_attributes.hpp"

using cineflow::store::RecordingAttributes;

namespace {

std::string refusal(const auto& read) {
  try {
    read();
  } catch (const cineflow::acquire::SourceError& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace

class TestRecordingAttributes : public QObject {
  Q_OBJECT

 private slots:
  void numbersAreCheckedAndRefusedInOneWording() {
    QTemporaryDir dir;
    const std::filesystem::path path = dir.filePath("r.h5").toStdString();
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    QVERIFY(file >= 0);
    const hid_t group = H5Gcreate2(file, "rf", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    QVERIFY(group >= 0);
    namespace store = cineflow::store;
    store::writeNumberAttribute(group, "fs", 20e6);
    store::writeNumberAttribute(file, "fs", -1.0);  // the root's, found second: never read
    store::writeNumberAttribute(file, "c", 1540.0);
    store::writeNumberAttribute(file, "zero", 0.0);
    store::writeNumberAttribute(file, "nan", std::numeric_limits<double>::quiet_NaN());
    store::writeIntegerAttribute(file, "count", 16);
    store::writeNumberAttribute(file, "half", 2.5);
    const std::string name = path.string();
    {
      const RecordingAttributes attributes(path, {group, file}, "looked on /rf and on /");
      QCOMPARE(attributes.number("fs"), 20e6);  // /rf first
      QCOMPARE(attributes.positive("c"), 1540.0);
      QCOMPARE(attributes.whole("count", 0, 100), 16);
      QCOMPARE(attributes.numberOr("absent", 7.0), 7.0);
      QVERIFY(!attributes.optionalPositive("absent").has_value());
      QCOMPARE(*attributes.optionalWhole("count", 1, 16), 16);
      QCOMPARE(attributes.nonNegative("zero", attributes.number("zero")), 0.0);
      QCOMPARE(refusal([&] { attributes.number("absent"); }),
               name + ": attribute absent: missing (looked on /rf and on /)");
      QCOMPARE(refusal([&] { attributes.number("nan"); }),
               name + ": attribute nan: expected a finite number, found nan");
      QCOMPARE(refusal([&] { attributes.positive("zero"); }),
               name + ": attribute zero: expected a positive number, found 0");
      QCOMPARE(refusal([&] { attributes.optionalPositive("zero"); }),
               name + ": attribute zero: expected a positive number, found 0");
      QCOMPARE(refusal([&] { attributes.whole("half", 0, 10); }),
               name + ": attribute half: expected a whole number in [0, 10], found 2.5");
      QCOMPARE(refusal([&] { attributes.whole("count", 0, 15); }),
               name + ": attribute count: expected a whole number in [0, 15], found 16");
      QCOMPARE(refusal([&] { attributes.nonNegative("fs", -1.0); }),
               name + ": attribute fs: expected a number >= 0, found -1");
    }
    {
      // The root alone: its own fs, and its own wording for what is missing.
      const RecordingAttributes root(path, {file}, "cineflow.oct/1 requires it on /");
      QCOMPARE(refusal([&] { root.positive("fs"); }),
               name + ": attribute fs: expected a positive number, found -1");
      QCOMPARE(refusal([&] { root.number("absent"); }),
               name + ": attribute absent: missing (cineflow.oct/1 requires it on /)");
    }
    H5Gclose(group);
    H5Fclose(file);
  }
};

QTEST_GUILESS_MAIN(TestRecordingAttributes)
#include "test_recording_attributes.moc"
