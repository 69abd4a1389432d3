// Helpers of the distributed formulation's tests: random states and the comparison of
// accelerations between formulations.
#pragma once

#include <random>

#include "articula/dynamics/distributed.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula::test_models {

/// A state near (model.q0, model.v0): every coordinate moved by up to `spread` (quaternions along
/// the velocity-space increment, so they stay unit), velocities uniform in [-spread, spread].
inline void randomState(const Model& model, unsigned seed, double spread, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-spread, spread);
  q = model.q0;
  Eigen::VectorXd dq(model.nv);
  for (Eigen::Index k = 0; k < model.nv; ++k) dq[k] = u(rng);
  integrateConfiguration(model, q, dq);
  v.resize(model.nv);
  for (Eigen::Index k = 0; k < model.nv; ++k) v[k] = u(rng);
}

/// |a - b|_inf / |b|_inf.
inline double relativeDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

/// The distributed formulation's accelerations at (q, v) with `subsystems` balanced parts (0: the
/// model's partition).
inline Eigen::VectorXd distributedAccelerations(const Model& model, int subsystems, const Eigen::VectorXd& q,
                                                const Eigen::VectorXd& v, double t = 0.0) {
  FormulationOptions o;
  o.subsystems = subsystems;
  DistributedFormulation f(model, o);
  Eigen::VectorXd vdot(model.nv);
  f.accelerations(t, q, v, vdot);
  return vdot;
}

inline Eigen::VectorXd accelerationsOf(const char* formulation, const Model& model, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v, double t = 0.0) {
  auto f = makeFormulation(formulation, model);
  Eigen::VectorXd vdot(model.nv);
  f->accelerations(t, q, v, vdot);
  return vdot;
}

}  // namespace articula::test_models
