// Helpers shared by the tests of the index-3 formulations (hybrid, global) and
// their structural integrators.
#pragma once

#include <cmath>
#include <string>

#include "articula/dynamics/formulation.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/constraints.hpp"
#include "articula/kinematics/kinematics.hpp"
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

}  // namespace articula::test_models
