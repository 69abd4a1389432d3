// The divide-and-conquer family on the planar and spatial chains, 1 and 2 threads: one evaluation
// of Hamilton's equations by the Hamiltonian algorithm (hdca: v and pdot from (t, q, p)) and one
// accelerations() evaluation of the acceleration-level DCA (dca), next to the articulated-body
// algorithm (aba); the assembly tree's depth is reported as a counter. All include evaluating the
// (empty) force elements; aba and hdca take their planar kernels on the planar chain, dca stays 6D.
// The *_serial_tree rows run one thread on the serial assembly tree (serialPairing), the others on
// the balanced one.
// HdcaLoops/ReferenceLoops: the same on the N-four-bar's closed loops; Kinematics: the serial
// position recursion alone; TeamRun/TeamBarrier: the fixed costs of the two-thread columns (a run
// of a two-member thread team that does nothing, and one barrier), which depend on how far apart
// the machine's two cores are. scripts/dc-scaling.py turns the JSON output into docs/benchmarks.md's
// tables, the fitted scaling law and the many-core projection.
// Run: build-bench/bin/bench_divide_and_conquer --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "articula/dynamics/dca.hpp"
#include "articula/dynamics/hdca.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "articula/parallel/thread_team.hpp"
#include "formulation_loop.hpp"

using namespace articula;

namespace {

void Aba(benchmark::State& state, bool spatial) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  auto aba = makeFormulation("aba", model);
  benchmarkAccelerations(state, model, *aba);
}

void Dca(benchmark::State& state, bool spatial, int threads, PairingPolicy pairing = balancedPairing) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  DcaFormulation dca(model, DcaOptions{threads, pairing});
  benchmarkAccelerations(state, model, dca);
  state.counters["depth"] = dca.tree().depth();
}

void HdcaHamilton(benchmark::State& state, bool spatial, int threads, PairingPolicy pairing = balancedPairing) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  Hdca hdca(model, HdcaOptions{threads, pairing});
  Eigen::VectorXd p(model.nv), v(model.nv), pdot(model.nv);
  hdca.momenta(model.q0, Eigen::VectorXd::Constant(model.nv, 0.1), p);
  for (auto _ : state) {
    hdca.derivatives(0.0, model.q0, p, v, pdot);
    benchmark::DoNotOptimize(pdot.data());
  }
  state.counters["depth"] = hdca.tree().depth();
}

// The serial part of an evaluation that the tree schedule does not share: the positions of all
// bodies by the recursive kinematics (updatePositions), for the scaling model of docs/benchmarks.md.
void Kinematics(benchmark::State& state, bool spatial) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  Workspace ws(model);
  for (auto _ : state) {
    updatePositions(model, ws, model.q0);
    benchmark::DoNotOptimize(ws.X0.data());
  }
}

#define ARTICULA_DC_SIZES ->Arg(4)->Arg(16)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096)

BENCHMARK_CAPTURE(Kinematics, chain, false) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Kinematics, spatial, true) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Aba, chain, false) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Dca, chain_1thread, false, 1) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Dca, chain_2threads, false, 2) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(HdcaHamilton, chain_1thread, false, 1) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(HdcaHamilton, chain_2threads, false, 2) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Dca, chain_serial_tree, false, 1, serialPairing) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(HdcaHamilton, chain_serial_tree, false, 1, serialPairing) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Aba, spatial, true) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Dca, spatial_1thread, true, 1) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Dca, spatial_2threads, true, 2) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(HdcaHamilton, spatial_1thread, true, 1) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(HdcaHamilton, spatial_2threads, true, 2) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(Dca, spatial_serial_tree, true, 1, serialPairing) ARTICULA_DC_SIZES;
BENCHMARK_CAPTURE(HdcaHamilton, spatial_serial_tree, true, 1, serialPairing) ARTICULA_DC_SIZES;

// Closed loops: the IFToMM A02 N-four-bar (N loops, 2N + 1 bodies): one HDCA evaluation (a full
// sweep plus one right-hand-side sweep per constraint row, rows = 5 N) against one evaluation of
// the reference formulation's accelerations (dense mass matrix and constraint decomposition).
void HdcaLoops(benchmark::State& state) {
  const Model model = makeNFourBar(static_cast<int>(state.range(0)));
  Hdca hdca(model);
  Eigen::VectorXd p(model.nv), v(model.nv), pdot(model.nv);
  hdca.momenta(model.q0, model.v0, p);
  for (auto _ : state) {
    hdca.derivatives(0.0, model.q0, p, v, pdot);
    benchmark::DoNotOptimize(pdot.data());
  }
}

void ReferenceLoops(benchmark::State& state) {
  const Model model = makeNFourBar(static_cast<int>(state.range(0)));
  auto reference = makeFormulation("reference", model);
  benchmarkAccelerations(state, model, *reference);
}

// A team's dispatch and join, and a barrier (per barrier: 100 in a run, the run's cost spread).
void TeamRun(benchmark::State& state) {
  parallel::ThreadTeam team(2);
  for (auto _ : state) team.run([] {});
}
void TeamBarrier(benchmark::State& state) {
  constexpr int kBarriers = 100;
  parallel::ThreadTeam team(2);
  for (auto _ : state)
    team.run([&] {
      for (int k = 0; k < kBarriers; ++k) team.barrier();
    });
  state.counters["per_barrier"] = benchmark::Counter(static_cast<double>(state.iterations()) * kBarriers,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(TeamRun)->UseRealTime();
BENCHMARK(TeamBarrier)->UseRealTime();

BENCHMARK(HdcaLoops)->Arg(1)->Arg(4)->Arg(16);
BENCHMARK(ReferenceLoops)->Arg(1)->Arg(4)->Arg(16);

}  // namespace

BENCHMARK_MAIN();
