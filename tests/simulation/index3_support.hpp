// Helpers shared by the tests of the index-3 formulations (hybrid, global) and
// their structural integrators.
#pragma once

#include <cmath>
#include <string>

#include "articula/core/archive.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/integrate/structural.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/system.hpp"
#include "four_bar_models.hpp"
#include "recorder.hpp"

namespace articula::test_models {

inline Model modelFile(const char *name) { return loadModel(std::string(ARTICULA_SOURCE_DIR) + "/models/" + name); }
inline Model fourBar() { return fourBarCutAtC().build(); }

inline double infNorm(const Eigen::VectorXd &x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

// Final positions of a run; fails the test when the run fails.
inline Eigen::VectorXd finalPositions(const Model &model, const SimulationOptions &o) {
  Recorder rec;
  const SimulationResult r = simulate(model, o, {&rec});
  EXPECT_TRUE(r.ok) << r.error;
  return rec.q.empty() ? Eigen::VectorXd() : rec.q.back();
}

// The reference formulation with rk45 at 1e-12: its error is orders of
// magnitude below the structural integrators' at the steps used in these tests.
inline Eigen::VectorXd referencePositions(const Model &model, double tEnd) {
  SimulationOptions o;
  o.formulation = "reference";
  o.integratorOptions.rtol = 1e-12;
  o.integratorOptions.atol = 1e-12;
  o.integratorOptions.dt = 0.0;
  o.tEnd = tEnd;
  o.outputInterval = tEnd;
  return finalPositions(model, o);
}

inline SimulationOptions structural(const char *formulation, const char *integrator, double dt, double tEnd,
                                    double basic = NAN) {
  SimulationOptions o;
  o.formulation = formulation;
  o.integrator = integrator;
  o.integratorOptions.dt = dt;
  o.basicParameter = basic;
  o.tEnd = tEnd;
  o.outputInterval = tEnd;
  return o;
}

inline double positionError(const Model &model, const SimulationOptions &o, const Eigen::VectorXd &reference) {
  return infNorm(finalPositions(model, o) - reference);
}

// Acceleration-level constraint residual |J a - gamma|_inf at a state (joint
// coordinates).
inline double accelerationResidual(const Model &model, double t, const Eigen::VectorXd &x, const Eigen::VectorXd &a) {
  Workspace ws(model);
  ConstraintEvaluator c(model);
  updateVelocities(model, ws, x.head(model.nq), x.tail(model.nv));
  c.jacobian(ws, t);
  c.accelerationBias(ws, t);
  return (c.J * a - c.gamma).cwiseAbs().maxCoeff();
}

// Restart archives: for each structural integrator, one restored from an archive saved after 137
// steps of 1e-3 s from the assembled initial state takes exactly the steps the saved one would have.
inline void expectRestoredContinuesBitForBit(const Model &model, const char *formulation,
                                             const AugmentedLagrangianOptions &options = {}) {
  Eigen::VectorXd q = model.q0, v = model.v0;
  assemble(model, 0.0, q, v);
  Eigen::VectorXd x(model.nq + model.nv);
  x << q, v;
  IntegratorOptions o;
  o.dt = 1e-3;
  for (std::string_view integrator : structuralIntegratorNames()) {
    MultibodySystem system(model, makeFormulation("reference", model), Stabilization::None);
    auto problem = makeIndex3Problem(formulation, model, options),
         resumedProblem = makeIndex3Problem(formulation, model, options);
    auto whole = makeStructuralIntegrator(integrator, NAN, o, *problem);
    whole->initialize(system, 0.0, x);
    for (int k = 0; k < 137; ++k) whole->step(0.3);
    ArchiveWriter saved;
    whole->save(saved);
    ArchiveReader reader(saved.bytes(), "test");
    auto resumed = makeStructuralIntegrator(integrator, NAN, o, *resumedProblem);
    resumed->restore(system, reader);
    EXPECT_TRUE(reader.atEnd()) << formulation << " " << integrator;
    while (whole->time() < 0.3) {
      whole->step(0.3);
      resumed->step(0.3);
      ASSERT_EQ(whole->time(), resumed->time()) << formulation << " " << integrator;
      ASSERT_EQ(whole->state(), resumed->state()) << formulation << " " << integrator << " at t = " << whole->time();
    }
    EXPECT_EQ(whole->stats().evaluations, resumed->stats().evaluations) << formulation << " " << integrator;
  }
}

}  // namespace articula::test_models
