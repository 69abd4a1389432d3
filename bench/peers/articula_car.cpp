// The car of models/car.yaml read, assembled and described for the peers (car.hpp), the tyre
// element they call (Articula's), the seed 001 eq. (43) reference run, and Articula's own whole
// runs of the car through simulate().
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "../seed001_error.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/dynamics/tyre_forces.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/simulation.hpp"
#include "articula_arrays.hpp"
#include "car.hpp"

namespace peers {

// Named, not anonymous: a unity build puts this file next to articula_linkage.cpp.
namespace articula_car {

using articula::Mat3;
using articula::Vec3;

constexpr const char* kCarFile = PEERS_MODELS_DIR "/car.yaml";

// The world state of Articula's body b (1-based) after updateVelocities.
CarPose poseOf(const articula::Workspace& ws, int b) {
  return {toArray(articula::bodyRotation(ws, b)), toArray(articula::bodyPosition(ws, b)),
          toArray(articula::angularVelocity(ws, b)), toArray(articula::pointVelocity(ws, b, Vec3::Zero()))};
}
std::vector<CarPose> posesOf(const articula::Model& m, const articula::Workspace& ws) {
  std::vector<CarPose> p;
  for (int b = 1; b <= m.bodyCount(); ++b) p.push_back(poseOf(ws, b));
  return p;
}

// The initial state simulate() starts from: the model's q0, v0 assembled (tolerance 1e-12).
void assembled(const articula::Model& m, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  q = m.q0;
  v = m.v0;
  const articula::AssemblyResult a = articula::assemble(m, 0.0, q, v);
  if (a.positionError > 1e-10) throw std::runtime_error("car: the initial assembly failed");
}

// Fails loudly where the model holds something the peers' builders do not reproduce.
void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(std::string("car: ") + what + " (not described for the peers)");
}

Car describe(const std::shared_ptr<const articula::Model>& model) {
  const articula::Model& m = *model;
  require(m.jointSprings.empty() && m.jointLimits.empty() && m.jointFrictions.empty() && m.bodyLoads.empty() &&
              m.jointLoads.empty(),
          "joint springs, limits, friction or loads");
  Eigen::VectorXd q, v;
  assembled(m, q, v);
  articula::Workspace ws(m);
  articula::updateVelocities(m, ws, q, v);
  Car car;
  car.source = "models/car.yaml";
  car.gravity = toArray(m.gravity);
  car.up = toArray(Vec3(-m.gravity.normalized()));
  for (int i = 1; i <= m.bodyCount(); ++i) {
    const articula::Joint& j = m.joints[i];
    const articula::Body& b = m.bodies[i];
    CarBody cb;
    cb.name = b.name;
    cb.jointName = j.name;
    cb.parent = j.parent - 1;  // Articula's body 0 is the ground
    switch (j.type) {
      case articula::JointType::Free: cb.joint = CarJoint::Free; break;
      case articula::JointType::Revolute: cb.joint = CarJoint::Revolute; break;
      case articula::JointType::Spherical: cb.joint = CarJoint::Spherical; break;
      case articula::JointType::Prismatic: cb.joint = CarJoint::Prismatic; break;
      default: require(false, "joint " + j.name + " of type " + std::string(articula::jointTypeName(j.type)));
    }
    cb.jointRotation = toArray(j.placement.rotationInParent());
    cb.jointOrigin = toArray(j.placement.r);
    cb.axis = toArray(j.axis.normalized());
    cb.mass = b.mass;
    cb.com = toArray(b.com);
    cb.inertia = toArray(b.inertiaCom);
    cb.initial = poseOf(ws, i);
    car.bodies.push_back(cb);
  }
  for (const articula::LoopConstraint& c : m.loops) {
    using T = articula::LoopConstraint::Type;
    require(c.type == T::Ball || c.type == T::Distance, "loop " + c.name + " of type " + std::string(articula::loopTypeName(c.type)));
    require(c.bodyA > 0 && c.bodyB > 0, "loop " + c.name + " on the ground");
    car.loops.push_back({c.name, c.type == T::Distance, c.bodyA - 1, c.bodyB - 1, toArray(c.pointA), toArray(c.pointB),
                         c.distance});
  }
  for (const articula::PointSpringDamper& s : m.pointSprings) {
    require(s.isLinear() && s.bodyA > 0 && s.bodyB > 0, "spring " + s.name + " with options or on the ground");
    car.springs.push_back({s.name, s.bodyA - 1, s.bodyB - 1, toArray(s.pointA), toArray(s.pointB), s.stiffness, s.damping,
                           s.restLength});
  }
  for (const articula::PrescribedMotion& p : m.prescribed) {
    const articula::Joint& j = m.joints[p.joint];
    require(p.position.kind() == articula::TimeFunction::Kind::Constant && j.nq == 1 && p.dof == 0,
            "prescribed motion " + p.name + " that is not a constant on a one-coordinate joint");
    car.locks.push_back({p.name, p.joint - 1, p.position.value(0.0)});
  }
  for (const articula::Tyre& t : m.tyres) car.tyreBodies.push_back(t.body - 1);
  // Articula's tyre element for the wheel's world state: every engine applies what it returns.
  car.tyre = [model](int k, const CarPose& w) {
    const articula::Tyre& t = model->tyres[static_cast<std::size_t>(k)];
    const Mat3 R = toMat(w.rotation);
    const Vec3 omega = toVec(w.omega);
    const Vec3 centreVelocity = toVec(w.velocity) + omega.cross(R * t.centre);
    const articula::TyreResponse r =
        articula::tyreResponse(t, model->road, articula::WheelState{R, toVec(w.origin), centreVelocity, omega});
    return TyreLoad{toArray(r.point), toArray(r.force), toArray(r.moment), r.Fz};
  };
  car.tyreEnergy = [model](int k, const CarPose& w) {
    return articula::tyreEnergy(model->tyres[static_cast<std::size_t>(k)], model->road, toMat(w.rotation),
                                toVec(w.origin));
  };
  for (const articula::bench::Probe& p : articula::bench::carProbes(m)) car.probes.push_back({p.body - 1, toArray(p.point)});
  car.energy0 = articula::kineticEnergy(m, ws) + articula::potentialEnergy(m, ws, q);
  return car;
}

// Samples the loop closure (carClosure, the same measure for every engine).
class ClosureSink final : public articula::SampleSink {
 public:
  ClosureSink(const articula::Model& m, const Car& car) : m_(m), car_(car) {}
  void write(const articula::Sample& s) override { worst = std::max(worst, carClosure(car_, posesOf(m_, s.ws))); }
  double worst = 0;

