// The anti-roll bar recipe of docs/vehicles.md: two half bars hinged about y on the frame and on
// each other, a joint_spring_damper (the bar's torsion stiffness k_t) on the second hinge, and a
// droplink (a distance loop) from each lever end down to the axle. An axle rolling by phi twists
// the bar by d phi / l (d the droplinks' spacing, l the levers' length), so its roll stiffness is
// k_t (d / l)^2: checked here by the static roll under a known moment.
#include <gtest/gtest.h>

#include <string>

#include "articula/io/yaml_model.hpp"
#include "articula/simulate/simulation.hpp"
#include "run_options.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// An axle rolling about x on a revolute joint (a damper settles it), the bar 0.35 m ahead of it
// and 0.45 m up, levers 0.35 m long, droplinks 0.3 m long at y = +-0.6 m (d = 1.2 m), k_t = 2e4
// N m/rad; no gravity, a moment of 1 kN m on the roll joint.
const char* kAxleWithBar = R"(
gravity: [0, 0, 0]
bodies:
  - {name: axle, mass: 600, inertia: [200, 20, 200]}
  - {name: bar_left, mass: 10, inertia: [0.8, 0.3, 0.9]}
  - {name: bar_right, mass: 10, inertia: [0.8, 0.3, 0.9]}
joints:
  - {name: roll, type: revolute, parent: ground, child: axle, axis: [1, 0, 0]}
  - {name: bar_mount, type: revolute, parent: ground, child: bar_left, xyz: [0.35, 0, 0.45], axis: [0, 1, 0]}
  - {name: bar_twist, type: revolute, parent: bar_left, child: bar_right, axis: [0, 1, 0]}
loops:
  - {name: droplink_left, type: distance, body_a: bar_left, point_a: [-0.35, 0.6, 0], body_b: axle, point_b: [0, 0.6, 0.15], distance: 0.3}
  - {name: droplink_right, type: distance, body_a: bar_right, point_a: [-0.35, -0.6, 0], body_b: axle, point_b: [0, -0.6, 0.15], distance: 0.3}
forces:
  - {name: anti_roll_bar, type: joint_spring_damper, joint: bar_twist, stiffness: 20000}
  - {name: roll_damper, type: joint_spring_damper, joint: roll, damping: 20000}
  - {name: roll_moment, type: joint_force, joint: roll, magnitude: 1000}
)";

struct LastState final : SampleSink {
  Eigen::VectorXd q;
  void write(const Sample& s) override { q = s.q; }
};

double staticRoll(const std::string& formulation, const std::string& integrator, double toleranceOrStep) {
  const Model model = parseModelYaml(kAxleWithBar, "axle_with_bar").build();
  LastState last;
  const SimulationResult r = simulate(model, test_models::runOptions(formulation, integrator, toleranceOrStep, 3.0), {&last});
  EXPECT_TRUE(r.ok) << formulation << ": " << r.error;
  return last.q[model.joints[*model.findJoint("roll")].iq];
}

}  // namespace

// k_phi = k_t (d / l)^2 = 2e4 (1.2 / 0.35)^2 = 235102 N m/rad, so 1 kN m rolls the axle by
// 4.2535e-3 rad. The levers turn by 7.3e-3 rad and the droplinks tilt by 0.15 phi / 0.3: the
// geometry departs from the linear prediction by terms of order phi^2, 2e-5 relative; the
// damper's transient has decayed to e^-35 by 3 s (time constant c / k_phi = 0.085 s). 1e-3
// relative covers the geometry with room and no more.
TEST(AntiRollBar, RollStiffnessIsTorsionTimesLeverRatioSquared) {
  const double kPhi = 2e4 * (1.2 / 0.35) * (1.2 / 0.35);
  const double expected = 1000.0 / kPhi;
  EXPECT_NEAR(staticRoll("reference", "rk45", 1e-9), expected, 1e-3 * expected);
  EXPECT_NEAR(staticRoll("hybrid", "trapezoidal", 1e-2), expected, 1e-3 * expected);
}

}  // namespace ARTICULA_TEST_FILE
