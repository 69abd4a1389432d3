// Finite-difference stiffness and damping matrices (seed 004 eq. (52)-(53)) on a two-branch
// system, with 1 and 2 threads and with and without topology grouping (seed 004 Table 2 layout):
// in joint coordinates (the hybrid formulation's K and C) and in natural coordinates (the global
// formulation's, with --tangent finite-difference).
// Run: build/bin/bench_force_derivatives --benchmark_repetitions=9 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <string>

#include "articula/dynamics/force_derivatives.hpp"
#include "articula/dynamics/natural_force_derivatives.hpp"
#include "articula/kinematics/workspace.hpp"
#include "articula/model/builder.hpp"

using namespace articula;

namespace {

// Two spatial chains of `links` bodies hanging from the ground 2 m apart (a tractor and a
// trailer seen as two tree branches), each link tied to the next by a spring-damper.
Model twoBranches(int links) {
  ModelBuilder b;
  const Vec3 axes[3] = {Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()};
  for (const std::string side : {"tractor", "trailer"})
    for (int i = 1; i <= links; ++i) {
      BodySpec body;
      body.name = side + std::to_string(i);
      body.mass = 1.0;
      body.com = Vec3(0.25, 0, 0);
      body.inertia = boxInertia(1.0, Vec3(0.5, 0.05, 0.05));
      b.addBody(body);
      JointSpec j;
      j.name = "j" + body.name;
      j.type = JointType::Revolute;
      j.parent = i == 1 ? "ground" : side + std::to_string(i - 1);
      j.child = body.name;
      j.position = i == 1 ? Vec3(side == "tractor" ? -1.0 : 1.0, 0, 0) : Vec3(0.5, 0, 0);
      j.axis = axes[i % 3];
      j.q0 = {0.1};
      b.addJoint(j);
      if (i > 1) {
        PointSpringSpec s;
        s.name = "s" + body.name, s.bodyA = side + std::to_string(i - 1), s.bodyB = body.name;
        s.pointA = Vec3(0.1, 0.05, 0), s.pointB = Vec3(0.3, 0, 0.05);
        s.stiffness = 100.0, s.damping = 2.0, s.restLength = 0.4;
        b.addPointSpring(s);
      }
    }
  return b.build();
}

void FiniteDifferenceTangent(benchmark::State& state) {
  const Model model = twoBranches(static_cast<int>(state.range(0)));
  ForceDerivatives d(model, {static_cast<int>(state.range(1)), state.range(2) != 0});
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(model.nv, 0.3);
  Eigen::MatrixXd K(model.nv, model.nv), C(model.nv, model.nv);
  for (auto _ : state) {
    d.evaluate(0.0, model.q0, v, K, C);
    benchmark::DoNotOptimize(K.data());
    benchmark::DoNotOptimize(C.data());
  }
  state.counters["sweeps"] = static_cast<double>(2 * d.groups().size() + 1);
}

void NaturalFiniteDifferenceTangent(benchmark::State& state) {
  const Model model = twoBranches(static_cast<int>(state.range(0)));
  const NaturalCoordinates natural(model);
  NaturalForceDerivatives d(natural, {static_cast<int>(state.range(1)), state.range(2) != 0});
  Workspace ws(model);
  Eigen::VectorXd x(natural.size()), xd(natural.size()), Q(natural.size());
  natural.fromJoint(ws, model.q0, Eigen::VectorXd::Constant(model.nv, 0.3), x, xd);
  natural.appliedForces(0.0, x, xd, model.q0, Q);
  for (auto _ : state) {
    d.evaluate(0.0, x, xd, model.q0, Q);
    benchmark::DoNotOptimize(d.stiffness().data());
    benchmark::DoNotOptimize(d.damping().data());
  }
  state.counters["sweeps"] = static_cast<double>(d.positionGroups().size() + d.velocityGroups().size());
}

}  // namespace

// Arguments: links per branch, threads, grouping.
BENCHMARK(FiniteDifferenceTangent)
    ->ArgNames({"links", "threads", "grouped"})
    ->ArgsProduct({{20}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();  // wall time: the threads work in parallel
BENCHMARK(NaturalFiniteDifferenceTangent)
    ->ArgNames({"links", "threads", "grouped"})
    ->ArgsProduct({{20}, {1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

BENCHMARK_MAIN();
