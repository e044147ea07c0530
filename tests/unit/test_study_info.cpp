// The patient and study (store/study_info.hpp) in HDF5 files: every field of the group /study
// reads back through the plain HDF5 C API and through readVolumeFile(); a file without a study
// has no group; what DICOM cannot carry is refused with the field named; and a volume whose
// /study is damaged (not a group, a field that is not text, a value too long) still opens whole,
// its study left out with a notice.
#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

#include "store/bmode_writer.hpp"
#include "store/study_info.hpp"
#include "store/volume_reader.hpp"
#include "store/volume_writer.hpp"
#include "support/mip_reference.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_random.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;
namespace fs = std::filesystem;
using File = test::PlainFile;

namespace {

store::StudyInfo fullStudy() {
  return {.patientName = "Lindqvist^Åsa",  // UTF-8 survives
          .patientId = "P-0042",
          .birthDate = "19840307",
          .sex = "F",
          .accessionNumber = "ACC123456",
          .studyDescription = "Carotid, left",
          .referringPhysician = "Okafor^Chidi",
          .operatorName = "Meyer^Jonas",
          .studyInstanceUid = store::newStudyInstanceUid(),
          .studyDate = "20260105",
          .studyTime = "093000"};
}

// Opens `path` for writing, hands its root to `change`, closes it.
template <class Change>
void alter(const fs::path& path, Change change) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  QVERIFY(file >= 0);
  change(file);
  H5Fclose(file);
}

void writeIntegerAttribute(hid_t object, const char* name, long long value) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(object, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, H5T_NATIVE_LLONG, &value);
  H5Aclose(attribute);
  H5Sclose(space);
}

void writeTextAttribute(hid_t object, const char* name, const std::string& value) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size());
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, type, value.data());
  H5Aclose(attribute);
  H5Sclose(space);
  H5Tclose(type);
}

}  // namespace

class TestStudyInfo : public QObject {
  Q_OBJECT

  fs::path folder_;
  const process::VolumeShape shape_{3, 12, 10};
  std::vector<float> voxels_;
  test::Mips mips_;
  process::VolumeInfo info_;

  fs::path path(const std::string& name) const { return folder_ / name; }

  void saveVolume(const fs::path& target, const std::optional<store::StudyInfo>& study) {
    store::FileMetadata metadata = ultrasound::describeAcquisition(test::someAcquisition());
    metadata.study = study;
    store::writeVolumeFile(target, info_, {voxels_, mips_.alongY, mips_.alongZ, mips_.alongX},
                           metadata);
  }

