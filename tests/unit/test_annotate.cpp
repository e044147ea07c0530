// NVTX ranges pair up (compute/annotate.hpp): every range a ScopedRange pushes is popped when
// its scope ends, also when an exception leaves the scope, on the thread that pushed it. Counted
// by ScopedRange itself, so this runs in every build, with or without NVTX. And a stream task
// that throws something other than a std::exception becomes the stream's error instead of
// ending the program.
#include <QtTest>

#include <stdexcept>
#include <thread>

#include "compute/annotate.hpp"
#include "compute/backend.hpp"

using cineflow::compute::ScopedRange;

namespace {

struct NotAStdException {};

void throwInsideRanges(int depth) {
  const ScopedRange range("nested");
  if (depth == 0) {
    throw std::runtime_error("a failed check inside a stage");
  }
  throwInsideRanges(depth - 1);
}

}  // namespace

class TestAnnotate : public QObject {
  Q_OBJECT

 private slots:
  void rangesNestAndCloseWithTheirScopes() {
    QCOMPARE(ScopedRange::openOnThisThread(), 0);
    {
      const ScopedRange outer("outer");
      QCOMPARE(ScopedRange::openOnThisThread(), 1);
      {
        const ScopedRange inner("inner");
        QCOMPARE(ScopedRange::openOnThisThread(), 2);
      }
      QCOMPARE(ScopedRange::openOnThisThread(), 1);
    }
    QCOMPARE(ScopedRange::openOnThisThread(), 0);
  }

  void anExceptionClosesEveryRangeItLeaves() {
    const ScopedRange frame("frame");
    try {
      throwInsideRanges(4);  // five ranges open when it throws
      QFAIL("the stage should have thrown");
    } catch (const std::runtime_error&) {
      QCOMPARE(ScopedRange::openOnThisThread(), 1);  // only this scope's own range is left
    }
    try {
      const ScopedRange range("stage");
      throw NotAStdException{};
    } catch (const NotAStdException&) {
      QCOMPARE(ScopedRange::openOnThisThread(), 1);
    }
  }

  void eachThreadCountsItsOwnRanges() {
    const ScopedRange here("here");
    int seenThere = -1;
    int leftThere = -1;
    std::thread other([&] {
      {
        const ScopedRange there("there");
        seenThere = ScopedRange::openOnThisThread();
      }
      leftThere = ScopedRange::openOnThisThread();
    });
    other.join();
    QCOMPARE(seenThere, 1);
    QCOMPARE(leftThere, 0);
    QCOMPARE(ScopedRange::openOnThisThread(), 1);
  }

  void aStreamTaskThrowingAnythingBecomesTheStreamsError() {
    auto backend = cineflow::compute::createBackend(cineflow::compute::BackendRequest::Cpu);
    auto stream = backend->createStream("throwing");
    bool ranAfter = false;
    stream->enqueueHost([] { throw NotAStdException{}; });
    stream->enqueueHost([&ranAfter] { ranAfter = true; });
    stream->synchronize();
    const std::string error = stream->takeError();
    QVERIFY2(error.find("stream throwing") != std::string::npos, error.c_str());
    QVERIFY2(error.find("not a std::exception") != std::string::npos, error.c_str());
    QVERIFY(ranAfter);  // the stream goes on, as after any other error
    QVERIFY(stream->takeError().empty());
  }
};

QTEST_APPLESS_MAIN(TestAnnotate)
#include "test_annotate.moc"
