// ui/common/background_job.hpp: the GUI's one way to run work off its thread. The work runs on a
// thread of the given name, reports progress and its result on the GUI thread in order, one run
// at a time; cancel() reaches the work; an exception becomes a failure with its message; and a job
// destroyed while its work runs stops it and waits, so nothing outlives the owner.

#include <QtTest>

#include <pthread.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/background_job.hpp"

using cineflow::ui::BackgroundJob;

namespace {

std::string currentThreadName() {
  char name[32] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  return name;
}

}  // namespace

class TestBackgroundJob : public QObject {
  Q_OBJECT

 private slots:
  void runsOnANamedThreadAndReportsInOrder() {
    BackgroundJob job("cf-test-job");
    std::vector<int> progress;
    QStringList finished;
    connect(&job, &BackgroundJob::progressed, this, [&](int done, int total) {
      QCOMPARE(QThread::currentThread(), thread());  // the GUI thread
      QCOMPARE(total, 5);
      progress.push_back(done);
    });
    connect(&job, &BackgroundJob::finished, this, [&](bool ok, const QString& message) {
      QVERIFY(!job.running());  // the thread was joined before
      finished << QStringLiteral("%1 %2").arg(ok).arg(message);
    });
    std::string name;
    std::thread::id worker;
    QVERIFY(job.start([&](BackgroundJob& self) {
      name = currentThreadName();
      worker = std::this_thread::get_id();
      for (int i = 0; i < 5; ++i) {
        self.progress(i, 5);
      }
      return BackgroundJob::Result{true, QStringLiteral("done")};
    }));
    QVERIFY(job.running());
    QVERIFY(!job.start([](BackgroundJob&) { return BackgroundJob::Result{}; }));  // one at a time
    QTRY_COMPARE(finished, QStringList{QStringLiteral("1 done")});
    QCOMPARE(name, std::string("cf-test-job"));
    QVERIFY(worker != std::this_thread::get_id());
    QCOMPARE(progress, (std::vector<int>{0, 1, 2, 3, 4}));  // all before finished, in order
    // Another run once the first has finished.
    QVERIFY(job.start([](BackgroundJob&) { return BackgroundJob::Result{false, "second"}; }));
    QTRY_COMPARE(finished.size(), 2);
    QCOMPARE(finished.last(), QStringLiteral("0 second"));
  }

  void cancelReachesTheWorkAndAnExceptionIsAFailure() {
    BackgroundJob job("cf-test-job");
    QSignalSpy finished(&job, &BackgroundJob::finished);
    std::atomic<bool> started{false};
    QVERIFY(job.start([&](BackgroundJob& self) {
      started = true;
      while (!self.cancelled()) {
        std::this_thread::yield();
      }
      return BackgroundJob::Result{false, QStringLiteral("cancelled")};
    }));
    QTRY_VERIFY(started.load());
    job.cancel();
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QCOMPARE(finished.at(0).at(1).toString(), QStringLiteral("cancelled"));

    std::atomic<bool> cancelledAtStart{true};
    QVERIFY(job.start([&](BackgroundJob& self) -> BackgroundJob::Result {
      cancelledAtStart = self.cancelled();
      throw std::runtime_error("the disk is full");
    }));
    QTRY_COMPARE(finished.size(), 2);
    QVERIFY(!cancelledAtStart.load());  // a new run starts uncancelled
    QCOMPARE(finished.at(1).at(0).toBool(), false);
    QCOMPARE(finished.at(1).at(1).toString(), QStringLiteral("the disk is full"));
  }

  void destroyingTheJobStopsAndWaitsForTheWork() {
    std::atomic<bool> started{false}, returned{false};
    {
      BackgroundJob job("cf-test-job");
      QVERIFY(job.start([&](BackgroundJob& self) {
        started = true;
        while (!self.cancelled()) {
          std::this_thread::yield();
        }
        self.progress(1, 1);  // posted to a job about to go: dropped, not delivered to freed memory
        returned = true;
        return BackgroundJob::Result{};
      }));
      QTRY_VERIFY(started.load());
    }
    QVERIFY(returned.load());  // the destructor waited
    QTest::qWait(20);          // the dropped events do not run
  }

  void cancelAndWaitReturnsWithTheWorkDoneAndFinishedStillFollows() {
    BackgroundJob job("cf-test-job");
    QSignalSpy finished(&job, &BackgroundJob::finished);
    std::atomic<bool> returned{false};
    QVERIFY(job.start([&](BackgroundJob& self) {
      while (!self.cancelled()) {
        std::this_thread::yield();
      }
      returned = true;
      return BackgroundJob::Result{false, QStringLiteral("stopped")};
    }));
    job.cancelAndWait();
    QVERIFY(returned.load());
    QVERIFY(job.running());  // until finished() has been emitted
    QVERIFY(!job.start([](BackgroundJob&) { return BackgroundJob::Result{}; }));
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(!job.running());
  }
};

QTEST_MAIN(TestBackgroundJob)
#include "test_background_job.moc"
