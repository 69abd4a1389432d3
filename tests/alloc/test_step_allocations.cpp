// The step loop allocates nothing: global operator new is counted while a model is
// integrated, after the workspaces were sized.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>

#include "../simulation/four_bar_models.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/hamiltonian_system.hpp"
#include "articula/simulate/simulation.hpp"
#include "articula/simulate/system.hpp"

namespace {
std::atomic<long> allocations{0};
}

void* operator new(std::size_t n) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::aligned_alloc(
          static_cast<std::size_t>(a),
          (n + static_cast<std::size_t>(a) - 1) / static_cast<std::size_t>(a) * static_cast<std::size_t>(a)))
    return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

using namespace articula;

namespace {
long allocationsDuringSteps(const char* formulation, const char* integrator, const Model& model) {
  MultibodySystem system(model, makeFormulation(formulation, model), Stabilization::Projection);
  IntegratorOptions o;
  o.dt = 1e-3;
  auto integ = makeIntegrator(integrator, o);
  Eigen::VectorXd x(model.nq + model.nv);
  x << model.q0, model.v0;
  integ->initialize(system, 0.0, x);
  integ->step(1.0);  // warm-up: first evaluations may size lazily
  const long before = allocations.load();
  for (int k = 0; k < 200; ++k) integ->step(1.0);
  return allocations.load() - before;
}
}  // namespace

TEST(StepAllocations, AbaWithEveryIntegratorAllocatesNothing) {
  const Model model = makeChain(16, true);
  for (const char* integrator : {"euler", "rk4", "rk45"})
    EXPECT_EQ(allocationsDuringSteps("aba", integrator, model), 0) << integrator;
}

TEST(StepAllocations, PlanarAbaAllocatesNothing) {
  const Model model = makeChain(16, false);  // planar: forwardDynamics takes the 3x3 kernel
  EXPECT_EQ(allocationsDuringSteps("aba", "rk4", model), 0);
}

TEST(StepAllocations, CrbaAllocatesNothing) {
  const Model model = makeChain(16, true);
  EXPECT_EQ(allocationsDuringSteps("crba", "rk4", model), 0);
}

TEST(StepAllocations, DcaAllocatesNothing) {
  const Model model = makeChain(16, true);
  EXPECT_EQ(allocationsDuringSteps("dca", "rk4", model), 0);
}

// HDCA in [q; p] with rk4: a spatial chain (1 and 2 threads), and closed loops with the position
// projection after every step (the four-bar with a spring-damper, the RSSR with its ball loop).
TEST(StepAllocations, HdcaAllocatesNothing) {
  auto count = [](const Model& model, int threads, bool project) {
    HamiltonianSystem system(model, HdcaOptions{threads}, project);
    IntegratorOptions o;
    o.dt = 1e-3;
    auto integ = makeIntegrator("rk4", o);
    Eigen::VectorXd qv(model.nq + model.nv), qp(model.nq + model.nv);
    qv << model.q0, model.v0;
    system.canonicalState(qv, qp);
    integ->initialize(system, 0.0, qp);
    integ->step(1.0);  // warm-up
    const long before = allocations.load();
    for (int k = 0; k < 200; ++k) integ->step(1.0);
    return allocations.load() - before;
  };
  const Model chain = makeChain(16, true);
  EXPECT_EQ(count(chain, 1, false), 0);
  EXPECT_EQ(count(chain, 2, false), 0);
  EXPECT_EQ(count(test_models::fourBarWithShock(), 1, true), 0);
  EXPECT_EQ(count(makeRssr(0.4), 1, true), 0);
}

TEST(StepAllocations, SemiRecursiveAllocatesNothing) {
  const Model model = makeChain(16, true);
  EXPECT_EQ(allocationsDuringSteps("semi-recursive", "rk4", model), 0);
}

namespace {
// Operator new only: CHOLMOD and KLU allocate through malloc, which this test does not see; they
// allocate nothing after their first factorisation (linalg/*.hpp), SPQR does (not on this path).
void expectStructuralStepsAllocateNothing(const char* formulation, const Model& model,
                                          const AugmentedLagrangianOptions& options = {}) {
  Eigen::VectorXd q = model.q0, v = model.v0;
  assemble(model, 0.0, q, v);
  Eigen::VectorXd x(model.nq + model.nv);
  x << q, v;
  for (const char* integrator : {"trapezoidal", "newmark", "hht", "generalized-alpha"}) {
    auto problem = makeIndex3Problem(formulation, model, options);
    MultibodySystem system(model, makeFormulation("reference", model), Stabilization::None);
    IntegratorOptions o;
    o.dt = 1e-3;
    auto integ = makeStructuralIntegrator(integrator, std::numeric_limits<double>::quiet_NaN(), o, *problem);
    integ->initialize(system, 0.0, x);
    integ->step(1.0);
    const long before = allocations.load();
    for (int k = 0; k < 200; ++k) integ->step(1.0);
    EXPECT_EQ(allocations.load() - before, 0) << formulation << " " << integrator;
  }
}
}  // namespace

TEST(StepAllocations, IndexThreeFormulationsWithEveryStructuralIntegratorAllocateNothing) {
  const Model model = test_models::fourBarWithShock();
  AugmentedLagrangianOptions finiteDifference;
  finiteDifference.finiteDifferenceTangent = true;
  for (const char* formulation : {"hybrid", "global"}) {
    expectStructuralStepsAllocateNothing(formulation, model);
    expectStructuralStepsAllocateNothing(formulation, model, finiteDifference);
  }
}

namespace {
// Allocations of a whole simulate() run of tEnd seconds, without sinks.
long allocationsOfRun(const Model& model, SimulationOptions o, double tEnd) {
  o.tEnd = tEnd;
  const long before = allocations.load();
  const SimulationResult r = simulate(model, o, {});
  const long count = allocations.load() - before;
  EXPECT_TRUE(r.ok) << r.error;
  return count;
}
}  // namespace

// The run loop of simulate() itself allocates nothing per step or per sample: a run twice as long
// allocates the same (setting up, the result's strings). HDCA (its state [q; p] mapped to [q; v]
// for every sample, interpolated ones with rk45; 2 threads briefly, since their barriers are slow
// on busy cores) next to ABA.
TEST(StepAllocations, SimulateRunLoopAllocatesNothingPerStep) {
  const Model chain = makeChain(16, true);
  for (const char* formulation : {"aba", "hdca"})
    for (const char* integrator : {"rk4", "rk45"}) {
      SimulationOptions o;
      o.formulation = formulation;
      o.integrator = integrator;
      o.integratorOptions.dt = 1e-3;
      o.outputInterval = 0.005;
      EXPECT_EQ(allocationsOfRun(chain, o, 0.4), allocationsOfRun(chain, o, 0.2)) << formulation << " " << integrator;
    }
  SimulationOptions twoThreads;
  twoThreads.formulation = "hdca";
  twoThreads.integrator = "rk4";
  twoThreads.augmentedLagrangian.derivatives.threads = 2;
  twoThreads.outputInterval = 0.002;
  const long setUp = allocationsOfRun(chain, twoThreads, 0.01);
  EXPECT_GT(setUp, 0);  // the counter sees simulate()'s own allocations
  EXPECT_EQ(allocationsOfRun(chain, twoThreads, 0.02), setUp);
}
