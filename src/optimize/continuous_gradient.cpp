// Adaptive (rk45) runs and the continuous sensitivity methods, differentiate-then-discretise as
// in seed 002 chapter 4: the adjoint ODE
//   lambda' = -(f_x^T lambda + h_x^T),  lambda(tf) = S_x^T,  dJ/db = int_0^tf (f_b^T lambda + h_b^T) dt
// (eq. (4.13)-(4.16) for the state at hand: [q; v], or [q; p] with the Hamiltonian formulation hdca,
// which makes it the joint-space Hamiltonian adjoint of eq. (4.26)-(4.30)), integrated backward by
// rk45 over the forward trajectory interpolated between its accepted steps; and the forward
// sensitivity equations S' = f_x S + f_b integrated with the state. Both are exact only up to the
// integrators' tolerances, unlike the discrete methods.
//
// Memory: the forward run saves the integrator's whole state (a restart record) every m accepted
// steps; the backward run replays one interval at a time from its record, keeping (t, x, f) at its
// m + 1 step ends for the cubic Hermite interpolation of x(t) (third order; the thesis used a
// cubic spline through states stored on a fixed grid).
#include <algorithm>
#include <cmath>

#include "articula/core/archive.hpp"
#include "articula/integrate/integrator.hpp"
#include "gradient_engine.hpp"

namespace articula {

namespace {

using Impl = TrajectoryGradient::Impl;

IntegratorOptions adaptiveOptions(const OptimalControlProblem& p) {
  IntegratorOptions o;
  o.dt = p.dt;  // the first step's hint
  o.rtol = p.rtol;
  o.atol = p.atol;
  return o;
}

// The equations of motion with the controls and the running cost: y = [x; z], z' = h(t, x, u).
class ControlledSystem final : public OdeSystem {
 public:
  explicit ControlledSystem(Impl& e) : e_(e), x_(e.nx), f_(e.nx), u_(e.nu) {}
  int size() const override { return e_.nx + 1; }
  void derivative(double t, const Eigen::VectorXd& y, Eigen::VectorXd& ydot) override {
    x_ = y.head(e_.nx);
    e_.controlsAt(t, u_);
    double h = 0.0;
    e_.evaluate(t, x_, u_, f_, h);
    ydot.head(e_.nx) = f_;
    ydot[e_.nx] = h;
  }

 private:
  Impl& e_;
  Eigen::VectorXd x_, f_, u_;
};

void checkFinite(const Eigen::VectorXd& y, double t) {
  if (!y.allFinite())
    throw Error("the forward run produced a non-finite state at t = " + std::to_string(t) +
                " s (parameters out of a sensible range?)");
}

// The forward trajectory of one checkpoint interval: (t, y, f) at its step ends, and x(t) between
// them by cubic Hermite interpolation.
struct Segment {
  std::vector<double> t;
  std::vector<Eigen::VectorXd> y, f;
  int count = 0;

  void x(double time, int nx, Eigen::VectorXd& out) const {
    const auto it = std::upper_bound(t.begin(), t.begin() + count, time);
    const int k = std::clamp(static_cast<int>(it - t.begin()) - 1, 0, count - 2);
    const auto sk = static_cast<std::size_t>(k);
    const double h = t[sk + 1] - t[sk], s = std::clamp((time - t[sk]) / h, 0.0, 1.0);
    const double s2 = s * s, s3 = s2 * s;
    out = (2 * s3 - 3 * s2 + 1) * y[sk].head(nx) + (3 * s2 - 2 * s3) * y[sk + 1].head(nx) +
          ((s3 - 2 * s2 + s) * h) * f[sk].head(nx) + ((s3 - s2) * h) * f[sk + 1].head(nx);
  }
};

// The backward adjoint ODE in s = tf - t: y = [lambda; gamma], lambda' = f_x^T lambda + h_x^T and
// gamma' = f_b^T lambda + h_b^T (gamma(s = tf) = dJ/db).
class AdjointSystem final : public OdeSystem {
 public:
  AdjointSystem(Impl& e, const Segment& segment)
      : e_(e), segment_(segment), x_(e.nx), u_(e.nu), w_(e.nx + 1) {}
  int size() const override { return e_.nx + e_.P; }
  void derivative(double s, const Eigen::VectorXd& y, Eigen::VectorXd& ydot) override {
    const double t = e_.problem.tf - s;
    segment_.x(t, e_.nx, x_);
    e_.controlsAt(t, u_);
    w_.head(e_.nx) = y.head(e_.nx);
    w_[e_.nx] = 1.0;
    e_.localAdjointProduct(t, x_, u_, nullptr, w_);
    const Eigen::VectorXd& z = e_.localAdjoint;
    ydot.head(e_.nx) = z.head(e_.nx);
    auto gamma = ydot.tail(e_.P);
    gamma.setZero();
    gamma.head(e_.nd) = z.tail(e_.nd);
    e_.addControlAdjoint(t, z.segment(e_.nx, e_.nu), gamma);
  }

