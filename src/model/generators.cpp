#include "articula/model/generators.hpp"

#include <cmath>
#include <numbers>
#include <string>

namespace articula {

ModelBuilder chainBuilder(int links, bool spatial) {
  if (links < 1) throw Error("a chain needs at least one link (got " + std::to_string(links) + ")");
  constexpr double kLength = 0.5, kSide = 0.05, kMass = 1.0;
  ModelBuilder b;
  b.name = std::string(spatial ? "spatial" : "chain") + std::to_string(links);
  b.gravity = Vec3(0.0, -9.81, 0.0);
  const Vec3 axes[3] = {Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()};
  for (int i = 1; i <= links; ++i) {
    BodySpec body;
    body.name = "link" + std::to_string(i);
    body.mass = kMass;
    body.com = Vec3(0.5 * kLength, 0.0, 0.0);
    body.inertia = boxInertia(kMass, Vec3(kLength, kSide, kSide));
    body.shapes = {boxShape(Vec3(kLength, kSide, kSide), body.com, "")};
    b.addBody(body);

    JointSpec joint;
    joint.name = "joint" + std::to_string(i);
    joint.type = JointType::Revolute;
    joint.parent = i == 1 ? "ground" : "link" + std::to_string(i - 1);
    joint.child = body.name;
    joint.position = i == 1 ? Vec3::Zero() : Vec3(kLength, 0.0, 0.0);
    joint.axis = spatial ? axes[(i - 1) % 3] : Vec3::UnitZ();
    joint.q0 = {i == 1 ? 0.3 : 0.1};
    b.addJoint(joint);
  }
  return b;
}

namespace {

// prefix + i (appended: GCC 12 warns falsely about `"A" + std::to_string(i)`, -Wrestrict).
std::string numbered(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

constexpr double kRodSide = 0.02;  // square section of the example rods (visual, axial inertia)

// Uniform rod of `mass` and `length` along the body's local x (or y), frame at one end.
BodySpec rod(const std::string& name, double mass, double length, const char* color, bool alongY = false) {
  BodySpec b;
  b.name = name;
  b.mass = mass;
  const Vec3 edges = alongY ? Vec3(kRodSide, length, kRodSide) : Vec3(length, kRodSide, kRodSide);
  b.com = alongY ? Vec3(0.0, 0.5 * length, 0.0) : Vec3(0.5 * length, 0.0, 0.0);
  b.inertia = boxInertia(mass, edges);
  b.shapes = {boxShape(edges, b.com, color)};
  return b;
}

JointSpec revolute(const std::string& name, const std::string& parent, const std::string& child, const Vec3& at,
                   const Vec3& axis, double q, double v, bool locked = false) {
  JointSpec j;
  j.name = name;
  j.type = JointType::Revolute;
  j.parent = parent;
  j.child = child;
  j.position = at;
  j.axis = axis;
  j.q0 = {q};
  j.v0 = {v};
  j.lockedInAssembly = locked;
  return j;
}

constexpr const char* kCrankColor = "#e0873a";
constexpr const char* kCouplerColor = "#4f8fd8";
constexpr const char* kRockerColor = "#59b36b";

}  // namespace

ModelBuilder nFourBarBuilder(int fourBars, double crankAngle, double crankSpeed) {
  if (fourBars < 1)
    throw Error("an N four-bar mechanism needs at least one four-bar (got " + std::to_string(fourBars) + ")");
  constexpr double kLength = 1.0, kMass = 1.0;
  ModelBuilder b;
  b.name = numbered("n_four_bar", fourBars);
  b.gravity = Vec3(0.0, -9.81, 0.0);
  const auto crank = [](int i) { return numbered("crank", i); };
  const auto coupler = [](int i) { return numbered("coupler", i); };
  const Vec3 tip(kLength, 0.0, 0.0);
  for (int i = 0; i <= fourBars; ++i) {
    // Slender rod: the in-plane moments are exactly m L^2 / 12 (benchmark A02); the
    // axial one is that of the square section.
    for (int k = 0; k < 2; ++k) {
      if (k == 1 && i == 0) continue;
      BodySpec body = rod(k == 0 ? crank(i) : coupler(i), kMass, kLength, k == 0 ? kCrankColor : kCouplerColor);
      body.inertia(1, 1) = body.inertia(2, 2) = kMass * kLength * kLength / 12.0;
      b.addBody(body);
    }
    // Crank i on its ground pivot A_i = (i, 0, 0); by default it stands up and turns at
    // -1 rad/s, so its tip B_i moves at +1 m/s along x.
    b.addJoint(revolute(numbered("A", i), "ground", crank(i), Vec3(i * kLength, 0.0, 0.0), Vec3::UnitZ(), crankAngle,
                        crankSpeed, i == 0));
    if (i == 0) continue;
    // Coupler i hangs on B_{i-1}, horizontal (absolute angle 0), translating with the tips.
    b.addJoint(revolute(numbered("B", i - 1), crank(i - 1), coupler(i), tip, Vec3::UnitZ(), -crankAngle, -crankSpeed));
    LoopSpec loop;
    loop.name = numbered("loop_B", i);
    loop.type = LoopConstraint::Type::Revolute;
    loop.bodyA = coupler(i);
    loop.pointA = tip;
    loop.bodyB = crank(i);
    loop.pointB = tip;
    loop.axisA = loop.axisB = Vec3::UnitZ();
    b.addLoop(loop);
  }
  b.addMarker({"B0", crank(0), tip, {}});
  return b;
}

namespace {

constexpr double kRssrCrank = 0.3, kRssrCoupler = 1.2, kRssrRocker = 0.6, kRssrCrankSpeed = 2.0;

// One RSSR loop driven by `crank`, a body turning about the world z axis at kRssrCrankSpeed whose
// frame is at angle `crankAngle`: its tip at angle `tipAngle` in the crank frame, lifted by z,
// carries a coupler (spherical joint "B"), closed by ball loop "C" on a rocker (revolute "D"
// about the world x axis at (0.4, 0.8, 0.8 + z)). Names take `suffix`.
void addRssrLoop(ModelBuilder& b, const std::string& crank, const std::string& suffix, double crankAngle,
                 double tipAngle, double z, bool couplerAsRod = false) {
  const Vec3 rockerPivot(0.4, 0.8, 0.8 + z);
  // Closure at this crank angle. Crank tip P = kRssrCrank (cos t, sin t, 0) + z; rocker tip
  // R(phi) = D + kRssrRocker (0, cos phi, sin phi); |R - P| = kRssrCoupler gives, with w = D - P,
  // |w|^2 + kRssrRocker^2 + 2 kRssrRocker rho cos(phi - alpha) = kRssrCoupler^2, rho = |(w_y, w_z)|,
  // alpha = atan2(w_z, w_y). The minus branch is the rocker hanging down.
  const Mat3 armRotation = Eigen::AngleAxisd(crankAngle + tipAngle, Vec3::UnitZ()).toRotationMatrix();
  const Vec3 P = armRotation * Vec3(kRssrCrank, 0.0, 0.0) + Vec3(0.0, 0.0, z);
  const Vec3 w = rockerPivot - P;
  const double rho = std::hypot(w.y(), w.z());
  const double cosine =
      (kRssrCoupler * kRssrCoupler - w.squaredNorm() - kRssrRocker * kRssrRocker) / (2.0 * kRssrRocker * rho);
  if (std::abs(cosine) >= 1.0) throw Error("the RSSR loop does not close (internal geometry error)");
  const double phi = std::atan2(w.z(), w.y()) - std::acos(cosine);
  const Vec3 R = rockerPivot + kRssrRocker * Vec3(0.0, std::cos(phi), std::sin(phi));
  const Vec3 e = (R - P) / kRssrCoupler;  // coupler axis, world

  // Coupler orientation relative to the crank arm: the shortest rotation taking x onto the axis
  // (no spin about the coupler's own axis); relative to the crank frame it turns by tipAngle more.
  const Quat couplerInArm = Quat::FromTwoVectors(Vec3::UnitX(), armRotation.transpose() * e).normalized();
  const Quat couplerInCrank = Quat(Eigen::AngleAxisd(tipAngle, Vec3::UnitZ())) * couplerInArm;
  const Mat3 couplerRotation = armRotation * couplerInArm.toRotationMatrix();

  // Velocities for the crank at kRssrCrankSpeed: the rocker tip moves along t = x x (R - D);
  // the coupler's axial relative velocity vanishes: (vR - vP) . e = 0.
  const Vec3 vP = kRssrCrankSpeed * Vec3::UnitZ().cross(P);
  const Vec3 t = Vec3::UnitX().cross(R - rockerPivot);
  const double phiDot = vP.dot(e) / t.dot(e);
  const Vec3 vR = phiDot * t;
  const Vec3 omega = e.cross(vR - vP) / kRssrCoupler;  // coupler angular velocity normal to its axis
  // Spherical joint velocity: angular velocity relative to the crank in coupler coordinates.
  const Vec3 omegaRelative = couplerRotation.transpose() * (omega - kRssrCrankSpeed * Vec3::UnitZ());

  const std::string coupler = "coupler" + suffix, rocker = "rocker" + suffix;
  const Vec3 tip = Eigen::AngleAxisd(tipAngle, Vec3::UnitZ()) * Vec3(kRssrCrank, 0.0, 0.0) + Vec3(0.0, 0.0, z);
  b.addBody(rod(rocker, kRssrRocker, kRssrRocker, kRockerColor, true));
  b.addJoint(revolute("D" + suffix, "ground", rocker, rockerPivot, Vec3::UnitX(), phi, phiDot));
  b.addMarker({"B" + suffix, crank, tip, {}});
  b.addMarker({"C" + suffix, rocker, Vec3(0.0, kRssrRocker, 0.0), {}});
  LoopSpec loop;
  loop.name = "C" + suffix;
  loop.bodyB = rocker;
  loop.pointB = Vec3(0.0, kRssrRocker, 0.0);
  if (couplerAsRod) {
    // The coupler removed as a rod (seed 004 eq. (25)): the distance of its two ends.
    loop.type = LoopConstraint::Type::Distance;
    loop.bodyA = crank;
    loop.pointA = tip;
    loop.distance = kRssrCoupler;
    b.addLoop(loop);
    return;
  }
  b.addBody(rod(coupler, kRssrCoupler, kRssrCoupler, kCouplerColor));
  JointSpec ball;
  ball.name = "B" + suffix;
  ball.type = JointType::Spherical;
  ball.parent = crank;
  ball.child = coupler;
  ball.position = tip;
  ball.q0 = {couplerInCrank.w(), couplerInCrank.x(), couplerInCrank.y(), couplerInCrank.z()};
  ball.v0 = {omegaRelative.x(), omegaRelative.y(), omegaRelative.z()};
  b.addJoint(ball);
  loop.type = LoopConstraint::Type::Ball;
  loop.bodyA = coupler;
  loop.pointA = Vec3(kRssrCoupler, 0.0, 0.0);
  b.addLoop(loop);
  b.addMarker({"coupler_mid" + suffix, coupler, Vec3(0.5 * kRssrCoupler, 0.0, 0.0), {}});
}

}  // namespace

ModelBuilder rssrBuilder(double crankAngle, bool couplerAsRod) {
  if (!std::isfinite(crankAngle)) throw Error("the RSSR crank angle must be finite");
  ModelBuilder b;
  b.name = couplerAsRod ? "rssr_rod" : "rssr";
  b.gravity = Vec3(0.0, 0.0, -9.81);
  b.addBody(rod("crank", kRssrCrank, kRssrCrank, kCrankColor));
  b.addJoint(revolute("A", "ground", "crank", Vec3::Zero(), Vec3::UnitZ(), crankAngle, kRssrCrankSpeed, true));
  addRssrLoop(b, "crank", "", crankAngle, 0.0, 0.0, couplerAsRod);
  return b;
}

ModelBuilder rssrBankBuilder(int loops) {
  if (loops < 1) throw Error("an RSSR bank needs at least one loop (got " + std::to_string(loops) + ")");
  constexpr double kSpacing = 0.25, kShaftSide = 0.04;
  ModelBuilder b;
  b.name = numbered("rssr_bank", loops);
  b.gravity = Vec3(0.0, 0.0, -9.81);
  // The shaft carries every crank: a square bar along z with the cranks' mass (1 kg/m rods).
  const double length = kSpacing * (loops - 1) + kShaftSide;
  BodySpec shaft;
  shaft.name = "shaft";
  shaft.mass = kRssrCrank * loops;
  shaft.com = Vec3(0.0, 0.0, 0.5 * kSpacing * (loops - 1));
  shaft.inertia = boxInertia(shaft.mass, Vec3(kShaftSide, kShaftSide, length));
  shaft.shapes = {boxShape(Vec3(kShaftSide, kShaftSide, length), shaft.com, kCrankColor)};
  b.addBody(shaft);
  b.addJoint(revolute("A", "ground", "shaft", Vec3::Zero(), Vec3::UnitZ(), 0.0, kRssrCrankSpeed, true));
  for (int k = 0; k < loops; ++k)
    addRssrLoop(b, "shaft", std::to_string(k), 0.0, 2.0 * std::numbers::pi * k / loops, kSpacing * k);
  return b;
}

ModelBuilder cartPendulumBuilder(int links) {
  ModelBuilder b;
  b.name = "cart_pendulum_" + std::to_string(links);
  b.addBody({"cart", 0.8, Vec3::Zero(), Mat3(Vec3(0.019, 0.019, 0.019).asDiagonal()), {}, {}});
  JointSpec rail;
  rail.name = "rail";
  rail.type = JointType::Prismatic;
  rail.parent = "ground";
  rail.child = "cart";
  rail.axis = Vec3::UnitX();
  b.addJoint(rail);
  b.addJointSpring({"rail_friction", "rail", 0, 0.0, 0.5, 0.0, {}});
  std::string parent = "cart";
  for (int i = 0; i < links; ++i) {
    const std::string name = "link" + std::to_string(i + 1);
    b.addBody({name, 0.5, Vec3(0.5, 0, 0), Mat3(Vec3(1e-4, 0.043, 0.043).asDiagonal()), {}, {}});
    JointSpec j;
    j.name = "pin" + std::to_string(i + 1);
    j.parent = parent;
    j.child = name;
    j.position = i == 0 ? Vec3::Zero() : Vec3(1.0, 0, 0);
    j.q0 = {i == 0 ? 0.7 : 0.1};
    b.addJoint(j);
    b.addJointSpring({name + "_friction", j.name, 0, 0.0, 0.3, 0.0, {}});
    parent = name;
  }
  b.addMarker({"tip", parent, Vec3(1.0, 0, 0), {}});
  b.gravity = Vec3(0, -9.81, 0);
  return b;
}

}  // namespace articula
