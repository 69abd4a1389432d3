// Seed 003's example (models/seed003_four_bars.yaml): four bars of 1 m and 1 kg in a closed loop
// of revolute joints, released at rest from the square on its corner, 10 s under gravity with
// the second-order Runge-Kutta method (heun) at dt = 0.01 s, the distributed formulation with the
// model's two subsystems and Ascher's double-step projection after every step. The rhombus hangs
// from its corner and folds flat, through the singular position of its loop, ten times in 10 s
// (the oscillation of the seed's figure 3): the runs go through (stopAtSingularities off).
#include <gtest/gtest.h>

#include <Eigen/SVD>

#include "articula/dynamics/reference.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/simulate/simulation.hpp"
#include "articula/simulate/system.hpp"
#include "distributed_support.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

Model seed003() { return loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/seed003_four_bars.yaml"); }

SimulationOptions seed003Options(const char* formulation) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = "heun";
  o.integratorOptions.dt = 0.01;
  o.tEnd = 10.0;
  o.outputInterval = 0.01;
  o.stopAtSingularities = false;
  return o;
}

// The largest loop-closure error over the recorded states, evaluated here (not by the run).
double worstClosure(const Model& model, const test_models::Recorder& rec) {
  Workspace ws(model);
  ConstraintEvaluator g(model);
  double worst = 0.0;
  for (std::size_t k = 0; k < rec.q.size(); ++k) {
    updatePositions(model, ws, rec.q[k]);
    g.positions(ws, rec.t[k], rec.q[k]);
    worst = std::max(worst, g.g.cwiseAbs().maxCoeff());
  }
  return worst;
}

}  // namespace

TEST(DistributedSeed003, TheModelIsTheSeedsSquare) {
  const Model model = seed003();
  ASSERT_EQ(model.subsystems.size(), 2u);
  Workspace ws(model);
  updatePositions(model, ws, model.q0);
  const double h = std::sqrt(0.5);
  EXPECT_LT((pointPosition(ws, 1, Vec3(1, 0, 0)) - Vec3(h, -h, 0)).norm(), 1e-15);
  EXPECT_LT((pointPosition(ws, 2, Vec3(1, 0, 0)) - Vec3(2 * h, 0, 0)).norm(), 1e-15);
  EXPECT_LT((pointPosition(ws, 3, Vec3(1, 0, 0)) - Vec3(h, h, 0)).norm(), 1e-15);
  EXPECT_LT(pointPosition(ws, 4, Vec3(1, 0, 0)).norm(), 1e-15);
  // Two floating subsystems of two bars (7 degrees of freedom each) and 2 left: the root's 15
  // rows (the ground pin, the joint between the subsystems, the 5-row closure) have rank 12.
  DistributedFormulation f(model, FormulationOptions{});
  Eigen::VectorXd vdot(model.nv);
  f.accelerations(0.0, model.q0, model.v0, vdot);
  EXPECT_EQ(f.hierarchy().levels, 2);
  EXPECT_EQ(f.rootRank(), 12);
}

