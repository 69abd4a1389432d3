// Kernel timings: one ABA, CRBA and RNEA call on the chain and spatial chain models.
// Run: build/bin/bench_dynamics --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "articula/dynamics/recursive.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

namespace {

struct Fixture {
  explicit Fixture(int n, bool spatial)
      : model(makeChain(n, spatial)), ws(model), v(Eigen::VectorXd::Constant(model.nv, 0.1)),
        tau(Eigen::VectorXd::Zero(model.nv)), out(model.nv), H(model.nv, model.nv) {}
  Model model;
  Workspace ws;
  Eigen::VectorXd v, tau, out;
  Eigen::MatrixXd H;
};

void Aba(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    forwardDynamics(f.model, f.ws, f.model.q0, f.v, f.tau, nullptr, f.out);
    benchmark::DoNotOptimize(f.out.data());
  }
}

// The 6D kernel on the same models, to show what the planar specialisation gains.
void AbaSpatialKernel(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    spatialForwardDynamics(f.model, f.ws, f.model.q0, f.v, f.tau, nullptr, f.out);
    benchmark::DoNotOptimize(f.out.data());
  }
}

void Crba(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    massMatrix(f.model, f.ws, f.model.q0, f.H);
    benchmark::DoNotOptimize(f.H.data());
  }
}

void Rnea(benchmark::State& state, bool spatial) {
  Fixture f(static_cast<int>(state.range(0)), spatial);
  for (auto _ : state) {
    inverseDynamics(f.model, f.ws, f.model.q0, f.v, f.tau, nullptr, f.out);
    benchmark::DoNotOptimize(f.out.data());
  }
}

#define ARTICULA_CHAIN_BENCH(fn)                                                              \
  BENCHMARK_CAPTURE(fn, chain, false)->Arg(2)->Arg(8)->Arg(32)->Arg(128)->Arg(512);          \
  BENCHMARK_CAPTURE(fn, spatial, true)->Arg(2)->Arg(8)->Arg(32)->Arg(128)->Arg(512)

ARTICULA_CHAIN_BENCH(Aba);
BENCHMARK_CAPTURE(AbaSpatialKernel, chain, false)->Arg(2)->Arg(8)->Arg(32)->Arg(128)->Arg(512);
ARTICULA_CHAIN_BENCH(Crba);
ARTICULA_CHAIN_BENCH(Rnea);

}  // namespace

BENCHMARK_MAIN();
