// The driver inputs among the functions of time (model/time_function.hpp): the slalom and the
// sine with dwell, against their definitions; their derivatives against central differences; their
// smoothness where their pieces meet.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "articula/core/error.hpp"
#include "articula/model/time_function.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {
constexpr double kPi = std::numbers::pi;

// f' and f'' against central differences of f and f' with h = 1e-5 s. For these amplitudes (at
// most 0.1) and frequencies (0.5-0.7 Hz) the third and fourth derivatives stay below 10, so the
// truncation h^2 |f'''| / 6 is below 2e-10 and the rounding eps |f| / h below 1e-11: 1e-8 bounds
// both with room.
void expectDerivativesMatchDifferences(const TimeFunction& f, double t) {
  const double h = 1e-5;
  EXPECT_NEAR(f.derivative(t), (f.value(t + h) - f.value(t - h)) / (2.0 * h), 1e-8) << "t = " << t;
  EXPECT_NEAR(f.secondDerivative(t), (f.derivative(t + h) - f.derivative(t - h)) / (2.0 * h), 1e-8) << "t = " << t;
}

// The jumps of f, f' and f'' across t, from one-sided values 1e-9 s either side. Over those 2e-9 s
// a continuous f moves by at most max |f'| 2e-9 (below 1e-9 here, |f'| < 0.5), a continuous f' or
// f'' by at most max |f''| or max |f'''| times 2e-9 (below 2e-8, both below 10); a real jump of
// f' or f'' is of order A omega or A omega^2, 0.03-2.
struct Jumps {
  double f, df, ddf;
};
Jumps jumpsAt(const TimeFunction& f, double t) {
  const double a = t - 1e-9, b = t + 1e-9;
  return {std::abs(f.value(b) - f.value(a)), std::abs(f.derivative(b) - f.derivative(a)),
          std::abs(f.secondDerivative(b) - f.secondDerivative(a))};
}
}  // namespace

// 3 cycles at 0.5 Hz from t = 1 s: zero outside [1, 7] s, the plain sine between the fades (the
// first half period and the last), and twice continuously differentiable everywhere, the seams
// included, so that it can drive a rheonomic joint (a steering rack) without impulses.
TEST(DriverInputs, SlalomIsASineFadedInAndOutTwiceContinuously) {
  const double A = 0.01, frequency = 0.5, start = 1.0, period = 2.0, end = start + 3 * period;
  const TimeFunction f = TimeFunction::slalom(A, frequency, start, 3);
  for (double t : {0.0, start, end, end + 1.0}) {
    EXPECT_EQ(f.value(t), 0.0) << t;
    EXPECT_EQ(f.derivative(t), 0.0) << t;
    EXPECT_EQ(f.secondDerivative(t), 0.0) << t;
  }
  for (double t = start + period / 2; t <= end - period / 2; t += 0.01)
    EXPECT_NEAR(f.value(t), A * std::sin(2 * kPi * frequency * (t - start)), 1e-15) << t;
  for (double t = start + 0.003; t < end + 0.5; t += 0.01) expectDerivativesMatchDifferences(f, t);
  for (double seam : {start, start + period / 2, end - period / 2, end}) {
    const Jumps j = jumpsAt(f, seam);
    EXPECT_LT(j.f, 1e-9) << seam;
    EXPECT_LT(j.df, 2e-8) << seam;
    EXPECT_LT(j.ddf, 2e-8) << seam;
  }
  // One cycle: the fade in meets the fade out in the middle, where the sine passes zero.
  const TimeFunction one = TimeFunction::slalom(A, frequency, 0.0, 1);
  EXPECT_LT(jumpsAt(one, 1.0).ddf, 2e-8);
  EXPECT_GT(one.value(0.5), 0.0);
  EXPECT_LT(one.value(1.5), 0.0);
  EXPECT_EQ(one.value(2.0), 0.0);
}

// FMVSS 126's manoeuvre at 0.7 Hz with a 0.5 s dwell: +A at a quarter period, -A from three
// quarters of a period for the dwell, back to zero a period plus the dwell after the start.
// Continuous; as the test defines it, the slope steps by A omega at the start and the end, and
// the second derivative by A omega^2 where the dwell begins and ends.
TEST(DriverInputs, SineWithDwellHoldsTheSecondPeak) {
  const double A = 0.1, frequency = 0.7, start = 0.5, dwell = 0.5, period = 1.0 / frequency;
  const double omega = 2 * kPi * frequency;
  const TimeFunction f = TimeFunction::sineWithDwell(A, frequency, start, dwell);
  EXPECT_NEAR(f.value(start + period / 4), A, 1e-15);
  const double dwellStart = start + 0.75 * period, dwellEnd = dwellStart + dwell, end = start + period + dwell;
  for (double t = dwellStart; t <= dwellEnd; t += 0.05) EXPECT_NEAR(f.value(t), -A, 1e-15) << t;
  for (double t : {start - 0.1, start, end, end + 1.0}) EXPECT_EQ(f.value(t), 0.0) << t;
  EXPECT_NEAR(f.value(end - period / 8), A * std::sin(omega * (period - period / 8)), 1e-15);
  for (double t = start + 0.003; t < end + 0.5; t += 0.01) {
    if (std::abs(t - dwellStart) < 1e-4 || std::abs(t - dwellEnd) < 1e-4) continue;  // the kinks of f''
    expectDerivativesMatchDifferences(f, t);
  }
  for (double seam : {dwellStart, dwellEnd}) {
    const Jumps j = jumpsAt(f, seam);
    EXPECT_LT(j.f, 1e-9) << seam;
    EXPECT_LT(j.df, 2e-8) << seam;
    EXPECT_NEAR(j.ddf, A * omega * omega, 2e-8) << seam;
  }
  // The start and the end: continuous, the slope stepping by A omega, as the test defines it.
  for (double seam : {start, end}) {
    EXPECT_LT(jumpsAt(f, seam).f, 1e-9) << seam;
    EXPECT_NEAR(jumpsAt(f, seam).df, A * omega, 2e-8) << seam;
  }
}

TEST(DriverInputs, BadParametersAreRefused) {
  EXPECT_THROW(TimeFunction::slalom(1.0, 0.0, 0.0, 2.0), Error);
  EXPECT_THROW(TimeFunction::slalom(1.0, 0.5, 0.0, 0.5), Error);
  EXPECT_THROW(TimeFunction::slalom(1.0, 0.5, 0.0, std::nan("")), Error);
  EXPECT_THROW(TimeFunction::sineWithDwell(1.0, -0.7, 0.0, 0.5), Error);
  EXPECT_THROW(TimeFunction::sineWithDwell(1.0, 0.7, 0.0, -0.1), Error);
}

}  // namespace ARTICULA_TEST_FILE
