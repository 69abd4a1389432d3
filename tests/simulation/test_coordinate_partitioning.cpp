// The semi-recursive formulation on closed loops by coordinate partitioning (seed 004 section
// 2.1), against the reference formulation, and the automatic re-selection of the split; the
// dependent block solved densely and by sparse QR (section 3.1) against each other.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <numbers>

#include "articula/dynamics/coordinate_partitioning.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/system.hpp"
#include "four_bar_models.hpp"
#include "recorder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// Both formulations with rk45 at rtol = atol = 1e-11: each run's global error is then of order
// 1e-9 over these few seconds, so 1e-7 separates agreement from any modelling difference.
constexpr double kTolerance = 1e-7;

Eigen::VectorXd finalPositions(const Model& model, const char* formulation, double tEnd) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integratorOptions.rtol = o.integratorOptions.atol = 1e-11;
  o.integratorOptions.dt = 0.0;
  o.tEnd = tEnd;
  o.outputInterval = tEnd;
  test_models::Recorder rec;
  const SimulationResult r = simulate(model, o, {&rec});
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_LT(r.maxPositionError, 1e-11) << formulation;
  return rec.q.back();
}

using DependentSolver = CoordinatePartitioning::DependentSolver;

// The state after fixed-step RK4 (1e-3 s) from the assembled initial state, with the
// partitioning's own position and velocity correction after each step; `check` sees the
// formulation at the end, before the system that owns it goes.
Eigen::VectorXd rk4State(const Model& model, std::unique_ptr<Formulation> formulation, double tEnd,
                         const std::function<void(const Formulation&)>& check = {}) {
  Eigen::VectorXd q = model.q0, v = model.v0;
  assemble(model, 0.0, q, v);
  IntegratorOptions o;
  o.dt = 1e-3;
  MultibodySystem system(model, std::move(formulation), Stabilization::Projection);
  Eigen::VectorXd x(model.nq + model.nv);
  x << q, v;
  auto integrator = makeIntegrator("rk4", o);
  integrator->initialize(system, 0.0, x);
  while (integrator->time() < tEnd) integrator->step(tEnd);
  if (check) check(system.formulation());
  return integrator->state();
}

// The dense and the sparse solve of the same split give the same motion: they differ only by
// the round-off of LU against QR (1e-16 relative per solve) and by where each Newton correction
// stops below the 1e-12 projection tolerance. Over these runs (500 and 1000 steps, no singular
// position) the positions differ by 4e-16 (N-four-bar, four-bar) and 2e-14 (RSSR); 1e-9 leaves
// room for other compilers and BLAS, far below the 1e-7 at which formulations are compared.
constexpr double kPathTolerance = 1e-9;

void expectPathsAgree(const Model& model, double tEnd) {
  std::vector<Eigen::VectorXd> states;
  for (DependentSolver solver : {DependentSolver::Dense, DependentSolver::Sparse})
    states.push_back(
        rk4State(model, std::make_unique<CoordinatePartitioning>(model, solver), tEnd, [&](const Formulation& f) {
          const auto& partitioning = dynamic_cast<const CoordinatePartitioning&>(f);
          EXPECT_EQ(partitioning.solvesSparse(), solver == DependentSolver::Sparse);
          EXPECT_EQ(partitioning.reselections(), 0) << model.name;
        }));
  EXPECT_LT((states[0] - states[1]).head(model.nq).cwiseAbs().maxCoeff(), kPathTolerance) << model.name;
}

}  // namespace

TEST(CoordinatePartitioning, AgreesWithTheReferenceFormulation) {
  for (const Model& model :
       {test_models::fourBarCutAtC().build(), test_models::fourBarCutAtB().build(), makeRssr(), makeNFourBar(3)}) {
    const double tEnd = model.name.rfind("n_four_bar", 0) == 0 ? 0.6 : 5.0;  // before the n-four-bar's flat position
    const Eigen::VectorXd reference = finalPositions(model, "reference", tEnd);
    const Eigen::VectorXd partitioned = finalPositions(model, "semi-recursive", tEnd);
    EXPECT_LT((partitioned - reference).cwiseAbs().maxCoeff(), kTolerance) << model.name;
  }
}

