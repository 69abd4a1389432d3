#include "articula/dynamics/spring_damper_tangent.hpp"

#include "articula/kinematics/kinematics.hpp"

namespace articula {

SpringDamperTangent::SpringDamperTangent(const Model& model)
    : model_(model),
      active_(!model.jointSprings.empty() || !model.pointSprings.empty()),
      PA_(3, model.nv),
      PB_(3, model.nv),
      sz_(model.nv) {}

void SpringDamperTangent::evaluate(const Workspace& ws, Eigen::Ref<Eigen::MatrixXd> K, Eigen::Ref<Eigen::MatrixXd> C) {
  K.setZero();
  C.setZero();
  for (const auto& s : model_.jointSprings) {
    const int i = model_.joints[s.joint].iv + s.dof;
    K(i, i) += s.stiffness;
    C(i, i) += s.damping;
  }
  for (const auto& s : model_.pointSprings) {
    const Vec3 d = pointPosition(ws, s.bodyB, s.pointB) - pointPosition(ws, s.bodyA, s.pointA);
    const double L = d.norm();
    if (L < 1e-12) continue;  // the length has no gradient at zero length
    pointJacobian(model_, ws, s.bodyA, s.pointA, PA_);
    pointJacobian(model_, ws, s.bodyB, s.pointB, PB_);
    PB_ -= PA_;
    // s_z = u^T (dr_B/dz - dr_A/dz), eq. (29); K = s_z^T k s_z (31), C = s_z^T c s_z (34).
    sz_.noalias() = (d / L).transpose() * PB_;
    K.noalias() += s.stiffness * sz_.transpose() * sz_;
    C.noalias() += s.damping * sz_.transpose() * sz_;
  }
}

}  // namespace articula
