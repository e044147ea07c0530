// Source plugins (include/cineflow/source_plugin.h, acquire/plugin_library.hpp,
// ultrasound/plugin_source.hpp): the two shipped plugins are found where Cineflow looks; the
// simulator plugin hands over exactly the built-in simulator's frames (the API carrying real
// load); the template plugin's point target echoes where the geometry says and images through the
// engine; and every way a plugin can misbehave (no entry, another ABI, a failing open or start, a
// stream that cannot be imaged, a frame of the wrong size, a failing read) is refused or stops the
// acquisition with a message naming the plugin and the reason, and the program goes on.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "support/refusal.hpp"
#include "ultrasound/plugin_source.hpp"
#include "ultrasound/simulator.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;
using test::refusal;

namespace {

std::string faulty(const char* fault) {
  // Appended piece by piece: GCC 12 at -O1 under ThreadSanitizer warned (falsely) that the
  // temporaries of a + b + c overran a string's inline buffer.
  std::string path = CINEFLOW_FAULTY_PLUGIN_DIR;
  path += "/libfaulty-";
  path += fault;
  path += ".so";
  return path;
}

}  // namespace

class TestSourcePlugins : public QObject {
  Q_OBJECT

 private slots:
  void theShippedPluginsAreFound() {
    qunsetenv("CINEFLOW_PLUGIN_PATH");
    const auto folders = acquire::pluginFolders();
    QVERIFY(std::any_of(folders.begin(), folders.end(), [](const auto& folder) {
      return std::filesystem::equivalent(folder, CINEFLOW_PLUGIN_DIR);
    }));
    const acquire::PluginListing listing = acquire::discoverPlugins();
    QVERIFY2(listing.refused.empty(), listing.refused.empty() ? "" : listing.refused[0].c_str());
    QStringList names;
    for (const auto& plugin : listing.plugins) {
      names << QString::fromStdString(plugin->name());
    }
    QVERIFY2(names.contains("Ultrasound simulator") && names.contains("Template point target"),
             qPrintable(names.join(", ")));
    const auto simulator = acquire::findPlugin("Ultrasound simulator");
    QCOMPARE(simulator->parameters().size(), std::size_t{4});
    QCOMPARE(simulator->parameters()[1].name, std::string("slices"));
    QVERIFY(simulator->parameters()[1].hasRange);
    QVERIFY(refusal([] {
              acquire::findPlugin("Nonesuch");
            }).contains("no source plugin named 'Nonesuch' (found: "));
  }

  void theSimulatorPluginHandsOverTheSimulatorsFrames() {
    ultrasound::PluginSource plugin(acquire::findPlugin("Ultrasound simulator"),
                                    R"({"seed": 3, "slices": 4})");
    ultrasound::SimulatorConfig config;
    config.seed = 3;
    config.slicesPerVolume = 4;
    ultrasound::Simulator simulator(config);
    QCOMPARE(plugin.frameBytes(), simulator.frameBytes());
    QCOMPARE(plugin.frameCount(), std::uint64_t{4});
    QCOMPARE(plugin.params().framesPerVolume, 4);
    QCOMPARE(plugin.params().elementXM, simulator.params().elementXM);
    std::vector<std::byte> a(plugin.frameBytes()), b(simulator.frameBytes());
    for (std::uint64_t k = 0; k < 4; ++k) {
      acquire::SliceInfo fromPlugin, fromSimulator;
      plugin.readFrame(k, a, fromPlugin);
      simulator.readFrame(k, b, fromSimulator);
      QVERIFY(a == b);
      QCOMPARE(fromPlugin.sliceIndex, fromSimulator.sliceIndex);
      QCOMPARE(fromPlugin.elevationM, fromSimulator.elevationM);
    }
  }

