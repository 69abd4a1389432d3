// Parametric example models.
#pragma once

#include <numbers>

#include "articula/model/builder.hpp"

namespace articula {

/// N-link pendulum chain: link i is a uniform box 0.5 m along its x with a
/// 0.05 m x 0.05 m section and 1 kg, COM at mid-length, frame at its joint; joint 1 a
/// revolute at the origin, joint i > 1 at the distal end of link i-1; axes all z
/// (planar) or cycling z, y, x (spatial); q1 = 0.3 rad, other q = 0.1 rad, at rest;
/// gravity (0, -9.81, 0).
ModelBuilder chainBuilder(int links, bool spatial);
inline Model makeChain(int links, bool spatial) { return chainBuilder(links, spatial).build(); }

/// IFToMM multibody benchmark A02, the N four-bar mechanism (reference/README.md section 1):
/// `fourBars` parallelograms in a row made of 2N+1 slender rods of 1 m and 1 kg (in-plane
/// moment of inertia exactly m L^2 / 12; a 0.02 m square section gives the axial one).
/// Bodies crank0..crankN and coupler1..couplerN, each with its frame at its proximal hinge
/// and the rod along its local x. Joints: "A<i>", crank i revolute about z on the ground at
/// (i, 0, 0), q0 = pi/2 (standing up), v0 = -1 rad/s; "B<i-1>", coupler i revolute about z
/// at the tip of crank i-1, q0 = -pi/2 (horizontal at y = 1), v0 = +1 rad/s (it
/// translates). Loops "loop_B<i>" (revolute about z) join the far end of coupler i to the
/// tip of crank i. At q0, v0 every constraint holds exactly (up to rounding); crank 0 is
/// locked in assembly so assembly keeps this state. Marker "B0" at the tip of crank 0
/// starts at (0, 1, 0) moving at 1 m/s along +x. Gravity (0, -9.81, 0).
/// Name "n_four_bar<N>". Throws Error for fourBars < 1. Other crank angles and speeds give
/// other motions of the same mechanism (every crank alike, couplers horizontal): hanging at
/// -pi/2 + 0.5 at rest, it swings without ever reaching the singular flat position.
ModelBuilder nFourBarBuilder(int fourBars, double crankAngle = std::numbers::pi / 2, double crankSpeed = -1.0);
inline Model makeNFourBar(int fourBars, double crankAngle = std::numbers::pi / 2, double crankSpeed = -1.0) {
  return nFourBarBuilder(fourBars, crankAngle, crankSpeed).build();
}

/// Spatial RSSR (revolute-spherical-spherical-revolute) crank-rocker, one closed loop.
/// Uniform rods of 1 kg/m with a 0.02 m square section:
///  - crank, 0.3 m along its local x: joint "A" revolute about the world z axis at the origin;
///  - coupler, 1.2 m along its local x: joint "B" spherical (quaternion) at the crank tip;
///  - rocker, 0.6 m along its local y: joint "D" revolute about the world x axis at
///    D = (0.4, 0.8, 0.8), so that its tip is D + 0.6 (0, cos qD, sin qD);
///  - loop "C" (ball) joins the far end of the coupler to the rocker tip.
/// The loop closes for every crank angle with a transmission angle (between the coupler and
/// the rocker) within about 52..128 degrees; the model takes the branch with the rocker
/// hanging down (qD from -91 to -29 degrees over a crank turn). q0 is the exact closure at
/// `crankAngle` (coupler with no spin about its own axis), v0 the consistent velocities for
/// a crank speed of 2 rad/s (coupler angular velocity normal to its axis). The crank is
/// locked in assembly. The coupler's spin about its own axis is an idle degree of freedom
/// (axial inertia 8e-5 kg m^2 keeps the mass matrix positive definite).
/// Markers "B" (crank tip), "C" (rocker tip), "coupler_mid". Gravity (0, 0, -9.81): the
/// crank turns in the horizontal plane. Name "rssr".
/// With `couplerAsRod` the coupler is removed as a rod (seed 004 eq. (25)-(30)): no coupler
/// body and no joint "B"; the loop "C" is a distance constraint of 1.2 m between the crank tip
/// and the rocker tip, and the rod's mass is neglected, as in the seed (name "rssr_rod"; one
/// degree of freedom, no idle spin).
ModelBuilder rssrBuilder(double crankAngle = 0.0, bool couplerAsRod = false);
inline Model makeRssr(double crankAngle = 0.0, bool couplerAsRod = false) {
  return rssrBuilder(crankAngle, couplerAsRod).build();
}

/// A bank of `loops` RSSR loops on one crankshaft: a 10-loop spatial mechanism for benchmarks
/// (seed 001 Tables 4-7 style). The shaft (joint "A", revolute about the world z axis at the
/// origin, 2 rad/s, locked in assembly; a 0.04 m square bar carrying the cranks' mass) has
/// loop k's crank tip at angle 2 pi k / loops and height 0.25 k; loop k is the RSSR above at
/// crank angle 2 pi k / loops lifted by 0.25 k (bodies "coupler<k>", "rocker<k>", joints
/// "B<k>", "D<k>", loop "C<k>", markers "B<k>", "C<k>", "coupler_mid<k>"). The loops pull on
/// the shaft at different phases; one degree of freedom besides the couplers' idle spins.
/// q0, v0 close every loop exactly. Name "rssr_bank<N>". Throws Error for loops < 1.
ModelBuilder rssrBankBuilder(int loops);
inline Model makeRssrBank(int loops) { return rssrBankBuilder(loops).build(); }

/// The cart + (N-1)-link pendulum of seed 002 chapter 6 (its optimal control benchmark; Table
/// 5.3's values): a 0.8 kg cart on a prismatic "rail" along x, then `links` uniform links of 1 m,
/// 0.5 kg and 0.043 kg m^2 on revolute joints "pin1".."pinN" about z (pin1 at the cart, each
/// next at the previous link's tip; q0 = 0.7 rad for pin1, 0.1 rad for the others, at rest), viscous
/// friction on every joint (0.5 N s/m on the rail, 0.3 N m s on the pins), marker "tip" at the
/// last link's tip, gravity (0, -9.81, 0). Name "cart_pendulum_<links>".
ModelBuilder cartPendulumBuilder(int links);
inline Model makeCartPendulum(int links) { return cartPendulumBuilder(links).build(); }

}  // namespace articula
