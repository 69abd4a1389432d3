// IFToMM multibody benchmark A02, the N four-bar mechanism (../shared/reference/README.md,
// section 1): N = 40 four-bars in a row, 2N + 1 unit rods of 1 kg, 20 s with 400 output steps;
// B0 (the tip of crank 0) must stay within 1e-3 m of the reference at every output time (the
// library's high-precision level; 1e-1 m is its low precision). Every time the cranks pass the
// horizontal the constraint Jacobian loses N ranks (1 degree of freedom becomes N + 1), and the
// solution must stay on the motion where all cranks remain parallel.
//
// The model is `articula generate n-four-bar --n 40` (src/model/generators.cpp). The reference is
// exact: on the parallel branch the mechanism has one coordinate, the crank angle phi, with
// [(N + 1)/3 + N] phi'' = -g [(N + 1)/2 + N] cos phi (derived and integrated in
// n_four_bar_exact.hpp; the first test checks the derivation against the model's own energies and
// the integration against a looser one).
//
// Formulations: the index-3 augmented Lagrangians (hybrid in joint coordinates, global in natural
// coordinates) with the trapezoidal rule at a fixed step; their penalty keeps the tangent matrix
// M + beta h^2 Phi_q^T alpha Phi_q positive definite through the flat positions
// (seed 001 eq. (26)), and the step's penalty is raised while the multipliers converge slowly there
// (src/dynamics/augmented_lagrangian.hpp, StepPenalty). The runs go on through the singular
// configurations (--through-singularities): the singularity monitor counts each passage, which
// is checked against the exact motion. The 20 s runs are labelled heavy; the first 2 s run in the
// normal suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/simulation.hpp"
#include "n_four_bar_exact.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr int kFourBars = 40;
constexpr double kEndTime = 20.0;
constexpr int kOutputSteps = 400;
constexpr int kShortOutputs = 40;  // the first 2 s
constexpr double kHighPrecision = 1e-3;  // IFToMM acceptance, m
constexpr double kPhi0 = std::numbers::pi / 2, kRate0 = -1.0;

const Model& mechanism() {
  static const Model model = makeNFourBar(kFourBars);
  return model;
}

const a02::CrankMotion& exact() {
  static const a02::CrankMotion m = a02::exactCrankMotion(kFourBars, kPhi0, kRate0, kEndTime, kOutputSteps, 1e-12);
  return m;
}

// Flat positions the exact motion passes up to output `last` (sin phi changes sign between two
// output times).
int flatPassages(const a02::CrankMotion& m, std::size_t last) {
  int count = 0;
  for (std::size_t k = 1; k <= last; ++k)
    if ((std::sin(m.phi[k]) > 0.0) != (std::sin(m.phi[k - 1]) > 0.0)) ++count;
  return count;
}

// Largest distance of B0 from the exact solution over the output samples, and the largest
// angle between crank 0 and any other crank (0 on the parallel branch).
struct B0Error final : SampleSink {
  B0Error() {
    const Model& m = mechanism();
    const Marker& b0 = m.markers[static_cast<std::size_t>(*m.findMarker("B0"))];
    body = b0.body;
    point = b0.position;
    for (int i = 0; i <= kFourBars; ++i) {
      std::string joint = "A";  // appended: GCC 12 warns falsely about "A" + std::to_string(i)
      joint += std::to_string(i);
      cranks.push_back(m.joints[*m.findJoint(joint)].iq);
    }
  }
  void write(const Sample& s) override {
    const std::size_t k = static_cast<std::size_t>(samples++);
    ASSERT_LT(k, exact().t.size());
    ASSERT_NEAR(s.t, exact().t[k], 1e-9);
    const Vec3 p = s.ws.X0[body].inverseTransformPoint(point);
    const double phi = exact().phi[k];
    worst = std::max(worst, std::hypot(p.x() - std::cos(phi), p.y() - std::sin(phi)));
    for (int c : cranks)
      worstSpread = std::max(worstSpread, std::abs(std::remainder(s.q[c] - s.q[cranks[0]], 2.0 * std::numbers::pi)));
  }
  int body = 0;
  Vec3 point;
  std::vector<int> cranks;
  double worst = 0.0, worstSpread = 0.0;
  int samples = 0;
};

struct A02Run {
  B0Error error;
  SimulationResult result;
};

// The first `outputs` output steps of the benchmark (all 400: the whole 20 s).
void run(const std::string& formulation, const std::string& integrator, double step, int outputs, A02Run& r) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = integrator;
  o.integratorOptions.dt = step;
  o.outputInterval = kEndTime / kOutputSteps;
  o.tEnd = outputs * o.outputInterval;
  o.stopAtSingularities = false;  // --through-singularities: count the flat positions
  r.result = simulate(mechanism(), o, {&r.error});
  std::printf("A02 N = %d, %g s, %s + %s, dt %g: max |B0 - exact| = %.2e m, cranks parallel to %.1e rad, %.2f s wall, "
              "%ld steps (%ld rejected), %ld singular passages\n",
              kFourBars, o.tEnd, formulation.c_str(), integrator.c_str(), step, r.error.worst, r.error.worstSpread,
              r.result.wallSeconds, r.result.steps, r.result.rejectedSteps, r.result.singularConfigurations);
}

