#include "articula/dynamics/spring_damper_tangent.hpp"

#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// A += w s^T s, column by column where s is non-zero: a point Jacobian is non-zero only in the
// coordinates on the root path of its body (a handful of nv), and the dense outer product over all
// nv^2 entries was a quarter of the hybrid formulation's time on the car (docs/benchmarks.md,
// "Car: speed").
void addOuterProduct(Eigen::Ref<Eigen::MatrixXd> A, double w, const Eigen::RowVectorXd& s) {
  for (Eigen::Index j = 0; j < s.size(); ++j)
    if (s[j] != 0.0) A.col(j) += (w * s[j]) * s.transpose();
}

}  // namespace

SpringDamperTangent::SpringDamperTangent(const Model& model)
    : model_(model),
      active_(!model.jointSprings.empty() || !model.pointSprings.empty() || !model.jointLimits.empty() ||
              !model.jointFrictions.empty() || !model.tyres.empty()),
      PA_(3, model.nv),
      PB_(3, model.nv),
      sz_(model.nv) {}

void SpringDamperTangent::evaluate(const Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   Eigen::Ref<Eigen::MatrixXd> K, Eigen::Ref<Eigen::MatrixXd> C) {
  K.setZero();
  C.setZero();
  for (const auto& s : model_.jointSprings) {
    const int i = model_.joints[s.joint].iv + s.dof;
    K(i, i) += s.stiffness;
    C(i, i) += s.damping;
  }
  // K and C are the derivatives of minus the generalised force.
  for (const auto& l : model_.jointLimits) {
    const Joint& j = model_.joints[l.joint];
    const JointForce f = jointLimitForce(l, q[j.iq + l.dof], v[j.iv + l.dof]);
    K(j.iv + l.dof, j.iv + l.dof) -= f.dq;
    C(j.iv + l.dof, j.iv + l.dof) -= f.dqd;
  }
  for (const auto& fr : model_.jointFrictions) {
    const int i = model_.joints[fr.joint].iv + fr.dof;
    C(i, i) -= jointFrictionForce(fr, v[i]).dqd;
  }
  for (const auto& s : model_.pointSprings) {
    const Vec3 d = pointPosition(ws, s.bodyB, s.pointB) - pointPosition(ws, s.bodyA, s.pointA);
    const double L = d.norm();
    if (L < 1e-12) continue;  // the length has no gradient at zero length
    pointJacobian(model_, ws, s.bodyA, s.pointA, PA_);
    pointJacobian(model_, ws, s.bodyB, s.pointB, PB_);
    PB_ -= PA_;
    // s_z = u^T (dr_B/dz - dr_A/dz), eq. (29); K = s_z^T k s_z (31), C = s_z^T c s_z (34), with k
    // and c the slopes of the tension (bump stop and damping curve included).
    sz_.noalias() = (d / L).transpose() * PB_;
    const JointForce t = pointSpringTension(s, L, sz_.dot(v));
    addOuterProduct(K, t.dq, sz_);
    addOuterProduct(C, t.dqd, sz_);
  }
  // Tyres: the radial spring-damper along the normal n at the contact point P, and the slip
  // forces linearised at zero slip, Fx ~ -(K_x / V) e_x . v_P and Fy ~ -(K_y / V) e_y . v_P with
  // v_P the wheel's material velocity at P: dampers along e_x and e_y (symmetric; the saturation
  // of the Magic Formula and the load coupling are left out, which only slows Newton down).
  for (const auto& t : model_.tyres) {
    const TyreResponse r = tyreResponse(model_, ws, t);
    if (r.Fz == 0.0) continue;
    pointJacobian(model_, ws, t.body, ws.X0[t.body].E * (r.point - bodyPosition(ws, t.body)), PA_);
    sz_.noalias() = r.normal.transpose() * PA_;
    addOuterProduct(K, t.radialStiffness, sz_);
    addOuterProduct(C, t.radialDamping, sz_);
    sz_.noalias() = r.longitudinal.transpose() * PA_;
    addOuterProduct(C, longitudinalSlipStiffness(t.mf, r.Fz) / r.speed, sz_);
    sz_.noalias() = r.lateral.transpose() * PA_;
    addOuterProduct(C, corneringStiffness(t.mf, r.Fz) / r.speed, sz_);
  }
}

}  // namespace articula
