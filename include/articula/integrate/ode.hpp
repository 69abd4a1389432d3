// The interface between a formulation written as a first-order ODE and the
// time integrators.
#pragma once

#include <Eigen/Core>

namespace articula {

class OdeSystem {
 public:
  virtual ~OdeSystem() = default;
  /// Dimension of the state vector x.
  virtual int size() const = 0;
  /// xdot = f(t, x). Must not allocate; xdot is already sized.
  virtual void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) = 0;
  /// Called once after every accepted step with the new state; may modify x in place
  /// (e.g. quaternion normalisation, projection onto constraints). Returns true when x changed.
  virtual bool afterStep(double /*t*/, Eigen::VectorXd& /*x*/) { return false; }
};

}  // namespace articula
