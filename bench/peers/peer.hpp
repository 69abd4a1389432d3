// One engine's build of the chain benchmark model (the model of `articula generate chain`):
// N uniform boxes 0.5 x 0.05 x 0.05 m, 1 kg, COM at (0.25, 0, 0) in the link frame, link
// frames at their joints, revolute joint 1 at the origin and joint i > 1 at (0.5, 0, 0) of
// link i-1, axes all z (planar) or cycling z, y, x (spatial), gravity (0, -9.81, 0).
#pragma once

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
  /// Joint accelerations at the current state with zero joint torques.
  virtual void forwardDynamics(std::vector<double>& qddot) = 0;
  /// What forwardDynamics times, in the engine's words.
  virtual std::string timedCalls() const = 0;
};

/// The chain's inertial data.
struct Link {
  static constexpr double length = 0.5, side = 0.05, mass = 1.0;
  static constexpr double ixx = mass * (side * side + side * side) / 12.0;
  static constexpr double iyy = mass * (length * length + side * side) / 12.0;
  static constexpr double izz = iyy;
};

/// Axis of joint i (0-based): 'z' for planar chains; z, y, x, z, ... for spatial ones.
inline int axisIndex(int joint, bool spatial) { return spatial ? 2 - joint % 3 : 2; }

std::unique_ptr<PeerChain> makeArticula(int n, bool spatial);
std::unique_ptr<PeerChain> makeSimbody(int n, bool spatial);
std::unique_ptr<PeerChain> makeDart(int n, bool spatial);
std::unique_ptr<PeerChain> makeMujoco(int n, bool spatial);

}  // namespace peers
