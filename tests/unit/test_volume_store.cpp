// VolumeStore on the CPU backend: buffered volumes are bit-exact copies; a full store refuses
// with a message and evicts nothing; discard frees space but not while the volume is read; a
// reservation that fails (injected out-of-memory) or is too small changes nothing; growing keeps
// every volume; auto-buffer takes every volume of a running engine until the store is full, then
// stops and says so; "buffer latest" copies the engine's newest volume.
#include <QtTest>

#include <vector>

#include "compute/buffer.hpp"
#include "pipeline/engine.hpp"
#include "store/range_allocator.hpp"
#include "store/volume_store.hpp"
#include "support/failing_backend.hpp"
#include "support/mip_reference.hpp"
#include "support/volume_checks.hpp"

using namespace cineflow;

namespace {

// A volume held by the test: random voxels and its MIPs, as an engine endpoint would offer it.
struct TestVolume {
  process::VolumeInfo info;
  std::vector<float> voxels;
  test::Mips mips;
  compute::DeviceBuffer<float> volume, alongY, alongZ, alongX;
  std::unique_ptr<compute::Event> done;

  TestVolume(compute::Backend& backend, const process::VolumeShape& shape, std::uint64_t number)
      : voxels(test::randomVolume(shape, 77 + number)),
        mips(test::referenceMips(voxels, shape)),
        volume(backend, shape.voxels()),
        alongY(backend, shape.alongY()),
        alongZ(backend, shape.alongZ()),
        alongX(backend, shape.alongX()),
        done(backend.createEvent()) {
    info.number = number;
    info.shape = shape;
    info.sequence.assign(static_cast<std::size_t>(shape.ny), number * 100);
    backend.copyBlocking(volume.data(), voxels.data(), volume.bytes());
    backend.copyBlocking(alongY.data(), mips.alongY.data(), alongY.bytes());
    backend.copyBlocking(alongZ.data(), mips.alongZ.data(), alongZ.bytes());
    backend.copyBlocking(alongX.data(), mips.alongX.data(), alongX.bytes());
  }
  process::VolumeView view() const {
    return {compute::DeviceSpan<const float>(volume.data(), volume.size()),
            compute::DeviceSpan<const float>(alongY.data(), alongY.size()),
            compute::DeviceSpan<const float>(alongZ.data(), alongZ.size()),
            compute::DeviceSpan<const float>(alongX.data(), alongX.size())};
  }
};

std::vector<float> toHost(const compute::Backend& backend, compute::DeviceSpan<const float> span) {
  std::vector<float> host(span.size());
  backend.copyBlocking(host.data(), span.data(), span.bytes());
  return host;
}

}  // namespace

