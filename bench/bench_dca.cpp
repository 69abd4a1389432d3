// One accelerations() evaluation of the divide-and-conquer algorithm (dca, 1 and 2 threads)
// next to the articulated-body algorithm (aba) on the planar and spatial chains; the assembly
// tree's depth is reported as a counter. Both run through the Formulation interface, so both
// include evaluating the (empty) force elements; aba takes its planar kernel on the planar chain.
// Run: build/bin/bench_dca --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "articula/dynamics/dca.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

namespace {

void evaluate(benchmark::State& state, const Model& model, Formulation& formulation) {
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(model.nv, 0.1);
  Eigen::VectorXd vdot(model.nv);
  for (auto _ : state) {
    formulation.accelerations(0.0, model.q0, v, vdot);
    benchmark::DoNotOptimize(vdot.data());
  }
}

void Aba(benchmark::State& state, bool spatial) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  auto aba = makeFormulation("aba", model);
  evaluate(state, model, *aba);
}

void Dca(benchmark::State& state, bool spatial, int threads) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  DcaFormulation dca(model, DcaOptions{threads});
  evaluate(state, model, dca);
  state.counters["depth"] = dca.tree().depth();
}

#define ARTICULA_DCA_SIZES ->Arg(4)->Arg(16)->Arg(64)->Arg(256)->Arg(1024)

BENCHMARK_CAPTURE(Aba, chain, false) ARTICULA_DCA_SIZES;
BENCHMARK_CAPTURE(Dca, chain_1thread, false, 1) ARTICULA_DCA_SIZES;
BENCHMARK_CAPTURE(Dca, chain_2threads, false, 2) ARTICULA_DCA_SIZES;
BENCHMARK_CAPTURE(Aba, spatial, true) ARTICULA_DCA_SIZES;
BENCHMARK_CAPTURE(Dca, spatial_1thread, true, 1) ARTICULA_DCA_SIZES;
BENCHMARK_CAPTURE(Dca, spatial_2threads, true, 2) ARTICULA_DCA_SIZES;

}  // namespace

BENCHMARK_MAIN();
