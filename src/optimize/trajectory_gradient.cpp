#include "articula/optimize/trajectory_gradient.hpp"

#include <cmath>

#include "gradient_engine.hpp"

namespace articula {

std::string_view gradientMethodName(GradientMethod method) {
  switch (method) {
    case GradientMethod::Adjoint: return "adjoint";
    case GradientMethod::DirectDifferentiation: return "direct";
    case GradientMethod::FiniteDifference: return "fd";
  }
  return "?";
}

TrajectoryGradient::TrajectoryGradient(const OptimalControlProblem& problem, const GradientOptions& options)
    : impl_(std::make_unique<Impl>(problem, options)) {}
TrajectoryGradient::~TrajectoryGradient() = default;

int TrajectoryGradient::parameterCount() const { return impl_->P; }
const Model& TrajectoryGradient::workingModel() const { return impl_->model; }
const GradientStats& TrajectoryGradient::stats() const { return impl_->stats; }
const GradientOptions& TrajectoryGradient::options() const { return impl_->options; }

double TrajectoryGradient::cost(const Eigen::VectorXd& b) {
  impl_->apply(b);
  if (impl_->adaptive) return impl_->adaptiveCost();
  Eigen::VectorXd x(impl_->nx);
  return impl_->forward(x, false);
}

double TrajectoryGradient::gradient(const Eigen::VectorXd& b, Eigen::VectorXd& g, GradientMethod method) {
  Impl& e = *impl_;
  switch (method) {
    case GradientMethod::Adjoint:
      e.apply(b);
      return e.adaptive ? e.continuousAdjoint(g) : e.discreteAdjoint(g);
    case GradientMethod::DirectDifferentiation:
      e.apply(b);
      return e.adaptive ? e.continuousDirect(g) : e.discreteDirect(g);
    case GradientMethod::FiniteDifference: {
      const double J = cost(b);
      g.resize(e.P);
      Eigen::VectorXd bp = b;
      for (int k = 0; k < e.P; ++k) {
        const double step = e.options.finiteDifferenceStep * std::max(1.0, std::abs(b[k]));
        bp[k] = b[k] + step;
        const double plus = cost(bp);
        bp[k] = b[k] - step;
        const double minus = cost(bp);
        g[k] = (plus - minus) / (2.0 * step);
        bp[k] = b[k];
      }
      e.apply(b);
      return J;
    }
  }
  return 0.0;
}

void TrajectoryGradient::trajectory(
    const Eigen::VectorXd& b,
    const std::function<void(double, const Eigen::VectorXd&, const Eigen::VectorXd&, double)>& sample) {
  Impl& e = *impl_;
  if (e.adaptive) throw Error("trajectory(): fixed-step integrators only (euler, heun, rk4)");
  e.apply(b);
  Eigen::VectorXd x = e.x0, u(e.nu);
  double J = 0.0;
  e.controlsAt(0.0, u);
  sample(0.0, x, u, J);
  for (int k = 0; k < e.steps; ++k) {
    J += e.step(k, x);
    e.controlsAt(e.time(k + 1), u);
    sample(e.time(k + 1), x, u, k + 1 == e.steps ? J + e.terminalCost(x) : J);
  }
}

void TrajectoryGradient::controls(const Eigen::VectorXd& b, double t, Eigen::VectorXd& u) const {
  Impl& e = *impl_;
  e.apply(b);
  u.resize(e.nu);
  e.controlsAt(t, u);
}

}  // namespace articula
