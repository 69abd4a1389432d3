#include <cmath>
#include <string>

#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

void forwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot) {
  updateVelocities(model, ws, q, v);
  const int n = model.bodyCount();
  // Pass 1: rigid-body inertias and velocity-product bias forces.
  for (int i = 1; i <= n; ++i) {
    const SpatialInertia& I = model.bodies[i].inertia;
    ws.IA[i] = I.matrix();
    ws.pA[i] = crossForce(ws.v[i], I * ws.v[i]);
    if (fext) ws.pA[i] -= (*fext)[i];
  }
  // Pass 2: articulated inertias from the leaves to the root.
  for (int i = n; i >= 1; --i) {
    const Joint& j = model.joints[i];
    const auto& S = ws.joint[i].S;
    ws.U[i].noalias() = ws.IA[i] * S;
    ws.u[i] = tau.segment(j.iv, j.nv) - S.transpose() * ws.pA[i].vector();
    if (j.nv == 1) {
      const double D = S.col(0).dot(ws.U[i].col(0));
      if (!(D > 0.0) || !std::isfinite(D))
        throw Error("articulated inertia is singular at joint '" + j.name + "' (a massless leaf or zero inertia about its axis)");
      ws.Dinv[i](0, 0) = 1.0 / D;
    } else if (j.nv > 1) {
      const SmallMatrix D = S.transpose() * ws.U[i];
      Eigen::LDLT<SmallMatrix> ldlt(D);
      if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || ldlt.vectorD().minCoeff() <= 0.0)
        throw Error("articulated inertia is singular at joint '" + j.name + "'");
      ws.Dinv[i] = ldlt.solve(SmallMatrix::Identity(j.nv, j.nv));
    }
    if (j.parent == 0) continue;
    const Mat6 Ia = ws.IA[i] - ws.U[i] * ws.Dinv[i] * ws.U[i].transpose();
    const Vec6 pa = ws.pA[i].vector() + Ia * ws.c[i].vector() + ws.U[i] * (ws.Dinv[i] * ws.u[i]);
    ws.IA[j.parent] += transformInertiaToParent(ws.Xup[i], Ia);
    ws.pA[j.parent] += ws.Xup[i].applyInverse(Force::fromVector(pa));
  }
  // Pass 3: accelerations from the root to the leaves.
  const Motion a0(Vec3::Zero(), -model.gravity);
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    const Motion ap = ws.Xup[i].apply(j.parent == 0 ? a0 : ws.a[j.parent]) + ws.c[i];
    auto qdd = vdot.segment(j.iv, j.nv);
    qdd = ws.Dinv[i] * (ws.u[i] - ws.U[i].transpose() * ap.vector());
    ws.a[i] = ap + Motion::fromVector(ws.joint[i].S * qdd);
  }
}

}  // namespace articula
