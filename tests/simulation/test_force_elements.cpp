// Force elements and constraint options in whole runs.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "four_bar_models.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {
SimulationOptions tight(double tEnd) {
  SimulationOptions o;
  o.integratorOptions.rtol = 1e-10;
  o.integratorOptions.atol = 1e-10;
  o.integratorOptions.dt = 0.0;
  o.tEnd = tEnd;
  return o;
}

BodySpec rod(const std::string& name) {
  BodySpec b;
  b.name = name;
  b.mass = 1.0;
  b.com = Vec3(0.5, 0, 0);
  b.inertia = boxInertia(1.0, Vec3(1.0, 0.02, 0.02));
  return b;
}
}  // namespace

// Springs store exactly the energy their forces do work against: with a joint spring
// (cart on a spring) or a point-to-point spring, total energy is conserved to the
// integration tolerance (same bound as the gravity-only systems).
TEST(ForceElements, SpringsConserveEnergy) {
  const Model cart = loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/cart_pendulum.yaml");
  ModelBuilder b;
  b.addBody(rod("rod"));
  JointSpec j;
  j.name = "ball";
  j.type = JointType::Spherical;
  j.parent = "ground";
  j.child = "rod";
  j.q0 = {0.9, 0.3, 0.2, 0.1};
  b.addJoint(j);
  b.addPointSpring({"elastic", "ground", "rod", Vec3(0.5, 0.5, 0.0), Vec3(1.0, 0, 0), 40.0, 0.0, 0.3, {}});
  const Model spherical = b.build();
  for (const Model* m : {&cart, &spherical}) {
    const SimulationResult r = simulate(*m, tight(5.0), {});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.conservative);
    EXPECT_LT(r.maxRelativeEnergyDrift, 1e-8) << m->name;
  }
}

// A constant world force m g at the centre of mass is gravity: both runs coincide to rounding.
TEST(ForceElements, ConstantForceAtComActsLikeGravity) {
  auto pendulum = [](bool gravityAsLoad) {
    ModelBuilder b;
    b.addBody(rod("rod"));
    JointSpec j;
    j.name = "pin";
    j.type = JointType::Universal;
    j.parent = "ground";
    j.child = "rod";
    j.q0 = {0.4, 0.3};
    b.addJoint(j);
    if (gravityAsLoad) {
      b.gravity = Vec3::Zero();
      b.addBodyLoad({"weight", "rod", false, true, Vec3(0.5, 0, 0), Vec3(0, -1, 0), TimeFunction::constant(9.81), {}});
    }
    return b.build();
  };
  SimulationOptions o;
  o.integrator = "rk4";
  o.tEnd = 1.0;
  test_models::Recorder a, b;
  ASSERT_TRUE(simulate(pendulum(false), o, {&a}).ok);
  ASSERT_TRUE(simulate(pendulum(true), o, {&b}).ok);
  EXPECT_LT((a.q.back() - b.q.back()).norm(), 1e-12);
}

// A prescribed coordinate follows its function exactly (to the projection tolerance) while
// the rest of the system moves freely under the reaction.
TEST(ForceElements, PrescribedMotionIsFollowed) {
  ModelBuilder b;
  b.addBody(rod("upper")).addBody(rod("lower"));
  JointSpec j1;
  j1.name = "shoulder";
  j1.parent = "ground";
  j1.child = "upper";
  j1.q0 = {-std::numbers::pi / 2};
  JointSpec j2 = j1;
  j2.name = "elbow";
  j2.parent = "upper";
  j2.child = "lower";
  j2.position = Vec3(1, 0, 0);
  j2.q0 = {0.2};
  b.addJoint(j1).addJoint(j2);
  const TimeFunction f = TimeFunction::sine(0.3, 0.5, 0.0, -std::numbers::pi / 2);
  b.addPrescribedMotion({"drive", "shoulder", 0, f, {}});
  const Model model = b.build();
  test_models::Recorder rec;
  const SimulationResult r = simulate(model, tight(4.0), {&rec});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.conservative);
  double worst = 0.0, elbowRange = 0.0;
  for (std::size_t k = 0; k < rec.t.size(); ++k) {
    worst = std::max(worst, std::abs(rec.q[k][0] - f.value(rec.t[k])));
    worst = std::max(worst, std::abs(rec.v[k][0] - f.derivative(rec.t[k])));
    elbowRange = std::max(elbowRange, std::abs(rec.q[k][1] - 0.2));
  }
  EXPECT_LT(worst, 1e-10);
  EXPECT_GT(elbowRange, 0.05);  // the free joint responds
}

// Baumgarte stabilisation keeps the four-bar's drift bounded; without stabilisation it grows
// larger. Projection (the default) is tested in test_four_bar.cpp.
TEST(Stabilization, BaumgarteBoundsDriftThatNoneLetsGrow) {
  const Model model = test_models::fourBarCutAtC().build();
  SimulationOptions o = tight(10.0);
  o.integratorOptions.rtol = o.integratorOptions.atol = 1e-6;
  o.stabilization = Stabilization::Baumgarte;
  const SimulationResult baumgarte = simulate(model, o, {});
  o.stabilization = Stabilization::None;
  const SimulationResult none = simulate(model, o, {});
  ASSERT_TRUE(baumgarte.ok && none.ok);
  EXPECT_LT(baumgarte.maxPositionError, 1e-5);
  EXPECT_GT(none.maxPositionError, baumgarte.maxPositionError);
}

}  // namespace ARTICULA_TEST_FILE
