// Private to src/optimize: the state of a TrajectoryGradient and the pieces its methods share.
//  - gradient_engine.cpp: the working model, parameters and controls, f and h at one point, the
//    local derivatives D (in reverse mode row by row, or by central differences);
//  - discrete_gradient.cpp: fixed-step explicit Runge-Kutta runs, their discrete adjoint
//    (checkpointed) and direct differentiation;
//  - continuous_gradient.cpp: adaptive (rk45) runs, the continuous adjoint integrated backward
//    over the interpolated forward trajectory, and the continuous forward sensitivities;
//  - trajectory_gradient.cpp: the public interface and finite differences.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "articula/core/central_difference.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/integrate/ode.hpp"
#include "articula/optimize/trajectory_gradient.hpp"
#include "cost_evaluator.hpp"
#include "explicit_tableau.hpp"

namespace articula {

class AbsoluteHamiltonianSystem;
class ForwardDynamicsAdjoint;
class HamiltonianSystem;

struct TrajectoryGradient::Impl {
  Impl(const OptimalControlProblem& p, const GradientOptions& o);
  ~Impl();

  OptimalControlProblem problem;
  GradientOptions options;
  Model model;  // the working model: the problem's, with the control loads appended
  std::vector<int> controlLoad;    // each control's load in model.jointLoads / bodyLoads
  std::vector<int> controlOffset;  // first coefficient of each control in b
  std::unique_ptr<OdeSystem> ode;  // the equations of motion: [q; v] or, for hdca, [q; p]
  HamiltonianSystem* hamiltonian = nullptr;  // ode, when the state is [q; p]
  AbsoluteHamiltonianSystem* absolute = nullptr;  // ode, when the state is in absolute coordinates
  Eigen::VectorXd qbarAbsolute, vbarAbsolute;     // the running cost's gradient in its poses and velocities
  Eigen::VectorXd x0;
  std::unique_ptr<detail::CostEvaluator> costs;
  bool adaptive = false;  // rk45: continuous methods; otherwise the discrete ones
  detail::ExplicitTableau tableau;
  int steps = 0;  // fixed-step runs
  int nx = 0, nu = 0, nd = 0, P = 0;
  GradientStats stats;

  Eigen::VectorXd b;  // the parameters last applied
  Eigen::VectorXd qv, xWork, fPlus, fMinus, uWork, localAdjoint, basisWeights, unitWeight;
  Eigen::MatrixXd D;  // [df/dx df/du df/dp; dh/dx dh/du dh/dp] at one point, (nx + 1) x (nx + nu + nd)
  std::unique_ptr<ForwardDynamicsAdjoint> reverse;  // the adjoint's products in reverse mode, where they apply
  Eigen::VectorXd qPart, vPart, aPart, abar;        // its arguments, sized once
  FormulationOptions formulationOptions;
  /// The design parameters that move joints (link lengths) and their values when `ode` was built:
  /// formulations may keep data derived from joint positions (the planar kernel's placements),
  /// so a new value rebuilds the equations of motion.
  std::vector<int> jointPositions;
  Eigen::VectorXd builtPositions;
  void buildEquations();

  // discrete methods (discrete_gradient.cpp)
  std::vector<Eigen::VectorXd> X, U, K, Xbar;  // one step's stage arguments, controls, slopes, adjoints
  std::vector<double> L;                       // one step's stage running costs
  Eigen::VectorXd weight;                      // [K_bar_i; h b_i]
  std::vector<Eigen::VectorXd> checkpoints;                 // the state every `interval` steps
  std::vector<Eigen::VectorXd> segmentX, segmentU, segmentK;  // one segment's stages, step-major
  int interval = 1;
  Eigen::MatrixXd S, G, Wctl;  // direct differentiation: dx/db, [dX/db; du/db; dp/db], du/db
  std::vector<Eigen::MatrixXd> dKL;

  // shared (gradient_engine.cpp)
  void apply(const Eigen::VectorXd& params);
  void controlsAt(double t, Eigen::VectorXd& u) const;
  /// f(t, x, u) and h(t, x, u) with the controls u written into the working model.
  void evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u, Eigen::VectorXd& f, double& h);
  void setControls(const Eigen::VectorXd& u);
  /// S(x) at tf.
  double terminalCost(const Eigen::VectorXd& x);
  /// D at (t, x, u): row by row in reverse mode where `reverse` is set (reverseJacobian), else
  /// central differences in every state component, control and design parameter.
  void localDerivatives(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u);
  void reverseJacobian(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u);
  /// localAdjoint = D^T weight for the absolute-coordinate formulation (its own adjoint product).
  void absoluteAdjointProduct(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                              const Eigen::VectorXd& weight);
  /// localAdjoint = D^T weight at (t, x, u), where f = f(t, x, u) when known (else nullptr): in
  /// reverse mode when `reverse` is set, else through localDerivatives.
  void localAdjointProduct(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u, const Eigen::VectorXd* f,
                           const Eigen::VectorXd& weight);
  /// dS/dx at the final state, by central differences.
  void terminalGradient(const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> grad);
  /// g(design) += dS/dp at the final state for the design parameters the cost depends on (joint
  /// positions move the markers and bodies), by central differences.
  void addTerminalDesignGradient(const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> g);
  /// (F(p + e) - F(p - e)) / 2e in design parameter d at its value in b, the model restored after.
  template <class F>
  double designSlope(int d, const F& evaluate) {
    const DesignParameter& p = problem.design[static_cast<std::size_t>(d)];
    const double value = b[d], step = centralDifferenceStep(value), up = value + step, down = value - step;
    writeParameter(model, p, up, problem.model);
    const double plus = evaluate();
    writeParameter(model, p, down, problem.model);
    const double minus = evaluate();
    writeParameter(model, p, value, problem.model);
    return (plus - minus) / (up - down);
  }
  /// g(controls) += ubar_c phi_c(t) for every control c.
  void addControlAdjoint(double t, const Eigen::Ref<const Eigen::VectorXd>& ubar, Eigen::Ref<Eigen::VectorXd> g);
  /// G = [dX/db (given, top rows); du/db at t; dp/db] below the given top rows.
  void fillParameterRows(double t, Eigen::Ref<Eigen::MatrixXd> G);

  // fixed step (discrete_gradient.cpp)
  double time(int k) const { return problem.stepTime(k); }
  double stages(double t, double h, const Eigen::VectorXd& x);
  double step(int k, Eigen::VectorXd& x);
  double forward(Eigen::VectorXd& x, bool keepCheckpoints);
  double discreteAdjoint(Eigen::VectorXd& g);
  double discreteDirect(Eigen::VectorXd& g);

  // adaptive (continuous_gradient.cpp)
  double adaptiveCost();
  double continuousAdjoint(Eigen::VectorXd& g);
  double continuousDirect(Eigen::VectorXd& g);
};

}  // namespace articula
