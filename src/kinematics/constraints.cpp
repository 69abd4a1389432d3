#include "articula/kinematics/constraints.hpp"

#include <algorithm>
#include <iterator>

#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {
// World positions and orientations of the two constraint frames.
struct FramePair {
  Vec3 pa, pb;  // origins
  Mat3 Ra, Rb;  // axes (columns) in world coordinates
};

FramePair framePair(const Workspace& ws, const LoopConstraint& l) {
  return {pointPosition(ws, l.bodyA, l.pointA), pointPosition(ws, l.bodyB, l.pointB),
          bodyRotation(ws, l.bodyA) * l.rotationA, bodyRotation(ws, l.bodyB) * l.rotationB};
}

// Rows of angular constraints: frame-A axes whose relative rotation rate is zero.
int angularAxisCount(LoopConstraint::Type t) {
  return t == LoopConstraint::Type::Weld ? 3 : t == LoopConstraint::Type::Revolute ? 2 : 0;
}
}  // namespace

JacobianPattern jacobianPattern(const Model& model) {
  JacobianPattern p;
  p.start.push_back(0);
  auto addRow = [&p](const std::vector<int>& columns) {
    p.columns.insert(p.columns.end(), columns.begin(), columns.end());
    p.start.push_back(static_cast<int>(p.columns.size()));
  };
  for (const auto& l : model.loops) {
    const std::vector<int> a = pathCoordinates(model, l.bodyA), b = pathCoordinates(model, l.bodyB);
    std::vector<int> support;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(support));
    for (int e = 0; e < l.equations(); ++e) addRow(support);
  }
  for (const auto& m : model.prescribed) addRow({model.joints[m.joint].iv + m.dof});
  return p;
}

ConstraintEvaluator::ConstraintEvaluator(const Model& model)
    : g(Eigen::VectorXd::Zero(model.constraintCount())),
      J(Eigen::MatrixXd::Zero(model.constraintCount(), model.nv)),
      nu(Eigen::VectorXd::Zero(model.constraintCount())),
      gamma(Eigen::VectorXd::Zero(model.constraintCount())),
      model_(model),
      S_(6, model.nv),
      P_(Eigen::Matrix3Xd::Zero(3, model.nv)),
      W_(Eigen::Matrix3Xd::Zero(3, model.nv)),
      zeroV_(Eigen::VectorXd::Zero(model.nv)),
      pattern_(jacobianPattern(model)) {}

void ConstraintEvaluator::addPathColumns(int body, const Vec3& p, double sign) {
  for (int k = body; k != 0; k = model_.joints[k].parent) {
    const Joint& j = model_.joints[k];
    for (int c = j.iv; c < j.iv + j.nv; ++c) {
      P_.col(c) += sign * columnPointVelocity(S_.col(c), p);
      W_.col(c) += sign * S_.col(c).head<3>();  // angular rate, world
    }
  }
}

void ConstraintEvaluator::positions(const Workspace& ws, double t, const Eigen::VectorXd& q) {
  int row = 0;
  for (const auto& l : model_.loops) {
    const FramePair f = framePair(ws, l);
    const Vec3 d = f.pb - f.pa;
    if (l.type == LoopConstraint::Type::Distance) {
      g[row++] = d.norm() - l.distance;
      continue;
    }
    g.segment<3>(row) = d;
    row += 3;
    const Vec3 xa = f.Ra.col(0), ya = f.Ra.col(1), za = f.Ra.col(2);
    const Vec3 xb = f.Rb.col(0), yb = f.Rb.col(1), zb = f.Rb.col(2);
    if (l.type == LoopConstraint::Type::Revolute) {
      // z_b must stay along z_a; to first order these are the rotations about x_a, y_a.
      g[row++] = -ya.dot(zb);
      g[row++] = xa.dot(zb);
    } else if (l.type == LoopConstraint::Type::Weld) {
      // Rotation vector of R_a^T R_b to first order.
      g[row++] = 0.5 * (za.dot(yb) - ya.dot(zb));
      g[row++] = 0.5 * (xa.dot(zb) - za.dot(xb));
      g[row++] = 0.5 * (ya.dot(xb) - xa.dot(yb));
    }
  }
  for (const auto& p : model_.prescribed) g[row++] = q[model_.joints[p.joint].iq + p.dof] - p.position.value(t);
}

