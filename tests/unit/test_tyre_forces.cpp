// The Magic Formula (pure and combined slip, against values computed by hand) and the tyre
// element's response to a wheel state (contact frame, slip regularisation, mirror symmetry).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "articula/core/error.hpp"
#include "articula/dynamics/tyre_forces.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

// A parameter set for the hand computations: Fz = 2 Fz0, so dfz = 1.
MagicFormula handSet() {
  MagicFormula m;
  m.FNOMIN = 1000.0;
  m.PCX1 = 1.5, m.PDX1 = 1.0, m.PDX2 = -0.1, m.PEX1 = 0.5, m.PKX1 = 10.0;
  m.PCY1 = 1.3, m.PDY1 = 0.9, m.PDY2 = -0.1, m.PEY1 = -0.5, m.PEY2 = 0.2, m.PKY1 = 12.0, m.PKY2 = 1.5;
  m.RBX1 = 12.0, m.RBX2 = 10.0, m.RCX1 = 1.0, m.RBY1 = 10.0, m.RBY2 = 10.0, m.RCY1 = 1.0;
  m.QBZ1 = 8.0, m.QDZ1 = 0.1;
  return m;
}

TEST(MagicFormula, LongitudinalForceMatchesAHandComputation) {
  // mu = 1 - 0.1 = 0.9, D = 1800 N, E = 0.5, K = 10 Fz = 20000 N, B = K / (C D) = 7.4074;
  // at kappa = 0.1: B kappa = 0.74074, B kappa - E (B kappa - atan(B kappa)) = 0.68914,
  // Fx = 1800 sin(1.5 atan(0.68914)) = 1415.682 N.
  EXPECT_NEAR(magicFormulaFx(handSet(), 2000.0, 0.1), 1415.68206041443, 1e-9);
  EXPECT_NEAR(longitudinalSlipStiffness(handSet(), 2000.0), 20000.0, 1e-9);
}

TEST(MagicFormula, LateralForceMatchesAHandComputation) {
  // K_y = 12 Fz0 sin(2 atan(2000 / 1500)) = 12000 * 0.96 = 11520 N/rad; D = 0.8 * 2000 = 1600 N;
  // E = -0.5 + 0.2 = -0.3; B = 11520 / (1.3 * 1600) = 5.5385; at alpha = 0.05 rad: Fy = 554.119 N.
  EXPECT_NEAR(corneringStiffness(handSet(), 2000.0), 11520.0, 1e-9);
  EXPECT_NEAR(magicFormulaFy(handSet(), 2000.0, 0.05), 554.118878976152, 1e-9);
}

TEST(MagicFormula, CombinedSlipWeightsMatchAHandComputation) {
  // G_xa = cos(atan(12 cos(atan(1)) 0.05)) = 0.920575; G_ya = cos(atan(10 cos(atan(0.5)) 0.1)) = sqrt(5/9).
  const SlipForces f = magicFormula(handSet(), 2000.0, 0.1, 0.05, 0.3);
  EXPECT_NEAR(f.Fx, 0.9205746178983234 * 1415.68206041443, 1e-8);
  EXPECT_NEAR(f.Fy, std::sqrt(5.0 / 9.0) * 554.118878976152, 1e-8);
  // Trail 0.1 * 0.3 * 2 * cos(atan(8 * 0.05)) behind the contact: Mz = -t Fy.
  EXPECT_NEAR(f.Mz, -0.06 * std::cos(std::atan(0.4)) * f.Fy, 1e-9);
}

// The slip x at which D sin(C atan(B x - E (B x - atan(B x)))) peaks: the argument of the sine is
// pi/2, i.e. B x - E (B x - atan(B x)) = tan(pi / (2 C)) (increasing in x for E <= 1).
double peakSlip(double B, double C, double E) {
  const double target = std::tan(std::numbers::pi / (2.0 * C));
  double lo = 0.0, hi = 10.0;
  for (int k = 0; k < 200; ++k) {
    const double x = 0.5 * (lo + hi), Bx = B * x;
    (Bx - E * (Bx - std::atan(Bx)) < target ? lo : hi) = x;
  }
  return 0.5 * (lo + hi);
}

