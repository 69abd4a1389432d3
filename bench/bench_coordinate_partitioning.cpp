// One accelerations() evaluation of the coordinate partitioning (seed 004 section 2.1) on the
// N-four-bar, with the dependent block solved densely (LU of the square r x r block) and by
// SuiteSparseQR (the redundant-but-compatible m x r block, section 3.1). The split is selected
// before timing; every evaluation refactorises the block and solves for R and the particular
// acceleration (eq. (31)-(33)), then the reduced equations (eq. (38)).
// Run: build-bench/bin/bench_coordinate_partitioning --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "articula/dynamics/coordinate_partitioning.hpp"
#include "articula/model/generators.hpp"

using namespace articula;

namespace {

void Accelerations(benchmark::State& state, CoordinatePartitioning::DependentSolver solver) {
  const Model model = makeNFourBar(static_cast<int>(state.range(0)));
  CoordinatePartitioning partitioning(model, solver);
  Eigen::VectorXd vdot(model.nv);
  partitioning.accelerations(0.0, model.q0, model.v0, vdot);  // selects the split
  for (auto _ : state) {
    partitioning.accelerations(0.0, model.q0, model.v0, vdot);
    benchmark::DoNotOptimize(vdot.data());
  }
  state.counters["dependent"] = static_cast<double>(model.nv - partitioning.independent().size());
  state.counters["equations"] = model.constraintCount();
}

}  // namespace

// N four-bars: r = 2N dependent coordinates.
void fourBarCounts(benchmark::internal::Benchmark* b) {
  for (int n : {2, 5, 10, 20, 30, 40, 50}) b->Arg(n);
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(Accelerations, dense, CoordinatePartitioning::DependentSolver::Dense)->Apply(fourBarCounts);
BENCHMARK_CAPTURE(Accelerations, sparse, CoordinatePartitioning::DependentSolver::Sparse)->Apply(fourBarCounts);

BENCHMARK_MAIN();
