// The car of car.hpp in Simbody 3.7: for each Articula joint the matching mobilizer (Free; Pin
// with frames that put its z axis on the joint axis; Ball; Slider with its x axis on the axis),
// the bodies' mass, COM and central inertia; the ball loops as Constraint::Ball, the tie rods as
// Constraint::Rod, the steering rack's prescribed travel as Constraint::ConstantCoordinate; the
// struts as Force::TwoPointLinearSpring + TwoPointLinearDamper; Force::UniformGravity. Simbody has
// no Magic Formula tyre: the four tyres are one Force::Custom that calls Articula's tyre element
// (Car::tyre, articula::tyreResponse) for each wheel body's Simbody pose and velocity in Ground
// and applies its force at the contact point and its moment. The initial state is fitted to
// Articula's assembled body poses and velocities (setQToFitTransform, setUToFitVelocity), so no
// joint-coordinate convention (quaternion order, free-joint velocity frame) is assumed.
// Stepped by Runge-Kutta-Merson with Simbody's projection onto the constraints.
// Compiled as C++17 without NDEBUG, as simbody_chain.cpp (see CMakeLists.txt).
#include <Simbody.h>

#include <cstdio>

#include "car.hpp"
#include "simbody_rkm.hpp"

namespace peers {

// Named, not anonymous: a unity build puts this file next to simbody_linkage.cpp.
namespace simbody_car {
using namespace SimTK;

Vec3 vec(const Vec3d& v) { return simbodyVec(v); }
Vec3d arr(const Vec3& v) { return {v[0], v[1], v[2]}; }
Mat33 mat(const Mat3d& a) { return Mat33(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); }
Transform pose(const CarPose& p) { return Transform(Rotation(mat(p.rotation), true), vec(p.origin)); }

CarPose poseOf(const MobilizedBody& m, const State& s) {
  const Transform& X = m.getBodyTransform(s);
  const SpatialVec& V = m.getBodyVelocity(s);
  CarPose p;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p.rotation[static_cast<std::size_t>(3 * i + j)] = X.R()[i][j];
  p.origin = arr(X.p());
  p.omega = arr(V[0]);
  p.velocity = arr(V[1]);
  return p;
}

// The four tyres: Articula's tyre element (Car::tyre) for each wheel's Simbody state, applied as
// Articula applies it (force at the contact point, pure moment; nothing when Fz = 0).
class Tyres final : public Force::Custom::Implementation {
 public:
  Tyres(const Car& car, std::vector<MobilizedBody> wheels) : car_(car), wheels_(std::move(wheels)) {}
  void calcForce(const State& s, Vector_<SpatialVec>& bodyForces, Vector_<Vec3>&, Vector&) const override {
    for (std::size_t k = 0; k < wheels_.size(); ++k) {
      const MobilizedBody& w = wheels_[k];
      const TyreLoad l = car_.tyre(static_cast<int>(k), poseOf(w, s));
      if (l.fz == 0.0) continue;
      const Transform& X = w.getBodyTransform(s);
      w.applyForceToBodyPoint(s, ~X.R() * (vec(l.point) - X.p()), vec(l.force), bodyForces);
      w.applyBodyTorque(s, vec(l.moment), bodyForces);
    }
  }
  Real calcPotentialEnergy(const State& s) const override {
    Real e = 0;
    for (std::size_t k = 0; k < wheels_.size(); ++k) e += car_.tyreEnergy(static_cast<int>(k), poseOf(wheels_[k], s));
    return e;
  }