class TestVolumeStore : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);
  const process::VolumeShape shape_{4, 50, 30};
  // The volume and its three MIPs.
  const std::size_t volumeBytes_ =
      (shape_.voxels() + shape_.alongY() + shape_.alongZ() + shape_.alongX()) * sizeof(float);

  std::optional<std::uint64_t> bufferOn(store::VolumeStore& store, const TestVolume& volume,
                                        compute::Stream& stream, std::string& why) {
    stream.record(*volume.done);
    return store.buffer(volume.info, volume.view(), *volume.done, stream, why);
  }

  void verifyHolds(store::VolumeStore& store, std::uint64_t id, const TestVolume& expected) {
    const store::VolumeStore::Access access = store.access(id);
    QVERIFY(access);
    access.ready().synchronize();
    QCOMPARE(access.info().number, expected.info.number);
    QVERIFY(test::identical(toHost(*cpu_, access.view().volume), expected.voxels));
    QVERIFY(test::identical(toHost(*cpu_, access.view().alongY), expected.mips.alongY));
    QVERIFY(test::identical(toHost(*cpu_, access.view().alongZ), expected.mips.alongZ));
    QVERIFY(test::identical(toHost(*cpu_, access.view().alongX), expected.mips.alongX));
  }

 private slots:
  void rangeAllocatorReusesAndMerges() {
    store::RangeAllocator ranges(100);
    const auto a = ranges.allocate(30), b = ranges.allocate(30), c = ranges.allocate(30);
    QVERIFY(a && b && c);
    QVERIFY(!ranges.allocate(20));
    ranges.release(*b, 30);
    QCOMPARE(ranges.largestFree(), std::size_t{30});
    ranges.release(*a, 30);
    QCOMPARE(ranges.largestFree(), std::size_t{60});  // merged with its neighbour
    QCOMPARE(*ranges.allocate(55), std::size_t{0});
    QCOMPARE(ranges.used(), std::size_t{85});
    QVERIFY_THROWS_EXCEPTION(std::logic_error, ranges.release(95, 10));
  }

  void fullStoreRefusesAndEvictsNothing() {
    store::VolumeStore store(*cpu_);
    std::string why;
    auto stream = cpu_->createStream("test");
    TestVolume v0(*cpu_, shape_, 0);
    QVERIFY(!bufferOn(store, v0, *stream, why));  // no capacity yet
    QVERIFY2(why.find("no capacity") != std::string::npos, why.c_str());
    QVERIFY(store.setCapacity(2 * volumeBytes_ + volumeBytes_ / 2).empty());
    TestVolume v1(*cpu_, shape_, 1), v2(*cpu_, shape_, 2);
    const auto id0 = bufferOn(store, v0, *stream, why);
    const auto id1 = bufferOn(store, v1, *stream, why);
    QVERIFY(id0 && id1);
    QVERIFY(!bufferOn(store, v2, *stream, why));
    QVERIFY2(why.find("full") != std::string::npos, why.c_str());
    stream->synchronize();
    QCOMPARE(store.list().size(), std::size_t{2});
    QCOMPARE(store.used(), 2 * volumeBytes_);
    verifyHolds(store, *id0, v0);
    verifyHolds(store, *id1, v1);

    // Discard frees space, but not while the volume is being read.
    {
      const auto reading = store.access(*id0);
      QVERIFY(!store.discard(*id0).empty());
    }
    QVERIFY(store.discard(*id0).empty());
    QVERIFY(!store.discard(*id0).empty());  // gone
    const auto id2 = bufferOn(store, v2, *stream, why);
    QVERIFY2(id2, why.c_str());
    stream->synchronize();
    verifyHolds(store, *id1, v1);
    verifyHolds(store, *id2, v2);
    store.markSaved(*id1, "/tmp/v1.h5");
    QVERIFY(store.list().front().saved);
  }

  void spareEntriesAreUsedAndReturned() {
    store::VolumeStore store(*cpu_);
    QVERIFY(store.setCapacity(3 * volumeBytes_).empty());
    store.prepareFor(shape_);
    QCOMPARE(store.spareCount(), std::size_t{3});  // as many as the capacity holds
    std::string why;
    auto stream = cpu_->createStream("test");
    TestVolume v0(*cpu_, shape_, 0), v1(*cpu_, shape_, 1);
    const auto id0 = bufferOn(store, v0, *stream, why);
    const auto id1 = bufferOn(store, v1, *stream, why);
    QVERIFY(id0 && id1);
    QCOMPARE(store.spareCount(), std::size_t{1});
    store.prepareFor(shape_);  // nothing more to ready: buffered and spare cover the capacity
    QCOMPARE(store.spareCount(), std::size_t{1});
    stream->synchronize();
    verifyHolds(store, *id1, v1);
    QVERIFY(store.discard(*id0).empty());
    QCOMPARE(store.spareCount(), std::size_t{2});
    // A reused entry carries nothing over: new id, new metadata, not saved.
    store.markSaved(*id1, "/tmp/v1.h5");
    QVERIFY(store.discard(*id1).empty());
    TestVolume v2(*cpu_, shape_, 2);
    const auto id2 = bufferOn(store, v2, *stream, why);
    QVERIFY2(id2, why.c_str());
    stream->synchronize();
    QVERIFY(*id2 != *id0 && *id2 != *id1);
    verifyHolds(store, *id2, v2);
    QCOMPARE(store.list().size(), std::size_t{1});
    QVERIFY(!store.list().front().saved);
    QVERIFY(store.list().front().savedPath.empty());
  }

  void failedReservationChangesNothing() {
    test::FailingBackend failing(*cpu_, 3 * volumeBytes_);
    store::VolumeStore store(failing);
    auto stream = failing.createStream("test");
    std::string why;
    QVERIFY(store.setCapacity(2 * volumeBytes_).empty());
    TestVolume v0(*cpu_, shape_, 0);
    const auto id0 = bufferOn(store, v0, *stream, why);
    QVERIFY(id0);
    stream->synchronize();
    // Too large for the (injected) device: refused, the old reservation and volume stay.
    const std::string tooLarge = store.setCapacity(10 * volumeBytes_);
    QVERIFY2(tooLarge.find("cannot reserve") != std::string::npos, tooLarge.c_str());
    QVERIFY2(tooLarge.find("injected") != std::string::npos, tooLarge.c_str());
    QCOMPARE(store.capacity(), 2 * volumeBytes_);
    verifyHolds(store, *id0, v0);
    // Smaller than what is held: refused.
    QVERIFY(!store.setCapacity(volumeBytes_ / 2).empty());
    // Growing within the limit moves the volume into the new reservation intact.
    QVERIFY(store.setCapacity(3 * volumeBytes_).empty());
    QCOMPARE(store.capacity(), 3 * volumeBytes_);
    verifyHolds(store, *id0, v0);
  }

  void autoBufferFillsTheStoreThenStops() { test::checkStoreAutoBuffersUntilFull(*cpu_); }
};

QTEST_GUILESS_MAIN(TestVolumeStore)
#include "test_volume_store.moc"