// Started with the rocker as the independent coordinate, the split becomes singular at the
// rocker's dead points (where crank and coupler line up, the rocker stops while the crank goes
// on); the formulation re-selects and follows the reference motion through them, with the
// dependent block solved densely (LU's rcond watched) and by sparse QR (R's diagonal watched).
TEST(CoordinatePartitioning, ReselectsWhenTheIndependentCoordinateBecomesSingular) {
  const Model model = test_models::fourBarCutAtC().build();
  Eigen::VectorXd q = model.q0, v = model.v0;
  assemble(model, 0.0, q, v);
  v[0] = 6.0;  // crank speed enough to turn full circles; the assembly makes v consistent below
  assemble(model, 0.0, q, v);
  Eigen::VectorXd x(model.nq + model.nv);
  x << q, v;
  IntegratorOptions o;
  o.dt = 1e-3;
  MultibodySystem reference(model, makeFormulation("reference", model), Stabilization::Projection);
  auto b = makeIntegrator("rk4", o);
  b->initialize(reference, 0.0, x);
  while (b->time() < 3.0) b->step(3.0);
  for (DependentSolver solver : {DependentSolver::Dense, DependentSolver::Sparse}) {
    SCOPED_TRACE(solver == DependentSolver::Dense ? "dense" : "sparse");
    auto formulation = std::make_unique<CoordinatePartitioning>(model, solver);
    CoordinatePartitioning& partitioning = *formulation;
    const int rocker = model.joints[*model.findJoint("D")].iv;
    partitioning.selectPartition(0.0, q, {rocker});
    ASSERT_EQ(partitioning.independent(), std::vector<int>{rocker});
    EXPECT_EQ(partitioning.solvesSparse(), solver == DependentSolver::Sparse);

    MultibodySystem system(model, std::move(formulation), Stabilization::Projection);
    auto a = makeIntegrator("rk4", o);
    a->initialize(system, 0.0, x);
    while (a->time() < 3.0) a->step(3.0);
    EXPECT_GT(partitioning.reselections(), 0);
    // Fixed-step RK4 at 1e-3 s for both (the adaptive rk45 would creep past the dead points with
    // tiny steps and hide the failure): the partitioned and the projected schemes differ by 4.5e-7
    // after 3 s, and by 2.2e-3 when re-selection is switched off, so 1e-5 tells them apart.
    EXPECT_LT((a->state() - b->state()).head(model.nq).cwiseAbs().maxCoeff(), 1e-5);
  }
}

// Ten four-bars in a row (20 dependent coordinates, 50 equations of which 30 are redundant)
// hanging and swinging, and the spatial RSSR (3 x 3 block, no redundancy).
TEST(CoordinatePartitioning, SparseAndDenseDependentSolvesAgree) {
  expectPathsAgree(makeNFourBar(10, -std::numbers::pi / 2 + 0.5, 0.0), 0.5);
  expectPathsAgree(makeRssr(), 0.5);
}

// Redundant but compatible equations that are not zero rows: the four-bar closed at C twice, by
// the revolute loop and by a ball loop at the same points (whose three rows repeat the revolute's
// point rows). The sparse path factorises all eight rows, the dense one picks two.
TEST(CoordinatePartitioning, SparsePathSolvesRedundantLoopEquations) {
  ModelBuilder builder = test_models::fourBarCutAtC();
  LoopSpec again;
  again.name = "C_again";
  again.bodyA = "coupler";
  again.pointA = Vec3(1.2, 0, 0);
  again.bodyB = "rocker";
  again.pointB = Vec3(0.8, 0, 0);
  builder.addLoop(again);
  const Model model = builder.build();
  ASSERT_EQ(model.constraintCount(), 8);
  expectPathsAgree(model, 1.0);
  // And the sparse path against the reference formulation (its minimum-norm solves handle the
  // redundancy their own way), both fixed-step RK4: the partitioned and the projected schemes
  // differ by 7e-9 after 1 s (4.5e-7 after 3 s in the re-selection test), so 1e-7.
  const Eigen::VectorXd sparse =
      rk4State(model, std::make_unique<CoordinatePartitioning>(model, DependentSolver::Sparse), 1.0);
  const Eigen::VectorXd reference = rk4State(model, makeFormulation("reference", model), 1.0);
  EXPECT_LT((sparse - reference).head(model.nq).cwiseAbs().maxCoeff(), 1e-7);
}

// Automatic picks the dense solve for small splits and the sparse one from
// kSparseFromDependent dependent coordinates (each four-bar of the row adds two).
TEST(CoordinatePartitioning, AutomaticSolverDependsOnTheSplitSize) {
  const int fourBars = CoordinatePartitioning::kSparseFromDependent / 2;
  for (int n : {fourBars - 1, fourBars}) {
    const Model model = makeNFourBar(n);
    CoordinatePartitioning partitioning(model);
    partitioning.selectPartition(0.0, model.q0);
    EXPECT_EQ(partitioning.solvesSparse(), n == fourBars) << n;
  }
}

}  // namespace ARTICULA_TEST_FILE
