// Articulated-body algorithm for planar mechanisms: the world-coordinate ABA of
// aba.cpp with 3-vectors [w_z; v_x; v_y] and 3x3 inertias (spatial/planar.hpp), about
// a quarter of the arithmetic of the 6D version.
#include <cmath>
#include <string>

#include "aba_errors.hpp"
#include "articula/dynamics/recursive.hpp"

namespace articula {

namespace {

// Pose of body i in the world plane and its joint's motion subspace (and, for a
// planar joint, velocity-product term) in world coordinates.
void placeBody(const Model& model, Workspace& ws, int i, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
               PlanarVector& cJ) {
  auto& P = ws.planar;
  const Joint& j = model.joints[i];
  const PlanarJoint& pj = P.joint[i];
  const Vec2 origin = P.pose[j.parent].point(pj.placementOrigin);
  const double frameAngle = P.angle[j.parent] + pj.placementAngle;
  const double* qj = q.data() + j.iq;
  cJ.setZero();
  switch (j.type) {
    case JointType::Revolute:
      P.angle[i] = frameAngle + pj.axisSign * qj[0];
      P.pose[i] = PlanarPose(P.angle[i], origin);
      P.s1[i] = P.pose[i].motion(PlanarVector(pj.axisSign, 0.0, 0.0));
      break;
    case JointType::Prismatic:
      P.angle[i] = frameAngle;
      P.pose[i] = PlanarPose(frameAngle, origin);
      P.pose[i].p += P.pose[i].rotate(pj.direction * qj[0]);
      P.s1[i] = P.pose[i].motion(PlanarVector(0.0, pj.direction.x(), pj.direction.y()));
      break;
    case JointType::Planar: {
      const PlanarPose frame(frameAngle, origin);
      P.angle[i] = frameAngle + qj[2];
      P.pose[i] = PlanarPose(P.angle[i], frame.point(Vec2(qj[0], qj[1])));
      JointKinematics& jk = ws.joint[i];
      jointKinematics(j, qj, v.data() + j.iv, jk);
      for (int k = 0; k < 3; ++k) P.S3[i].col(k) = P.pose[i].motion(planarPart(jk.S.col(k)));
      cJ = P.pose[i].motion(planarPart(jk.cJ.vector()));
      break;
    }
    default:  // fixed
      P.angle[i] = frameAngle;
      P.pose[i] = PlanarPose(frameAngle, origin);
      break;
  }
}

}  // namespace

void planarForwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot) {
  if (!ws.planar.isPlanar) throw Error("planarForwardDynamics: model '" + model.name + "' is not planar");
  const int n = model.bodyCount();
  auto& P = ws.planar;
  // Pass 1: poses, velocities, velocity-product terms, inertias and bias forces.
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    PlanarVector cJ;
    placeBody(model, ws, i, q, v, cJ);
    PlanarVector vJ = PlanarVector::Zero();
    if (j.nv == 1) vJ = P.s1[i] * v[j.iv];
    if (j.nv == 3) vJ.noalias() = P.S3[i] * v.segment<3>(j.iv);
    P.v[i] = P.v[j.parent] + vJ;  // P.v[0] stays zero
    P.c[i] = planarCrossMotion(P.v[i], vJ) + cJ;
    const Body& b = model.bodies[i];
    P.IA[i] = planarInertia(b.mass, P.pose[i].point(b.com.head<2>()), b.inertiaCom(2, 2));
    P.pA[i] = planarCrossForce(P.v[i], P.IA[i] * P.v[i]);
    if (fext) P.pA[i] -= P.pose[i].force(planarPart((*fext)[i].vector()));
  }
  // Pass 2: articulated inertias, leaves to root, added into the parent's as they stand.
  for (int i = n; i >= 1; --i) {
    const Joint& j = model.joints[i];
    const int parent = j.parent;
    PlanarMatrix Ia = P.IA[i];
    PlanarVector pa = P.pA[i];
    if (j.nv == 1) {
      const PlanarVector& s = P.s1[i];
      PlanarVector& U = P.U1[i];
      U.noalias() = P.IA[i] * s;
      const double D = s.dot(U);
      if (!(D > 0.0) || !std::isfinite(D)) singular(j, std::isfinite(D));
      P.invD1[i] = 1.0 / D;
      P.u1[i] = tau[j.iv] - s.dot(P.pA[i]);
      Ia.noalias() -= (P.invD1[i] * U) * U.transpose();
      pa += (P.invD1[i] * P.u1[i]) * U;
    } else if (j.nv == 3) {
      P.U3[i].noalias() = P.IA[i] * P.S3[i];
      P.u3[i] = tau.segment<3>(j.iv) - P.S3[i].transpose() * P.pA[i];
      const PlanarMatrix D = P.S3[i].transpose() * P.U3[i];
      Eigen::LLT<PlanarMatrix> llt(D);
      if (llt.info() != Eigen::Success) singular(j, D.allFinite());
      P.Dinv3[i] = llt.solve(PlanarMatrix::Identity());
      Ia.noalias() -= P.U3[i] * P.Dinv3[i] * P.U3[i].transpose();
      pa.noalias() += P.U3[i] * (P.Dinv3[i] * P.u3[i]);
    }
    if (parent == 0) continue;
    pa.noalias() += Ia * P.c[i];
    P.IA[parent] += Ia;
    P.pA[parent] += pa;
  }
  // Pass 3: accelerations, root to leaves; gravity as a base acceleration.
  P.a[0] = PlanarVector(0.0, -model.gravity.x(), -model.gravity.y());
  for (int i = 1; i <= n; ++i) {
    const Joint& j = model.joints[i];
    PlanarVector& a = P.a[i];
    a = P.a[j.parent] + P.c[i];
    if (j.nv == 1) {
      const double qdd = P.invD1[i] * (P.u1[i] - P.U1[i].dot(a));
      vdot[j.iv] = qdd;
      a += P.s1[i] * qdd;
    } else if (j.nv == 3) {
      auto qdd = vdot.segment<3>(j.iv);
      qdd = P.Dinv3[i] * (P.u3[i] - P.U3[i].transpose() * a);
      a.noalias() += P.S3[i] * qdd;
    }
  }
}

}  // namespace articula
