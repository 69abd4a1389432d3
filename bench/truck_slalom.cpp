// The 5 s multiple slalom of seed 004's semi-trailer truck (models/truck.yaml; section 4,
// Tables 1-2): whole runs of the hybrid formulation with a structural integrator, with the
// analytic tangent (on 2 threads: K and C alongside the residual terms) and with the
// finite-difference tangent (seed 004 eq. (52)-(53)), on 1 and 2 threads; then the steps of one Newton iteration timed one by one at a state in mid-slalom,
// in the order of seed 004 Table 2 (docs/benchmarks.md "The truck's slalom").
// Run from the repository root: build/bin/truck_slalom --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// (ARTICULA_TRUCK_DT overrides the step, 0.005 s by default, ARTICULA_TRUCK_NEWTON the Newton
// tolerance, 1e-10 by default; bench/vehicle_speed times one setting with its accuracy.)
#include <benchmark/benchmark.h>

#include <Eigen/LU>
#include <cstdlib>
#include <string>

#include "articula/dynamics/force_derivatives.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/joint_space_tangent.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/dynamics/spring_damper_tangent.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/simulation.hpp"

using namespace articula;

namespace {

const Model& truck() {
  static const Model model = loadModel("models/truck.yaml");  // run from the repository root
  return model;
}

double fromEnvironment(const char* name, double otherwise) {
  const char* value = std::getenv(name);
  return value ? std::atof(value) : otherwise;
}
double step() { return fromEnvironment("ARTICULA_TRUCK_DT", 0.005); }

SimulationOptions slalomOptions(bool finiteDifference, int threads, double tEnd) {
  SimulationOptions o;
  o.formulation = "hybrid";
  o.integrator = "hht";
  o.integratorOptions.dt = step();
  o.augmentedLagrangian.newtonTolerance = fromEnvironment("ARTICULA_TRUCK_NEWTON", 1e-10);
  o.tEnd = tEnd;
  o.augmentedLagrangian.finiteDifferenceTangent = finiteDifference;
  o.augmentedLagrangian.derivatives.threads = threads;
  return o;
}

// Args: finite-difference tangent (0/1), threads. The time is the integration's alone, without
// the model's sampling every 0.01 s (as bench/vehicle_speed and bench/vehicle_table time runs).
void Slalom(benchmark::State& state) {
  const SimulationOptions o = slalomOptions(state.range(0) != 0, static_cast<int>(state.range(1)), 5.0);
  SimulationResult r;
  for (auto _ : state) {
    r = simulate(truck(), o, {});
    if (!r.ok) state.SkipWithError(r.error.c_str());
    state.SetIterationTime(r.wallSeconds - r.outputSeconds);
  }
  state.counters["steps"] = static_cast<double>(r.steps);
  state.counters["evaluations"] = static_cast<double>(r.evaluations);
  state.counters["realtime_factor"] = 5.0 / (r.wallSeconds - r.outputSeconds);
}
BENCHMARK(Slalom)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->Iterations(1)->UseManualTime();

// The state at the first peak of the steer (t = 0.625 s), where the tyres work hardest.
struct MidSlalom final : SampleSink {
  Eigen::VectorXd q, v;
  void write(const Sample& s) override { q = s.q, v = s.v; }
};
const MidSlalom& midSlalom() {
  static const MidSlalom state = [] {
    MidSlalom s;
    simulate(truck(), slalomOptions(false, 1, 0.625), {&s});
    return s;
  }();
  return state;
}

// Step 2 of seed 004 Table 2: kinematics, force elements (tyres included), M and Q.
void MassMatrixAndForces(benchmark::State& state) {
  const Model& m = truck();
  Workspace ws(m);
  SemiRecursiveDynamics dynamics(m);
  Eigen::MatrixXd M(m.nv, m.nv);
  Eigen::VectorXd Q(m.nv);
  for (auto _ : state) {
    updateVelocities(m, ws, midSlalom().q, midSlalom().v);
    evaluateForceElements(m, ws, 0.625, midSlalom().q, midSlalom().v);
    dynamics.evaluate(ws, M, Q);
    benchmark::DoNotOptimize(Q.data());
  }
}
BENCHMARK(MassMatrixAndForces)->Unit(benchmark::kMicrosecond);

// Step 2 (cont.): the loop constraints Phi and their Jacobian Phi_z.
void Constraints(benchmark::State& state) {
  const Model& m = truck();
  Workspace ws(m);
  ConstraintEvaluator constraints(m);
  updateVelocities(m, ws, midSlalom().q, midSlalom().v);
  for (auto _ : state) {
    constraints.positions(ws, 0.625, midSlalom().q);
    constraints.jacobian(ws, 0.625);
    benchmark::DoNotOptimize(constraints.J.data());
  }
}
BENCHMARK(Constraints)->Unit(benchmark::kMicrosecond);

// Step 3: K and C, analytic (seed 001 eq. (28)-(34) with the tyres' terms).
void AnalyticStiffnessAndDamping(benchmark::State& state) {
  const Model& m = truck();
  Workspace ws(m);
  SpringDamperTangent springs(m);
  Eigen::MatrixXd K(m.nv, m.nv), C(m.nv, m.nv);
  updateVelocities(m, ws, midSlalom().q, midSlalom().v);
  for (auto _ : state) {
    springs.evaluate(ws, midSlalom().q, midSlalom().v, K, C);
    benchmark::DoNotOptimize(K.data());
  }
}
BENCHMARK(AnalyticStiffnessAndDamping)->Unit(benchmark::kMicrosecond);

// Step 3: K = -dQ/dz and C = -dQ/dz-dot by finite differences, grouped by topology; Arg: threads.
void FiniteDifferenceStiffnessAndDamping(benchmark::State& state) {
  const Model& m = truck();
  ForceDerivatives d(m, {static_cast<int>(state.range(0)), true});
  Eigen::MatrixXd K(m.nv, m.nv), C(m.nv, m.nv);
  for (auto _ : state) {
    d.evaluate(0.625, midSlalom().q, midSlalom().v, K, C);
    benchmark::DoNotOptimize(K.data());
  }
  state.counters["column_groups"] = static_cast<double>(d.groups().size());
}
BENCHMARK(FiniteDifferenceStiffnessAndDamping)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Steps 4-6: the tangent M + gamma h C + beta h^2 (K + Phi_z^T alpha Phi_z) assembled and
// factorised, sparse Cholesky (analytic K, C: symmetric) or dense LU (finite differences); one solve.
void TangentFactorisation(benchmark::State& state) {
  const Model& m = truck();
  Workspace ws(m);
  SemiRecursiveDynamics dynamics(m);
  SpringDamperTangent springs(m);
  ConstraintEvaluator constraints(m);
  Eigen::MatrixXd M(m.nv, m.nv), K(m.nv, m.nv), C(m.nv, m.nv);
  Eigen::VectorXd Q(m.nv), x = Eigen::VectorXd::Ones(m.nv);
  updateVelocities(m, ws, midSlalom().q, midSlalom().v);
  evaluateForceElements(m, ws, 0.625, midSlalom().q, midSlalom().v);
  dynamics.evaluate(ws, M, Q);
  springs.evaluate(ws, midSlalom().q, midSlalom().v, K, C);
  K.triangularView<Eigen::StrictlyLower>() = K.transpose();  // the dense LU reads whole matrices
  C.triangularView<Eigen::StrictlyLower>() = C.transpose();
  constraints.positions(ws, 0.625, midSlalom().q);
  constraints.jacobian(ws, 0.625);
  const double h = step(), weight = 1e4 * M.diagonal().maxCoeff();
  JointSpaceTangent sparse(m);
  Eigen::PartialPivLU<Eigen::MatrixXd> dense(m.nv);
  Eigen::MatrixXd T(m.nv, m.nv);
  for (auto _ : state) {
    if (state.range(0) == 0) {
      sparse.assemble(M, K, 0.25 * h * h, C, 0.5 * h, constraints.J, weight);
      sparse.factorize();
      sparse.solveInPlace(x);
    } else {
      T = M + 0.25 * h * h * K + 0.5 * h * C;
      T.noalias() += weight * (constraints.J.transpose() * constraints.J);
      dense.compute(T);
      x = dense.solve(Q);
    }
    benchmark::DoNotOptimize(x.data());
  }
}
BENCHMARK(TangentFactorisation)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
