// Tyre forces: the Magic Formula in pure and combined slip, and the whole tyre element (contact,
// radial spring-damper, slip, rolling resistance, aligning moment) for a wheel's world state.
// The equations and their symbols are in docs/vehicles.md.
#pragma once

#include "articula/model/road.hpp"
#include "articula/model/tyre.hpp"

namespace articula {

/// Forces of the Magic Formula in the contact frame for a normal load Fz > 0, a longitudinal slip
/// kappa and a slip angle alpha (radians).
struct SlipForces {
  double Fx = 0.0, Fy = 0.0, Mz = 0.0;
};
/// Slopes at zero slip: K_x = dFx/dkappa and K_y = dFy/dalpha (N per unit slip, N/rad).
double longitudinalSlipStiffness(const MagicFormula& m, double Fz);
double corneringStiffness(const MagicFormula& m, double Fz);
/// Pure slip: Fx(kappa) at alpha = 0 and Fy(alpha) at kappa = 0.
double magicFormulaFx(const MagicFormula& m, double Fz, double kappa);
double magicFormulaFy(const MagicFormula& m, double Fz, double alpha);
/// Combined slip (cosine weighting functions) and the aligning moment; R0 scales the trail.
SlipForces magicFormula(const MagicFormula& m, double Fz, double kappa, double alpha, double R0);

/// The wheel body's world state as the tyre needs it.
struct WheelState {
  Mat3 rotation = Mat3::Identity();  ///< body axes in world coordinates
  Vec3 origin = Vec3::Zero();        ///< body origin, world
  Vec3 velocity = Vec3::Zero();      ///< world velocity of the wheel centre
  Vec3 omega = Vec3::Zero();         ///< world angular velocity
};

/// What the tyre does, in world coordinates: `force` acts at `point` (the road contact point,
/// as a point of the wheel), `moment` is a pure moment. Zero force off the road.
struct TyreResponse {
  bool contact = false;
  Vec3 point = Vec3::Zero(), force = Vec3::Zero(), moment = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();        ///< n: from the road towards the wheel centre
  Vec3 longitudinal = Vec3::UnitX();  ///< e_x: along the road in the wheel plane
  Vec3 lateral = Vec3::UnitY();       ///< e_y = n x e_x
  double speed = 0.0;       ///< the slip denominator max(|Vx|, V_low)
  double deflection = 0.0;  ///< R0 - rho
  double Fz = 0.0, kappa = 0.0, alpha = 0.0;
};

/// Throws articula::Error naming the tyre when the wheel lies flat (its spin axis vertical). A
/// centre below the road surface is pushed up by the radial spring continued beyond R0.
TyreResponse tyreResponse(const Tyre& tyre, const Road& road, const WheelState& wheel);

/// The dampings of the tyre's linearised tangent along n, e_x and e_y for a response in contact:
/// the radial damping, and the slip forces' slopes at zero slip over the slip denominator,
/// K_x / V and K_y / V (the analytic tangents of the hybrid and global formulations).
Vec3 tyreTangentDamping(const Tyre& tyre, const TyreResponse& r);

/// Elastic energy of the radial spring, k (R0 - rho)^2 / 2 in contact.
double tyreEnergy(const Tyre& tyre, const Road& road, const Mat3& rotation, const Vec3& origin);

}  // namespace articula