  void theTemplatesTargetEchoesWhereTheGeometrySays() {
    ultrasound::PluginSource source(acquire::findPlugin("Template point target"),
                                    R"({"depth_mm": 25, "frames": 4})");
    const acquire::AcquisitionParams& acq = source.params();
    QCOMPARE(acq.elements(), 64);
    QCOMPARE(source.frameCount(), std::uint64_t{4});
    std::vector<std::byte> frame(source.frameBytes());
    acquire::SliceInfo slice;
    source.readFrame(0, frame, slice);  // t = 0: the target on the axis
    std::vector<std::int16_t> samples(frame.size() / 2);
    std::memcpy(samples.data(), frame.data(), frame.size());
    // The element nearest the axis: its echo's envelope peaks at 2 z / c (x 20 MHz).
    const int element = 32;
    const double xe = acq.elementXM[element];
    const double expected = (25e-3 + std::hypot(xe, 25e-3)) / 1540.0 * 20e6;
    const auto* trace = samples.data() + element * acq.samples;
    const auto peak = std::max_element(trace, trace + acq.samples,
                                       [](auto a, auto b) { return std::abs(a) < std::abs(b); });
    QVERIFY2(std::abs((peak - trace) - expected) <= 2.0,
             qPrintable(QString("peak at sample %1, expected %2").arg(peak - trace).arg(expected)));
    // Through the engine: four images whose brightest pixel lies at the target.
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 4;
    pipeline::Engine engine(*backend, config);
    engine.setSource(
        acquire::openSource(R"(plugin:Template point target#{"depth_mm": 25, "frames": 4})"));
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.grid = ultrasound::ImagingGrid::parseMillimetres("-6:6:0.1,15:35:0.05");
    ultrasound::setImaging(engine, imaging);
    std::mutex mutex;
    std::vector<float> first;
    engine.setFrameObserver([&](const pipeline::CompletedFrame& f) {
      std::lock_guard lock(mutex);
      if (f.header.sourceIndex == 0) {
        first.assign(f.image.begin(), f.image.end());
      }
    });
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    engine.stop();
    const process::ImageGeometry g = imaging.geometry();
    QCOMPARE(first.size(), g.pixels());
    const auto brightest =
        static_cast<std::size_t>(std::max_element(first.begin(), first.end()) - first.begin());
    const double x = g.x0 + static_cast<double>(brightest % g.nx) * g.dx;
    const double z = g.z0 + static_cast<double>(brightest / g.nx) * g.dz;
    QVERIFY2(std::abs(x) < 0.3e-3 && std::abs(z - 25e-3) < 0.3e-3,
             qPrintable(QString("brightest at (%1, %2) mm").arg(x * 1e3).arg(z * 1e3)));
  }

  void misbehavingPluginsAreRefusedWithTheirReason() {
    const auto open = [](const char* fault) {
      return [fault] {
        ultrasound::PluginSource(std::make_shared<acquire::PluginLibrary>(faulty(fault)), "{}");
      };
    };
    const std::pair<const char*, const char*> cases[] = {
        {"NO_ENTRY", "exports no cineflow_source_plugin()"},
        {"ABI", "built for source plugin ABI 99, this Cineflow speaks ABI 1"},
        {"OPEN", "source plugin 'Faulty OPEN' did not open: the probe is not connected"},
        {"STREAM",
         "source plugin 'Faulty STREAM': its stream cannot be imaged: elementXM must be "
         "strictly increasing"},
    };
    for (const auto& [fault, reason] : cases) {
      const QString why = refusal(open(fault));
      QVERIFY2(why.contains(reason), qPrintable(QString("%1: %2").arg(fault, why)));
    }
    QVERIFY(
        refusal([] { acquire::PluginLibrary("/nonexistent/libx.so"); }).contains("cannot load"));

    // A frame of the wrong size, or a read that fails: SourceError naming the plugin and frame.
    ultrasound::PluginSource wrongSize(std::make_shared<acquire::PluginLibrary>(faulty("SIZE")),
                                       "{}");
    std::vector<std::byte> frame(wrongSize.frameBytes());
    acquire::SliceInfo slice;
    QVERIFY(refusal([&] {
              wrongSize.readFrame(0, frame, slice);
            }).contains("'Faulty SIZE': frame 0 has 16382 bytes, the stream's frames have 16384"));
    ultrasound::PluginSource good(std::make_shared<acquire::PluginLibrary>(faulty("good")), "{}");
    good.readFrame(2, frame, slice);
    std::int16_t first = 0;
    std::memcpy(&first, frame.data(), sizeof first);
    QCOMPARE(first, std::int16_t{200});  // the plugin wrote straight into the buffer given

    // Through the engine, a failing read stops the acquisition with the plugin's words; the engine
    // (and the program) go on to the next source.
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 8;
    pipeline::Engine engine(*backend, config);
    engine.setSource(acquire::openSource("plugin:" + faulty("READ")));
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Failed);
    const QString error = QString::fromStdString(engine.stats().error);
    QVERIFY2(error.contains("'Faulty READ': frame 3: link to the digitizer lost"),
             qPrintable(error));
    engine.stop();
    // A start the hardware refuses: Engine::start() throws the plugin's words and stays stopped.
    engine.setSource(acquire::openSource("plugin:" + faulty("START")));
    QVERIFY(refusal([&] { engine.start(); })
                .contains("source plugin 'Faulty START' did not start: the transmit voltage is "
                          "not enabled"));
    QVERIFY(engine.state() != pipeline::EngineState::Running);
    engine.setSource(acquire::openSource("plugin:" + faulty("good")));
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    engine.stop();
  }
};

QTEST_GUILESS_MAIN(TestSourcePlugins)
#include "test_source_plugins.moc"