 private:
  const articula::Model& m_;
  const Car& car_;
};

struct Setting {
  const char* formulation;
  const char* integrator;
  double dt;
};

// The options of seed 001's car tables (bench/vehicle_table.cpp): singularities counted, not stopping.
articula::SimulationOptions options(const Setting& s, double tEnd, double sample) {
  articula::SimulationOptions o;
  o.formulation = s.formulation;
  o.integrator = s.integrator;
  o.integratorOptions.dt = s.dt;
  o.tEnd = tEnd;
  o.outputInterval = sample;
  o.stopAtSingularities = false;
  o.stabilization = articula::Stabilization::Projection;
  return o;
}

std::string describe(const Setting& s) {
  char t[160];
  std::snprintf(t, sizeof t, "simulate(): %s + %s, dt = %g s, projection after each step", s.formulation, s.integrator,
                s.dt);
  return t;
}

class ArticulaCar final : public CarRun {
 public:
  ArticulaCar(std::shared_ptr<const articula::Model> m, const Car& car, const Setting& s)
      : model_(std::move(m)), car_(car), setting_(s) {}
  std::string engine() const override { return "articula"; }
  std::string settings() const override { return describe(setting_); }
  CarFigures run(double tEnd, double sample) override {
    articula::bench::Heights heights(articula::bench::carProbes(*model_), *model_);
    ClosureSink closure(*model_, car_);
    const double c0 = processCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    const articula::SimulationResult r = articula::simulate(*model_, options(setting_, tEnd, sample), {&heights, &closure});
    CarFigures f;
    f.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    f.cpuSeconds = processCpuSeconds() - c0;
    if (!r.ok || r.tReached < tEnd - 1e-9) throw std::runtime_error("articula: " + r.error);
    f.steps = r.steps;
    f.maxClosure = closure.worst;
    f.heights = heights.z;
    return f;
  }
  Initial initial() override {
    const articula::Model& m = *model_;
    Eigen::VectorXd q, v;
    assembled(m, q, v);
    Eigen::VectorXd qdd(m.nv);
    articula::makeFormulation("reference", m)->accelerations(0.0, q, v, qdd);  // constrained dynamics
    articula::Workspace ws(m);
    articula::updateVelocities(m, ws, q, v);
    Initial init;
    init.poses = posesOf(m, ws);
    for (const articula::Tyre& t : m.tyres) init.tyreLoads.push_back(articula::tyreResponse(m, ws, t).Fz);
    init.energy = articula::kineticEnergy(m, ws) + articula::potentialEnergy(m, ws, q);
    articula::updateAccelerations(m, ws, qdd);
    for (int b = 1; b <= m.bodyCount(); ++b) {
      const Vec3 alpha = articula::angularAcceleration(ws, b), a = articula::pointAcceleration(ws, b, Vec3::Zero());
      init.accelerations.push_back({alpha.x(), alpha.y(), alpha.z(), a.x(), a.y(), a.z()});
    }
    return init;
  }

