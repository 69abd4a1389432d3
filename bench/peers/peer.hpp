// One engine's build of the chain benchmark model (the model of `articula generate chain`):
// N uniform boxes 0.5 x 0.05 x 0.05 m, 1 kg, COM at (0.25, 0, 0) in the link frame, link
// frames at their joints, revolute joint 1 at the origin and joint i > 1 at (0.5, 0, 0) of
// link i-1 with no rotation at zero angle, axes all z (planar) or cycling z, y, x (spatial)
// in the parent frame, gravity (0, -9.81, 0), zero joint torques, no damping or limits.
//
// Adding an engine: a file <engine>_chain.cpp with a PeerChain subclass and a make<Engine>()
// factory declared below, one block in CMakeLists.txt, one line in peers_main.cpp engines().
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace peers {

class PeerChain {
 public:
  virtual ~PeerChain() = default;
  virtual std::string engine() const = 0;
  /// Sets joint angles and rates; the next forwardDynamics() must recompute from them.
  virtual void setState(const std::vector<double>& q, const std::vector<double>& v) = 0;
  /// Joint accelerations at the current state with zero joint torques (the timed call).
  virtual void forwardDynamics(std::vector<double>& qddot) = 0;
  /// What forwardDynamics times, in the engine's words.
  virtual std::string timedCalls() const = 0;
  /// Kinetic + gravitational potential energy at the current state (zero height at y = 0),
  /// a second cross-check of the model; NaN where an engine does not provide it.
  virtual double totalEnergy() { return std::numeric_limits<double>::quiet_NaN(); }
  /// Integrates `steps` steps of the classical RK4 with step dt from (q, v) with the
  /// engine's own integrator, leaving the final state in q, v; false where the engine has
  /// no fixed-step RK4 (Simbody's and DART's integrators are other methods).
  virtual bool ownRk4(int /*steps*/, double /*dt*/, std::vector<double>& /*q*/, std::vector<double>& /*v*/) {
    return false;
  }
};

/// The chain's inertial data.
struct Link {
  static constexpr double length = 0.5, side = 0.05, mass = 1.0;
  static constexpr double ixx = mass * (side * side + side * side) / 12.0;  // about the COM
  static constexpr double iyy = mass * (length * length + side * side) / 12.0;
  static constexpr double izz = iyy;
};

/// Axis of joint i (0-based) as 0 = x, 1 = y, 2 = z: z for planar chains; z, y, x, z, ... for
/// spatial ones.
inline int axisIndex(int joint, bool spatial) { return spatial ? 2 - joint % 3 : 2; }

std::unique_ptr<PeerChain> makeArticula(int n, bool spatial);
/// Articula's other formulations on the same chain: "semi-recursive", "dca", "hdca"
/// (articula_formulations.cpp).
std::unique_ptr<PeerChain> makeArticulaFormulation(int n, bool spatial, const std::string& formulation);
std::unique_ptr<PeerChain> makeSimbody(int n, bool spatial);
std::unique_ptr<PeerChain> makeDart(int n, bool spatial);
std::unique_ptr<PeerChain> makeMujoco(int n, bool spatial);

}  // namespace peers
