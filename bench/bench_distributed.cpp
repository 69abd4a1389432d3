// The distributed formulation (seed 003's subsystem method, docs/distributed.md) on the planar and
// spatial chains, one process and one thread, split into 1, 2 and 8 subsystems, next to the
// articulated-body algorithm on the same chain (Aba: the planar kernel on the planar chain;
// Aba/planar_6D_kernel: the 6D kernel, which the distributed formulation's subsystems run). One
// accelerations() evaluation each, force elements included. Counters: subsystems, and the bytes
// of D, R and Q that pass between hierarchy levels per evaluation.
// Run: build-bench/bin/bench_distributed --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "articula/dynamics/distributed.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/model/generators.hpp"
#include "formulation_loop.hpp"

using namespace articula;

namespace {

// What the "aba" formulation evaluates (dynamics/formulation.cpp): force elements, then ABA, with
// forwardDynamics's choice of kernel (planar on the planar chain) or the 6D kernel throughout.
void Aba(benchmark::State& state, bool spatial, bool sixD) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  Workspace ws(model);
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(model.nv, 0.1);
  Eigen::VectorXd vdot(model.nv);
  for (auto _ : state) {
    evaluateForceElements(model, ws, 0.0, model.q0, v);
    if (sixD)
      spatialForwardDynamics(model, ws, model.q0, v, ws.tau, &ws.fext, vdot);
    else
      forwardDynamics(model, ws, model.q0, v, ws.tau, &ws.fext, vdot);
    benchmark::DoNotOptimize(vdot.data());
  }
}

void Distributed(benchmark::State& state, bool spatial) {
  const Model model = makeChain(static_cast<int>(state.range(0)), spatial);
  FormulationOptions o;
  o.subsystems = static_cast<int>(state.range(1));
  DistributedFormulation f(model, o);
  benchmarkAccelerations(state, model, f);
  state.counters["subsystems"] = static_cast<double>(f.hierarchy().subsystems.size());
  state.counters["bytes"] = static_cast<double>(f.exchangedBytesPerEvaluation());
}

}  // namespace

BENCHMARK_CAPTURE(Aba, planar, false, false)->Arg(64)->Arg(256)->Arg(1024);
BENCHMARK_CAPTURE(Aba, planar_6D_kernel, false, true)->Arg(64)->Arg(256)->Arg(1024);
BENCHMARK_CAPTURE(Distributed, planar, false)->ArgsProduct({{64, 256, 1024}, {1, 2, 8}});
BENCHMARK_CAPTURE(Aba, spatial, true, false)->Arg(64)->Arg(256)->Arg(1024);
BENCHMARK_CAPTURE(Distributed, spatial, true)->ArgsProduct({{64, 256, 1024}, {1, 2, 8}});

BENCHMARK_MAIN();
