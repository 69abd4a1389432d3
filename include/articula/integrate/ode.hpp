// The interface between a formulation written as a first-order ODE and the
// time integrators.
#pragma once

#include <Eigen/Core>

#include "articula/core/error.hpp"

namespace articula {

/// Thrown by OdeSystem::afterStep when it cannot correct the new state (a projection whose
/// Newton iteration does not converge): the integrator discards the step and retries with
/// a smaller one where the method can, and otherwise stops with this message.
class StepRejected : public Error {
 public:
  using Error::Error;
};

class OdeSystem {
 public:
  virtual ~OdeSystem() = default;
  /// Dimension of the state vector x.
  virtual int size() const = 0;
  /// xdot = f(t, x). Must not allocate; xdot is already sized.
  virtual void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) = 0;
  /// Called once after every accepted step with the new state; may modify x in place
  /// (e.g. quaternion normalisation, projection onto constraints). Returns true when x changed;
  /// throws StepRejected when x cannot be corrected.
  virtual bool afterStep(double /*t*/, Eigen::VectorXd& /*x*/) { return false; }
};

}  // namespace articula