 private:
  std::shared_ptr<const articula::Model> model_;
  const Car& car_;
  Setting setting_;
};

class Reference final : public CarReference {
 public:
  Reference(double tEnd, double sample)
      : model_(articula::loadModel(kCarFile)), heights_(articula::bench::carProbes(model_), model_) {
    const auto t0 = std::chrono::steady_clock::now();
    const articula::SimulationResult r = articula::simulate(model_, options(kSetting, tEnd, sample), {&heights_});
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok) throw std::runtime_error("the reference run failed: " + r.error);
  }
  double error(const std::vector<std::vector<double>>& z) const override {
    articula::bench::Heights run(heights_.probes, model_);
    run.z = z;
    return articula::bench::seed001Error(run, heights_);  // seed 001 eq. (43)
  }
  std::string settings() const override { return describe(kSetting); }
  double seconds() const override { return seconds_; }

 private:
  // Seed 001's reference for the car tables: the trapezoidal rule at 1e-3 s (hybrid formulation).
  static constexpr Setting kSetting{"hybrid", "trapezoidal", 1e-3};
  articula::Model model_;
  articula::bench::Heights heights_;
  double seconds_ = 0;
};

}  // namespace articula_car

Car carToMeasure() {
  return articula_car::describe(std::make_shared<const articula::Model>(articula::loadModel(articula_car::kCarFile)));
}

std::unique_ptr<CarReference> makeCarReference(double tEnd, double sample) {
  return std::make_unique<articula_car::Reference>(tEnd, sample);
}

CarRuns makeArticulaCarRuns(const Car& car) {
  using articula_car::Setting;
  auto model = std::make_shared<const articula::Model>(articula::loadModel(articula_car::kCarFile));
  CarRuns runs;
  // docs/benchmarks.md ("Car: speed", "Car: seed 001's tables"): the fastest acceptable pairing,
  // hybrid + HHT at 0.08 s, the hybrid formulation with the trapezoidal rule at the largest step of
  // seed 001's grid, and the fastest ODE pairing, semi-recursive + RK4 at 0.02 s.
  for (const Setting& s : {Setting{"hybrid", "hht", 0.08}, Setting{"hybrid", "hht", 0.05},
                           Setting{"hybrid", "trapezoidal", 0.04}, Setting{"semi-recursive", "rk4", 0.02}})
    runs.push_back(std::make_unique<articula_car::ArticulaCar>(model, car, s));
  return runs;
}

}  // namespace peers
