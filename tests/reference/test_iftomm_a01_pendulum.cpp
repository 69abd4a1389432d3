// IFToMM multibody benchmark A01, the simple pendulum (../shared/reference/README.md,
// section 1): a 1 kg point mass on a massless 1 m link pinned at the origin, gravity
// 9.81 m/s^2 along -y, released at rest from x = +1 m; 2000 s, 4000 output steps; the
// mass's (x, y) must stay within 1e-3 m of the reference at every output time (the
// library's high-precision level). The reference here is the exact solution in Jacobi
// elliptic functions (Boost.Math), as the problem statement suggests.
//
// Two models, every applicable formulation:
//  - tree: the bob is a body on a revolute joint at the origin with its centre of mass at
//    1 m. A body needs a positive-definite inertia, so the bob has a central inertia of
//    1e-9 kg m^2 (a sphere of 1 kg and 0.05 mm radius); the exact solution below is the
//    compound pendulum's, with that inertia included, so nothing is approximated. Runs
//    with aba, crba and reference (no constraint there: H vdot = tau - C).
//  - loop: the bob moves freely in the plane (planar joint) and a distance constraint of
//    1 m to the origin is the link; its spin is torque-free and decouples, so the exact
//    solution is the point mass's. Runs with the reference formulation (multipliers and
//    projection); 200 s of the 2000 at tolerance 1e-10, to keep the suite fast (the
//    full 2000 s at 1e-12 takes 12 s and gives the same 3.5e-6 m; docs/validation.md).
// The tree runs the full 2000 s with rk45 at 1e-12; at 1e-10 the phase error grows to
// 3.5e-4 m by 2000 s, inside the tolerance but with little margin.
#include <gtest/gtest.h>

#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "articula/model/builder.hpp"
#include "articula/simulate/simulation.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

constexpr double kG = 9.81, kLength = 1.0, kMass = 1.0, kBobInertia = 1e-9;
constexpr double kHighPrecision = 1e-3;  // IFToMM A01 acceptance, m
constexpr int kOutputSteps = 4000;

// Pendulum released at rest from the horizontal, angle phi from the downward vertical:
// sin(phi/2) = k sn(K(k) - w t, k), k = sin(phi0/2), w^2 = m g L / I_pivot.
class ExactPendulum {
 public:
  explicit ExactPendulum(double pivotInertia)
      : w_(std::sqrt(kMass * kG * kLength / pivotInertia)), k_(std::sin(std::numbers::pi / 4)),
        K_(boost::math::ellint_1(k_)) {}
  Vec3 bob(double t) const {
    double u = std::fmod(K_ - w_ * t, 4.0 * K_);  // sn has period 4K: reduce before evaluating
    const double phi = 2.0 * std::asin(k_ * boost::math::jacobi_sn(k_, u));
    return {kLength * std::sin(phi), -kLength * std::cos(phi), 0.0};
  }

 private:
  double w_, k_, K_;
};

BodySpec bob(const Vec3& com) {
  BodySpec b;
  b.name = "bob";
  b.mass = kMass;
  b.com = com;
  b.inertia = kBobInertia * Mat3::Identity();
  return b;
}

Model treePendulum() {
  ModelBuilder builder;
  builder.gravity = Vec3(0, -kG, 0);
  builder.addBody(bob(Vec3(kLength, 0, 0)));
  JointSpec pin;
  pin.name = "pin";
  pin.parent = "ground";
  pin.child = "bob";
  builder.addJoint(pin);
  return builder.build();
}

Model loopPendulum() {
  ModelBuilder builder;
  builder.gravity = Vec3(0, -kG, 0);
  builder.addBody(bob(Vec3::Zero()));
  JointSpec free;
  free.name = "plane";
  free.type = JointType::Planar;
  free.parent = "ground";
  free.child = "bob";
  free.q0 = {kLength, 0.0, 0.0};
  builder.addJoint(free);
  LoopSpec link;
  link.name = "link";
  link.type = LoopConstraint::Type::Distance;
  link.bodyA = "ground";
  link.bodyB = "bob";
  link.distance = kLength;
  builder.addLoop(link);
  return builder.build();
}

// Largest distance between the bob and the exact solution over the output samples.
struct BobError final : SampleSink {
  BobError(const ExactPendulum& exact, Vec3 comInBody) : exact_(exact), com_(std::move(comInBody)) {}
  void write(const Sample& s) override {
    const Vec3 p = s.ws.X0[1].inverseTransformPoint(com_);
    worst = std::max(worst, (p - exact_.bob(s.t)).norm());
    ++samples;
  }
  double worst = 0.0;
  int samples = 0;

 private:
  const ExactPendulum& exact_;
  Vec3 com_;
};

SimulationOptions a01Options(const char* formulation, double tEnd, double tolerance) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = "rk45";
  o.integratorOptions.rtol = tolerance;
  o.integratorOptions.atol = tolerance;
  o.integratorOptions.dt = 0.0;
  o.tEnd = tEnd;
  o.outputInterval = 2000.0 / kOutputSteps;
  return o;
}

}  // namespace

TEST(IftommA01, TreePendulumEveryFormulationWithinHighPrecision) {
  const ExactPendulum exact(kMass * kLength * kLength + kBobInertia);
  for (const char* formulation : {"aba", "crba", "reference"}) {
    BobError error(exact, Vec3(kLength, 0, 0));
    const SimulationResult r = simulate(treePendulum(), a01Options(formulation, 2000.0, 1e-12), {&error});
    ASSERT_TRUE(r.ok) << formulation << ": " << r.error;
    EXPECT_EQ(error.samples, kOutputSteps + 1);
    EXPECT_LT(error.worst, kHighPrecision) << formulation;
    RecordProperty(std::string("max_error_m_") + formulation, std::to_string(error.worst));
    RecordProperty(std::string("cpu_s_") + formulation, std::to_string(r.wallSeconds));
    std::printf("A01 tree, %s: max |bob - exact| = %.3g m over 2000 s, %.3f s wall, %ld steps\n", formulation,
                error.worst, r.wallSeconds, r.steps);
  }
}

TEST(IftommA01, LoopPendulumReferenceFormulationWithinHighPrecision) {
  const ExactPendulum exact(kMass * kLength * kLength);  // the spin of the bob decouples
  BobError error(exact, Vec3::Zero());
  const SimulationResult r = simulate(loopPendulum(), a01Options("reference", 200.0, 1e-10), {&error});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(error.samples, kOutputSteps / 10 + 1);
  EXPECT_LT(error.worst, kHighPrecision);
  EXPECT_LT(r.maxPositionError, 1e-10);
  std::printf("A01 loop, reference: max |bob - exact| = %.3g m over 200 s, %.3f s wall, %ld steps\n", error.worst,
              r.wallSeconds, r.steps);
}

}  // namespace ARTICULA_TEST_FILE