// Drift: the seed reports 5e-15 m; the issue asks below 1e-12 m. Every sample (one per step) is
// checked, and the double step alone achieves it: no further application was needed.
TEST(DistributedSeed003, DriftStaysBelow1e12OverTenSeconds) {
  const Model model = seed003();
  test_models::Recorder rec;
  const SimulationResult r = simulate(model, seed003Options("distributed"), {&rec});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.steps, 1000);
  EXPECT_EQ(rec.q.size(), 1001u);
  const double drift = worstClosure(model, rec);
  EXPECT_LT(drift, 1e-12);
  EXPECT_LT(r.maxPositionError, 1e-12);
  std::printf("seed 003 four bars: max loop-closure error over 10 s %.3g m (run's own count %.3g)\n", drift,
              r.maxPositionError);
  // It moves: bar 1 swings through more than 1 rad.
  double lo = 1e9, hi = -1e9;
  for (const auto& q : rec.q) {
    lo = std::min(lo, q[0]);
    hi = std::max(hi, q[0]);
  }
  EXPECT_GT(hi - lo, 1.0);

  // The same steps by hand, to count the projection's applications beyond the seed's two.
  MultibodySystem system(model, std::make_unique<DistributedFormulation>(model, FormulationOptions{}),
                         Stabilization::Projection);
  IntegratorOptions io;
  io.dt = 0.01;
  auto heun = makeIntegrator("heun", io);
  Eigen::VectorXd q = model.q0, v = model.v0;
  assemble(model, 0.0, q, v);
  Eigen::VectorXd x(model.nq + model.nv);
  x << q, v;
  heun->initialize(system, 0.0, x);
  while (heun->time() < 10.0 - 1e-9) heun->step(10.0);
  const auto& f = dynamic_cast<const DistributedFormulation&>(system.formulation());
  EXPECT_EQ(f.projection().extraApplications(), 0);
}

// Agreement with the reference formulation. (1) Along the distributed run, every 25th state: the
// accelerations of both formulations solve the same constrained equations, whose condition grows
// as (s1 / s2)^2 with s1 >= s2 the loop Jacobian's non-zero singular values (the rhombus folds flat
// ten times in 10 s, and s2 vanishes there): the relative difference must stay below
// 1e-14 (s1 / s2)^2 (measured: 3e-15 to 5e-14 where s2 / s1 > 0.04, 1.6e-9 at t = 7 s where
// s2 / s1 = 7.7e-4). (2) The whole runs take the same steps and differ only in their projections
// (mass-orthogonal in the reference formulation, along G^T here, both to 1e-12 m): measured
// 1e-12 rad over the first second, 1e-6 rad over 10 s after the ten passages through the folded
// position, which amplify differences; bounds 1e-10 and 1e-5 rad.
TEST(DistributedSeed003, MatchesTheReferenceFormulation) {
  const Model model = seed003();
  test_models::Recorder dist, ref;
  const SimulationResult rd = simulate(model, seed003Options("distributed"), {&dist});
  ASSERT_TRUE(rd.ok) << rd.error;
  ASSERT_TRUE(simulate(model, seed003Options("reference"), {&ref}).ok);
  ASSERT_EQ(dist.q.size(), ref.q.size());
  EXPECT_EQ(rd.singularConfigurations, 10);
  Workspace ws(model);
  ConstraintEvaluator g(model);
  for (std::size_t k = 0; k < dist.q.size(); k += 25) {
    const Eigen::VectorXd a = test_models::distributedAccelerations(model, 0, dist.q[k], dist.v[k]);
    const Eigen::VectorXd b = test_models::accelerationsOf("reference", model, dist.q[k], dist.v[k]);
    updatePositions(model, ws, dist.q[k]);
    g.jacobian(ws, dist.t[k]);
    const Eigen::VectorXd s = Eigen::JacobiSVD<Eigen::MatrixXd>(g.J).singularValues();
    const double ratio = s[0] / s[1];
    EXPECT_LT(test_models::relativeDifference(a, b), 1e-14 * ratio * ratio) << "t = " << dist.t[k];
  }
  double firstSecond = 0.0, whole = 0.0;
  for (std::size_t k = 0; k < dist.q.size(); ++k) {
    const double d = (dist.q[k] - ref.q[k]).cwiseAbs().maxCoeff();
    whole = std::max(whole, d);
    if (dist.t[k] <= 1.0) firstSecond = std::max(firstSecond, d);
  }
  std::printf("seed 003 four bars, distributed vs reference: %.3g rad over 1 s, %.3g rad over 10 s\n", firstSecond,
              whole);
  EXPECT_LT(firstSecond, 1e-10);
  EXPECT_LT(whole, 1e-5);
}

}  // namespace ARTICULA_TEST_FILE
