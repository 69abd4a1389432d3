// The cost J(b) of an optimal control/design problem (optimize/problem.hpp) and its gradient
// dJ/db by three methods that check each other. With a fixed-step integrator (euler, heun, rk4):
//
//  - Adjoint (discrete): the exact gradient of the discrete cost, obtained by running the
//    transposed linearisation of the explicit Runge-Kutta steps backward in time (Hager 2000,
//    "Runge-Kutta methods in optimal control and the transformed adjoint system"; Sandu's
//    discrete RK adjoints). One forward run and one backward run, whatever the number of
//    parameters. The running cost is integrated by the same Runge-Kutta scheme as the state, as
//    an extra state component, so that J and its gradient belong to the same discrete problem.
//    The forward states are kept at checkpoints every `checkpointInterval` steps and the steps
//    between two checkpoints are recomputed during the backward run, keeping their stages
//    (two-level checkpointing): ceil(N/m) states and 2 s m stage vectors for N steps of an
//    s-stage method, about 2 sqrt(2 s N) with the default m = ceil(sqrt(N / (2 s))).
//  - Direct differentiation (forward sensitivities): the tangent linear model of the same steps,
//    propagating dx/db (state size x parameters) forward with the state; its cost grows with the
//    number of parameters. Equal to the adjoint gradient up to round-off.
//
// With the adaptive rk45 the two are the continuous methods of seed 002 chapter 4
// (differentiate, then discretise; optimize/continuous_gradient.cpp): the adjoint ODE integrated
// backward over the interpolated forward run, and the forward sensitivity equations integrated
// with the state. They agree with the finite differences to the integrators' tolerances. With the
// Hamiltonian formulation hdca (state [q; p]) the adjoint is the joint-space Hamiltonian adjoint.
//
//  - Finite differences: central differences of J over whole simulations, 2P runs.
//
// The adjoint and direct methods need the local derivatives of the state derivative f(t, x, u, b)
// and of the running cost with respect to x, u and the design parameters. The adjoint needs them
// only as products with a weight vector, which it takes in reverse mode (exact, O(n) per stage:
// dynamics/forward_dynamics_adjoint.hpp) on trees of revolute, prismatic, cylindrical and fixed
// joints with joint-level force elements, loads on bodies and point springs, with an ODE
// formulation of [q; v]; the design parameters' column then by central differences of the
// weighted inverse-dynamics residual (two RNEA passes each). Everywhere else, and always for
// direct differentiation, the local Jacobian is taken by central differences of the formulation
// (step cbrt(eps) relative, accurate to about 1e-10 relative): 2 (n_x + n_u + n_design)
// evaluations per stage. stats().localDerivatives says which. Design parameters do not move the
// initial state (the initial assembly is done once, with the model as given).
#pragma once

#include <functional>
#include <memory>

#include "articula/optimize/problem.hpp"

namespace articula {

enum class GradientMethod { Adjoint, DirectDifferentiation, FiniteDifference };
std::string_view gradientMethodName(GradientMethod method);  ///< "adjoint", "direct", "fd"

struct GradientOptions {
  /// Adjoint: steps between stored states; 0 picks about sqrt(steps / (2 stages)) (for rk45, a
  /// power of two adapted during the run), 1 stores every step.
  int checkpointInterval = 0;
  /// Finite differences of J: the step is this times max(1, |b_k|).
  double finiteDifferenceStep = 1e-6;
  /// The adjoint's local products in reverse mode where the problem allows (see above); false:
  /// central differences of the formulation everywhere (a check of the reverse mode).
  bool reverseModeDerivatives = true;
};

struct GradientStats {
  long steps = 0;              ///< time steps of the last forward run
  long evaluations = 0;        ///< evaluations of the equations of motion, all runs so far
  /// The last adjoint run: vectors of the state's size held at once (fixed step: the checkpoints
  /// and one segment's stage arguments and slopes; rk45: the records and one segment's states).
  long storedStates = 0;
  int checkpointInterval = 0;  ///< the last adjoint run's interval
  /// How the adjoint takes its local derivatives: "reverse mode", or "central differences"
  /// followed by the reason.
  std::string localDerivatives;
};

class TrajectoryGradient {
 public:
  /// Checks the problem (checkProblem), builds the working model (the problem's model with one
  /// load per control input) and assembles the initial state. Allocates; once per problem.
  explicit TrajectoryGradient(const OptimalControlProblem& problem, const GradientOptions& options = {});
  ~TrajectoryGradient();
  TrajectoryGradient(const TrajectoryGradient&) = delete;
  TrajectoryGradient& operator=(const TrajectoryGradient&) = delete;

  int parameterCount() const;
  /// J(b). Throws articula::Error when b has the wrong size or the run produces a non-finite state.
  double cost(const Eigen::VectorXd& b);
  /// J(b), and dJ/db written into g (resized to parameterCount()).
  double gradient(const Eigen::VectorXd& b, Eigen::VectorXd& g, GradientMethod method);

  /// One forward run at b with a fixed-step integrator, calling `sample` at t = 0 and after every
  /// step with the state x (the formulation's: [q; v], or [q; p] for hdca), the control inputs u and
  /// the cost accumulated so far (the terminal cost added at tf). Throws articula::Error for rk45.
  void trajectory(const Eigen::VectorXd& b,
                  const std::function<void(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u, double J)>& sample);
  /// The control inputs u(t) at b (one per control).
  void controls(const Eigen::VectorXd& b, double t, Eigen::VectorXd& u) const;

  const Model& workingModel() const;
  const GradientStats& stats() const;
  const GradientOptions& options() const;

  struct Impl;  ///< the implementation, private to src/optimize (gradient_engine.hpp)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace articula