TEST(MagicFormula, PeaksAtMuFzWhereTheFormulaPredicts) {
  const MagicFormula m = MagicFormula::passengerCar();
  for (double Fz : {2000.0, 4000.0, 7000.0}) {
    const double dfz = (Fz - m.FNOMIN) / m.FNOMIN;
    const double Dx = (m.PDX1 + m.PDX2 * dfz) * Fz;
    const double Bx = longitudinalSlipStiffness(m, Fz) / (m.PCX1 * Dx);
    const double kx = peakSlip(Bx, m.PCX1, m.PEX1 + m.PEX2 * dfz + m.PEX3 * dfz * dfz);
    EXPECT_NEAR(magicFormulaFx(m, Fz, kx), Dx, 1e-9 * Dx);
    EXPECT_LT(magicFormulaFx(m, Fz, 0.9 * kx), Dx * (1.0 - 1e-6));
    EXPECT_LT(magicFormulaFx(m, Fz, 1.1 * kx), Dx * (1.0 - 1e-6));
    const double Dy = (m.PDY1 + m.PDY2 * dfz) * Fz;
    const double By = corneringStiffness(m, Fz) / (m.PCY1 * Dy);
    const double ay = peakSlip(By, m.PCY1, m.PEY1 + m.PEY2 * dfz);
    EXPECT_NEAR(magicFormulaFy(m, Fz, ay), Dy, 1e-9 * Dy);
    EXPECT_LT(magicFormulaFy(m, Fz, 0.9 * ay), Dy * (1.0 - 1e-6));
    EXPECT_LT(magicFormulaFy(m, Fz, 1.1 * ay), Dy * (1.0 - 1e-6));
  }
}

TEST(MagicFormula, IsOddWithoutCamberOrShifts) {
  for (const MagicFormula& m : {MagicFormula::passengerCar(), MagicFormula::truck(), handSet()})
    for (double s : {1e-4, 0.01, 0.05, 0.1, 0.3, 1.0}) {
      EXPECT_EQ(magicFormulaFy(m, 5000.0, -s), -magicFormulaFy(m, 5000.0, s));
      EXPECT_EQ(magicFormulaFx(m, 5000.0, -s), -magicFormulaFx(m, 5000.0, s));
      EXPECT_GT(magicFormulaFy(m, 5000.0, s), 0.0);
    }
}

TEST(MagicFormula, CombinedSlipReducesBothForces) {
  const MagicFormula m = MagicFormula::passengerCar();
  const double Fx0 = magicFormulaFx(m, 4000.0, 0.05), Fy0 = magicFormulaFy(m, 4000.0, 0.05);
  const SlipForces f = magicFormula(m, 4000.0, 0.05, 0.05, 0.3);
  EXPECT_LT(f.Fx, Fx0);
  EXPECT_LT(f.Fy, Fy0);
  EXPECT_GT(f.Fx, 0.0);
  EXPECT_GT(f.Fy, 0.0);
  // More of the other slip takes more away.
  const SlipForces g = magicFormula(m, 4000.0, 0.1, 0.1, 0.3);
  EXPECT_LT(g.Fx, f.Fx * magicFormulaFx(m, 4000.0, 0.1) / Fx0);
  EXPECT_LT(g.Fy, f.Fy * magicFormulaFy(m, 4000.0, 0.1) / Fy0);
  // Without the other slip, the pure-slip force is left as it is.
  EXPECT_EQ(magicFormula(m, 4000.0, 0.05, 0.0, 0.3).Fx, Fx0);
  EXPECT_EQ(magicFormula(m, 4000.0, 0.0, 0.05, 0.3).Fy, Fy0);
}

TEST(MagicFormula, TheDefaultSetsAreUsable) {
  EXPECT_EQ(magicFormulaProblem(MagicFormula::passengerCar()), "");
  EXPECT_EQ(magicFormulaProblem(MagicFormula::truck()), "");
  MagicFormula m = MagicFormula::passengerCar();
  m.PKY1 = -17.0;  // an ISO-convention .tir value
  EXPECT_NE(magicFormulaProblem(m).find("PKY1"), std::string::npos);
}

// A car tyre on flat road at z = 0 with its spin axis along world y.
Tyre carTyre() {
  Tyre t;
  t.name = "test";
  t.body = 1;
  t.axis = Vec3::UnitY();
  t.radius = 0.3;
  t.radialStiffness = 2e5;
  t.radialDamping = 500.0;
  t.rollingResistance = 0.015;
  t.lowSpeed = 1.0;
  t.mf = MagicFormula::passengerCar();
  return t;
}

WheelState wheelAt(double height, const Vec3& velocity, const Vec3& omega) {
  WheelState w;
  w.origin = Vec3(0.0, 0.0, height);
  w.velocity = velocity;
  w.omega = omega;
  return w;
}

TEST(TyreResponse, AStandingWheelCarriesItsLoadWithoutSlipForces) {
  const Road road = Road::flat(0.0);
  const TyreResponse r = tyreResponse(carTyre(), road, wheelAt(0.29, Vec3::Zero(), Vec3::Zero()));
  ASSERT_TRUE(r.contact);
  EXPECT_NEAR(r.Fz, 2e5 * 0.01, 1e-6);
  EXPECT_NEAR(r.force.x(), 0.0, 1e-12);
  EXPECT_NEAR(r.force.y(), 0.0, 1e-12);
  EXPECT_NEAR(r.point.z(), 0.0, 1e-15);
  EXPECT_EQ(r.speed, 1.0);  // the regularisation speed replaces |Vx| = 0
  // Off the road: nothing.
  EXPECT_FALSE(tyreResponse(carTyre(), road, wheelAt(0.31, Vec3::Zero(), Vec3::Zero())).contact);
}

