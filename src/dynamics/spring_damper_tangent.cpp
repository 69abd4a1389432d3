#include "articula/dynamics/spring_damper_tangent.hpp"

#include <algorithm>

#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

SpringDamperTangent::SpringDamperTangent(const Model& model)
    : model_(model),
      active_(!model.jointSprings.empty() || !model.pointSprings.empty() || !model.jointLimits.empty() ||
              !model.jointFrictions.empty() || !model.tyres.empty()),
      S_(6, model.nv),
      s_(3, model.nv) {
  springStart_.push_back(0);
  for (const auto& sp : model.pointSprings) {
    const std::vector<int> a = pathCoordinates(model, sp.bodyA), b = pathCoordinates(model, sp.bodyB);
    for (int c : pathCoordinates(model, sp.bodyA, sp.bodyB)) {
      columns_.push_back(c);
      onA_.push_back(std::binary_search(a.begin(), a.end(), c));
      onB_.push_back(std::binary_search(b.begin(), b.end(), c));
    }
    springStart_.push_back(static_cast<int>(columns_.size()));
  }
  tyreStart_.push_back(static_cast<int>(columns_.size()));
  for (const auto& t : model.tyres) {
    for (int c : pathCoordinates(model, t.body)) columns_.push_back(c);
    tyreStart_.push_back(static_cast<int>(columns_.size()));
  }
}

// The upper triangle of K += k s s^T and C += c s s^T over the ascending coordinates cols (s_
// holds the entries for cols in order): a point Jacobian is non-zero only in the coordinates on
// the root path of its body, a handful of nv.
void SpringDamperTangent::addSpringDamper(Eigen::Ref<Eigen::MatrixXd> K, Eigen::Ref<Eigen::MatrixXd> C, double k,
                                          double c, const int* cols, int n) const {
  for (int j = 0; j < n; ++j) {
    const double kj = k * s_(0, j), cj = c * s_(0, j);
    for (int i = 0; i <= j; ++i) {
      K(cols[i], cols[j]) += kj * s_(0, i);
      C(cols[i], cols[j]) += cj * s_(0, i);
    }
  }
}

// Row r of s_ <- axes.col(r)^T dr/dz over cols, for the material point of the body at world
// position p.
void SpringDamperTangent::projectPointColumns(const Mat3& axes, const Vec3& p, const int* cols, int n) {
  for (int i = 0; i < n; ++i) {
    s_.col(i) = axes.transpose() * columnPointVelocity(S_.col(cols[i]), p);
  }
}

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
  if (!model_.pointSprings.empty() || !model_.tyres.empty()) worldMotionColumns(model_, ws, S_);
  for (std::size_t k = 0; k < model_.pointSprings.size(); ++k) {
    const PointSpringDamper& s = model_.pointSprings[k];
    const Vec3 a = pointPosition(ws, s.bodyA, s.pointA), b = pointPosition(ws, s.bodyB, s.pointB);
    const Vec3 d = b - a;
    const double L = d.norm();
    if (L < 1e-12) continue;  // the length has no gradient at zero length
    // s_z = u^T (dr_B/dz - dr_A/dz), eq. (29); K = s_z^T k s_z (31), C = s_z^T c s_z (34), with k
    // and c the slopes of the tension (bump stop and damping curve included).
    const Vec3 u = d / L;
    const int first = springStart_[k], n = springStart_[k + 1] - first;
    double rate = 0.0;
    for (int i = 0; i < n; ++i) {
      const int c = columns_[static_cast<std::size_t>(first + i)];
      s_(0, i) = (onB_[static_cast<std::size_t>(first + i)] ? u.dot(columnPointVelocity(S_.col(c), b)) : 0.0) -
                 (onA_[static_cast<std::size_t>(first + i)] ? u.dot(columnPointVelocity(S_.col(c), a)) : 0.0);
      rate += s_(0, i) * v[c];
    }
    const JointForce t = pointSpringTension(s, L, rate);
    addSpringDamper(K, C, t.dq, t.dqd, &columns_[static_cast<std::size_t>(first)], n);
  }
  // Tyres: the radial spring-damper along the normal n at the contact point P, and the slip
  // forces linearised at zero slip, Fx ~ -(K_x / V) e_x . v_P and Fy ~ -(K_y / V) e_y . v_P with
  // v_P the wheel's material velocity at P: dampers along e_x and e_y (symmetric; the saturation
  // of the Magic Formula and the load coupling are left out, which only slows Newton down).
  for (std::size_t k = 0; k < model_.tyres.size(); ++k) {
    const Tyre& t = model_.tyres[k];
    const TyreResponse r = tyreResponse(model_, ws, t);
    if (r.Fz == 0.0) continue;
    const int* cols = &columns_[static_cast<std::size_t>(tyreStart_[k])];
    const int n = tyreStart_[k + 1] - tyreStart_[k];
    Mat3 axes;
    axes << r.normal, r.longitudinal, r.lateral;
    projectPointColumns(axes, r.point, cols, n);
    const Vec3 damping = tyreTangentDamping(t, r);  // C's weights along n, e_x and e_y
    for (int j = 0; j < n; ++j) {  // upper triangle, as addSpringDamper
      const double kj = t.radialStiffness * s_(0, j);
      const Vec3 cj = damping.cwiseProduct(s_.col(j));
      for (int i = 0; i <= j; ++i) {
        K(cols[i], cols[j]) += kj * s_(0, i);
        C(cols[i], cols[j]) += cj.dot(s_.col(i));
      }
    }
  }
}

}  // namespace articula