 private:
  Impl& e_;
  const Segment& segment_;
  Eigen::VectorXd x_, u_, w_;
};

// The state with its forward sensitivities: y = [x; z; vec(S); s_z] with S = dx/db (nx x P,
// column-major) and s_z = dz/db, S' = f_x S + f_u du/db + f_p dp/db and likewise s_z'.
class SensitivitySystem final : public OdeSystem {
 public:
  explicit SensitivitySystem(Impl& e)
      : e_(e), x_(e.nx), f_(e.nx), u_(e.nu), G_(e.nx + e.nu + e.nd, e.P), dSL_(e.nx + 1, e.P) {}
  int size() const override { return (e_.nx + 1) * (1 + e_.P); }
  void derivative(double t, const Eigen::VectorXd& y, Eigen::VectorXd& ydot) override {
    const int nx = e_.nx, P = e_.P;
    x_ = y.head(nx);
    e_.controlsAt(t, u_);
    double h = 0.0;
    e_.evaluate(t, x_, u_, f_, h);
    ydot.head(nx) = f_;
    ydot[nx] = h;
    G_.topRows(nx) = Eigen::Map<const Eigen::MatrixXd>(y.data() + nx + 1, nx, P);
    e_.fillParameterRows(t, G_.bottomRows(e_.nu + e_.nd));
    e_.localDerivatives(t, x_, u_);
    dSL_.noalias() = e_.D * G_;
    Eigen::Map<Eigen::MatrixXd>(ydot.data() + nx + 1, nx, P) = dSL_.topRows(nx);
    ydot.tail(P) = dSL_.row(nx).transpose();
  }

