// base/enum_names.hpp and the enumerations named through it: every value's name reads back to
// the value (the names are what files, presets, the command line and the Python module store),
// aliases are accepted and left out of the list, and a word that names nothing is refused in the
// one wording, listing what would have been accepted.

#include <QtTest>

#include <stdexcept>
#include <string>

#include "base/enum_names.hpp"
#include "compute/backend.hpp"
#include "oct/oct_params.hpp"
#include "pipeline/engine_types.hpp"
#include "store/raw_recorder.hpp"
#include "ultrasound/doppler_params.hpp"
#include "ultrasound/imaging_params.hpp"

namespace {

enum class Colour { Red, Green, Blue };
constexpr cineflow::base::Named<Colour> kColours[] = {
    {Colour::Red, "red"}, {Colour::Green, "green"}, {Colour::Blue, "blue"}, {Colour::Red, "rot"}};

std::string refusal(const auto& parse, const std::string& word) {
  try {
    parse(word);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(accepted)";
}

// toString(value) parses back to value, for each value listed.
template <class E, class Parse>
void roundTrips(std::initializer_list<E> values, Parse parse) {
  for (const E value : values) {
    const std::string name = toString(value);  // the enumeration's own, by argument lookup
    QVERIFY2(parse(name) == value, name.c_str());
  }
}

}  // namespace

class TestEnumNames : public QObject {
  Q_OBJECT

 private slots:
  void namesAliasesAndTheRefusal() {
    using cineflow::base::nameIn;
    using cineflow::base::namesIn;
    using cineflow::base::parseIn;
    QCOMPARE(std::string(nameIn(kColours, Colour::Red)), std::string("red"));  // not the alias
    QCOMPARE(std::string(nameIn(kColours, Colour::Blue)), std::string("blue"));
    QCOMPARE(std::string(nameIn(kColours, static_cast<Colour>(7), "none")), std::string("none"));
    QCOMPARE(parseIn(kColours, "rot", "colour"), Colour::Red);
    QCOMPARE(parseIn(kColours, "green", "colour"), Colour::Green);
    QCOMPARE(namesIn(kColours), std::string("red, green or blue"));
    QCOMPARE(refusal([](const std::string& w) { return parseIn(kColours, w, "colour"); }, "Red"),
             std::string("colour 'Red': expected red, green or blue"));
    constexpr cineflow::base::Named<Colour> two[] = {{Colour::Red, "red"}, {Colour::Blue, "blue"}};
    QCOMPARE(namesIn(two), std::string("red or blue"));
  }

  void everyNameReadsBack() {
    namespace pipeline = cineflow::pipeline;
    namespace ultrasound = cineflow::ultrasound;
    namespace oct = cineflow::oct;
    namespace store = cineflow::store;
    using cineflow::compute::toString;
    roundTrips({pipeline::OverflowPolicy::Drop, pipeline::OverflowPolicy::Block,
                pipeline::OverflowPolicy::Latest},
               pipeline::parseOverflowPolicy);
    roundTrips({pipeline::DamagedFramePolicy::Stop, pipeline::DamagedFramePolicy::Skip},
               pipeline::parseDamagedFramePolicy);
    roundTrips({ultrasound::ImagingMode::Rf, ultrasound::ImagingMode::Iq,
                ultrasound::ImagingMode::ColourDoppler, ultrasound::ImagingMode::PowerDoppler},
               ultrasound::parseImagingMode);
    roundTrips({ultrasound::Apodisation::Hann, ultrasound::Apodisation::Rectangular},
               ultrasound::parseApodisation);
    roundTrips({ultrasound::EnsembleMode::Sliding, ultrasound::EnsembleMode::Block},
               ultrasound::parseEnsembleMode);
    roundTrips({ultrasound::WallFilter::None, ultrasound::WallFilter::Regression,
                ultrasound::WallFilter::Iir, ultrasound::WallFilter::Svd},
               ultrasound::parseWallFilter);
    roundTrips({oct::SpectralWindow::Hann, oct::SpectralWindow::Gaussian,
                oct::SpectralWindow::Rectangular},
               oct::parseSpectralWindow);
    roundTrips({store::RecordCompression::None, store::RecordCompression::Lz4,
                store::RecordCompression::BitshuffleLz4},
               store::parseRecordCompression);
    // The names that files and presets already hold, and the aliases the command line took.
    QCOMPARE(std::string(toString(ultrasound::ImagingMode::ColourDoppler)), std::string("doppler"));
    QCOMPARE(ultrasound::parseImagingMode("colour-doppler"),
             ultrasound::ImagingMode::ColourDoppler);
    QCOMPARE(ultrasound::parseImagingMode("color-doppler"), ultrasound::ImagingMode::ColourDoppler);
    QCOMPARE(std::string(toString(oct::SpectralWindow::Rectangular)), std::string("rectangular"));
    QCOMPARE(oct::parseSpectralWindow("rect"), oct::SpectralWindow::Rectangular);
    QCOMPARE(std::string(toString(ultrasound::Apodisation::Rectangular)), std::string("rect"));
    QCOMPARE(std::string(toString(cineflow::compute::BackendKind::Cuda)), std::string("cuda"));
    QCOMPARE(cineflow::compute::parseBackendRequest("auto"),
             cineflow::compute::BackendRequest::Auto);
  }

  void refusalsListWhatIsAccepted() {
    QCOMPARE(refusal(cineflow::pipeline::parseOverflowPolicy, "wait"),
             std::string("overflow policy 'wait': expected drop, block or latest"));
    QCOMPARE(refusal(cineflow::ultrasound::parseImagingMode, "bmode"),
             std::string("imaging mode 'bmode': expected rf, iq, doppler or power-doppler"));
    QCOMPARE(refusal(cineflow::oct::parseSpectralWindow, "blackman"),
             std::string("spectral window 'blackman': expected hann, gaussian or rectangular"));
    QCOMPARE(refusal(cineflow::compute::parseBackendRequest, "gpu"),
             std::string("backend 'gpu': expected auto, cpu or cuda"));
  }
};

QTEST_GUILESS_MAIN(TestEnumNames)
#include "test_enum_names.moc"
