// Q(t, q, v) of the semi-recursive formulation from scratch (kinematics, force elements, then
// SemiRecursiveDynamics::forces), for tests that difference the forces.
#pragma once

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/semi_recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula::test_models {

inline Eigen::VectorXd generalisedForces(const Model& model, double t, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& v) {
  Workspace ws(model);
  updateVelocities(model, ws, q, v);
  evaluateForceElements(model, ws, t, q, v);
  Eigen::VectorXd Q(model.nv);
  SemiRecursiveDynamics(model).forces(ws, Q);
  return Q;
}

}  // namespace articula::test_models
