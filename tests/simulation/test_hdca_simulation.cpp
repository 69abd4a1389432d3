// The Hamiltonian divide-and-conquer algorithm as a simulate() formulation ('hdca'): the run
// loop steps Hamilton's equations in [q; p] (simulate/hamiltonian_system.hpp) and writes its
// samples in [q; v]. Against the reference on open trees ('aba'), thread counts, restart files
// and the errors for what it does not handle.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>

#include "../unit/random_model.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/model/generators.hpp"
#include "four_bar_models.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

Model modelFile(const char* name) { return loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/" + name); }

SimulationOptions run(const char* formulation, const char* integrator, double tEnd) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = integrator;
  o.tEnd = tEnd;
  o.outputInterval = 0.01;
  return o;
}

SimulationOptions rk45(const char* formulation, double tol, double tEnd) {
  SimulationOptions o = run(formulation, "rk45", tEnd);
  o.integratorOptions.rtol = o.integratorOptions.atol = tol;
  return o;
}

SimulationOptions rk4(const char* formulation, double dt, double tEnd) {
  SimulationOptions o = run(formulation, "rk4", tEnd);
  o.integratorOptions.dt = dt;
  return o;
}

struct Trajectory {
  SimulationResult result;
  test_models::Recorder samples;
};

Trajectory simulated(const Model& model, const SimulationOptions& o) {
  Trajectory t;
  t.result = simulate(model, o, {&t.samples});
  EXPECT_TRUE(t.result.ok) << o.formulation << ": " << t.result.error;
  EXPECT_EQ(t.result.formulation, o.formulation);
  return t;
}

struct Difference {
  double position = 0.0, velocity = 0.0;  // largest |.|_inf over the samples
};

// The two runs' samples at the same times, compared.
Difference difference(const Trajectory& a, const Trajectory& b) {
  EXPECT_EQ(a.samples.t, b.samples.t);
  Difference d;
  for (std::size_t k = 0; k < std::min(a.samples.t.size(), b.samples.t.size()); ++k) {
    d.position = std::max(d.position, (a.samples.q[k] - b.samples.q[k]).lpNorm<Eigen::Infinity>());
    d.velocity = std::max(d.velocity, (a.samples.v[k] - b.samples.v[k]).lpNorm<Eigen::Infinity>());
  }
  return d;
}

// What two rk45 runs at rtol = atol = tol may differ by: each step's local error is held below
// tol (1 + |x|) per component, and without growth the global errors are at most the sums of the
// local ones, tol (1 + max |x|) times the steps of both runs (positions and velocities apart).
Difference accumulatedTolerance(const Trajectory& a, const Trajectory& b, double tol) {
  double q = 0.0, v = 0.0;
  for (const Trajectory* r : {&a, &b})
    for (std::size_t k = 0; k < r->samples.t.size(); ++k) {
      q = std::max(q, r->samples.q[k].lpNorm<Eigen::Infinity>());
      v = std::max(v, r->samples.v[k].lpNorm<Eigen::Infinity>());
    }
  const double steps = static_cast<double>(a.result.steps + b.result.steps);
  return {steps * tol * (1.0 + q), steps * tol * (1.0 + v)};
}

void expectIdentical(const test_models::Recorder& a, const test_models::Recorder& b) {
  ASSERT_EQ(a.t, b.t);
  ASSERT_EQ(a.q.size(), b.q.size());
  for (std::size_t k = 0; k < a.q.size(); ++k) {
    ASSERT_EQ(a.q[k], b.q[k]) << "sample " << k << ", t = " << a.t[k];
    ASSERT_EQ(a.v[k], b.v[k]) << "sample " << k << ", t = " << a.t[k];
  }
  EXPECT_EQ(a.energy, b.energy);
}

}  // namespace

