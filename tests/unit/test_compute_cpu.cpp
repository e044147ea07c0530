// The execution model on the CPU backend: stream order, events across streams, host tasks, copies,
// errors, parallelFor and buffer ownership.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "compute/cpu/parallel_for.hpp"

using namespace cineflow::compute;

class TestComputeCpu : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<Backend> backend_ = createBackend(BackendRequest::Cpu);

 private slots:
  void streamRunsTasksInOrder() {
    auto stream = backend_->createStream("order");
    std::vector<int> seen;
    seen.reserve(5000);
    for (int i = 0; i < 5000; ++i) {  // more than the queue holds: enqueue must wait, not fail
      stream->enqueueHost([&seen, i] { seen.push_back(i); });
    }
    stream->synchronize();
    QCOMPARE(seen.size(), std::size_t(5000));
    for (int i = 0; i < 5000; ++i) {
      QCOMPARE(seen[static_cast<std::size_t>(i)], i);
    }
  }

  void eventOrdersWorkAcrossStreams() {
    auto producer = backend_->createStream("producer");
    auto consumer = backend_->createStream("consumer");
    auto ready = backend_->createEvent();
    for (int round = 0; round < 20; ++round) {
      std::atomic<int> value{0};
      int observed = -1;
      producer->enqueueHost([&value, round] {
        std::this_thread::sleep_for(std::chrono::milliseconds(round % 3));
        value = round + 1;
      });
      producer->record(*ready);
      consumer->wait(*ready);
      consumer->enqueueHost([&value, &observed] { observed = value; });
      consumer->synchronize();
      QCOMPARE(observed, round + 1);
    }
  }

  void eventQueryAndElapsed() {
    auto stream = backend_->createStream("timing");
    auto start = backend_->createEvent();
    auto stop = backend_->createEvent();
    QVERIFY(start->query());  // never recorded: complete, as in CUDA
    std::atomic<bool> release{false};
    stream->record(*start);
    stream->enqueueHost([&release] {
      while (!release)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
    });
    stream->record(*stop);
    QVERIFY(!stop->query());  // held back by the task above
    release = true;
    stop->synchronize();
    QVERIFY(stop->query());
    const double ms = stop->elapsedMsSince(*start);
    QVERIFY2(ms >= 29.0 && ms < 2000.0,
             qPrintable(QString("elapsed %1 ms, expected >= 30").arg(ms)));
  }

  void copyAsyncBetweenSpaces() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
    HostBuffer<float> source(*backend_, 100000);
    for (float& v : source.host())
      v = dist(rng);
    PinnedBuffer<float> pinned(*backend_, source.size());
    DeviceBuffer<float> device(*backend_, source.size());
    HostBuffer<float> back(*backend_, source.size());
    auto stream = backend_->createStream("copy");
    stream->copyAsync(pinned.data(), source.data(), source.bytes());
    stream->copyAsync(device.data(), pinned.data(), pinned.bytes());
    stream->copyAsync(back.data(), device.data(), device.bytes());
    stream->synchronize();
    QVERIFY(std::equal(source.host().begin(), source.host().end(), back.host().begin()));
  }

  void destroyingAStreamFinishesItsWork() {
    std::atomic<int> ran{0};
    {
      auto stream = backend_->createStream("drain");
      for (int i = 0; i < 100; ++i) {
        stream->enqueueHost([&ran] {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          ++ran;
        });
      }
    }
    QCOMPARE(ran.load(), 100);
  }

  void taskErrorIsReportedAndStreamContinues() {
    auto stream = backend_->createStream("errors");
    int after = 0;
    stream->enqueueHost([] { throw std::runtime_error("bad stage input"); });
    stream->enqueueHost([&after] { after = 1; });
    stream->synchronize();
    QCOMPARE(after, 1);
    const std::string error = stream->takeError();
    QVERIFY2(error.find("bad stage input") != std::string::npos, error.c_str());
    QVERIFY(stream->takeError().empty());
  }

  void parallelForCoversEveryIndexOnce() {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 50; ++trial) {
      const std::size_t count = std::uniform_int_distribution<std::size_t>(0, 5000)(rng);
      const std::size_t grain = std::uniform_int_distribution<std::size_t>(0, 300)(rng);
      std::vector<std::atomic<int>> hits(count);
      std::atomic<std::size_t> longestChunk{0};
      auto body = [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i)
          ++hits[i];
        std::size_t seen = longestChunk.load();
        while (e - b > seen && !longestChunk.compare_exchange_weak(seen, e - b)) {
        }
      };
      cpu::parallelFor(count, grain, body);
      for (std::size_t i = 0; i < count; ++i) {
        QCOMPARE(hits[i].load(), 1);
      }
      // Stages size stack scratch by their grain: no chunk may be longer, whatever the pool's
      // size (CTest runs this test with CINEFLOW_THREADS=1 too).
      if (grain > 0) {
        QVERIFY2(longestChunk.load() <= grain,
                 qPrintable(QStringLiteral("chunk of %1 for grain %2 on %3 threads")
                                .arg(longestChunk.load())
                                .arg(grain)
                                .arg(cpu::parallelism())));
      }
    }
  }

  void parallelForFromManyThreadsAndErrors() {
    std::vector<std::thread> threads;
    std::atomic<long> total{0};
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&total] {
        for (int k = 0; k < 50; ++k) {
          std::atomic<long> sum{0};
          auto body = [&](std::size_t b, std::size_t e) {
            long local = 0;
            for (std::size_t i = b; i < e; ++i)
              local += static_cast<long>(i);
            sum += local;
          };
          cpu::parallelFor(1000, 10, body);
          total += sum;
        }
      });
    }
    for (auto& t : threads)
      t.join();
    QCOMPARE(total.load(), 4L * 50L * 999L * 1000L / 2L);
    auto failing = [](std::size_t b, std::size_t) {
      if (b == 500)
        throw std::runtime_error("chunk failed");
    };
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, cpu::parallelFor(1000, 100, failing));
  }

  void buffersOwnTheirMemory() {
    DeviceBuffer<int> a(*backend_, 64);
    int* raw = a.data();
    DeviceBuffer<int> b(std::move(a));
    QCOMPARE(b.data(), raw);
    QVERIFY(a.data() == nullptr && a.empty());
    a = std::move(b);
    QCOMPARE(a.data(), raw);
    try {
      DeviceBuffer<double> huge(*backend_, std::size_t(1) << 60);
      QFAIL("allocating 8 EiB should fail");
    } catch (const std::runtime_error& e) {
      QVERIFY2(std::string(e.what()).find("bytes") != std::string::npos, e.what());
    }
  }

  void backendSelection() {
    std::string message;
    auto automatic = createBackend(BackendRequest::Auto, &message);
    QVERIFY(automatic != nullptr);
    if (automatic->kind() == BackendKind::Cpu) {
      QVERIFY2(!message.empty(), "falling back to the CPU must say why");
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseBackendRequest("gpu"));
    QVERIFY(parseBackendRequest("cuda") == BackendRequest::Cuda);
    QVERIFY(backend_->memoryInfo().totalBytes > 0);
  }
};

QTEST_APPLESS_MAIN(TestComputeCpu)
#include "test_compute_cpu.moc"
