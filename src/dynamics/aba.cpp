#include <cmath>
#include <string>

#include "articula/dynamics/recursive.hpp"

namespace articula {

namespace {

[[noreturn]] void singular(const Joint& j) {
  throw Error("articulated inertia is singular at joint '" + j.name + "' (a massless leaf or zero inertia about its axis)");
}

// Pass 2 for a single-dof joint with fixed-size arithmetic; returns the articulated
// inertia and bias force to hand to the parent.
void projectSingleDof(Workspace& ws, int i, const Joint& j, double tau, Mat6& Ia, Vec6& pa) {
  const Vec6& s = ws.s1[i];
  Vec6& U = ws.U1[i];
  U.noalias() = ws.IA[i] * s;
  const double D = s.dot(U);
  if (!(D > 0.0) || !std::isfinite(D)) singular(j);
  ws.invD1[i] = 1.0 / D;
  ws.u1[i] = tau - s.dot(ws.pA[i].vector());
  Ia = ws.IA[i];
  Ia.noalias() -= (ws.invD1[i] * U) * U.transpose();
  pa = ws.pA[i].vector();
  pa.noalias() += Ia * ws.c[i].vector();
  pa += (ws.invD1[i] * ws.u1[i]) * U;
}

// Pass 2 for joints with 0 or several dofs.
void projectMultiDof(Workspace& ws, int i, const Joint& j, const Eigen::VectorXd& tau, Mat6& Ia, Vec6& pa) {
  const auto& S = ws.joint[i].S;
  ws.U[i].noalias() = ws.IA[i] * S;
  ws.u[i] = tau.segment(j.iv, j.nv) - S.transpose() * ws.pA[i].vector();
  Ia = ws.IA[i];
  pa = ws.pA[i].vector();
  if (j.nv > 0) {
    const SmallMatrix D = S.transpose() * ws.U[i];
    Eigen::LDLT<SmallMatrix> ldlt(D);
    if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || !(ldlt.vectorD().minCoeff() > 0.0)) singular(j);
    ws.Dinv[i] = ldlt.solve(SmallMatrix::Identity(j.nv, j.nv));
    Ia.noalias() -= ws.U[i] * ws.Dinv[i] * ws.U[i].transpose();
    pa.noalias() += ws.U[i] * (ws.Dinv[i] * ws.u[i]);
  }
  pa.noalias() += Ia * ws.c[i].vector();
}

}  // namespace

void forwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot) {
  const int n = model.bodyCount();
  // Pass 1: joint kinematics, body velocities, rigid-body inertias and bias forces.
  // Only the parent-to-child transforms are needed, not the world poses.
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    JointKinematics& jk = ws.joint[i];
    jointKinematics(j, q.data() + j.iq, v.data() + j.iv, jk);
    ws.Xup[i] = jk.XJ * j.placement;
    Motion vJ;
    if (j.nv == 1) {
      ws.s1[i] = jk.S.col(0);
      vJ = Motion::fromVector(ws.s1[i] * v[j.iv]);
    } else {
      vJ = Motion::fromVector(jk.S * v.segment(j.iv, j.nv));
    }
    ws.v[i] = j.parent == 0 ? vJ : ws.Xup[i].apply(ws.v[j.parent]) + vJ;
    ws.c[i] = jk.cJ + crossMotion(ws.v[i], vJ);  // RBDA eq. (5.7)
    const SpatialInertia& I = model.bodies[i].inertia;
    ws.IA[i] = I.matrix();
    ws.pA[i] = crossForce(ws.v[i], I * ws.v[i]);
    if (fext) ws.pA[i] -= (*fext)[i];
  }
  // Pass 2: articulated inertias from the leaves to the root (RBDA table 7.1).
  Mat6 Ia;
  Vec6 pa;
  for (int i = n; i >= 1; --i) {
    const Joint& j = model.joints[i];
    if (j.nv == 1)
      projectSingleDof(ws, i, j, tau[j.iv], Ia, pa);
    else
      projectMultiDof(ws, i, j, tau, Ia, pa);
    if (j.parent == 0) continue;
    ws.IA[j.parent] += transformInertiaToParent(ws.Xup[i], Ia);
    ws.pA[j.parent] += ws.Xup[i].applyInverse(Force::fromVector(pa));
  }
  // Pass 3: accelerations from the root to the leaves; gravity enters as a base acceleration.
  const Motion a0(Vec3::Zero(), -model.gravity);
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    const Motion ap = ws.Xup[i].apply(j.parent == 0 ? a0 : ws.a[j.parent]) + ws.c[i];
    if (j.nv == 1) {
      const double qdd = ws.invD1[i] * (ws.u1[i] - ws.U1[i].dot(ap.vector()));
      vdot[j.iv] = qdd;
      ws.a[i] = ap + Motion::fromVector(ws.s1[i] * qdd);
    } else {
      auto qdd = vdot.segment(j.iv, j.nv);
      qdd = ws.Dinv[i] * (ws.u[i] - ws.U[i].transpose() * ap.vector());
      ws.a[i] = ap + Motion::fromVector(ws.joint[i].S * qdd);
    }
  }
}

}  // namespace articula