 private slots:
  void initTestCase() {
    folder_ = fs::temp_directory_path() / ("cineflow-study-" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    voxels_ = test::randomVolume(shape_, 7);
    mips_ = test::referenceMips(voxels_, shape_);
    info_ = test::someVolumeInfo(shape_, 4);
  }

  void cleanupTestCase() { fs::remove_all(folder_); }

  void checksWhatDicomCanCarry() {
    const store::StudyInfo good = fullStudy();
    QCOMPARE(QString::fromStdString(store::studyProblem(good, "20260105")), QString());
    QVERIFY(good.hasEntries());
    QVERIFY(!store::StudyInfo{}.hasEntries());

    const auto problem = [](store::StudyInfo study) {
      return QString::fromStdString(store::studyProblem(study, "20260105"));
    };
    // Family^given of the stated lengths, built by append (GCC 12's -Warray-bounds misreads
    // a chain of operator+ on temporaries at -O1, the thread sanitizer's build).
    const auto twoParts = [](std::size_t family, std::size_t given) {
      std::string name(family, 'A');
      name.push_back('^');
      name.append(given, 'B');
      return name;
    };
    store::StudyInfo study = good;
    study.patientName = twoParts(40, 24);  // 65 characters
    QVERIFY2(problem(study).startsWith("Patient name: at most 64 characters (65 typed)"),
             qPrintable(problem(study)));
    study.patientName = twoParts(32, 31);  // 64: taken
    QCOMPARE(problem(study), QString());
    study.patientName = std::string(63, 'a').insert(0, "Ä");  // 64 characters in 65 bytes
    QCOMPARE(problem(study), QString());
    study.patientName = "A^B^C^D^E^F";
    QVERIFY(problem(study).startsWith("Patient name: at most five parts"));
    study = good;
    study.patientId = std::string(65, '7');
    QVERIFY(problem(study).startsWith("Patient ID: at most 64 characters"));
    study = good;
    study.accessionNumber = std::string(17, '1');
    QVERIFY(problem(study).startsWith("Accession number: at most 16 characters (17 typed)"));
    study = good;
    study.studyDescription = "left\\right";
    QVERIFY(problem(study).contains("backslash"));
    study = good;
    study.operatorName = "Meyer\nJonas";
    QVERIFY(problem(study).contains("control character"));
    study = good;
    study.birthDate = "20230229";  // 2023 was no leap year
    QVERIFY(problem(study).startsWith("Birth date: not a real date"));
    study.birthDate = "20240229";
    QCOMPARE(problem(study), QString());
    study.birthDate = "1984-03-07";
    QVERIFY(problem(study).startsWith("Birth date: not a real date"));
    study.birthDate = "20260106";  // tomorrow
    QCOMPARE(problem(study), QStringLiteral("Birth date: in the future"));
    QCOMPARE(QString::fromStdString(store::studyProblem(study)), QString());  // no today given
    study = good;
    study.sex = "X";
    QVERIFY(problem(study).startsWith("Sex:"));
  }

  void studyUidsAreNewAndValid() {
    const std::string a = store::newStudyInstanceUid();
    const std::string b = store::newStudyInstanceUid();
    QVERIFY(a != b);
    for (const std::string& uid : {a, b}) {
      QVERIFY2(uid.rfind("2.25.", 0) == 0, uid.c_str());
      QVERIFY(uid.size() <= 64);
      QVERIFY(uid.find_first_not_of("0123456789.") == std::string::npos);
      QVERIFY(uid[5] != '0' || uid.size() == 6);  // no leading zero in a component
    }
  }

  void volumeRoundTrip() {
    const store::StudyInfo study = fullStudy();
    const fs::path target = path("with_study.h5");
    saveVolume(target, study);
    {
      File file(target.string());
      QVERIFY(file.id >= 0);
      const hid_t group = H5Gopen2(file.id, "study", H5P_DEFAULT);
      QVERIFY(group >= 0);
      QCOMPARE(test::readString(group, "patient_name"), study.patientName);
      QCOMPARE(test::readString(group, "patient_id"), study.patientId);
      QCOMPARE(test::readString(group, "patient_birth_date"), study.birthDate);
      QCOMPARE(test::readString(group, "patient_sex"), study.sex);
      QCOMPARE(test::readString(group, "accession_number"), study.accessionNumber);
      QCOMPARE(test::readString(group, "study_description"), study.studyDescription);
      QCOMPARE(test::readString(group, "referring_physician"), study.referringPhysician);
      QCOMPARE(test::readString(group, "operator_name"), study.operatorName);
      QCOMPARE(test::readString(group, "study_instance_uid"), study.studyInstanceUid);
      QCOMPARE(test::readString(group, "study_date"), study.studyDate);
      QCOMPARE(test::readString(group, "study_time"), study.studyTime);
      H5Gclose(group);
    }
    const store::LoadedVolume loaded = store::readVolumeFile(target);
    QVERIFY(loaded.study.has_value());
    QVERIFY(*loaded.study == study);
    QCOMPARE(loaded.studyNotice, std::string());
    QVERIFY(loaded.volume == voxels_);

    // No study: no group, and none read.
    const fs::path plain = path("without_study.h5");
    saveVolume(plain, std::nullopt);
    {
      File file(plain.string());
      QVERIFY(file.id >= 0);
      QCOMPARE(H5Lexists(file.id, "study", H5P_DEFAULT), 0);
    }
    const store::LoadedVolume none = store::readVolumeFile(plain);
    QVERIFY(!none.study.has_value());
    QCOMPARE(none.studyNotice, std::string());
  }

  void bmodeFilesCarryTheStudy() {
    const fs::path target = path("bmode.h5");
    store::FileMetadata metadata = ultrasound::describeAcquisition(test::someAcquisition());
    metadata.study = fullStudy();
    process::ImageGeometry geometry;
    geometry.nx = 8;
    geometry.nz = 6;
    geometry.dx = geometry.dz = 1e-4;
    store::BmodeWriter writer(target, geometry, metadata);
    writer.appendFrame({}, test::randomFloats(geometry.values(), 3));
    writer.finish();
    File file(target.string());
    const hid_t group = H5Gopen2(file.id, "study", H5P_DEFAULT);
    QVERIFY(group >= 0);
    QCOMPARE(test::readString(group, "study_instance_uid"), metadata.study->studyInstanceUid);
    H5Gclose(group);
  }

  void damagedStudyIsIgnoredWithANotice_data() {
    QTest::addColumn<int>("damage");
    QTest::addColumn<QString>("notice");
    QTest::newRow("a dataset, not a group") << 0 << "not a group";
    QTest::newRow("a field that is not text") << 1 << "patient_sex";
    QTest::newRow("a value too long") << 2 << "Patient ID: at most 64 characters";
    QTest::newRow("a date that is no date") << 3 << "Birth date: not a real date";
  }

  void damagedStudyIsIgnoredWithANotice() {
    QFETCH(int, damage);
    QFETCH(QString, notice);
    const fs::path target = path("damaged_" + std::to_string(damage) + ".h5");
    saveVolume(target, fullStudy());
    alter(target, [damage](hid_t root) {
      if (damage == 0) {
        H5Ldelete(root, "study", H5P_DEFAULT);
        const double values[2] = {1, 2};
        const hsize_t dims[1] = {2};
        const hid_t space = H5Screate_simple(1, dims, nullptr);
        const hid_t dataset =
            H5Dcreate2(root, "study", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
        H5Dclose(dataset);
        H5Sclose(space);
        return;
      }
      const hid_t group = H5Gopen2(root, "study", H5P_DEFAULT);
      const char* name = damage == 1   ? "patient_sex"
                         : damage == 2 ? "patient_id"
                                       : "patient_birth_date";
      H5Adelete(group, name);
      if (damage == 1) {
        writeIntegerAttribute(group, name, 1);
      } else {
        writeTextAttribute(group, name, damage == 2 ? std::string(80, '9') : "19841307");
      }
      H5Gclose(group);
    });
    store::LoadedVolume loaded;
    try {
      loaded = store::readVolumeFile(target);
    } catch (const std::exception& error) {
      QFAIL(error.what());
    }
    QVERIFY(!loaded.study.has_value());
    const QString said = QString::fromStdString(loaded.studyNotice);
    QVERIFY2(said.startsWith("the study in /study is ignored: "), qPrintable(said));
    QVERIFY2(said.contains(notice), qPrintable(said));
    QVERIFY(loaded.volume == voxels_);  // the data is not lost
    QVERIFY(loaded.alongZ == mips_.alongZ);
  }
};

QTEST_GUILESS_MAIN(TestStudyInfo)
#include "test_study_info.moc"