 private:
  const Car& car_;
  std::vector<MobilizedBody> wheels_;
};

class SimbodyCar final : public CarRun {
 public:
  SimbodyCar(const Car& car, const RkmSetting& s)
      : car_(car), setting_(s), matter_(system_), forces_(system_), gravity_(forces_, matter_, vec(car.gravity)) {
    for (const CarBody& b : car.bodies) {
      // MassProperties wants the inertia about the body origin, not the COM.
      const Inertia central(mat(b.inertia));
      const Body::Rigid body(MassProperties(b.mass, vec(b.com), central.shiftFromMassCenter(vec(b.com), b.mass)));
      MobilizedBody& parent = b.parent < 0 ? matter_.updGround() : mobs_[static_cast<std::size_t>(b.parent)];
      const Rotation jointAxes(mat(b.jointRotation), true);  // the joint frame in the parent frame
      const Vec3 origin = vec(b.jointOrigin);
      switch (b.joint) {
        case CarJoint::Free:
          mobs_.push_back(MobilizedBody::Free(parent, Transform(jointAxes, origin), body, Transform()));
          break;
        case CarJoint::Spherical:
          mobs_.push_back(MobilizedBody::Ball(parent, Transform(jointAxes, origin), body, Transform()));
          break;
        case CarJoint::Revolute: {  // Pin turns about the z axis of F and M: put it on the joint axis
          const Rotation toAxis(UnitVec3(vec(b.axis)), ZAxis);
          mobs_.push_back(MobilizedBody::Pin(parent, Transform(jointAxes * toAxis, origin), body, Transform(toAxis)));
          break;
        }
        case CarJoint::Prismatic: {  // Slider slides along the x axis of F and M
          const Rotation toAxis(UnitVec3(vec(b.axis)), XAxis);
          mobs_.push_back(MobilizedBody::Slider(parent, Transform(jointAxes * toAxis, origin), body, Transform(toAxis)));
          break;
        }
      }
    }
    auto mob = [&](int i) -> MobilizedBody& { return mobs_[static_cast<std::size_t>(i)]; };
    for (const CarLoop& l : car.loops) {
      if (l.distance)
        Constraint::Rod(mob(l.bodyA), vec(l.pointA), mob(l.bodyB), vec(l.pointB), l.length);
      else
        Constraint::Ball(mob(l.bodyA), vec(l.pointA), mob(l.bodyB), vec(l.pointB));
    }
    for (const CarLock& k : car.locks) Constraint::ConstantCoordinate(mob(k.body), MobilizerQIndex(0), k.position);
    for (const CarSpring& s : car.springs) {
      Force::TwoPointLinearSpring(forces_, mob(s.bodyA), vec(s.pointA), mob(s.bodyB), vec(s.pointB), s.stiffness,
                                  s.restLength);
      Force::TwoPointLinearDamper(forces_, mob(s.bodyA), vec(s.pointA), mob(s.bodyB), vec(s.pointB), s.damping);
    }
    std::vector<MobilizedBody> wheels;
    for (int b : car.tyreBodies) wheels.push_back(mob(b));
    Force::Custom(forces_, new Tyres(car, wheels));  // the subsystem owns the implementation

    state0_ = system_.realizeTopology();
    system_.realizeModel(state0_);
    fitInitialState();
    integ_ = makeRkm(system_, s);
  }
  std::string engine() const override { return "simbody"; }
  std::string settings() const override { return describeRkm(setting_); }
  CarFigures run(double tEnd, double sample) override {
    CarFigures f = sampleCarRun(
        car_, tEnd, sample,
        {[&] { integ_->initialize(state0_); },  // projects onto the constraints (to the tolerance)
         [&](double t) {
           // stepTo returns early at the start of a continuous interval (right after initialize()).
           while (integ_->getTime() < t) {
             const Integrator::SuccessfulStepStatus status = integ_->stepTo(t);
             if (status == Integrator::EndOfSimulation || integ_->isSimulationOver())
               throw std::runtime_error("simbody: the run ended at t = " + std::to_string(integ_->getTime()) + ": " +
                                        Integrator::getTerminationReasonString(integ_->getTerminationReason()));
           }
         },
         [&] {
           const State& s = integ_->getState();
           system_.realize(s, Stage::Velocity);
           return poses(s);
         }});
    f.steps = integ_->getNumStepsTaken();
    return f;
  }
  Initial initial() override {
    State s = state0_;  // as fitted, before the integrator's projection
    system_.realize(s, Stage::Acceleration);
    Initial init;
    init.poses = poses(s);
    for (const MobilizedBody& m : mobs_) {
      const Vec3 &alpha = m.getBodyAngularAcceleration(s), &a = m.getBodyOriginAcceleration(s);
      init.accelerations.push_back({alpha[0], alpha[1], alpha[2], a[0], a[1], a[2]});
    }
    for (std::size_t k = 0; k < car_.tyreBodies.size(); ++k)
      init.tyreLoads.push_back(
          car_.tyre(static_cast<int>(k), poseOf(mobs_[static_cast<std::size_t>(car_.tyreBodies[k])], s)).fz);
    init.energy = system_.calcEnergy(s);  // UniformGravity: zero height at the origin
    return init;
  }

