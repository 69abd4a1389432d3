// Tyre force elements: a wheel of finite radius on the model's road with Magic Formula slip
// forces (docs/vehicles.md has the equations; dynamics/tyre_forces.hpp evaluates them).
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "articula/spatial/spatial.hpp"

namespace articula {

/// Coefficients of the Magic Formula, named as in MF 5.2 tyre property files (without camber,
/// shifts and scaling factors). Sign convention: a positive slip gives a positive force, so the
/// cornering stiffness coefficient PKY1 is positive here (an ISO-convention .tir file stores it
/// negative).
struct MagicFormula {
  double FNOMIN = 0.0;  ///< nominal load Fz0, N
  // Pure longitudinal slip.
  double PCX1 = 0.0, PDX1 = 0.0, PDX2 = 0.0, PEX1 = 0.0, PEX2 = 0.0, PEX3 = 0.0, PKX1 = 0.0, PKX2 = 0.0, PKX3 = 0.0;
  // Pure lateral slip.
  double PCY1 = 0.0, PDY1 = 0.0, PDY2 = 0.0, PEY1 = 0.0, PEY2 = 0.0, PKY1 = 0.0, PKY2 = 0.0;
  // Combined slip: cosine weighting functions.
  double RBX1 = 0.0, RBX2 = 0.0, RCX1 = 0.0, RBY1 = 0.0, RBY2 = 0.0, RCY1 = 0.0;
  // Aligning moment through the pneumatic trail.
  double QBZ1 = 0.0, QDZ1 = 0.0;

  /// Representative values of a passenger-car tyre of the 205/60R15 class (docs/vehicles.md).
  static MagicFormula passengerCar();
  /// Representative values of a truck tyre of the 315/80R22.5 class (docs/vehicles.md).
  static MagicFormula truck();
};

/// Every coefficient by its name, for readers and writers.
struct MagicFormulaCoefficient {
  std::string_view name;
  double MagicFormula::*member;
};
const std::array<MagicFormulaCoefficient, 25>& magicFormulaCoefficients();
/// Empty when the coefficients are usable, else the first problem ("PKY1 must be positive ...").
std::string magicFormulaProblem(const MagicFormula& m);

/// A tyre on a wheel body. The wheel is a disc of radius `radius` about `centre`, in the plane
/// normal to `axis` (body frame); it touches the road at the road point nearest to its centre in
/// the vertical plane of its heading (Road::discContact).
struct Tyre {
  std::string name;
  int body = 0;
  Vec3 centre = Vec3::Zero();   ///< wheel centre, body frame
  Vec3 axis = Vec3::UnitZ();    ///< spin axis, body frame, unit
  double radius = 0.0;          ///< unloaded radius R0, m
  double radialStiffness = 0.0; ///< N/m
  double radialDamping = 0.0;   ///< N s/m
  double rollingResistance = 0.0;  ///< coefficient f_r: moment f_r Fz rho against the spin
  double lowSpeed = 1.0;        ///< slip regularisation speed V_low, m/s
  MagicFormula mf;
};

}  // namespace articula
