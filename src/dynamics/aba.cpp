// Articulated-body algorithm (RBDA table 7.1) carried out in world coordinates.
//
// The textbook algorithm works in body coordinates and moves every articulated
// inertia to its parent with the congruence X^T IA X, which dominates its cost.
// Expressed in one frame for all bodies (world axes, world origin as reference
// point) the same recursions need no change of frame between a body and its
// parent: the price is one rigid-body inertia and one motion subspace rotated
// into the world per body in the first pass, which is cheaper (RBDA section 7.3
// discusses the choice of coordinates; Pinocchio makes the same choice).
#include <cmath>
#include <string>

#include "aba_errors.hpp"
#include "aba_passes.hpp"
#include "articula/dynamics/recursive.hpp"

namespace articula {

namespace {

// Joints whose motion subspace is constant in the child frame have c_J = 0.
bool hasVelocityProductTerm(JointType type) {
  return type != JointType::Revolute && type != JointType::Prismatic && type != JointType::Cylindrical &&
         type != JointType::Fixed;
}

// A rigid body's spatial inertia about the world origin in world axes, in the block
// form [Ibar hx; hx^T m1] (RBDA eq. 2.63): Ibar is the rotational inertia about the
// origin, h = m c the first moment of mass.
struct WorldInertia {
  Mat3 Ibar;
  Vec3 h;
  double m;
};

// From the body's mass, centre of mass and central inertia and its pose X0 = ^i X_0.
WorldInertia worldInertia(const Body& b, const Transform& X0, bool diagonalInertia) {
  const Vec3 c = X0.inverseTransformPoint(b.com);
  Mat3 IcE;  // Ic E, so that E^T Ic E is Ic in world axes
  if (diagonalInertia)
    IcE = b.inertiaCom.diagonal().asDiagonal() * X0.E;
  else
    IcE.noalias() = b.inertiaCom * X0.E;
  WorldInertia I;
  I.m = b.mass;
  I.h = b.mass * c;
  const double hc = I.h.dot(c);
  // Ic rotated to world axes plus the parallel-axis term m (|c|^2 1 - c c^T); symmetric.
  for (int col = 0; col < 3; ++col)
    for (int row = col; row < 3; ++row) {
      const double value = X0.E.col(row).dot(IcE.col(col)) - I.h[row] * c[col] + (row == col ? hc : 0.0);
      I.Ibar(row, col) = value;
      I.Ibar(col, row) = value;
    }
  return I;
}

// Writes the 6x6 matrix of I entry by entry. (Copying blocks built on the stack made
// packed loads of scalar stores, which stall the store buffer: perf.)
void storeInertia(const WorldInertia& I, Mat6& out) {
  const Vec3& h = I.h;
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) out(row, col) = I.Ibar(row, col);
  for (int k = 0; k < 3; ++k) {
    out(k, 3 + k) = 0.0;
    out(3 + k, k) = 0.0;
  }
  out(0, 4) = -h.z(), out(0, 5) = h.y(), out(1, 3) = h.z(), out(1, 5) = -h.x(), out(2, 3) = -h.y(), out(2, 4) = h.x();
  out(4, 0) = -h.z(), out(5, 0) = h.y(), out(3, 1) = h.z(), out(5, 1) = -h.x(), out(3, 2) = -h.y(), out(4, 2) = h.x();
  for (int col = 3; col < 6; ++col)
    for (int row = 3; row < 6; ++row) out(row, col) = row == col ? I.m : 0.0;
}

// Bias force v x* (I v) of a rigid body moving with spatial velocity [w; vo]
// (RBDA eq. 5.9 with the momentum of eq. 2.63), as its moment and force parts.
void rigidBiasForce(const WorldInertia& I, const Vec3& w, const Vec3& vo, Vec3& moment, Vec3& force) {
  const Vec3 n = I.Ibar * w + I.h.cross(vo);  // momentum I v
  const Vec3 L = I.m * vo - I.h.cross(w);
  moment = w.cross(n) + vo.cross(L);
  force = w.cross(L);
}

// Pose ^i X_0 of the child of a revolute joint, and its axis in world coordinates.
// ^i X_p = rot(axis, q)^T * placement has no translation in the joint, so
// E = rot^T (B E_p) and the world axis is (B E_p)^T axis, which rot leaves alone.
Vec3 revolutePose(const Joint& j, const Workspace::ArticulatedBodies::BodyPlan& plan, const Transform& Xp, double q,
                  Transform& X0) {
  Mat3& E = X0.E;
  if (plan.rotatedPlacement)
    E.noalias() = j.placement.E * Xp.E;
  else
    E = Xp.E;
  X0.r = Xp.r;
  X0.r.noalias() += Xp.E.transpose() * j.placement.r;
  if (plan.revoluteAxis < 0) {
    const Vec3 axis = E.transpose() * j.axis;
    E = axisAngle(j.axis, q).transpose() * E;
    return axis;
  }
  // About a coordinate axis k the rotation mixes only the other two rows of E.
  const int k = plan.revoluteAxis, r1 = (k + 1) % 3, r2 = (k + 2) % 3;
  const double s = plan.axisSign * std::sin(q), cs = std::cos(q);
  for (int col = 0; col < 3; ++col) {
    const double e1 = E(r1, col), e2 = E(r2, col);
    E(r1, col) = cs * e1 + s * e2;
    E(r2, col) = cs * e2 - s * e1;
  }
  return plan.axisSign * E.row(k).transpose();
}

// A motion vector given in body coordinates, in world coordinates (about the world origin).
Vec6 toWorld(const Transform& X0, const Vec6& m) {
  Vec6 out;
  out.head<3>().noalias() = X0.E.transpose() * m.head<3>();
  out.tail<3>().noalias() = X0.E.transpose() * m.tail<3>();
  out.tail<3>() += X0.r.cross(Vec3(out.head<3>()));
  return out;
}

// IA m for a symmetric 6x6 IA, summed pairwise: in a chain pass 2 is one long
// dependency chain, and a balanced sum is shorter than a running one.
[[gnu::always_inline]] inline Vec6 inertiaTimes(const Mat6& IA, const Vec6& m) {
  return (IA.col(0) * m[0] + IA.col(1) * m[1]) + (IA.col(2) * m[2] + IA.col(3) * m[3]) +
         (IA.col(4) * m[4] + IA.col(5) * m[5]);
}

// Pass 2 for a single-dof joint, adding the projected articulated inertia and bias
// force straight into the parent's (parent 0, the ground, is a sink):
//   IA_p += IA - U U^T / D,  pA_p += pA + IA c + U (u - U^T c) / D.
// The terms that do not need 1/D are formed first, off the chain's critical path.
void projectSingleDof(Workspace::ArticulatedBodies& w, int i, int parent, const Joint& j, double tau) {
  const Vec6& s = w.s1[i];
  const Mat6& IA = w.IA[i];
  const Vec6 U = inertiaTimes(IA, s);
  w.U1[i] = U;
  const double D = s.dot(U);
  if (!(D > 0.0) || !std::isfinite(D)) singular(j, std::isfinite(D));
  const double invD = 1.0 / D;
  w.invD1[i] = invD;
  const Vec6& c = w.c[i];
  w.u1[i] = tau - s.dot(w.pA[i]) - U.dot(c);
  if (parent == 0) return;
  w.pA[parent] += w.pA[i] + inertiaTimes(IA, c) + (w.u1[i] * invD) * U;
  Mat6& IAp = w.IA[parent];
  for (int col = 0; col < 6; ++col) IAp.col(col) += IA.col(col) - invD * (U[col] * U);
}

// Pass 2 for joints with 0 or several dofs.
void projectMultiDof(Workspace::ArticulatedBodies& w, int i, int parent, const Joint& j, const Eigen::VectorXd& tau) {
  const auto& S = w.S[i];
  w.U[i].noalias() = w.IA[i] * S;
  // In two statements: `tau.segment(...) - S^T pA` would be evaluated into a heap VectorXd (the
  // segment's plain type) before landing in the fixed-capacity u.
  w.u[i] = tau.segment(j.iv, j.nv);
  w.u[i].noalias() -= S.transpose() * w.pA[i];
  if (j.nv > 0) {
    const SmallMatrix D = S.transpose() * w.U[i];
    Eigen::LDLT<SmallMatrix> ldlt(D);
    if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || !(ldlt.vectorD().minCoeff() > 0.0))
      singular(j, D.allFinite());
    w.Dinv[i] = ldlt.solve(SmallMatrix::Identity(j.nv, j.nv));
  }
  if (parent == 0) return;
  Mat6 Ia = w.IA[i];
  Vec6 pa = w.pA[i];
  if (j.nv > 0) {
    Ia.noalias() -= w.U[i] * w.Dinv[i] * w.U[i].transpose();
    pa.noalias() += w.U[i] * (w.Dinv[i] * w.u[i]);
  }
  pa.noalias() += Ia * w.c[i];
  w.IA[parent] += Ia;
  w.pA[parent] += pa;
}

}  // namespace