TEST(TyreResponse, ForcesStayFiniteAndBoundedFromRest) {
  // A wheel spinning at standstill and one sliding sideways at standstill: the slip is divided
  // by V_low, not by |Vx| = 0, and the forces are bounded by the Magic Formula's peak.
  const Road road = Road::flat(0.0);
  for (const WheelState& w : {wheelAt(0.29, Vec3::Zero(), Vec3(0, 50, 0)), wheelAt(0.29, Vec3(0, 3, 0), Vec3::Zero()),
                              wheelAt(0.29, Vec3(1e-9, 0, 0), Vec3::Zero())}) {
    const TyreResponse r = tyreResponse(carTyre(), road, w);
    ASSERT_TRUE(r.force.allFinite() && r.moment.allFinite());
    const MagicFormula m = MagicFormula::passengerCar();
    const double dfz = (r.Fz - m.FNOMIN) / m.FNOMIN;
    EXPECT_LE(std::abs(r.force.x()), (m.PDX1 + m.PDX2 * dfz) * r.Fz * (1.0 + 1e-12));
    EXPECT_LE(std::abs(r.force.y()), (m.PDY1 + m.PDY2 * dfz) * r.Fz * (1.0 + 1e-12));
  }
  // Spinning forward (about +y) at standstill drives the wheel forward.
  EXPECT_GT(tyreResponse(carTyre(), road, wheelAt(0.29, Vec3::Zero(), Vec3(0, 5, 0))).force.x(), 0.0);
}

TEST(TyreResponse, FreeRollingGivesOnlyTheRollingResistance) {
  const Road road = Road::flat(0.0);
  const double rho = 0.29, V = 10.0;
  const TyreResponse r = tyreResponse(carTyre(), road, wheelAt(rho, Vec3(V, 0, 0), Vec3(0, V / rho, 0)));
  EXPECT_NEAR(r.kappa, 0.0, 1e-15);
  EXPECT_NEAR(r.force.x(), 0.0, 1e-9);
  // The moment f_r Fz rho against the spin (tanh(V / V_low) = 1 - 4e-9 here).
  EXPECT_NEAR(r.moment.y(), -0.015 * r.Fz * rho, 1e-6);
}

TEST(TyreResponse, MirroredSlipGivesMirroredForces) {
  // Left and right: the same wheel sliding to +y or -y, and a wheel whose spin axis points the
  // other way (a right-hand wheel) in the same motion, give mirrored and identical world forces.
  const Road road = Road::flat(0.0);
  const Vec3 omega(0, 8.0 / 0.29, 0);
  const TyreResponse left = tyreResponse(carTyre(), road, wheelAt(0.29, Vec3(8, 0.5, 0), omega));
  const TyreResponse right = tyreResponse(carTyre(), road, wheelAt(0.29, Vec3(8, -0.5, 0), omega));
  EXPECT_LT(left.force.y(), -100.0);  // it opposes the sliding
  EXPECT_EQ(left.force.y(), -right.force.y());
  EXPECT_EQ(left.force.x(), right.force.x());
  EXPECT_EQ(left.force.z(), right.force.z());
  Tyre flipped = carTyre();
  flipped.axis = -Vec3::UnitY();
  const TyreResponse same = tyreResponse(flipped, road, wheelAt(0.29, Vec3(8, 0.5, 0), omega));
  EXPECT_NEAR((same.force - left.force).norm(), 0.0, 1e-9 * left.force.norm());
  EXPECT_NEAR((same.moment - left.moment).norm(), 0.0, 1e-9 * left.moment.norm());
}

TEST(TyreResponse, ALyingWheelIsAClearError) {
  Tyre t = carTyre();
  t.axis = Vec3::UnitZ();
  try {
    tyreResponse(t, Road::flat(0.0), wheelAt(0.29, Vec3::Zero(), Vec3::Zero()));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tyre 'test'"), std::string::npos) << e.what();
  }
}

TEST(TyreResponse, EnergyIsThatOfTheRadialSpring) {
  EXPECT_NEAR(tyreEnergy(carTyre(), Road::flat(0.0), Mat3::Identity(), Vec3(0, 0, 0.29)), 0.5 * 2e5 * 1e-4, 1e-9);
  EXPECT_EQ(tyreEnergy(carTyre(), Road::flat(0.0), Mat3::Identity(), Vec3(0, 0, 0.31)), 0.0);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