void expectHighPrecision(const A02Run& r, int outputs, const char* label) {
  ASSERT_TRUE(r.result.ok) << label << ": " << r.result.error;
  EXPECT_EQ(r.error.samples, outputs + 1) << label;
  EXPECT_LT(r.error.worst, kHighPrecision) << label;
  // The parallel branch, to the same tolerance (1e-3 rad is 1e-3 m at the tip of a unit crank): a
  // crank that turned the other way at a flat position would be off by far more.
  EXPECT_LT(r.error.worstSpread, kHighPrecision) << label;
  // Every flat position is passed and seen by the singularity monitor (N even: the sign of its
  // minor does not change there).
  EXPECT_EQ(r.result.singularConfigurations, flatPassages(exact(), static_cast<std::size_t>(outputs))) << label;
}

}  // namespace

// The reference: the energies of the generated model at any crank angle and speed are those of
// the one-coordinate derivation (so A and B are right), the integration at 1e-12 agrees with one
// at 1e-10 far below the tolerance, and the motion turns the crank through several flat positions.
TEST(IftommA02, ExactSolutionIsTheModelsMotionAndIsConverged) {
  for (const auto& [phi, rate] : {std::pair{kPhi0, kRate0}, std::pair{0.3, 2.5}, std::pair{-2.0, -6.0}}) {
    const Model m = makeNFourBar(kFourBars, phi, rate);
    Workspace ws(m);
    updateVelocities(m, ws, m.q0, m.v0);
    EXPECT_NEAR(kineticEnergy(m, ws), 0.5 * a02::inertiaCoefficient(kFourBars) * rate * rate, 1e-10);
    EXPECT_NEAR(potentialEnergy(m, ws, m.q0), a02::kG * a02::weightCoefficient(kFourBars) * std::sin(phi), 1e-10);
  }
  const a02::CrankMotion coarser = a02::exactCrankMotion(kFourBars, kPhi0, kRate0, kEndTime, kOutputSteps, 1e-10);
  ASSERT_EQ(exact().phi.size(), static_cast<std::size_t>(kOutputSteps + 1));
  double difference = 0.0;
  for (std::size_t k = 0; k < coarser.phi.size(); ++k)
    difference = std::max(difference, std::abs(coarser.phi[k] - exact().phi[k]));
  // 4.0e-7 rad measured: the 1e-12 run is closer still, and B0's tolerance is 1e-3 m.
  EXPECT_LT(difference, 1e-6);
  std::printf("A02 reference: 1e-10 against 1e-12 differ by %.1e rad at most; %d flat positions in 20 s, %d in the "
              "first %d outputs\n",
              difference, flatPassages(exact(), kOutputSteps), flatPassages(exact(), kShortOutputs), kShortOutputs);
  EXPECT_GE(flatPassages(exact(), kOutputSteps), 10);
  EXPECT_GE(flatPassages(exact(), kShortOutputs), 2);
}

// The whole benchmark, 20 s (20 000 steps of 81 coordinates): labelled heavy in
// tests/CMakeLists.txt (hybrid 19 to 65 s, global 88 to 218 s on the shared 2-core machine,
// 2026-11-25, depending on its load). The first 2 s below run in the normal suite.
TEST(IftommA02, HybridTrapezoidalWithinHighPrecision) {
  A02Run r;
  run("hybrid", "trapezoidal", 1e-3, kOutputSteps, r);
  expectHighPrecision(r, kOutputSteps, "hybrid + trapezoidal");
}

// HHT (deltaF = 0.05, its default) as well: 9.9e-6 m (global + HHT gives 7.3e-4 m but takes
// about six minutes on the shared machine, so it is not run here; docs/validation.md).
TEST(IftommA02, HybridHhtWithinHighPrecision) {
  A02Run r;
  run("hybrid", "hht", 1e-3, kOutputSteps, r);
  expectHighPrecision(r, kOutputSteps, "hybrid + hht");
}

TEST(IftommA02, GlobalTrapezoidalWithinHighPrecision) {
  A02Run r;
  run("global", "trapezoidal", 1e-3, kOutputSteps, r);
  expectHighPrecision(r, kOutputSteps, "global + trapezoidal");
}

// The first 2 s (40 outputs): the first two flat positions, where every formulation used to stop
// or leave the parallel branch, with the same checks.
TEST(IftommA02, FirstFlatPositionsHybridAndGlobalWithinHighPrecision) {
  for (const char* formulation : {"hybrid", "global"}) {
    A02Run r;
    run(formulation, "trapezoidal", 1e-3, kShortOutputs, r);
    expectHighPrecision(r, kShortOutputs, formulation);
  }
}

}  // namespace ARTICULA_TEST_FILE
