// The linkages from Articula's models (read, assembled, described for the peers), and
// Articula's own whole runs of them through simulate().
#include <chrono>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"
#include "articula/simulate/simulation.hpp"
#include "articula_arrays.hpp"
#include "linkage.hpp"

namespace peers {

namespace {

using articula::Vec3;

// The Articula model of a linkage of linkagesToMeasure(), by name.
articula::Model articulaModel(const std::string& name) {
  if (name == "four_bar") return articula::loadModel(PEERS_MODELS_DIR "/four_bar.yaml");
  // As bench/formulation_table.cpp: hanging, released 1.2 rad from the bottom at rest, a large
  // swing that stays clear of the flat singular position the default start passes.
  if (name == "n_four_bar10") return articula::makeNFourBar(10, -std::numbers::pi / 2 + 1.2, 0.0);
  throw std::runtime_error("no linkage named " + name);
}

const char* sourceOf(const std::string& name) {
  return name == "four_bar" ? "models/four_bar.yaml"
                            : "articula::makeNFourBar(10, -pi/2 + 1.2, 0) (hanging, at rest)";
}

double energyAt(const articula::Model& m, articula::Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  articula::updateVelocities(m, ws, q, v);
  return articula::kineticEnergy(m, ws) + articula::potentialEnergy(m, ws, q);
}

// Fails loudly where the model is not a planar linkage the peers' builders can reproduce.
void require(bool ok, const std::string& model, const std::string& what) {
  if (!ok) throw std::runtime_error(model + ": not a planar revolute linkage (" + what + ")");
}

Linkage describe(const std::string& name) {
  const articula::Model m = articulaModel(name);
  require(m.jointSprings.empty() && m.pointSprings.empty() && m.jointLimits.empty() && m.jointFrictions.empty() &&
              m.bodyLoads.empty() && m.jointLoads.empty() && m.prescribed.empty(),
          name, "force elements or prescribed motion");
  Eigen::VectorXd q = m.q0, v = m.v0;
  const articula::AssemblyResult a = articula::assemble(m, 0.0, q, v);
  require(a.positionError < 1e-12, name, "assembly failed");
  Linkage l;
  l.name = name;
  l.source = sourceOf(name);
  l.gravity = toArray(m.gravity);
  for (int i = 1; i <= m.bodyCount(); ++i) {
    const articula::Joint& j = m.joints[i];
    const articula::Body& b = m.bodies[i];
    require(j.type == articula::JointType::Revolute && j.axis.isApprox(Vec3::UnitZ()) &&
                j.placement.E.isIdentity(0.0),
            name, "joint " + j.name + " is not a revolute about z at an unrotated frame");
    require(b.inertiaCom.isDiagonal(0.0), name, "inertia of " + b.name + " not diagonal");
    LinkageBody lb;
    lb.name = b.name;
    lb.parent = j.parent - 1;  // body 0 is Articula's ground
    lb.joint = toArray(j.placement.r);
    lb.mass = b.mass;
    lb.com = toArray(b.com);
    lb.inertia = toArray(Vec3(b.inertiaCom.diagonal()));
    lb.q0 = q[j.iq];
    lb.v0 = v[j.iv];
    l.bodies.push_back(lb);
  }
  for (const articula::LoopConstraint& c : m.loops) {
    const bool planarRevolute = c.type == articula::LoopConstraint::Type::Revolute &&
                                c.rotationA.col(2).isApprox(Vec3::UnitZ()) &&
                                c.rotationB.col(2).isApprox(Vec3::UnitZ());
    require(planarRevolute || c.type == articula::LoopConstraint::Type::Ball, name, "loop " + c.name);
    require(c.bodyA > 0 && c.bodyB > 0, name, "loop " + c.name + " on the ground");
    l.loops.push_back({c.name, c.bodyA - 1, c.bodyB - 1, toArray(c.pointA), toArray(c.pointB)});
  }
  articula::Workspace ws(m);
  l.energy0 = energyAt(m, ws, q, v);
  return l;
}

// Observes every sample of simulate(): loop closure and energy.
class Observer final : public articula::SampleSink {
 public:
  Observer(const articula::Model& m, RunFigures& f) : m_(m), f_(f) {}
  void write(const articula::Sample& s) override {
    double closure = 0;
    for (const articula::LoopConstraint& c : m_.loops)
      closure = std::max(closure, (articula::pointPosition(s.ws, c.bodyA, c.pointA) -
                                   articula::pointPosition(s.ws, c.bodyB, c.pointB))
                                      .norm());
    const double e = s.kineticEnergy + s.potentialEnergy;
    if (std::isnan(f_.energy0)) f_.energy0 = e;
    f_.maxClosure = std::max(f_.maxClosure, closure);
    f_.maxEnergyDrift = std::max(f_.maxEnergyDrift, std::abs(e - f_.energy0));
    f_.finalAngles.resize(static_cast<std::size_t>(m_.bodyCount()));  // the last sample's: tEnd
    for (int i = 1; i <= m_.bodyCount(); ++i) f_.finalAngles[static_cast<std::size_t>(i - 1)] = s.q[m_.joints[i].iq];
  }

