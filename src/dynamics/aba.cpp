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
#include "articula/dynamics/recursive.hpp"

namespace articula {

namespace {

// Joints whose motion subspace is constant in the child frame have c_J = 0.
bool hasVelocityProductTerm(JointType type) {
  return type != JointType::Revolute && type != JointType::Prismatic && type != JointType::Cylindrical &&
         type != JointType::Fixed;
}

// Spatial inertia of a body about the world origin in world axes, as a 6x6 matrix,
// from its mass, centre of mass and central inertia and its pose X0 = ^i X_0.
// Returns the first moment of mass h = m c.
Vec3 worldInertia(const Body& b, const Transform& X0, Mat6& I) {
  const Vec3 c = X0.inverseTransformPoint(b.com);
  const Mat3 IcE = b.inertiaCom * X0.E;
  const Vec3 h = b.mass * c;
  const double hc = h.dot(c);
  // Ic rotated to world axes plus the parallel-axis term m (|c|^2 1 - c c^T); symmetric.
  for (int col = 0; col < 3; ++col)
    for (int row = col; row < 3; ++row) {
      const double value = X0.E.col(row).dot(IcE.col(col)) - h[row] * c[col] + (row == col ? hc : 0.0);
      I(row, col) = value;
      I(col, row) = value;
    }
  I.topRightCorner<3, 3>() = skew(h);
  I.bottomLeftCorner<3, 3>() = skew(h).transpose();
  I.bottomRightCorner<3, 3>() = b.mass * Mat3::Identity();
  return h;
}

// Momentum I v of a rigid body with world inertia I (first moment h, mass m), using
// the block structure [Ibar hx; hx^T m1] (RBDA eq. 2.63).
Vec6 rigidMomentum(const Mat6& I, const Vec3& h, double m, const Vec6& v) {
  Vec6 f;
  f.head<3>().noalias() = I.topLeftCorner<3, 3>() * v.head<3>();
  f.head<3>() += h.cross(v.tail<3>());
  f.tail<3>() = m * v.tail<3>() - h.cross(v.head<3>());
  return f;
}

// A motion vector given in body coordinates, in world coordinates (about the world origin).
Vec6 toWorld(const Transform& X0, const Vec6& m) {
  Vec6 out;
  out.head<3>().noalias() = X0.E.transpose() * m.head<3>();
  out.tail<3>().noalias() = X0.E.transpose() * m.tail<3>();
  out.tail<3>() += X0.r.cross(Vec3(out.head<3>()));
  return out;
}

// Spatial cross products on 6-vectors (RBDA eqs. 2.31, 2.32).
Vec6 crossMotion6(const Vec6& m, const Vec6& n) {
  Vec6 out;
  out.head<3>() = m.head<3>().cross(n.head<3>());
  out.tail<3>() = m.head<3>().cross(n.tail<3>()) + m.tail<3>().cross(n.head<3>());
  return out;
}
Vec6 crossForce6(const Vec6& m, const Vec6& f) {
  Vec6 out;
  out.head<3>() = m.head<3>().cross(f.head<3>()) + m.tail<3>().cross(f.tail<3>());
  out.tail<3>() = m.head<3>().cross(f.tail<3>());
  return out;
}

// Pass 2 for a single-dof joint, adding the projected articulated inertia and bias
// force straight into the parent's (parent 0, the ground, is a sink):
//   IA_p += IA - U U^T / D,  pA_p += pA + IA c + U (u - U^T c) / D.
void projectSingleDof(Workspace::ArticulatedBodies& w, int i, int parent, const Joint& j, double tau) {
  const Vec6& s = w.s1[i];
  Vec6& U = w.U1[i];
  U.noalias() = w.IA[i] * s;
  const double D = s.dot(U);
  if (!(D > 0.0) || !std::isfinite(D)) singular(j, std::isfinite(D));
  const double invD = 1.0 / D;
  w.invD1[i] = invD;
  w.u1[i] = tau - s.dot(w.pA[i]);
  if (parent == 0) return;
  const Vec6& c = w.c[i];
  const Vec6 Ud = invD * U;
  w.pA[parent] += w.pA[i];
  w.pA[parent].noalias() += w.IA[i] * c;
  w.pA[parent] += (w.u1[i] - U.dot(c)) * Ud;
  for (int col = 0; col < 6; ++col) w.IA[parent].col(col) += w.IA[i].col(col) - U[col] * Ud;
}

// Pass 2 for joints with 0 or several dofs.
void projectMultiDof(Workspace::ArticulatedBodies& w, int i, int parent, const Joint& j, const Eigen::VectorXd& tau) {
  const auto& S = w.S[i];
  w.U[i].noalias() = w.IA[i] * S;
  w.u[i] = tau.segment(j.iv, j.nv) - S.transpose() * w.pA[i];
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

void spatialForwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot) {
  const int n = model.bodyCount();
  auto& w = ws.aba;
  // Pass 1: world poses, then velocities, velocity-product terms, rigid-body
  // inertias and bias forces, all in world coordinates.
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    JointKinematics& jk = ws.joint[i];
    const Transform& Xp = w.X0[j.parent];  // w.X0[0] is the identity
    Transform& X0 = w.X0[i];
    const bool revolute = j.type == JointType::Revolute;  // the common case, done inline
    if (revolute) {
      // ^i X_p = rotation(q) * placement; ^i X_0 = ^i X_p * ^p X_0 with no translation in the joint.
      const Mat3 Eup = axisAngle(j.axis, q[j.iq]).transpose() * j.placement.E;
      X0.E.noalias() = Eup * Xp.E;
      X0.r = Xp.r;
      X0.r.noalias() += Xp.E.transpose() * j.placement.r;
    } else {
      jointKinematics(j, q.data() + j.iq, v.data() + j.iv, jk);
      X0 = (jk.XJ * j.placement) * Xp;
    }
    Vec6 vJ;
    if (revolute) {  // S = [axis; 0] in the child frame
      w.s1[i].head<3>().noalias() = X0.E.transpose() * j.axis;
      w.s1[i].tail<3>() = X0.r.cross(Vec3(w.s1[i].head<3>()));
      vJ = w.s1[i] * v[j.iv];
    } else if (j.nv == 1) {
      w.s1[i] = toWorld(X0, jk.S.col(0));
      vJ = w.s1[i] * v[j.iv];
    } else {
      for (int k = 0; k < j.nv; ++k) w.S[i].col(k) = toWorld(X0, jk.S.col(k));
      vJ.noalias() = w.S[i] * v.segment(j.iv, j.nv);
    }
    w.v[i] = w.v[j.parent] + vJ;           // w.v[0] stays zero
    w.c[i] = crossMotion6(w.v[i], vJ);     // RBDA eq. (5.7), in world coordinates
    if (hasVelocityProductTerm(j.type)) w.c[i] += toWorld(X0, jk.cJ.vector());
    const Body& b = model.bodies[i];
    const Vec3 h = worldInertia(b, X0, w.IA[i]);
    w.pA[i] = crossForce6(w.v[i], rigidMomentum(w.IA[i], h, b.mass, w.v[i]));
    if (fext) w.pA[i] -= X0.applyInverse((*fext)[i]).vector();
  }
  // Pass 2: articulated inertias from the leaves to the root; in world coordinates
  // a child's contribution adds to its parent's as it stands.
  for (int i = n; i >= 1; --i) {
    const Joint& j = model.joints[i];
    if (j.nv == 1)
      projectSingleDof(w, i, j.parent, j, tau[j.iv]);
    else
      projectMultiDof(w, i, j.parent, j, tau);
  }
  // Pass 3: accelerations from the root to the leaves; gravity enters as a base acceleration.
  w.a[0] << Vec3::Zero(), -model.gravity;
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    Vec6& a = w.a[i];
    a = w.a[j.parent] + w.c[i];
    if (j.nv == 1) {
      const double qdd = w.invD1[i] * (w.u1[i] - w.U1[i].dot(a));
      vdot[j.iv] = qdd;
      a += w.s1[i] * qdd;
    } else {
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
