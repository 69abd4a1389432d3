#include "articula/kinematics/workspace.hpp"

#include <cmath>

namespace articula {

namespace {
// What the 6D ABA may skip for this body (Workspace::ArticulatedBodies::BodyPlan).
Workspace::ArticulatedBodies::BodyPlan bodyPlan(const Joint& j, const Body& b) {
  Workspace::ArticulatedBodies::BodyPlan plan;
  if (j.type == JointType::Revolute)
    for (int k = 0; k < 3; ++k)
      if (std::abs(j.axis[k]) == 1.0 && j.axis[(k + 1) % 3] == 0.0 && j.axis[(k + 2) % 3] == 0.0) {
        plan.revoluteAxis = k;
        plan.axisSign = j.axis[k];
      }
  plan.rotatedPlacement = !j.placement.E.isIdentity(0.0);
  const Mat3& Ic = b.inertiaCom;
  plan.diagonalInertia = Ic(0, 1) == 0.0 && Ic(0, 2) == 0.0 && Ic(1, 2) == 0.0;
  return plan;
}
}  // namespace

Workspace::Workspace(const Model& model) {
  const std::size_t n = model.bodies.size();
  joint.resize(n);
  Xup.resize(n);
  X0.resize(n);
  v.resize(n);
  c.resize(n);
  a.resize(n);
  f.resize(n);
  fext.resize(n);
  Ic.resize(n);
  aba.X0.resize(n);
  aba.v.resize(n, Vec6::Zero());
  aba.c.resize(n, Vec6::Zero());
  aba.a.resize(n, Vec6::Zero());
  aba.IA.resize(n, Mat6::Zero());
  aba.pA.resize(n, Vec6::Zero());
  aba.S.resize(n);
  aba.U.resize(n);
  aba.Dinv.resize(n);
  aba.u.resize(n);
  aba.s1.resize(n, Vec6::Zero());
  aba.U1.resize(n, Vec6::Zero());
  aba.invD1.resize(n, 0.0);
  aba.u1.resize(n, 0.0);
  aba.plan.resize(n);
  for (std::size_t i = 1; i < n; ++i) {
    const int nv = model.joints[i].nv;
    joint[i].S.resize(6, nv);
    aba.S[i].resize(6, nv);
    aba.U[i].resize(6, nv);
    aba.Dinv[i].resize(nv, nv);
    aba.u[i].resize(nv);
    aba.plan[i] = bodyPlan(model.joints[i], model.bodies[i]);
  }
  planar.isPlanar = describePlanar(model, planar.joint);
  if (planar.isPlanar) {
    const PlanarVector zero = PlanarVector::Zero();
    planar.pose.resize(n);
    planar.angle.resize(n, 0.0);
    planar.jointRotation.resize(n, Vec2(1.0, 0.0));
    for (auto* x : {&planar.v, &planar.c, &planar.a, &planar.pA, &planar.s1, &planar.U1, &planar.u3}) x->resize(n, zero);
    for (auto* x : {&planar.IA, &planar.S3, &planar.U3, &planar.Dinv3}) x->resize(n, PlanarMatrix::Zero());
    planar.invD1.resize(n, 0.0);
    planar.u1.resize(n, 0.0);
  }
  tau = Eigen::VectorXd::Zero(model.nv);
}

}  // namespace articula
