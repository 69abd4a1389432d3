#include "cost_evaluator.hpp"

#include <cmath>

#include "articula/kinematics/kinematics.hpp"

namespace articula::detail {

namespace {
// Component i of a term's target at time t (absent: the fallback).
double targetOf(const CostTerm& c, int i, double t, double fallback) {
  return i < static_cast<int>(c.target.size()) ? c.target[static_cast<std::size_t>(i)].value(t) : fallback;
}
// A control effort's e, with e^2 the term's integrand: u, or the part of |u| beyond the limit
// with u's sign (e^2 is then continuously differentiable, d(e^2)/du = 2 e).
double effortExcess(const CostTerm& c, double u) {
  if (c.limit <= 0.0) return u;
  return u > c.limit ? u - c.limit : u < -c.limit ? u + c.limit : 0.0;
}
}  // namespace

CostEvaluator::CostEvaluator(const Model& model, const std::vector<CostTerm>& terms, const Eigen::VectorXd& x0)
    : model_(model), terms_(terms), ws_(model), q_(model.nq), v_(model.nv) {
  q_ = x0.head(model.nq);
  v_ = x0.tail(model.nv);
  updatePositions(model_, ws_, q_);
  for (const CostTerm& c : terms_) {
    const bool marker = c.kind == CostTerm::Kind::MarkerPosition || c.kind == CostTerm::Kind::MarkerVelocity;
    initialMarker_.push_back(marker ? pointPosition(ws_, model.markers[c.marker].body, model.markers[c.marker].position)
                                    : Vec3::Zero());
    const bool rates = c.kind == CostTerm::Kind::MarkerVelocity || c.kind == CostTerm::Kind::BodyVelocity;
    needVelocities_ = needVelocities_ || rates;

    (c.terminal ? hasTerminal_ : hasRunning_) = true;
  }
}

double CostEvaluator::running(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u) {
  return hasRunning_ ? sum(false, t, x, &u) : 0.0;
}

double CostEvaluator::terminal(double tf, const Eigen::VectorXd& x) {
  return hasTerminal_ ? sum(true, tf, x, nullptr) : 0.0;
}

void CostEvaluator::useAbsoluteCoordinates(AbsoluteHamiltonianSystem& system) {
  for (const CostTerm& c : terms_)
    if (c.kind == CostTerm::Kind::JointPosition || c.kind == CostTerm::Kind::JointVelocity)
      throw Error("cost term " + (c.name.empty() ? "" : "'" + c.name + "' ") + "on joint coordinate " +
                  std::to_string(c.coordinate) + " (" +
                  (c.kind == CostTerm::Kind::JointPosition ? "joint_position" : "joint_velocity") +
                  "): formulation 'absolute' has no joint coordinates; use a marker or body term");
  absolute_ = &system;
}

double CostEvaluator::sum(bool terminal, double t, const Eigen::VectorXd& x, const Eigen::VectorXd* u) {
  if (absolute_) {
    absolute_->fillWorkspace(x, ws_);
  } else {
    q_ = x.head(model_.nq);
    v_ = x.tail(model_.nv);
    updatePositions(model_, ws_, q_);
    if (needVelocities_) updateVelocities(model_, ws_, q_, v_);
  }
  double total = 0.0;
  for (std::size_t k = 0; k < terms_.size(); ++k) {
    const CostTerm& c = terms_[k];
    if (c.terminal != terminal) continue;
    const auto target = [&](int i, double fallback) { return targetOf(c, i, t, fallback); };
    double e2 = 0.0;
    switch (c.kind) {
      case CostTerm::Kind::MarkerPosition: {
        const Marker& m = model_.markers[c.marker];
        const Vec3 r = pointPosition(ws_, m.body, m.position);
        for (int i = 0; i < 3; ++i) {
          const double e = r[i] - (c.initialTarget ? initialMarker_[k][i] : target(i, 0.0));
          e2 += e * e;
        }
        break;
      }
      case CostTerm::Kind::MarkerVelocity: {
        const Marker& m = model_.markers[c.marker];
        const Vec3 r = pointVelocity(ws_, m.body, m.position);
        for (int i = 0; i < 3; ++i) {
          const double e = r[i] - target(i, 0.0);
          e2 += e * e;
        }
        break;
      }
      case CostTerm::Kind::JointPosition: {
        const double e = q_[c.coordinate] - target(0, 0.0);
        e2 = e * e;
        break;
      }
      case CostTerm::Kind::JointVelocity: {
        const double e = v_[c.coordinate] - target(0, 0.0);
        e2 = e * e;
        break;
      }
      case CostTerm::Kind::ControlEffort: {
        const double e = effortExcess(c, (*u)[c.control]);
        e2 = e * e;
        break;
      }
      case CostTerm::Kind::BodyAxisAngle: {
        const Vec3 a = bodyRotation(ws_, c.body) * c.axis;
        const double gamma = std::atan2(a.cross(c.direction).norm(), a.dot(c.direction));  // accurate near 0 and pi
        e2 = gamma * gamma;
        break;
      }
      case CostTerm::Kind::BodyVelocity: {
        const Body& b = model_.bodies[static_cast<std::size_t>(c.body)];
        e2 = pointVelocity(ws_, c.body, b.com).squaredNorm() + angularVelocity(ws_, c.body).squaredNorm();
        break;
      }
    }
    total += c.weight * e2;
  }
  return total;
}

void CostEvaluator::addRunningGradient(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u, double scale,
                                       const KinematicAdjoint& at, Eigen::Ref<Eigen::VectorXd> qbar,
                                       Eigen::Ref<Eigen::VectorXd> vbar, Eigen::Ref<Eigen::VectorXd> gu) const {
  if (!hasRunning_) return;
  const int nq = model_.nq;
  for (std::size_t k = 0; k < terms_.size(); ++k) {
    const CostTerm& c = terms_[k];
    if (c.terminal) continue;
    const double s = 2.0 * scale * c.weight;  // d(w e^2) = 2 w e de
    switch (c.kind) {
      case CostTerm::Kind::MarkerPosition: {
        const Marker& m = model_.markers[c.marker];
        Vec3 e = at.pointPosition(m.body, m.position);
        for (int i = 0; i < 3; ++i) e[i] -= c.initialTarget ? initialMarker_[k][i] : targetOf(c, i, t, 0.0);
        at.addPointForce(m.body, m.position, s * e, qbar);
        break;
      }
      case CostTerm::Kind::MarkerVelocity: {
        const Marker& m = model_.markers[c.marker];
        Vec3 e = at.pointVelocity(m.body, m.position);
        for (int i = 0; i < 3; ++i) e[i] -= targetOf(c, i, t, 0.0);
        at.addPointVelocityGradient(m.body, m.position, s * e, qbar, vbar);
        break;
      }
      case CostTerm::Kind::BodyAxisAngle: {
        // gamma = atan2(|a x d|, a . d) for the world axis a = R a_body and the direction d:
        // d gamma / da = c (d x (a x d)) / s - s d with c = a . d, s = |a x d|; gamma / s -> 1 / c
        // as the axis reaches the direction (the tilt's usual target).
        const Vec3 a = at.bodyRotation(c.body) * c.axis, axd = a.cross(c.direction);
        const double sine = axd.norm(), cosine = a.dot(c.direction), gamma = std::atan2(sine, cosine);
        const double ratio = sine > 1e-12 ? gamma / sine : 1.0 / cosine;  // gamma / s
        const Vec3 grad = s * (ratio * cosine * c.direction.cross(axd) - gamma * sine * c.direction);
        at.addBodyVectorGradient(c.body, c.axis, grad, qbar);
        break;
      }
      case CostTerm::Kind::BodyVelocity: {
        const Body& b = model_.bodies[static_cast<std::size_t>(c.body)];
        at.addPointVelocityGradient(c.body, b.com, s * at.pointVelocity(c.body, b.com), qbar, vbar);
        at.addAngularVelocityGradient(c.body, s * at.angularVelocity(c.body), qbar, vbar);
        break;
      }
      case CostTerm::Kind::JointPosition:
        qbar[c.coordinate] += s * (x[c.coordinate] - targetOf(c, 0, t, 0.0));
        break;
      case CostTerm::Kind::JointVelocity:
        vbar[c.coordinate] += s * (x[nq + c.coordinate] - targetOf(c, 0, t, 0.0));
        break;
      case CostTerm::Kind::ControlEffort:
        gu[c.control] += s * effortExcess(c, u[c.control]);
        break;
    }
  }
}

}  // namespace articula::detail