 private:
  Impl& e_;
  Eigen::VectorXd x_, f_, u_;
  Eigen::MatrixXd G_, dSL_;
};

}  // namespace

double TrajectoryGradient::Impl::adaptiveCost() {
  ControlledSystem system(*this);
  auto integrator = makeIntegrator("rk45", adaptiveOptions(problem));
  Eigen::VectorXd y(nx + 1);
  y << x0, 0.0;
  integrator->initialize(system, 0.0, y);
  long n = 0;
  while (integrator->time() < problem.tf) {
    integrator->step(problem.tf);
    ++n;
  }
  checkFinite(integrator->state(), problem.tf);
  stats.steps = n;
  return integrator->state()[nx] + terminalCost(integrator->state().head(nx));
}

double TrajectoryGradient::Impl::continuousAdjoint(Eigen::VectorXd& g) {
  const double tf = problem.tf;
  ControlledSystem system(*this);
  auto integrator = makeIntegrator("rk45", adaptiveOptions(problem));
  // Forward: a restart record every m accepted steps. The number of steps is not known in advance:
  // when the records outnumber 2 m, every other one is dropped and m doubles, which keeps m near
  // sqrt(steps) and the records between sqrt(steps) and 2 sqrt(steps).
  const bool fixedInterval = options.checkpointInterval > 0;
  int m = fixedInterval ? options.checkpointInterval : 1;
  std::vector<std::string> records;
  std::vector<long> recordStep;
  Eigen::VectorXd y(nx + 1);
  y << x0, 0.0;
  integrator->initialize(system, 0.0, y);
  long n = 0;
  while (integrator->time() < tf) {
    if (n % m == 0) {
      ArchiveWriter out;
      integrator->save(out);
      records.push_back(out.bytes());
      recordStep.push_back(n);
    }
    if (!fixedInterval && static_cast<int>(records.size()) > 2 * m) {
      std::size_t kept = 0;
      for (std::size_t r = 0; r < records.size(); ++r)
        if (recordStep[r] % (2 * m) == 0) {
          if (kept != r) records[kept] = std::move(records[r]);
          recordStep[kept++] = recordStep[r];
        }
      records.resize(kept);
      recordStep.resize(kept);
      m *= 2;
    }
    integrator->step(tf);
    ++n;
  }
  checkFinite(integrator->state(), tf);
  stats.steps = n;
  const Eigen::VectorXd xEnd = integrator->state().head(nx);
  const double J = integrator->state()[nx] + terminalCost(xEnd);

  // Backward: lambda(tf) = S_x, gamma(tf) = 0, in s = tf - t; one interval at a time.
  Segment segment;
  segment.t.resize(static_cast<std::size_t>(m) + 1);
  segment.y.assign(static_cast<std::size_t>(m) + 1, Eigen::VectorXd(nx + 1));
  segment.f.assign(static_cast<std::size_t>(m) + 1, Eigen::VectorXd(nx + 1));
  AdjointSystem adjointSystem(*this, segment);
  auto adjoint = makeIntegrator("rk45", adaptiveOptions(problem));
  Eigen::VectorXd a = Eigen::VectorXd::Zero(nx + P);
  terminalGradient(xEnd, a.head(nx));
  bool started = false;
  for (int r = static_cast<int>(records.size()) - 1; r >= 0; --r) {
    ArchiveReader in(records[static_cast<std::size_t>(r)], "adjoint checkpoint");
    integrator->restore(system, in);
    const long last = r + 1 < static_cast<int>(records.size()) ? recordStep[static_cast<std::size_t>(r) + 1] : n;
    segment.count = 0;
    const auto keep = [&] {
      const auto k = static_cast<std::size_t>(segment.count++);
      segment.t[k] = integrator->time();
      segment.y[k] = integrator->state();
      system.derivative(segment.t[k], segment.y[k], segment.f[k]);
    };
    keep();
    for (long k = recordStep[static_cast<std::size_t>(r)]; k < last; ++k) {
      integrator->step(tf);
      keep();
    }
    const double sEnd = tf - segment.t[0];
    if (!started) {
      adjoint->initialize(adjointSystem, tf - segment.t[static_cast<std::size_t>(segment.count - 1)], a);
      started = true;
    }
    while (adjoint->time() < sEnd) adjoint->step(sEnd);
  }
  a = adjoint->state();
  g = a.tail(P);
  addTerminalDesignGradient(xEnd, g);
  stats.storedStates = static_cast<long>(records.size()) + m + 1;
  stats.checkpointInterval = m;
  return J;
}

double TrajectoryGradient::Impl::continuousDirect(Eigen::VectorXd& g) {
  SensitivitySystem system(*this);
  auto integrator = makeIntegrator("rk45", adaptiveOptions(problem));
  Eigen::VectorXd y = Eigen::VectorXd::Zero(system.size());
  y.head(nx) = x0;
  integrator->initialize(system, 0.0, y);
  long n = 0;
  while (integrator->time() < problem.tf) {
    integrator->step(problem.tf);
    ++n;
  }
  const Eigen::VectorXd& end = integrator->state();
  checkFinite(end, problem.tf);
  stats.steps = n;
  const Eigen::VectorXd xEnd = end.head(nx);
  Eigen::VectorXd sx(nx);
  terminalGradient(xEnd, sx);
  g = end.tail(P) + Eigen::Map<const Eigen::MatrixXd>(end.data() + nx + 1, nx, P).transpose() * sx;
  addTerminalDesignGradient(xEnd, g);
  return end[nx] + terminalCost(xEnd);
}

}  // namespace articula
