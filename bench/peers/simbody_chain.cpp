#include <Simbody.h>

#include "peer.hpp"

namespace peers {

namespace {
using namespace SimTK;

// Simbody's Pin turns about the z axis of its mobilizer frames; a frame rotation maps that
// z onto the wanted axis, applied on both sides so the body frame is unrotated at q = 0.
Rotation pinFrame(int axis) {
  if (axis == 1) return Rotation(-Pi / 2, XAxis);  // z -> y
  if (axis == 0) return Rotation(Pi / 2, YAxis);   // z -> x
  return Rotation();
}

class SimbodyChain final : public PeerChain {
 public:
  SimbodyChain(int n, bool spatial) : matter_(system_), forces_(system_), gravity_(forces_, matter_, Vec3(0, -9.81, 0)) {
    const Inertia central(Link::ixx, Link::iyy, Link::izz);
    const Vec3 com(0.25, 0, 0);
    Body::Rigid body(MassProperties(Link::mass, com, central.shiftFromMassCenter(com, Link::mass)));
    MobilizedBody parent = matter_.Ground();
    for (int i = 0; i < n; ++i) {
      const Rotation R = pinFrame(axisIndex(i, spatial));
      const Vec3 at = i == 0 ? Vec3(0) : Vec3(Link::length, 0, 0);
      parent = MobilizedBody::Pin(parent, Transform(R, at), body, Transform(R, Vec3(0)));
    }
    state_ = system_.realizeTopology();
  }
  std::string engine() const override { return "simbody"; }
  void setState(const std::vector<double>& q, const std::vector<double>& v) override {
    for (std::size_t i = 0; i < q.size(); ++i) {
      state_.updQ()[static_cast<int>(i)] = q[i];
      state_.updU()[static_cast<int>(i)] = v[i];
    }
  }
  void forwardDynamics(std::vector<double>& qddot) override {
    // Touching Q and U invalidates the cached stages, so each call recomputes everything.
    state_.updQ();
    state_.updU();
    system_.realize(state_, Stage::Acceleration);
    const Vector& udot = state_.getUDot();
    qddot.assign(&udot[0], &udot[0] + udot.size());
  }
  std::string timedCalls() const override { return "State::updQ/updU + MultibodySystem::realize(Acceleration)"; }

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