void ConstraintEvaluator::jacobian(const Workspace& ws, double t) {
  int row = 0;
  nu.setZero();
  if (!model_.loops.empty()) worldMotionColumns(model_, ws, S_);
  for (const LoopConstraint& l : model_.loops) {
    const FramePair f = framePair(ws, l);
    // Only the columns of the loop's support (the joints on the root paths of its two bodies)
    // can be non-zero; the others keep the zeros of construction.
    const auto first = pattern_.columns.begin() + pattern_.start[row];
    const auto last = pattern_.columns.begin() + pattern_.start[row + 1];
    for (auto c = first; c != last; ++c) {
      P_.col(*c).setZero();
      W_.col(*c).setZero();
    }
    // Relative velocity of the frame origins (P) and relative angular velocity (W) per unit rate
    // of each coordinate; a common ancestor's columns cancel partly.
    addPathColumns(l.bodyB, f.pb, 1.0);
    addPathColumns(l.bodyA, f.pa, -1.0);
    if (l.type == LoopConstraint::Type::Distance) {
      const Vec3 d = f.pb - f.pa;
      const double L = d.norm();
      const Vec3 u = L > 1e-300 ? Vec3(d / L) : Vec3::Zero();
      for (auto c = first; c != last; ++c) J(row, *c) = u.dot(P_.col(*c));
      ++row;
      continue;
    }
    for (auto c = first; c != last; ++c) J.block<3, 1>(row, *c) = P_.col(*c);
    row += 3;
    const int axes = angularAxisCount(l.type);
    for (int k = 0; k < axes; ++k, ++row)
      for (auto c = first; c != last; ++c) J(row, *c) = f.Ra.col(k).dot(W_.col(*c));
  }
  for (const auto& p : model_.prescribed) {
    J.row(row).setZero();
    J(row, model_.joints[p.joint].iv + p.dof) = 1.0;
    nu[row++] = p.position.derivative(t);
  }
}

void ConstraintEvaluator::accelerationBias(Workspace& ws, double t) {
  updateAccelerations(model_, ws, zeroV_);  // accelerations at vdot = 0: the velocity-product part
  int row = 0;
  for (const auto& l : model_.loops) {
    const FramePair f = framePair(ws, l);
    const Vec3 relVel = pointVelocity(ws, l.bodyB, l.pointB) - pointVelocity(ws, l.bodyA, l.pointA);
    const Vec3 relAcc = pointAcceleration(ws, l.bodyB, l.pointB) - pointAcceleration(ws, l.bodyA, l.pointA);
    if (l.type == LoopConstraint::Type::Distance) {
      // d2/dt2 |d| = u . a_rel + (|v_rel|^2 - (u . v_rel)^2) / |d|
      const Vec3 d = f.pb - f.pa;
      const double L = std::max(d.norm(), 1e-300);
      const Vec3 u = d / L;
      gamma[row++] = -(u.dot(relAcc) + (relVel.squaredNorm() - u.dot(relVel) * u.dot(relVel)) / L);
      continue;
    }
    gamma.segment<3>(row) = -relAcc;
    row += 3;
    const int axes = angularAxisCount(l.type);
    if (axes == 0) continue;
    const Vec3 wa = angularVelocity(ws, l.bodyA);
    const Vec3 wRel = angularVelocity(ws, l.bodyB) - wa;
    const Vec3 alphaRel = angularAcceleration(ws, l.bodyB) - angularAcceleration(ws, l.bodyA);
    for (int k = 0; k < axes; ++k) {
      // d/dt (e . w_rel) with e fixed in body A: (w_a x e) . w_rel + e . alpha_rel
      const Vec3 e = f.Ra.col(k);
      gamma[row++] = -(wa.cross(e).dot(wRel) + e.dot(alphaRel));
    }
  }
  for (const auto& p : model_.prescribed) gamma[row++] = p.position.secondDerivative(t);
}

}  // namespace articula