 private:
  const articula::Model& m_;
  RunFigures& f_;
};

struct Setting {
  const char* formulation;
  const char* integrator;
  double dt;    ///< fixed step (rk4)
  double rtol;  ///< rk45 (atol = rtol / 100)
};

// simulate() as `articula simulate MODEL --formulation F --integrator I --dt DT` runs it
// (assembly, stepping, projection after each step, singularity checks, sampling), without the
// output files: the samples go to the observer only.
class ArticulaLinkage final : public LinkageRun {
 public:
  ArticulaLinkage(const Linkage& l, const Setting& s) : model_(articulaModel(l.name)), setting_(s) {}
  std::string engine() const override { return "articula"; }
  std::string settings() const override {
    char s[160];
    if (std::string(setting_.integrator) == "rk45")
      std::snprintf(s, sizeof s, "simulate(): %s, rk45 rtol=%g atol=%g, projection after each step",
                    setting_.formulation, setting_.rtol, setting_.rtol / 100);
    else
      std::snprintf(s, sizeof s, "simulate(): %s, %s dt=%g, projection after each step", setting_.formulation,
                    setting_.integrator, setting_.dt);
    return s;
  }
  RunFigures run(double tEnd, double observe) override {
    articula::SimulationOptions o;
    o.formulation = setting_.formulation;
    o.integrator = setting_.integrator;
    o.integratorOptions.dt = setting_.dt;
    if (setting_.rtol > 0) {
      o.integratorOptions.rtol = setting_.rtol;
      o.integratorOptions.atol = setting_.rtol / 100;
    }
    o.tEnd = tEnd;
    o.outputInterval = observe;
    o.stabilization = articula::Stabilization::Projection;
    RunFigures f;
    Observer observer(model_, f);
    const auto t0 = std::chrono::steady_clock::now();
    const articula::SimulationResult r = articula::simulate(model_, o, {&observer});
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok) throw std::runtime_error("articula: " + r.error);
    f.steps = r.steps;
    return f;
  }
  Initial initial() override {
    Initial init;
    Eigen::VectorXd q = model_.q0, v = model_.v0;
    articula::assemble(model_, 0.0, q, v);
    const auto f = articula::makeFormulation("reference", model_);
    Eigen::VectorXd qdd(model_.nv);
    f->accelerations(0.0, q, v, qdd);
    init.q.assign(q.data(), q.data() + q.size());
    init.v.assign(v.data(), v.data() + v.size());
    init.qddot.assign(qdd.data(), qdd.data() + qdd.size());
    articula::Workspace ws(model_);
    init.energy = energyAt(model_, ws, q, v);
    for (const articula::LoopConstraint& c : model_.loops)
      init.closure = std::max(init.closure, (articula::pointPosition(ws, c.bodyA, c.pointA) -
                                             articula::pointPosition(ws, c.bodyB, c.pointB))
                                                .norm());
    return init;
  }

 private:
  articula::Model model_;
  Setting setting_;
};

}  // namespace

std::vector<Linkage> linkagesToMeasure() { return {describe("four_bar"), describe("n_four_bar10")}; }

LinkageRuns makeArticulaLinkages(const Linkage& linkage) {
  LinkageRuns runs;
  // The fixed-step RK4 with each ODE formulation that handles loops, and the
  // error-controlled rk45 on the grid of tolerances 1e-8, 3e-9, 1e-9 that Simbody's accuracy
  // runs on too: 1e-8 lets the four-bar's energy drift past 1e-6 J (1.1e-6 J), 3e-9 is the
  // loosest that holds it (rk4 at dt = 2e-3 gives 3e-5 J).
  for (const Setting& s : {Setting{"semi-recursive", "rk4", 1e-3, 0}, Setting{"reference", "rk4", 1e-3, 0},
                           Setting{"hdca", "rk4", 1e-3, 0}, Setting{"semi-recursive", "rk45", 0, 3e-9},
                           Setting{"semi-recursive", "rk45", 0, 1e-9}, Setting{"reference", "rk45", 0, 1e-9}})
    runs.push_back(std::make_unique<ArticulaLinkage>(linkage, s));
  return runs;
}

}  // namespace peers
