#include "articula/dynamics/constraint_impulses.hpp"

#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// Rotational rows per loop type (kinematics/constraints.cpp): axes of frame A.
int angularRows(LoopConstraint::Type t) {
  return t == LoopConstraint::Type::Weld ? 3 : t == LoopConstraint::Type::Revolute ? 2 : 0;
}

// A force F through the world point p and a moment N, about the origin of `body`.
Vec6 impulseAbout(const Workspace& ws, int body, const Vec3& p, const Vec3& F, const Vec3& N) {
  Vec6 out;
  out << (p - ws.X0[static_cast<std::size_t>(body)].r).cross(F) + N, F;
  return out;
}

}  // namespace

ConstraintImpulses::ConstraintImpulses(const Model& model) : model_(model) {
  for (const LoopConstraint& l : model.loops)
    for (int e = 0; e < l.equations(); ++e) rows_.push_back({l.bodyA, l.bodyB, Vec6::Zero(), Vec6::Zero(), -1});
  for (const PrescribedMotion& m : model.prescribed)
    rows_.push_back({0, 0, Vec6::Zero(), Vec6::Zero(), model.joints[static_cast<std::size_t>(m.joint)].iv + m.dof});
}

void ConstraintImpulses::update(const Workspace& ws) {
  std::size_t row = 0;
  for (const LoopConstraint& l : model_.loops) {
    const Vec3 pa = pointPosition(ws, l.bodyA, l.pointA), pb = pointPosition(ws, l.bodyB, l.pointB);
    auto set = [&](const Vec3& F, const Vec3& N) {
      Row& r = rows_[row++];
      if (l.bodyB > 0) r.onB = impulseAbout(ws, l.bodyB, pb, F, N);
      if (l.bodyA > 0) r.onA = -impulseAbout(ws, l.bodyA, pa, F, N);
    };
    if (l.type == LoopConstraint::Type::Distance) {
      const Vec3 d = pb - pa;
      const double L = d.norm();
      set(L > 1e-300 ? Vec3(d / L) : Vec3::Zero(), Vec3::Zero());
      continue;
    }
    for (int k = 0; k < 3; ++k) set(Vec3::Unit(k), Vec3::Zero());
    const Mat3 Ra = bodyRotation(ws, l.bodyA) * l.rotationA;
    for (int k = 0; k < angularRows(l.type); ++k) set(Vec3::Zero(), Ra.col(k));
  }
}

void ConstraintImpulses::addRates(const Workspace& ws, const Eigen::VectorXd& sigma, std::vector<Vec6>& rate) const {
  Eigen::Index row = 0;
  for (const LoopConstraint& l : model_.loops) {
    const Vec3 pa = pointPosition(ws, l.bodyA, l.pointA), pb = pointPosition(ws, l.bodyB, l.pointB);
    const Vec3 va = pointVelocity(ws, l.bodyA, l.pointA), vb = pointVelocity(ws, l.bodyB, l.pointB);
    Vec3 F = Vec3::Zero(), Fdot = Vec3::Zero(), N = Vec3::Zero();
    if (l.type == LoopConstraint::Type::Distance) {
      // u = d / |d|, du/dt = (v_rel - u (u . v_rel)) / |d|.
      const Vec3 d = pb - pa, vRel = vb - va;
      const double L = d.norm();
      if (L > 1e-300) {
        const Vec3 u = d / L;
        F = sigma[row] * u;
        Fdot = sigma[row] * (vRel - u * u.dot(vRel)) / L;
      }
      ++row;
    } else {
      F = sigma.segment<3>(row);
      row += 3;
      const Mat3 Ra = bodyRotation(ws, l.bodyA) * l.rotationA;
      for (int k = 0; k < angularRows(l.type); ++k) N += sigma[row++] * Ra.col(k);
    }
    const Vec3 Ndot = angularVelocity(ws, l.bodyA).cross(N);
    if (l.bodyB > 0) rate[static_cast<std::size_t>(l.bodyB)] += impulseAbout(ws, l.bodyB, pb, Fdot, vb.cross(F) + Ndot);
    if (l.bodyA > 0) rate[static_cast<std::size_t>(l.bodyA)] -= impulseAbout(ws, l.bodyA, pa, Fdot, va.cross(F) + Ndot);
  }
}

}  // namespace articula
