// Hamilton's equations of an open tree as a first-order ODE for the explicit integrators:
// x = [q; p], joint coordinates and joint canonical momenta p = M(q) v (dynamics/hdca.hpp),
// xdot = [G(q) v(q, p); pdot(t, q, p)] from one HDCA evaluation.
#pragma once

#include "articula/dynamics/hdca.hpp"
#include "articula/integrate/ode.hpp"

namespace articula {

class HamiltonianSystem final : public OdeSystem {
 public:
  /// Throws articula::Error as Hdca does (loop closures, prescribed motion, threads < 1).
  explicit HamiltonianSystem(const Model& model, const HdcaOptions& options = {});

  int size() const override { return model_.nq + model_.nv; }
  /// Does not allocate.
  void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override;
  /// Renormalises the quaternions of q; p is left as it is.
  bool afterStep(double t, Eigen::VectorXd& x) override;

  /// [q; v] -> [q; p] and [q; p] -> [q; v] (the state maps p = M(q) v, v = M(q)^-1 p).
  void canonicalState(const Eigen::VectorXd& qv, Eigen::VectorXd& qp);
  void velocityState(const Eigen::VectorXd& qp, Eigen::VectorXd& qv);
  /// The Hamiltonian 1/2 p^T v + gravitational and spring potential at x = [q; p].
  double energy(const Eigen::VectorXd& qp);

  Hdca& hdca() { return hdca_; }

 private:
  const Model& model_;
  Hdca hdca_;
  Workspace ws_;  // poses for the potential energy
  Eigen::VectorXd q_, p_, v_, pdot_;
};

}  // namespace articula
