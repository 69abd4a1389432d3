// Semi-recursive terms (seed 001 eq. (3)-(19)) and the tree-sparse solve on the chain models,
// with CRBA + RNEA and the ABA timed in the same process for comparison.
// Run: build/bin/bench_semi_recursive --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

namespace {

struct Fixture {
  explicit Fixture(int n, bool spatial)
      : model(makeChain(n, spatial)), ws(model), v(Eigen::VectorXd::Constant(model.nv, 0.1)), Q(model.nv),
        C(model.nv), M(model.nv, model.nv), terms(model), chol(model) {
    updateVelocities(model, ws, model.q0, v);
    evaluateForceElements(model, ws, 0.0, model.q0, v);  // the chains have none: tau = 0, fext = 0
  }
  Model model;
  Workspace ws;
  Eigen::VectorXd v, Q, C;
  Eigen::MatrixXd M;
  SemiRecursiveDynamics terms;
  TreeCholesky chol;
};

// M and Q from the kinematics up.
void SemiRecursiveTerms(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    updateVelocities(f.model, f.ws, f.model.q0, f.v);
    f.terms.evaluate(f.ws, f.M, f.Q);
    benchmark::DoNotOptimize(f.M.data());
    benchmark::DoNotOptimize(f.Q.data());
  }
}

// The same two terms from CRBA and RNEA.
void CrbaRnea(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    massMatrix(f.model, f.ws, f.model.q0, f.M);
    biasForces(f.model, f.ws, f.model.q0, f.v, nullptr, f.C);
    benchmark::DoNotOptimize(f.M.data());
    benchmark::DoNotOptimize(f.C.data());
  }
}

// Accelerations: the terms, then M = L^T L and two tree-sparse triangular solves.
void SemiRecursiveForwardDynamics(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    updateVelocities(f.model, f.ws, f.model.q0, f.v);
    f.terms.evaluate(f.ws, f.M, f.Q);
    f.chol.factorize(f.M);
    f.chol.solveInPlace(f.Q);
    benchmark::DoNotOptimize(f.Q.data());
  }
}

void Aba(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    forwardDynamics(f.model, f.ws, f.model.q0, f.v, f.ws.tau, nullptr, f.Q);
    benchmark::DoNotOptimize(f.Q.data());
  }
}

#define ARTICULA_CHAIN_BENCH(fn)                                                     \
  BENCHMARK_CAPTURE(fn, chain, false)->Arg(2)->Arg(8)->Arg(32)->Arg(128)->Arg(512); \
  BENCHMARK_CAPTURE(fn, spatial, true)->Arg(2)->Arg(8)->Arg(32)->Arg(128)->Arg(512)

ARTICULA_CHAIN_BENCH(SemiRecursiveTerms);
ARTICULA_CHAIN_BENCH(CrbaRnea);
ARTICULA_CHAIN_BENCH(SemiRecursiveForwardDynamics);
ARTICULA_CHAIN_BENCH(Aba);

}  // namespace

BENCHMARK_MAIN();
