// A multibody model in first-order form x = [q; v] for the explicit integrators,
// with the constraint stabilisation applied after each accepted step.
#pragma once

#include <memory>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/integrate/ode.hpp"

namespace articula {

enum class Stabilization { None, Baumgarte, Projection };

class MultibodySystem final : public OdeSystem {
 public:
  MultibodySystem(const Model& model, std::unique_ptr<Formulation> formulation, Stabilization stabilization,
                  double projectionTolerance = 1e-12);

  int size() const override { return model_.nq + model_.nv; }
  void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override;
  /// Normalises quaternions and, with projection stabilisation, projects positions
  /// then velocities onto the constraint manifold.
  bool afterStep(double t, Eigen::VectorXd& x) override;

  const Formulation& formulation() const { return *formulation_; }
  ConstraintProjector& projector() { return projector_; }
  /// Largest position residual left by a projection so far (0 without projection).
  double worstProjectionResidual() const { return worstProjection_; }

 private:
  const Model& model_;
  std::unique_ptr<Formulation> formulation_;
  Stabilization stabilization_;
  double projectionTolerance_;
  ConstraintProjector projector_;
  Eigen::VectorXd q_, v_, vdot_;
  double worstProjection_ = 0.0;
};

}  // namespace articula
