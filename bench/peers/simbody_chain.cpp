// The chain in Simbody 3.7: a MobilizedBody::Pin per link.
// Compiled as C++17 without NDEBUG (see CMakeLists.txt): Debian's library is built without
// NDEBUG, and some Simbody classes change layout with it.
#include <Simbody.h>

#include "peer.hpp"

namespace peers {

namespace {
using namespace SimTK;

// A Pin turns about the common z axis of its inboard frame F (fixed in the parent) and
// outboard frame M (fixed in the child). Rotating both frames by the same R maps that z
// onto the wanted axis while the child frame stays unrotated at q = 0.
Rotation pinFrame(int axis) {
  if (axis == 1) return Rotation(-Pi / 2, XAxis);  // z -> y
  if (axis == 0) return Rotation(Pi / 2, YAxis);   // z -> x
  return Rotation();
}

class SimbodyChain final : public PeerChain {
 public:
  SimbodyChain(int n, bool spatial) : matter_(system_), forces_(system_), gravity_(forces_, matter_, Vec3(0, -9.81, 0)) {
    // MassProperties wants the inertia about the body origin (the joint), not the COM.
    const Vec3 com(0.25, 0, 0);
    const Inertia central(Link::ixx, Link::iyy, Link::izz);
    const Body::Rigid body(MassProperties(Link::mass, com, central.shiftFromMassCenter(com, Link::mass)));
    MobilizedBody parent = matter_.Ground();
    for (int i = 0; i < n; ++i) {
      const Rotation R = pinFrame(axisIndex(i, spatial));
      const Vec3 at = i == 0 ? Vec3(0) : Vec3(Link::length, 0, 0);
      parent = MobilizedBody::Pin(parent, Transform(R, at), body, Transform(R, Vec3(0)));
    }
    state_ = system_.realizeTopology();
    system_.realizeModel(state_);
  }
  std::string engine() const override { return "simbody"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    // A Pin's q is its angle and u = qdot: one-to-one with q and v.
    Vector& Q = state_.updQ();
    Vector& U = state_.updU();
    for (std::size_t i = 0; i < q.size(); ++i) {
      Q[static_cast<int>(i)] = q[i];
      U[static_cast<int>(i)] = v[i];
    }
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    // updQ/updU invalidate the Position stage and everything after it, so realize() redoes
    // kinematics, forces and the O(N) articulated-body solve even if the values are unchanged.
    state_.updQ();
    state_.updU();
    system_.realize(state_, Stage::Acceleration);
    const Vector& udot = state_.getUDot();
    qddot.assign(&udot[0], &udot[0] + udot.size());
  }
  std::string timedCalls() const override { return "State::updQ/updU + MultibodySystem::realize(Acceleration)"; }
  double totalEnergy() override {
    system_.realize(state_, Stage::Dynamics);
    return system_.calcEnergy(state_);  // UniformGravity: zero height at the origin
  }

 private:
  MultibodySystem system_;
  SimbodyMatterSubsystem matter_;
  GeneralForceSubsystem forces_;
  Force::UniformGravity gravity_;
  State state_;
};
}  // namespace

std::unique_ptr<PeerChain> makeSimbody(int n, bool spatial) { return std::make_unique<SimbodyChain>(n, spatial); }

}  // namespace peers
