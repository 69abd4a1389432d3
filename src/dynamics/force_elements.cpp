#include "articula/dynamics/force_elements.hpp"

#include <algorithm>
#include <cmath>

#include "articula/dynamics/air_spring.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/tyre_forces.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {
// Adds a force fw (world coordinates) applied at point p (body coordinates) to body b.
void applyWorldForce(Workspace& ws, int b, const Vec3& p, const Vec3& fw) {
  if (b == 0) return;
  const Vec3 fb = ws.X0[b].E * fw;
  ws.fext[b] += Force(p.cross(fb), fb);
}

struct SpringGeometry {
  Vec3 direction;  // unit vector from A to B
  double length;
};

SpringGeometry springGeometry(const Workspace& ws, const PointSpringDamper& s) {
  const Vec3 d = pointPosition(ws, s.bodyB, s.pointB) - pointPosition(ws, s.bodyA, s.pointA);
  const double L = d.norm();
  if (L < 1e-12) {
    if (s.restLength > 0.0)
      throw Error("spring '" + s.name + "': its end points coincide, so the direction of a force with rest length " +
                  std::to_string(s.restLength) + " m is undefined");
    return {Vec3::Zero(), 0.0};
  }
  return {d / L, L};
}
// The wheel body's world state for its tyre (after updateVelocities).
WheelState wheelState(const Workspace& ws, const Tyre& t) {
  return {bodyRotation(ws, t.body), bodyPosition(ws, t.body), pointVelocity(ws, t.body, t.centre), angularVelocity(ws, t.body)};
}

// How far q lies beyond the range of the limit: q - upper above it, q - lower below, else 0.
double overrun(const JointLimit& l, double q) { return q > l.upper ? q - l.upper : q < l.lower ? q - l.lower : 0.0; }

// Coulomb friction of size F smoothed over the slip rate v_s: F tanh(rate / v_s) and its slope
// in the rate (a viscous damper F / v_s near rest), shared by joint friction and leaf springs.
struct SmoothedCoulomb {
  double force, slope;
};
SmoothedCoulomb smoothedCoulomb(double F, double slipRate, double rate) {
  const double th = std::tanh(rate / slipRate);
  return {F * th, F / slipRate * (1.0 - th * th)};
}
}  // namespace

TyreResponse tyreResponse(const Model& model, const Workspace& ws, const Tyre& tyre) {
  return tyreResponse(tyre, model.road, wheelState(ws, tyre));
}

JointForce jointLimitForce(const JointLimit& l, double q, double qd) {
  const double x = overrun(l, q);
  if (x == 0.0) return {};
  const double tau = -l.stiffness * x - l.damping * qd;
  if (tau * x > 0.0) return {};  // the stop pushes back into the range and never pulls
  return {tau, -l.stiffness, -l.damping};
}

JointForce pointSpringTension(const PointSpringDamper& s, double L, double Ld) {
  JointForce t{s.stiffness * (L - s.restLength), s.stiffness, s.damping};
  if (s.hasDampingCurve()) {
    // The segment containing Ld, or the end segment beyond the table (its slope carries on).
    const auto& v = s.curveVelocity;
    const std::size_t n = v.size();
    std::size_t k = static_cast<std::size_t>(std::upper_bound(v.begin(), v.end(), Ld) - v.begin());
    k = std::clamp<std::size_t>(k, 1, n - 1);
    const double slope = (s.curveForce[k] - s.curveForce[k - 1]) / (v[k] - v[k - 1]);
    t.tau += s.curveForce[k - 1] + slope * (Ld - v[k - 1]);
    t.dqd = slope;
  } else {
    t.tau += s.damping * Ld;
  }
  if (s.hasBumpStop() && L < s.bumpStopLength) {
    t.tau += s.bumpStopStiffness * (L - s.bumpStopLength);
    t.dq += s.bumpStopStiffness;
  }
  if (s.hasAirSpring()) {
    const AirSpringForce gas = airSpringForce(s.air, L, s.name);
    t.tau += gas.tension;
    t.dq += gas.rate;
  }
  if (s.hasFriction()) {  // interleaf friction resists the rate of extension
    const SmoothedCoulomb f = smoothedCoulomb(s.frictionForce, s.frictionSlipVelocity, Ld);
    t.tau += f.force;
    t.dqd += f.slope;
  }
  return t;
}

