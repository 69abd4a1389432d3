// The linkages in Simbody 3.7: a MobilizedBody::Pin per body, each loop a Constraint::Ball
// (coincident points; in the plane its z row holds identically, and Simbody's constraint
// solves tolerate the redundant row: two PointInPlane constraints instead, with no redundant
// row, took the same time), stepped by Runge-Kutta-Merson with projection onto the
// constraints. Compiled as C++17 without NDEBUG, as simbody_chain.cpp (see CMakeLists.txt).
#include <Simbody.h>

#include <cstdio>

#include "linkage.hpp"
#include "simbody_rkm.hpp"

namespace peers {

namespace {
using namespace SimTK;

Vec3 vec(const Vec3d& v) { return simbodyVec(v); }

class SimbodyLinkage final : public LinkageRun {
 public:
  SimbodyLinkage(const Linkage& l, const RkmSetting& s)
      : setting_(s), matter_(system_), forces_(system_), gravity_(forces_, matter_, vec(l.gravity)) {
    for (const LinkageBody& b : l.bodies) {
      // MassProperties wants the inertia about the body origin (the joint), not the COM.
      const Inertia central(b.inertia[0], b.inertia[1], b.inertia[2]);
      const Body::Rigid body(MassProperties(b.mass, vec(b.com), central.shiftFromMassCenter(vec(b.com), b.mass)));
      const MobilizedBody& parent = b.parent < 0 ? matter_.Ground() : mobs_[static_cast<std::size_t>(b.parent)];
      mobs_.push_back(MobilizedBody::Pin(matter_.updMobilizedBody(parent.getMobilizedBodyIndex()),
                                         Transform(vec(b.joint)), body, Transform()));
    }
    for (const LinkageLoop& c : l.loops) {
      Constraint::Ball(mobs_[static_cast<std::size_t>(c.bodyA)], vec(c.pointA), mobs_[static_cast<std::size_t>(c.bodyB)],
                       vec(c.pointB));
      ends_.push_back({c.bodyA, c.bodyB, vec(c.pointA), vec(c.pointB)});
    }
    state0_ = system_.realizeTopology();
    system_.realizeModel(state0_);
    for (std::size_t i = 0; i < l.bodies.size(); ++i) {
      mobs_[i].setOneQ(state0_, 0, l.bodies[i].q0);
      mobs_[i].setOneU(state0_, 0, l.bodies[i].v0);
    }
    integ_ = makeRkm(system_, s);
  }
  std::string engine() const override { return "simbody"; }
  std::string settings() const override { return describeRkm(setting_); }
  Initial initial() override {
    reset();
    State s = integ_->getState();
    system_.realize(s, Stage::Acceleration);
    Initial init;
    for (const MobilizedBody& m : mobs_) {
      init.q.push_back(m.getOneQ(s, 0));
      init.v.push_back(m.getOneU(s, 0));
      init.qddot.push_back(m.getOneUDot(s, 0));
    }
    init.closure = closureOf(s);
    init.energy = system_.calcEnergy(s);
    return init;
  }

 protected:
  void reset() override { integ_->initialize(state0_); }  // projects onto the constraints
  void advanceTo(double t) override {
    // stepTo returns early at the start of a continuous interval (right after initialize()).
    while (integ_->getTime() < t) integ_->stepTo(t);
  }
  long steps() const override { return integ_->getNumStepsTaken(); }
  double closure() override { return closureOf(integ_->getState()); }
  std::vector<double> angles() override {
    std::vector<double> q;
    for (const MobilizedBody& m : mobs_) q.push_back(m.getOneQ(integ_->getState(), 0));
    return q;
  }
  double energy() override {
    const State& s = integ_->getState();
    system_.realize(s, Stage::Dynamics);
    return system_.calcEnergy(s);  // UniformGravity: zero height at the origin
  }

 private:
  struct Ends {
    int a, b;
    Vec3 pa, pb;
  };
  double closureOf(const State& s) const {
    system_.realize(s, Stage::Position);
    double worst = 0;
    for (const Ends& e : ends_)
      worst = std::max(worst, (mobs_[static_cast<std::size_t>(e.a)].findStationLocationInGround(s, e.pa) -
                               mobs_[static_cast<std::size_t>(e.b)].findStationLocationInGround(s, e.pb))
                                  .norm());
    return worst;
  }

  RkmSetting setting_;
  MultibodySystem system_;
  SimbodyMatterSubsystem matter_;
  GeneralForceSubsystem forces_;
  Force::UniformGravity gravity_;
  std::vector<MobilizedBody> mobs_;
  std::vector<Ends> ends_;
  State state0_;
  std::unique_ptr<RungeKuttaMersonIntegrator> integ_;
};
}  // namespace

LinkageRuns makeSimbodyLinkages(const Linkage& linkage) {
  LinkageRuns runs;
  // The closest to Articula's fixed-step RK4, and Simbody's usual error-controlled mode on the
  // grid of accuracies 1e-8, 3e-9, 1e-9 that Articula's rk45 runs on too (1e-8 lets the
  // four-bar's energy drift past 1e-6 J: 1.4e-6 J).
  // Projection every step: projecting only when the error exceeds the tolerance (Simbody's
  // default) lets the four-bar's loop open to 1.7e-10 m and saved at most 30 % (measured 2026-11-24).
  for (const RkmSetting& s : {RkmSetting{1e-3, 1e-3, 1e-10, true}, RkmSetting{0, 3e-9, 1e-10, true},
                              RkmSetting{0, 1e-9, 1e-10, true}})
    runs.push_back(std::make_unique<SimbodyLinkage>(linkage, s));
  return runs;
}

}  // namespace peers
