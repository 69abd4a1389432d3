// The benchmark loop shared by the bench files: one accelerations() evaluation per iteration at
// the model's initial positions and velocities 0.1.
#pragma once

#include <benchmark/benchmark.h>

#include "articula/dynamics/formulation.hpp"

namespace articula {

inline void benchmarkAccelerations(benchmark::State& state, const Model& model, Formulation& formulation) {
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(model.nv, 0.1);
  Eigen::VectorXd vdot(model.nv);
  for (auto _ : state) {
    formulation.accelerations(0.0, model.q0, v, vdot);
    benchmark::DoNotOptimize(vdot.data());
  }
}

}  // namespace articula
