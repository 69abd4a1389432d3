// Seed 000's single-precision study (section 5, Figs. 7, 11-13): HDCA in float and in double with
// explicit Euler at dt = 1e-4 s for 1 s from rest, and what each loses against an accurate
// reference (the reference formulation with rk45 at rtol = atol = 1e-12). Per model it prints the
// largest differences over the 101 samples (every 0.01 s) of the kinetic energy T, of the first
// joint's angle, and the largest loop-closure error |g|_inf of each run (no projection: Euler in
// [q; p*] keeps J v = 0 exactly and lets the positions drift, as in the paper).
// Run: build-bench/bin/precision_study [MODEL.yaml ...]   (from the repository root; by default
// the seed 000 models, the project's crank-rocker four-bar and the spatial RSSR)
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/hdca.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/integrate/integrator.hpp"
#include "articula/io/yaml_model.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/system.hpp"

using namespace articula;

namespace {

constexpr double kStep = 1e-4, kEnd = 1.0;
constexpr int kSamples = 100;             // every 0.01 s
constexpr int kStepsPerSample = 100;

struct Trajectory {
  std::vector<double> kinetic, angle, closure;
};

// Explicit Euler in [q; p*] with every HDCA operation in Scalar and the state held in Scalar.
template <class Scalar>
Trajectory eulerRun(const Model& model, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) {
  using VecX = VectorXT<Scalar>;
  BasicHdca<Scalar> hdca(model);
  ConstraintProjector projector(model);
  VecX q = q0.cast<Scalar>(), p(model.nv), v(model.nv), pdot(model.nv);
  hdca.momenta(q, v0.cast<Scalar>(), p);
  Eigen::VectorXd qd(model.nq), vd(model.nv), qdot(model.nq);
  Trajectory out;
  auto record = [&](double t) {
    hdca.velocities(t, q, p, v);
    qd = q.template cast<double>();
    out.kinetic.push_back(0.5 * p.template cast<double>().dot(v.template cast<double>()));
    out.angle.push_back(qd[0]);
    out.closure.push_back(model.hasConstraints() ? projector.positionError(t, qd) : 0.0);
  };
  record(0.0);
  for (int s = 1; s <= kSamples; ++s) {
    for (int k = 0; k < kStepsPerSample; ++k) {
      const double t = kStep * ((s - 1) * kStepsPerSample + k);
      hdca.derivatives(t, q, p, v, pdot);
      qd = q.template cast<double>();
      vd = v.template cast<double>();
      configurationRate(model, qd, vd, qdot);
      q += static_cast<Scalar>(kStep) * qdot.cast<Scalar>();
      p += static_cast<Scalar>(kStep) * pdot;
      qd = q.template cast<double>();  // unit quaternions (exact round trip for the other coordinates)
      normalizeConfiguration(model, qd);
      q = qd.cast<Scalar>();
    }
    record(s * kStep * kStepsPerSample);
  }
  return out;
}

Trajectory referenceRun(const Model& model, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) {
  IntegratorOptions io;
  io.rtol = io.atol = 1e-12;
  MultibodySystem system(model, makeFormulation("reference", model), Stabilization::Projection);
  auto rk45 = makeIntegrator("rk45", io);
  Eigen::VectorXd x(model.nq + model.nv);
  x << q0, v0;
  rk45->initialize(system, 0.0, x);
  Workspace ws(model);
  Trajectory out;
  for (int s = 0; s <= kSamples; ++s) {
    const double t = s * kStep * kStepsPerSample;
    while (rk45->time() < t) rk45->step(kEnd);
    if (s > 0) rk45->interpolate(t, x);
    updateVelocities(model, ws, x.head(model.nq), x.tail(model.nv));
    out.kinetic.push_back(kineticEnergy(model, ws));
    out.angle.push_back(x[0]);
    out.closure.push_back(0.0);
  }
  return out;
}

double largestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
  return worst;
}

double largest(const std::vector<double>& a) {
  double worst = 0.0;
  for (double x : a) worst = std::max(worst, x);
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths(argv + 1, argv + argc);
  if (paths.empty())
    paths = {"models/seed000_double_pendulum.yaml", "models/seed000_four_bar.yaml", "models/four_bar.yaml",
             "models/rssr.yaml"};
  std::printf("| model | max T (J) | T float - double (J) | T double - reference (J) | q1 float - double (rad) | "
              "q1 double - reference (rad) | loop closure float (m) | loop closure double (m) |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const std::string& path : paths) {
    const Model model = loadModel(path);
    Eigen::VectorXd q = model.q0, v = model.v0;
    assemble(model, 0.0, q, v);
    const Trajectory single = eulerRun<float>(model, q, v), twice = eulerRun<double>(model, q, v);
    const Trajectory reference = referenceRun(model, q, v);
    std::printf("| %s | %.4g | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e |\n", model.name.c_str(), largest(reference.kinetic),
                largestDifference(single.kinetic, twice.kinetic), largestDifference(twice.kinetic, reference.kinetic),
                largestDifference(single.angle, twice.angle), largestDifference(twice.angle, reference.angle),
                largest(single.closure), largest(twice.closure));
  }
  return 0;
}