double pointSpringEnergy(const PointSpringDamper& s, double L) {
  const double x = L - s.restLength;
  double V = 0.5 * s.stiffness * x * x;
  if (s.hasBumpStop() && L < s.bumpStopLength) V += 0.5 * s.bumpStopStiffness * (L - s.bumpStopLength) * (L - s.bumpStopLength);
  if (s.hasAirSpring()) V += airSpringEnergy(s.air, L, s.name);
  return V;
}

JointForce jointFrictionForce(const JointFriction& f, double qd) {
  const SmoothedCoulomb c = smoothedCoulomb(f.force, f.slipVelocity, qd);
  return {-c.force, 0.0, -c.slope};
}

void evaluateForceElements(const Model& model, Workspace& ws, double t, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v) {
  ws.tau.setZero();
  for (auto& f : ws.fext) f = Force();
  for (const auto& s : model.jointSprings) {
    const Joint& j = model.joints[s.joint];
    ws.tau[j.iv + s.dof] += s.force(t, q[j.iq + s.dof], v[j.iv + s.dof]);
  }
  for (const auto& l : model.jointLimits) {
    const Joint& j = model.joints[l.joint];
    ws.tau[j.iv + l.dof] += jointLimitForce(l, q[j.iq + l.dof], v[j.iv + l.dof]).tau;
  }
  for (const auto& f : model.jointFrictions) {
    const int i = model.joints[f.joint].iv + f.dof;
    ws.tau[i] += jointFrictionForce(f, v[i]).tau;
  }
  for (const auto& l : model.jointLoads) ws.tau[model.joints[l.joint].iv + l.dof] += l.magnitude.value(t);
  for (const auto& s : model.pointSprings) {
    const SpringGeometry g = springGeometry(ws, s);
    const Vec3 relVel = pointVelocity(ws, s.bodyB, s.pointB) - pointVelocity(ws, s.bodyA, s.pointA);
    const double tension = pointSpringTension(s, g.length, g.direction.dot(relVel)).tau;
    applyWorldForce(ws, s.bodyA, s.pointA, tension * g.direction);
    applyWorldForce(ws, s.bodyB, s.pointB, -tension * g.direction);
  }
  for (const auto& tyre : model.tyres) {
    const TyreResponse r = tyreResponse(model, ws, tyre);
    if (r.Fz == 0.0) continue;
    const Mat3& E = ws.X0[tyre.body].E;  // world to body
    applyWorldForce(ws, tyre.body, E * (r.point - bodyPosition(ws, tyre.body)), r.force);
    ws.fext[tyre.body] += Force(E * r.moment, Vec3::Zero());
  }
  for (const auto& l : model.bodyLoads) {
    const double m = l.magnitude.value(t);
    const Vec3 vb = l.worldFrame ? Vec3(ws.X0[l.body].E * l.direction * m) : Vec3(l.direction * m);  // body coordinates
    if (l.torque)
      ws.fext[l.body] += Force(vb, Vec3::Zero());
    else
      ws.fext[l.body] += Force(l.point.cross(vb), vb);
  }
}

bool forceElementsNeedKinematics(const Model& model) {
  return !model.pointSprings.empty() || !model.bodyLoads.empty() || !model.tyres.empty();
}

void residualForces(const Model& model, Workspace& ws, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                    const Eigen::VectorXd& vdot, Eigen::Ref<Eigen::VectorXd> out) {
  if (forceElementsNeedKinematics(model)) updateVelocities(model, ws, q, v);
  evaluateForceElements(model, ws, t, q, v);
  inverseDynamics(model, ws, q, v, vdot, &ws.fext, out);  // computes its own kinematics
  out -= ws.tau;
}

double potentialEnergy(const Model& model, const Workspace& ws, const Eigen::VectorXd& q) {
  double V = gravitationalEnergy(model, ws);
  for (const auto& s : model.jointSprings) {
    if (s.reference) continue;  // a servo: its work is the controller's, not stored in the model
    const double x = q[model.joints[s.joint].iq + s.dof] - s.restPosition;
    V += 0.5 * s.stiffness * x * x;
  }
  for (const auto& l : model.jointLimits) {
    const double x = overrun(l, q[model.joints[l.joint].iq + l.dof]);
    V += 0.5 * l.stiffness * x * x;
  }
  for (const auto& s : model.pointSprings) V += pointSpringEnergy(s, springGeometry(ws, s).length);
  for (const auto& t : model.tyres) V += tyreEnergy(t, model.road, bodyRotation(ws, t.body), bodyPosition(ws, t.body));
  return V;
}

}  // namespace articula