 private:
  std::vector<CarPose> poses(const State& s) const {
    std::vector<CarPose> p;
    for (const MobilizedBody& m : mobs_) p.push_back(poseOf(m, s));
    return p;
  }
  // q and u of each mobilizer from Articula's world poses and velocities, parents first:
  // X_FM = X_PF^-1 X_GP^-1 X_GB X_BM, and V_FM (M's angular velocity and its origin's velocity
  // relative to F, expressed in F) from the world velocities of P and B.
  void fitInitialState() {
    for (std::size_t i = 0; i < mobs_.size(); ++i) {
      const CarBody& b = car_.bodies[i];
      const CarPose parent = b.parent < 0 ? CarPose{} : car_.bodies[static_cast<std::size_t>(b.parent)].initial;
      const Transform X_GP = pose(parent), X_GB = pose(b.initial);
      const Transform &X_PF = mobs_[i].getDefaultInboardFrame(), &X_BM = mobs_[i].getDefaultOutboardFrame();
      const Transform X_GF = X_GP * X_PF;
      mobs_[i].setQToFitTransform(state0_, ~X_GF * X_GB * X_BM);
      const Vec3 wP = vec(parent.omega), wB = vec(b.initial.omega);
      const Vec3 vF = vec(parent.velocity) + wP % (X_GF.p() - X_GP.p());  // F's origin, fixed on P
      const Vec3 pM = X_GB * X_BM.p(), vM = vec(b.initial.velocity) + wB % (pM - X_GB.p());
      const Vec3 wFM = wB - wP, vFM = vM - vF - wP % (pM - X_GF.p());
      mobs_[i].setUToFitVelocity(state0_, SpatialVec(~X_GF.R() * wFM, ~X_GF.R() * vFM));
    }
  }

  const Car& car_;
  RkmSetting setting_;
  MultibodySystem system_;
  SimbodyMatterSubsystem matter_;
  GeneralForceSubsystem forces_;
  Force::UniformGravity gravity_;
  std::vector<MobilizedBody> mobs_;
  State state0_;
  std::unique_ptr<RungeKuttaMersonIntegrator> integ_;
};
}  // namespace simbody_car

CarRuns makeSimbodyCarRuns(const Car& car) {
  CarRuns runs;
  // Simbody's usual error-controlled mode over accuracies 0.5 (it refuses 1) to 1e-6 (from 1e-3
  // down its step count barely moves, 3369 to 3676 steps on 2026-11-26: the stiff tyres and
  // struts set the step), and fixed steps from 2 ms (the step it settles on at accuracy 1e-3) up.
  // Constraint tolerance 1e-8 m: Simbody projects when the constraint error exceeds it (its
  // default projection); one row at 1e-11 m, close to Articula's 1e-12 projection after each step.
  const auto rkm = [](double fixedStep, double accuracy, double tolerance) {
    return RkmSetting{fixedStep, accuracy, tolerance, false};
  };
  for (const RkmSetting& s : {rkm(0, 0.5, 1e-8), rkm(0, 0.3, 1e-8), rkm(0, 1e-1, 1e-8), rkm(0, 1e-2, 1e-8),
                              rkm(0, 1e-3, 1e-8), rkm(0, 1e-4, 1e-8), rkm(0, 1e-5, 1e-8), rkm(0, 1e-6, 1e-8),
                              rkm(0, 1e-1, 1e-11), rkm(2e-3, 1e-3, 1e-8), rkm(3e-3, 1e-3, 1e-8), rkm(4e-3, 1e-3, 1e-8)})
    runs.push_back(std::make_unique<simbody_car::SimbodyCar>(car, s));
  return runs;
}

}  // namespace peers
