#include "articula/dynamics/tyre_forces.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "articula/core/error.hpp"

namespace articula {

namespace {

// The Magic Formula y(x) = D sin(C atan(B x - E (B x - atan(B x)))).
double magic(double B, double C, double D, double E, double x) {
  const double Bx = B * x;
  return D * std::sin(C * std::atan(Bx - E * (Bx - std::atan(Bx))));
}

// Normalised load increment dfz = (Fz - Fz0) / Fz0.
double loadIncrement(const MagicFormula& m, double Fz) { return (Fz - m.FNOMIN) / m.FNOMIN; }

struct Contact {
  Vec3 centre, axis, heading;
  RoadContact road;
};

Contact contactGeometry(const Tyre& tyre, const Road& road, const Mat3& rotation, const Vec3& origin) {
  Contact c;
  c.centre = origin + rotation * tyre.centre;
  c.axis = rotation * tyre.axis;
  const Vec3 heading = c.axis.cross(Vec3::UnitZ());
  const double h = heading.norm();
  if (!(h > 1e-6))
    throw Error("tyre '" + tyre.name + "': the wheel lies flat (its spin axis is vertical), so it has no rolling direction");
  c.heading = heading / h;
  c.road = road.discContact(c.centre, c.heading, tyre.radius);
  // A centre that has gone below the road (the nearest road point lies above it): the distance
  // counts as negative and the normal points up, so the spring goes on pushing the wheel up,
  // continuously, with a deflection beyond R0. Meaningless as a tyre, but an adaptive
  // integrator's trial stage that overshoots this far is then rejected instead of fatal.
  if (c.road.touching && c.road.normal.z() < 0.0) {
    c.road.normal = -c.road.normal;
    c.road.distance = -c.road.distance;
  }
  return c;
}

}  // namespace

double longitudinalSlipStiffness(const MagicFormula& m, double Fz) {
  const double dfz = loadIncrement(m, Fz);
  return std::max(0.0, Fz * (m.PKX1 + m.PKX2 * dfz) * std::exp(m.PKX3 * dfz));
}

// The cornering stiffness peaks at Fz = PKY2 Fz0 (MF 5.2 without camber).
double corneringStiffness(const MagicFormula& m, double Fz) {
  return m.PKY1 * m.FNOMIN * std::sin(2.0 * std::atan(Fz / (m.PKY2 * m.FNOMIN)));
}

// Pure longitudinal slip with the load dependence of MF 5.2 (no camber, shifts or scaling factors).
double magicFormulaFx(const MagicFormula& m, double Fz, double kappa) {
  const double dfz = loadIncrement(m, Fz);
  const double C = m.PCX1;
  const double D = std::max(0.0, m.PDX1 + m.PDX2 * dfz) * Fz;  // mu_x Fz, friction held at zero beyond
  const double E = std::min(1.0, m.PEX1 + m.PEX2 * dfz + m.PEX3 * dfz * dfz);
  if (!(D > 0.0)) return 0.0;
  return magic(longitudinalSlipStiffness(m, Fz) / (C * D), C, D, E, kappa);
}

// Pure lateral slip.
double magicFormulaFy(const MagicFormula& m, double Fz, double alpha) {
  const double dfz = loadIncrement(m, Fz);
  const double C = m.PCY1;
  const double D = std::max(0.0, m.PDY1 + m.PDY2 * dfz) * Fz;
  const double E = std::min(1.0, m.PEY1 + m.PEY2 * dfz);
  if (!(D > 0.0)) return 0.0;
  return magic(corneringStiffness(m, Fz) / (C * D), C, D, E, alpha);
}

SlipForces magicFormula(const MagicFormula& m, double Fz, double kappa, double alpha, double R0) {
  // Combined slip: each pure-slip force weighted by a cosine of the other slip, whose width
  // narrows as the own slip grows (the MF 5.2 weighting functions without their shifts).
  const double Bxa = m.RBX1 * std::cos(std::atan(m.RBX2 * kappa));
  const double Gxa = std::cos(m.RCX1 * std::atan(Bxa * alpha));
  const double Byk = m.RBY1 * std::cos(std::atan(m.RBY2 * alpha));
  const double Gyk = std::cos(m.RCY1 * std::atan(Byk * kappa));
  SlipForces f;
  f.Fx = Gxa * magicFormulaFx(m, Fz, kappa);
  f.Fy = Gyk * magicFormulaFy(m, Fz, alpha);
  // Aligning moment of the lateral force acting a pneumatic trail t behind the contact point;
  // t grows with the load and falls off with the slip angle.
  const double trail = m.QDZ1 * R0 * (Fz / m.FNOMIN) * std::cos(std::atan(m.QBZ1 * alpha));
  f.Mz = -trail * f.Fy;
  return f;
}

TyreResponse tyreResponse(const Tyre& tyre, const Road& road, const WheelState& wheel) {
  const Contact c = contactGeometry(tyre, road, wheel.rotation, wheel.origin);
  TyreResponse out;
  if (!c.road.touching) return out;
  out.contact = true;
  out.point = c.road.point;
  const double rho = c.road.distance;
  out.deflection = tyre.radius - rho;
  const Vec3& n = c.road.normal;
  out.normal = n;
  // Radial spring-damper along the normal; it pushes and never pulls.
  const double Fz = tyre.radialStiffness * out.deflection - tyre.radialDamping * n.dot(wheel.velocity);
  if (!(Fz > 0.0)) return out;
  out.Fz = Fz;
  // Contact frame: e_x along the road in the wheel plane, e_y across it, n up from the road.
  const Vec3 ex = c.axis.cross(n).normalized();
  const Vec3 ey = n.cross(ex);
  out.longitudinal = ex;
  out.lateral = ey;
  // Slip velocity: the velocity of the wheel's material point at the contact (road at rest),
  // divided by the rolling speed |Vx|, kept from falling below V_low.
  const Vec3 slip = wheel.velocity + wheel.omega.cross(out.point - c.centre);
  const double Vx = ex.dot(wheel.velocity);
  const double speed = std::max(std::abs(Vx), tyre.lowSpeed);
  out.speed = speed;
  out.kappa = -ex.dot(slip) / speed;
  out.alpha = std::atan(-ey.dot(slip) / speed);
  const SlipForces f = magicFormula(tyre.mf, Fz, out.kappa, out.alpha, tyre.radius);
  out.force = f.Fx * ex + f.Fy * ey + Fz * n;
  // Rolling resistance: a moment f_r Fz rho against the spin, smoothed through zero spin.
  const double spin = wheel.omega.dot(c.axis);
  const double arm = std::max(rho, 0.0);
  const double rolling = -tyre.rollingResistance * Fz * arm * std::tanh(spin * arm / tyre.lowSpeed);
  // The trail lies behind the wheel in its direction of travel: rolling backwards along e_x
  // turns the aligning moment over; it fades out below V_low.
  out.moment = (Vx / speed) * f.Mz * n + rolling * c.axis;
  return out;
}

Vec3 tyreTangentDamping(const Tyre& tyre, const TyreResponse& r) {
  return {tyre.radialDamping, longitudinalSlipStiffness(tyre.mf, r.Fz) / r.speed,
          corneringStiffness(tyre.mf, r.Fz) / r.speed};
}

double tyreEnergy(const Tyre& tyre, const Road& road, const Mat3& rotation, const Vec3& origin) {
  const Contact c = contactGeometry(tyre, road, rotation, origin);
  if (!c.road.touching) return 0.0;
  const double x = tyre.radius - c.road.distance;
  return 0.5 * tyre.radialStiffness * x * x;
}

}  // namespace articula