void articulatedProjection(Workspace::ArticulatedBodies& w, int i, int parent, const Joint& j,
                           const Eigen::VectorXd& tau) {
  if (j.nv == 1)
    projectSingleDof(w, i, parent, j, tau[j.iv]);
  else
    projectMultiDof(w, i, parent, j, tau);
}

void articulatedBodiesFirstPass(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const ForceList* fext) {
  const int n = model.bodyCount();
  auto& w = ws.aba;
  // Pass 1a: world poses and motion subspaces. Alone in its loop, the chain of
  // poses from parent to child is short, and pass 1b's work on different bodies
  // is independent, which the processor can overlap.
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    const Transform& Xp = w.X0[j.parent];  // w.X0[0] is the identity
    Transform& X0 = w.X0[i];
    if (j.type == JointType::Revolute) {  // the common case, done inline; S = [axis; 0] in the child frame
      const Vec3 axis = revolutePose(j, w.plan[i], Xp, q[j.iq], X0);
      w.s1[i].head<3>() = axis;
      w.s1[i].tail<3>() = X0.r.cross(axis);
      continue;
    }
    JointKinematics& jk = ws.joint[i];
    jointKinematics(j, q.data() + j.iq, v.data() + j.iv, jk);
    X0 = (jk.XJ * j.placement) * Xp;
    if (j.nv == 1)
      w.s1[i] = toWorld(X0, jk.S.col(0));
    else
      for (int k = 0; k < j.nv; ++k) w.S[i].col(k) = toWorld(X0, jk.S.col(k));
  }
  // Pass 1b: velocities, velocity-product terms, rigid-body inertias and bias forces,
  // all in world coordinates. The 6-vectors are handled as two 3-vectors: scalar
  // stores read back as packets stall (perf).
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    const Transform& X0 = w.X0[i];
    Vec3 wJ, vJ;  // joint velocity S qdot
    if (j.nv == 1) {
      const double qd = v[j.iv];
      wJ = qd * w.s1[i].head<3>();
      vJ = qd * w.s1[i].tail<3>();
    } else {
      const Vec6 m = w.S[i] * v.segment(j.iv, j.nv);
      wJ = m.head<3>();
      vJ = m.tail<3>();
    }
    const Vec3 om = w.v[j.parent].head<3>() + wJ, vo = w.v[j.parent].tail<3>() + vJ;  // w.v[0] stays zero
    Vec3 cw = om.cross(wJ), cv = om.cross(vJ) + vo.cross(wJ);  // v x vJ, RBDA eq. (5.7)
    if (hasVelocityProductTerm(j.type)) {
      const Vec6 cJ = toWorld(X0, ws.joint[i].cJ.vector());
      cw += cJ.head<3>();
      cv += cJ.tail<3>();
    }
    w.v[i].head<3>() = om;
    w.v[i].tail<3>() = vo;
    w.c[i].head<3>() = cw;
    w.c[i].tail<3>() = cv;
    const WorldInertia I = worldInertia(model.bodies[i], X0, w.plan[i].diagonalInertia);
    storeInertia(I, w.IA[i]);
    Vec3 moment, force;
    rigidBiasForce(I, om, vo, moment, force);
    if (fext) {
      const Force fe = X0.applyInverse((*fext)[i]);
      moment -= fe.ang;
      force -= fe.lin;
    }
    w.pA[i].head<3>() = moment;
    w.pA[i].tail<3>() = force;
  }
}

void spatialForwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot) {
  const int n = model.bodyCount();
  auto& w = ws.aba;
  articulatedBodiesFirstPass(model, ws, q, v, fext);
  // Pass 2: articulated inertias from the leaves to the root; in world coordinates
  // a child's contribution adds to its parent's as it stands.
  for (int i = n; i >= 1; --i) {
    const Joint& j = model.joints[i];
    articulatedProjection(w, i, j.parent, j, tau);
  }
  // Pass 3: gravity enters as a base acceleration.
  articulatedAccelerations(model, ws, (Vec6() << Vec3::Zero(), -model.gravity).finished(), vdot);
}

void articulatedAccelerations(const Model& model, Workspace& ws, const Vec6& a0, Eigen::Ref<Eigen::VectorXd> vdot) {
  auto& w = ws.aba;
  w.a[0] = a0;
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    Vec6& a = w.a[i];
    const Vec6& ap = w.a[j.parent];
    if (j.nv == 1) {  // u1 already holds -U^T c
      const double qdd = w.invD1[i] * (w.u1[i] - w.U1[i].dot(ap));
      vdot[j.iv] = qdd;
      a = ap + w.c[i] + w.s1[i] * qdd;
    } else {
      a = ap + w.c[i];
      auto qdd = vdot.segment(j.iv, j.nv);
      qdd = w.Dinv[i] * (w.u[i] - w.U[i].transpose() * a);
      a.noalias() += w.S[i] * qdd;
    }
  }
}

void forwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot) {
  if (ws.planar.isPlanar)
    planarForwardDynamics(model, ws, q, v, tau, fext, vdot);
  else
    spatialForwardDynamics(model, ws, q, v, tau, fext, vdot);
}

}  // namespace articula
