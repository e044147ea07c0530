// The per-pixel Doppler arithmetic (ultrasound/doppler_math.hpp) against values known in closed
// form: a pure Doppler tone of phase step phi per pulse reads v = v_Nyquist phi / pi with zero
// variance and its own power; the regression clutter filter removes a polynomial of its order
// exactly (to float rounding) and keeps a tone far from zero frequency; the basis is orthonormal.
// Seeded random amplitudes, phases and clutter.
#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "support/test_random.hpp"
#include "ultrasound/doppler_math.hpp"

using namespace cineflow;

namespace {

std::vector<float2> tone(int n, double amplitude, double phiPerPulse, double phase0) {
  std::vector<float2> x(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const std::complex<double> v = std::polar(amplitude, phase0 + phiPerPulse * k);
    x[static_cast<std::size_t>(k)] =
        make_float2(static_cast<float>(v.real()), static_cast<float>(v.imag()));
  }
  return x;
}

double energy(const std::vector<float2>& x) {
  double e = 0;
  for (const float2& v : x) {
    e += static_cast<double>(v.x) * v.x + static_cast<double>(v.y) * v.y;
  }
  return e;
}

}  // namespace

class TestDopplerMath : public QObject {
  Q_OBJECT

 private slots:
  void aToneReadsItsVelocity() {
    test::SeededRandom random(20);
    constexpr float kNyquist = 0.74f;  // the disk recording's: 1480 * 10e3 / (4 * 5e6)
    for (int trial = 0; trial < 50; ++trial) {
      const int n = static_cast<int>(random.integer(4, 64));
      const double phi = random.uniform(-3.0, 3.0);  // inside (-pi, pi)
      const double amplitude = random.uniform(0.1, 100.0);
      const auto x = tone(n, amplitude, phi, random.uniform(-3.14, 3.14));
      const ultrasound::DopplerEstimate e =
          ultrasound::estimateDoppler(ultrasound::autocorrelate(x.data(), n), kNyquist);
      const double expected = kNyquist * phi / std::numbers::pi;
      QVERIFY2(std::abs(e.velocity - expected) < 1e-4 * kNyquist,
               qPrintable(QString("n %1 phi %2: %3 m/s, expected %4")
                              .arg(n)
                              .arg(phi)
                              .arg(e.velocity)
                              .arg(expected)));
      QVERIFY(std::abs(e.variance) < 1e-4 * kNyquist * kNyquist);  // one frequency: no spread
      QVERIFY(std::abs(e.powerDb - 20 * std::log10(amplitude)) < 1e-3);
    }
    // Phase steps beyond pi alias: +1.2 pi reads as -0.8 pi.
    const auto aliased = tone(16, 1.0, 1.2 * std::numbers::pi, 0.0);
    const auto e = ultrasound::estimateDoppler(ultrasound::autocorrelate(aliased.data(), 16), 1.0f);
    QVERIFY(std::abs(e.velocity + 0.8f) < 1e-4f);
    QCOMPARE(ultrasound::nyquistVelocity(1480.0, 10e3, 5e6), 0.74);
  }

  void theBasisIsOrthonormal() {
    for (const int order : {0, 1, 2, 3}) {
      const int n = 12;
      const std::vector<float> b = ultrasound::regressionBasis(n, order);
      QCOMPARE(b.size(), static_cast<std::size_t>((order + 1) * n));
      for (int p = 0; p <= order; ++p) {
        for (int q = 0; q <= order; ++q) {
          double dot = 0;
          for (int k = 0; k < n; ++k) {
            dot += static_cast<double>(b[p * n + k]) * b[q * n + k];
          }
          QVERIFY(std::abs(dot - (p == q ? 1.0 : 0.0)) < 1e-6);
        }
      }
    }
    QVERIFY(ultrasound::regressionBasis(8, -1).empty());  // no filter
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::regressionBasis(8, 4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::regressionBasis(3, 2));
  }

  void regressionRemovesClutterAndKeepsFlow() {
    test::SeededRandom random(21);
    for (const int order : {0, 1, 2, 3}) {
      const int n = 32;
      const std::vector<float> basis = ultrasound::regressionBasis(n, order);
      // Clutter: a complex polynomial of the filter's order in the slow time, strong.
      std::vector<float2> clutter(n), flow = tone(n, 1.0, 1.5, 0.3), mixed(n), out(n);
      double c[4][2];
      for (auto& coefficient : c) {
        coefficient[0] = random.uniform(-50, 50);
        coefficient[1] = random.uniform(-50, 50);
      }
      for (int k = 0; k < n; ++k) {
        const double t = 2.0 * k / (n - 1) - 1.0;
        double re = 0, im = 0;
        for (int p = 0; p <= order; ++p) {
          re += c[p][0] * std::pow(t, p);
          im += c[p][1] * std::pow(t, p);
        }
        clutter[k] = make_float2(static_cast<float>(re), static_cast<float>(im));
        mixed[k] = make_float2(clutter[k].x + flow[k].x, clutter[k].y + flow[k].y);
      }
      // The clutter alone: removed to float rounding.
      ultrasound::regressionFilter(clutter.data(), 1, n, basis.data(), order + 1, out.data());
      QVERIFY2(energy(out) < 1e-9 * energy(clutter), qPrintable(QString::number(order)));
      // Clutter and a tone at 1.5 rad per pulse: the tone's velocity comes back.
      ultrasound::regressionFilter(mixed.data(), 1, n, basis.data(), order + 1, out.data());
      const auto e = ultrasound::estimateDoppler(ultrasound::autocorrelate(out.data(), n), 1.0f);
      QVERIFY2(std::abs(e.velocity - 1.5f / std::numbers::pi_v<float>) < 0.02f,
               qPrintable(QString("order %1: %2").arg(order).arg(e.velocity)));
    }
  }

  void stridedInputIsReadInPlace() {
    // The ensemble of one pixel in [frames][pixels] memory: every `pixels`-th value.
    constexpr int kPixels = 5, kN = 10;
    const auto flow = tone(kN, 2.0, -0.7, 0.0);
    std::vector<float2> frames(kPixels * kN, make_float2(0, 0));
    for (int k = 0; k < kN; ++k) {
      frames[k * kPixels + 3] = flow[k];
    }
    std::vector<float2> out(kN);
    ultrasound::regressionFilter(frames.data() + 3, kPixels, kN, nullptr, 0, out.data());
    for (int k = 0; k < kN; ++k) {
      QCOMPARE(out[k].x, flow[k].x);
      QCOMPARE(out[k].y, flow[k].y);
    }
  }
};

QTEST_APPLESS_MAIN(TestDopplerMath)
#include "test_doppler_math.moc"