// 'hdca' is listed for the command line's help, as an ODE-integrator formulation for trees and
// closed loops; makeFormulation, which makes formulations in [q; v], refuses it with a message
// that says why.
TEST(HdcaSimulation, IsListedAsAFormulationInHamiltonianForm) {
  bool listed = false;
  for (const auto& f : formulations())
    if (f.name == "hdca") listed = f.closedLoops && !f.index3 && f.description.find("[q; p]") != std::string::npos;
  EXPECT_TRUE(listed);
  const Model chain = makeChain(4, true);
  try {
    makeFormulation("hdca", chain);
    ADD_FAILURE() << "makeFormulation made 'hdca'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Hamiltonian form"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(checkRunOptions(chain, run("hdca", "euler", 1.0)));
}

// Seed 000's double pendulum (section 5.1, models/seed000_double_pendulum.yaml: two uniform bars
// of 0.4 m and 1 kg, released from rest with the first pi/4 below the horizontal, g = 9.80665
// m/s^2) over 1 s, HDCA in [q; p] against ABA in [q; v], both rk45 at rtol = atol = 1e-10: the
// samples (interpolated ones included) agree within the local errors accumulated over both runs'
// steps (accumulatedTolerance over 187 + 265 steps: 1.5e-7 in position, 2.7e-7 in velocity;
// measured 9e-10 and 8.2e-9). HDCA conserves the energy to the integration error: drift below
// 10 rtol (measured 1.1e-10 relative).
TEST(HdcaSimulation, Seed000DoublePendulumAgreesWithAba) {
  const Model model = modelFile("seed000_double_pendulum.yaml");
  ASSERT_EQ(model.bodyCount(), 2);
  EXPECT_EQ(model.q0[0], -std::numbers::pi / 4);
  EXPECT_EQ(model.q0[1], 0.0);
  EXPECT_TRUE(model.v0.isZero());
  EXPECT_EQ(model.gravity, Vec3(0.0, -9.80665, 0.0));
  const double tol = 1e-10;
  const Trajectory hdca = simulated(model, rk45("hdca", tol, 1.0));
  const Trajectory aba = simulated(model, rk45("aba", tol, 1.0));
  ASSERT_EQ(hdca.samples.t.size(), 101u);
  EXPECT_GT(std::abs(hdca.samples.q.back()[0] - model.q0[0]), 0.5);  // it has swung
  const Difference d = difference(hdca, aba), bound = accumulatedTolerance(hdca, aba, tol);
  std::printf(
      "[ hdca ] seed 000 double pendulum: |q - q_aba| = %.3g (bound %.3g), |v - v_aba| = %.3g (bound %.3g), relative "
      "energy drift %.3g, steps %ld (aba %ld)\n",
      d.position, bound.position, d.velocity, bound.velocity, hdca.result.maxRelativeEnergyDrift, hdca.result.steps,
      aba.result.steps);
  EXPECT_LT(d.position, bound.position);
  EXPECT_LT(d.velocity, bound.velocity);
  EXPECT_TRUE(hdca.result.conservative);
  EXPECT_LT(hdca.result.maxRelativeEnergyDrift, 10.0 * tol);
}

// Force elements (joint and point spring-dampers, joint and body loads) on a random tree with
// every joint type, 1 s with rk45 at 1e-10: the stiff springs drive velocities up to ~100, and the
// bound is the accumulated local error again (measured: 1.5e-8 in position and 4.8e-7 in velocity
// against bounds of 1.9e-6 and 2.3e-5).
TEST(HdcaSimulation, ForceElementsOnARandomTreeAgreeWithAba) {
  const Model tree = test_models::randomTreeWithForceElements(12, 1);
  const double tol = 1e-10;
  const Trajectory hdca = simulated(tree, rk45("hdca", tol, 1.0));
  const Trajectory aba = simulated(tree, rk45("aba", tol, 1.0));
  EXPECT_FALSE(hdca.result.conservative);
  const Difference d = difference(hdca, aba), bound = accumulatedTolerance(hdca, aba, tol);
  std::printf(
      "[ hdca ] random tree with force elements: |q - q_aba| = %.3g (bound %.3g), |v - v_aba| = %.3g (bound %.3g)\n",
      d.position, bound.position, d.velocity, bound.velocity);
  EXPECT_LT(d.position, bound.position);
  EXPECT_LT(d.velocity, bound.velocity);
}

// rk4 with a fixed step through simulate(): [q; p] (HDCA) and [q; v] (ABA) are different ODEs for
// the same motion, so the samples differ by the integration error, O(dt^4). On the spatial chain
// of 8 links at 0.5 rad/s the [q; p] form has the larger error constant (tests/unit/test_hdca.cpp:
// 9.4e-4 at dt = 1e-3 after 1 s, [q; v] 1e-6): at dt = 1.25e-4 it is 9.4e-4 / 8^4 = 2.3e-7, below
// the bound 1e-6 (measured: 5e-9 in position, 2.1e-7 in velocity). The random tree with every
// joint type (quaternions of free and spherical joints included) has an [q; p] error of 1.5e-4 at
// dt = 1e-3 against rk45 at 1e-10 (ABA's: 2.4e-7), fourth order as the step is halved: at
// dt = 2.5e-4 it is 1.5e-4 / 4^4 = 6e-7 (measured: 3e-8 in position, 2.8e-7 in velocity).
TEST(HdcaSimulation, SpatialChainAndRandomTreeAgreeWithAbaUnderRk4) {
  Model chain = makeChain(8, true);
  chain.v0.setConstant(0.5);
  const Difference c =
      difference(simulated(chain, rk4("hdca", 1.25e-4, 1.0)), simulated(chain, rk4("aba", 1.25e-4, 1.0)));
  const Model tree = test_models::randomTree(12, 3, false).build();
  const Difference r = difference(simulated(tree, rk4("hdca", 2.5e-4, 1.0)), simulated(tree, rk4("aba", 2.5e-4, 1.0)));
  std::printf("[ hdca ] rk4: chain |q - q_aba| = %.3g, |v - v_aba| = %.3g; random tree %.3g, %.3g\n", c.position,
              c.velocity, r.position, r.velocity);
  EXPECT_LT(c.position, 1e-6);
  EXPECT_LT(c.velocity, 1e-6);
  EXPECT_LT(r.position, 1e-6);
  EXPECT_LT(r.velocity, 1e-6);
}

// The subtrees of the assembly tree shared by 2 threads give the same bits as 1 thread: rk45 (whose
// step sizes would differ at the first differing bit) on a random tree with force elements. Short:
// every evaluation has the threads meet at barriers, which are slow when other work keeps the
// machine's cores busy.
TEST(HdcaSimulation, OneAndTwoThreadsGiveIdenticalSamples) {
  const Model tree = test_models::randomTreeWithForceElements(16, 5);
  SimulationOptions o = rk45("hdca", 1e-6, 0.05);
  o.outputInterval = 0.002;
  const Trajectory one = simulated(tree, o);
  o.augmentedLagrangian.derivatives.threads = 2;
  const Trajectory two = simulated(tree, o);
  EXPECT_EQ(one.result.steps, two.result.steps);
  EXPECT_EQ(one.result.evaluations, two.result.evaluations);
  EXPECT_GT(one.result.steps, 10);
  expectIdentical(one.samples, two.samples);
}

namespace {
struct Interrupted {};  // not an articula::Error: simulate() lets it through, like a kill
}  // namespace

// A run stopped after a restart file was written continues from it bit for bit: the samples of
// the stopped run and of the resumed one are those of the uninterrupted run (the integrator holds
// [q; p]; the samples are mapped to [q; v] on both sides of the cut), with the same statistics.
TEST(HdcaSimulation, ResumedRunContinuesBitForBit) {
  Model chain = makeChain(6, true);
  chain.v0.setConstant(1.0);
  SimulationOptions o = rk45("hdca", 1e-9, 1.0);
  o.outputInterval = 0.02;
  const Trajectory whole = simulated(chain, o);

  const std::string path =
      (std::filesystem::temp_directory_path() / ("articula_hdca_restart_" + std::to_string(::getpid()) + ".bin"))
          .string();
  SimulationOptions cut = o;
  cut.checkpointPath = path;
  cut.checkpointInterval = 0.0;  // a restart file after every step
  test_models::Recorder samples;
  EXPECT_THROW(simulate(chain, cut, {&samples},
                        [](double t) {
                          if (t > 0.43) throw Interrupted{};
                        }),
               Interrupted);
  ASSERT_TRUE(std::filesystem::exists(path));
  const std::size_t before = samples.t.size();
  SimulationOptions resume = o;
  resume.resumeFrom = path;
  const SimulationResult r = simulate(chain, resume, {&samples});
  std::filesystem::remove(path);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_GT(r.resumedAt, 0.43);
  EXPECT_GT(before, 1u);
  EXPECT_LT(before, whole.samples.t.size());
  expectIdentical(samples, whole.samples);
  EXPECT_EQ(r.steps, whole.result.steps);
  EXPECT_EQ(r.evaluations, whole.result.evaluations);
  EXPECT_EQ(r.samples, whole.result.samples);
  EXPECT_EQ(r.maxEnergyDrift, whole.result.maxEnergyDrift);
}

// What HDCA does not handle gives one message naming the problem, from checkRunOptions (the
// command line's check before it writes anything) and from simulate(): the structural integrators
// (index-3 formulations only).
TEST(HdcaSimulation, RejectsStructuralIntegrators) {
  for (const char* integrator : {"trapezoidal", "generalized-alpha"}) {
    const Model chain = makeChain(4, true);
    const SimulationOptions o = run("hdca", integrator, 1.0);
    const std::string message = "formulation 'hdca' is in ODE form and runs with euler, rk4 or rk45";
    try {
      checkRunOptions(chain, o);
      ADD_FAILURE() << "checkRunOptions accepted hdca + " << integrator;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    test_models::Recorder samples;
    const SimulationResult r = simulate(chain, o, {&samples});
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find(message), std::string::npos) << r.error;
    EXPECT_TRUE(samples.t.empty());
  }
}

// Prescribed motion: a double pendulum whose shoulder follows a sine (a rheonomic constraint,
// J v = nu(t)), HDCA against the reference formulation, both rk45 at 1e-10 for 1 s: the samples
// agree within the accumulated local errors (bound 1e-7), the shoulder follows its prescription
// at every sample (velocity level exactly, positions through the projection, 1e-12).
TEST(HdcaSimulation, PrescribedMotionAgreesWithTheReferenceFormulation) {
  ModelBuilder b;
  b.addBody(test_models::bar("upper", 1.0)).addBody(test_models::bar("lower", 1.0));
  b.addJoint(test_models::pin("shoulder", "ground", "upper", Vec3::Zero(), -1.0));
  b.addJoint(test_models::pin("elbow", "upper", "lower", Vec3(1, 0, 0), 0.3));
  PrescribedMotionSpec drive;
  drive.name = "drive", drive.joint = "shoulder";
  drive.position = TimeFunction::sine(0.4, 0.5, 0.0, -1.0);
  b.addPrescribedMotion(drive);
  const Model model = b.build();
  const Trajectory hdca = simulated(model, rk45("hdca", 1e-10, 1.0));
  const Trajectory reference = simulated(model, rk45("reference", 1e-10, 1.0));
  ASSERT_EQ(hdca.samples.t.size(), reference.samples.t.size());
  double worst = 0.0;
  for (std::size_t k = 0; k < hdca.samples.t.size(); ++k) {
    worst = std::max(worst, (hdca.samples.q[k] - reference.samples.q[k]).lpNorm<Eigen::Infinity>());
    EXPECT_LE(hdca.samples.positionError[k], 1e-12) << "t = " << hdca.samples.t[k];
  }
  EXPECT_LT(worst, 1e-7);
  EXPECT_LE(hdca.result.maxVelocityError, 1e-10);
  EXPECT_GT((hdca.samples.q.back() - hdca.samples.q.front()).norm(), 0.1);  // it has moved
}

// Closed loops through simulate(): seed 000's four-bar (400 mm ground link, alpha0 = pi/4) and
// the crank-rocker of models/four_bar.yaml, HDCA against the reference formulation, both rk45 at
// 1e-10 with the positions projected after every step, 1 s. The samples agree within the
// accumulated local errors (measured below 1e-8; bound 1e-7), every sample lies on the loop
// within the projection tolerance 1e-12 (interpolated ones are projected too), and the energy
// is kept to 1e-8 relative.
TEST(HdcaSimulation, ClosedLoopsAgreeWithTheReferenceFormulation) {
  for (const char* file : {"seed000_four_bar.yaml", "four_bar.yaml"}) {
    const Model model = modelFile(file);
    const Trajectory hdca = simulated(model, rk45("hdca", 1e-10, 1.0));
    const Trajectory reference = simulated(model, rk45("reference", 1e-10, 1.0));
    ASSERT_EQ(hdca.samples.t.size(), reference.samples.t.size()) << file;
    double worst = 0.0;
    for (std::size_t k = 0; k < hdca.samples.t.size(); ++k) {
      worst = std::max(worst, (hdca.samples.q[k] - reference.samples.q[k]).lpNorm<Eigen::Infinity>());
      EXPECT_LE(hdca.samples.positionError[k], 1e-12) << file << " at t = " << hdca.samples.t[k];
    }
    EXPECT_LT(worst, 1e-7) << file;
    EXPECT_LT(hdca.result.maxRelativeEnergyDrift, 1e-8) << file;
    EXPECT_LE(hdca.result.maxPositionError, 1e-12) << file;
  }
}

// A run that blows up (a joint spring of 1e9 N m/rad under explicit Euler at dt = 1e-2) stops with
// a message naming the time, the step and the joint, and the samples written before stay.
TEST(HdcaSimulation, ABlownUpRunStopsWithAMessageNamingTheJoint) {
  ModelBuilder b;
  b.addBody(test_models::bar("upper", 1.0)).addBody(test_models::bar("lower", 1.0));
  b.addJoint(test_models::pin("shoulder", "ground", "upper", Vec3::Zero(), -1.0));
  b.addJoint(test_models::pin("elbow", "upper", "lower", Vec3(1, 0, 0), 0.3));
  b.addJointSpring({"stiff", "elbow", 0, 1e9, 0.0, 0.0, {}});
  SimulationOptions o = run("hdca", "euler", 5.0);
  o.integratorOptions.dt = 1e-2;
  test_models::Recorder samples;
  const SimulationResult r = simulate(b.build(), o, {&samples});
  EXPECT_FALSE(r.ok);
  EXPECT_LT(r.tReached, 1.0);
  EXPECT_NE(r.error.find("at t = "), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("joint 'shoulder'"), std::string::npos) << r.error;
  EXPECT_FALSE(samples.t.empty());
  EXPECT_EQ(samples.t.back(), r.tReached);
}

}  // namespace ARTICULA_TEST_FILE
