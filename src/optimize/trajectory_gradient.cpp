#include "articula/optimize/trajectory_gradient.hpp"

#include <cmath>
#include <limits>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/simulate/system.hpp"
#include "cost_evaluator.hpp"
#include "explicit_tableau.hpp"

namespace articula {

std::string_view gradientMethodName(GradientMethod method) {
  switch (method) {
    case GradientMethod::Adjoint: return "adjoint";
    case GradientMethod::DirectDifferentiation: return "direct";
    case GradientMethod::FiniteDifference: return "fd";
  }
  return "?";
}

namespace {

// The problem's model with one load per control input, each a constant that the gradient
// overwrites with u_c(t) before every evaluation (TimeFunction::setConstant). Returns the index
// of each control's load in jointLoads or bodyLoads.
std::vector<int> appendControlLoads(Model& model, const std::vector<ControlInput>& controls) {
  std::vector<int> index;
  for (const ControlInput& c : controls) {
    if (c.kind == ControlInput::Kind::JointForce) {
      index.push_back(static_cast<int>(model.jointLoads.size()));
      model.jointLoads.push_back({c.name, c.joint, c.dof, TimeFunction::constant(0.0)});
    } else {
      index.push_back(static_cast<int>(model.bodyLoads.size()));
      BodyLoad load;
      load.name = c.name;
      load.body = c.body;
      load.torque = c.kind == ControlInput::Kind::BodyTorque;
      load.worldFrame = true;
      load.point = c.point;
      load.direction = c.direction;
      load.magnitude = TimeFunction::constant(0.0);
      model.bodyLoads.push_back(load);
    }
  }
  return index;
}

// Central-difference step for a variable of size `value`: cbrt(eps) balances the truncation error
// (h^2) against the round-off (eps / h).
double centralStep(double value) { return 6.0555e-6 * std::max(1.0, std::abs(value)); }

}  // namespace

struct TrajectoryGradient::Impl {
  OptimalControlProblem problem;
  GradientOptions options;
  Model model;  // the working model: the problem's, with the control loads appended
  std::vector<int> controlLoad;
  std::vector<int> controlOffset;  // first coefficient of each control in b
  std::unique_ptr<MultibodySystem> system;
  Eigen::VectorXd x0;
  std::unique_ptr<detail::CostEvaluator> costs;
  detail::ExplicitTableau tableau;
  int steps = 0;
  int nx = 0, nu = 0, nd = 0, P = 0;
  GradientStats stats;

  Eigen::VectorXd b;  // the parameters last applied
  // one Runge-Kutta step: stage arguments, their controls and derivatives, running costs
  std::vector<Eigen::VectorXd> X, U, K, Xbar;
  std::vector<double> L;
  Eigen::VectorXd xWork, fPlus, fMinus, uWork, weight, localAdjoint, basisWeights;
  Eigen::MatrixXd D;  // [df/dx df/du df/dp; dh/dx dh/du dh/dp] at one stage, (nx + 1) x (nx + nu + nd)
  // adjoint storage
  std::vector<Eigen::VectorXd> checkpoints, segment;
  int interval = 1;
  // direct differentiation
  Eigen::MatrixXd S, G, Wctl;
  std::vector<Eigen::MatrixXd> dKL;

  explicit Impl(const OptimalControlProblem& p, const GradientOptions& o) : problem(p), options(o), model(p.model) {
    checkProblem(problem);
    controlLoad = appendControlLoads(model, problem.controls);
    FormulationOptions fo;
    fo.baumgarteAlpha = problem.baumgarteAlpha;
    fo.baumgarteBeta = problem.baumgarteBeta;
    system = std::make_unique<MultibodySystem>(model, makeFormulation(problem.formulation, model, fo), Stabilization::None);
    Eigen::VectorXd q = model.q0, v = model.v0;
    if (model.hasConstraints()) assemble(model, 0.0, q, v);
    nx = model.nq + model.nv;
    x0.resize(nx);
    x0 << q, v;
    costs = std::make_unique<detail::CostEvaluator>(model, problem.cost, x0);
    tableau = detail::explicitTableau(problem.integrator);
    steps = static_cast<int>(std::ceil(problem.tf / problem.dt * (1.0 - 1e-12)));
    nu = static_cast<int>(problem.controls.size());
    nd = static_cast<int>(problem.design.size());
    P = problem.parameterCount();
    int offset = nd;
    for (const ControlInput& c : problem.controls) {
      controlOffset.push_back(offset);
      offset += c.basis.size();
    }
    const int s = tableau.stages;
    for (auto* v : {&X, &K, &Xbar}) v->assign(static_cast<std::size_t>(s), Eigen::VectorXd::Zero(nx));
    U.assign(static_cast<std::size_t>(s), Eigen::VectorXd::Zero(nu));
    L.assign(static_cast<std::size_t>(s), 0.0);
    xWork.resize(nx);
    fPlus.resize(nx);
    fMinus.resize(nx);
    uWork.resize(nu);
    weight.resize(nx + 1);
    localAdjoint.resize(nx + nu + nd);
    D.resize(nx + 1, nx + nu + nd);
    int widest = 1;
    for (const ControlInput& c : problem.controls) widest = std::max(widest, c.basis.size());
    basisWeights.resize(widest);
    interval = options.checkpointInterval > 0 ? options.checkpointInterval
                                              : static_cast<int>(std::ceil(std::sqrt(static_cast<double>(steps))));
    interval = std::min(interval, steps);
    checkpoints.assign(static_cast<std::size_t>((steps + interval - 1) / interval), Eigen::VectorXd(nx));
    segment.assign(static_cast<std::size_t>(interval), Eigen::VectorXd(nx));
    stats.steps = steps;
    b = problem.initialParameters();
  }

  double time(int k) const { return k >= steps ? problem.tf : k * problem.dt; }

  void apply(const Eigen::VectorXd& params) {
    if (params.size() != P)
      throw Error("the parameter vector has " + std::to_string(params.size()) + " entries; the problem has " +
                  std::to_string(P));
    if (!params.allFinite()) throw Error("the parameter vector holds a non-finite number");
    b = params;
    for (int d = 0; d < nd; ++d) writeParameter(model, problem.design[static_cast<std::size_t>(d)], b[d]);
  }

  void controlsAt(double t, Eigen::VectorXd& u) const {
    for (int c = 0; c < nu; ++c) {
      const ControlBasis& basis = problem.controls[static_cast<std::size_t>(c)].basis;
      u[c] = basis.value(t, b.segment(controlOffset[static_cast<std::size_t>(c)], basis.size()));
    }
  }

  // f(t, x, u) and h(t, x, u) with the controls u written into the working model.
  void evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u, Eigen::VectorXd& f, double& h) {
    for (int c = 0; c < nu; ++c) {
      const auto k = static_cast<std::size_t>(controlLoad[static_cast<std::size_t>(c)]);
      if (problem.controls[static_cast<std::size_t>(c)].kind == ControlInput::Kind::JointForce)
        model.jointLoads[k].magnitude.setConstant(u[c]);
      else
        model.bodyLoads[k].magnitude.setConstant(u[c]);
    }
    system->derivative(t, x, f);
    ++stats.evaluations;
    h = costs->running(t, x, u);
  }

  // The stages of the step from x at time t with size h; returns the step's running-cost integral.
  double stages(double t, double h, const Eigen::VectorXd& x) {
    const detail::ExplicitTableau& T = tableau;
    double cost = 0.0;
    for (int i = 0; i < T.stages; ++i) {
      auto& Xi = X[static_cast<std::size_t>(i)];
      Xi = x;
      for (int j = 0; j < i; ++j)
        if (T.a[i][j] != 0.0) Xi += (h * T.a[i][j]) * K[static_cast<std::size_t>(j)];
      const double ti = t + T.c[i] * h;
      controlsAt(ti, U[static_cast<std::size_t>(i)]);
      evaluate(ti, Xi, U[static_cast<std::size_t>(i)], K[static_cast<std::size_t>(i)], L[static_cast<std::size_t>(i)]);
      cost += h * T.b[i] * L[static_cast<std::size_t>(i)];
    }
    return cost;
  }

  // x <- x + h sum b_i K_i after stages(); returns the step's cost.
  double step(int k, Eigen::VectorXd& x) {
    const double t = time(k), h = time(k + 1) - t;
    const double cost = stages(t, h, x);
    for (int i = 0; i < tableau.stages; ++i) x += (h * tableau.b[i]) * K[static_cast<std::size_t>(i)];
    if (!x.allFinite())
      throw Error("the forward run produced a non-finite state at t = " + std::to_string(time(k + 1)) +
                  " s (parameters out of a sensible range, or a time step too large?)");
    return cost;
  }

  // D at stage (t, X, U): central differences in every state component, control and design parameter.
  void localDerivatives(double t, const Eigen::VectorXd& Xs, const Eigen::VectorXd& Us) {
    double hPlus = 0.0, hMinus = 0.0;
    const auto column = [&](int col, double denom) {
      D.col(col).head(nx) = (fPlus - fMinus) / denom;
      D(nx, col) = (hPlus - hMinus) / denom;
    };
    xWork = Xs;
    for (int j = 0; j < nx; ++j) {
      const double x = Xs[j], step = centralStep(x), xp = x + step, xm = x - step;
      xWork[j] = xp;
      evaluate(t, xWork, Us, fPlus, hPlus);
      xWork[j] = xm;
      evaluate(t, xWork, Us, fMinus, hMinus);
      xWork[j] = x;
      column(j, xp - xm);
    }
    uWork = Us;
    for (int c = 0; c < nu; ++c) {
      const double u = Us[c], step = centralStep(u), up = u + step, um = u - step;
      uWork[c] = up;
      evaluate(t, Xs, uWork, fPlus, hPlus);
      uWork[c] = um;
      evaluate(t, Xs, uWork, fMinus, hMinus);
      uWork[c] = u;
      column(nx + c, up - um);
    }
    for (int d = 0; d < nd; ++d) {
      const DesignParameter& p = problem.design[static_cast<std::size_t>(d)];
      const double value = b[d], step = centralStep(value), vp = value + step, vm = value - step;
      writeParameter(model, p, vp);
      evaluate(t, Xs, Us, fPlus, hPlus);
      writeParameter(model, p, vm);
      evaluate(t, Xs, Us, fMinus, hMinus);
      writeParameter(model, p, value);
      column(nx + nu + d, vp - vm);
    }
  }

  // dS/dx at the final state, by central differences.
  void terminalGradient(const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> grad) {
    grad.setZero();
    if (!costs->hasTerminal()) return;
    xWork = x;
    for (int j = 0; j < nx; ++j) {
      const double v = x[j], step = centralStep(v), vp = v + step, vm = v - step;
      xWork[j] = vp;
      const double sp = costs->terminal(problem.tf, xWork);
      xWork[j] = vm;
      const double sm = costs->terminal(problem.tf, xWork);
      xWork[j] = v;
      grad[j] = (sp - sm) / (vp - vm);
    }
  }

  double forward(Eigen::VectorXd& x, bool keepCheckpoints) {
    x = x0;
    double J = 0.0;
    for (int k = 0; k < steps; ++k) {
      if (keepCheckpoints && k % interval == 0) checkpoints[static_cast<std::size_t>(k / interval)] = x;
      J += step(k, x);
    }
    return J + costs->terminal(problem.tf, x);
  }

  // Adds u_bar_c phi_c(t) to the coefficients' gradient for every control c.
  void addControlAdjoint(double t, const Eigen::Ref<const Eigen::VectorXd>& ubar, Eigen::VectorXd& g) {
    for (int c = 0; c < nu; ++c) {
      const ControlBasis& basis = problem.controls[static_cast<std::size_t>(c)].basis;
      auto w = basisWeights.head(basis.size());
      basis.weights(t, w);
      g.segment(controlOffset[static_cast<std::size_t>(c)], basis.size()) += ubar[c] * w;
    }
  }

  double adjoint(Eigen::VectorXd& g) {
    Eigen::VectorXd x(nx), lambda(nx);
    const double J = forward(x, true);
    terminalGradient(x, lambda);
    g.setZero(P);
    const detail::ExplicitTableau& T = tableau;
    for (int seg = static_cast<int>(checkpoints.size()) - 1; seg >= 0; --seg) {
      const int first = seg * interval, last = std::min(steps, first + interval);  // steps first .. last-1
      segment[0] = checkpoints[static_cast<std::size_t>(seg)];
      for (int k = first; k + 1 < last; ++k) {
        segment[static_cast<std::size_t>(k - first + 1)] = segment[static_cast<std::size_t>(k - first)];
        step(k, segment[static_cast<std::size_t>(k - first + 1)]);
      }
      for (int k = last - 1; k >= first; --k) {
        const double t = time(k), h = time(k + 1) - t;
        stages(t, h, segment[static_cast<std::size_t>(k - first)]);
        for (int i = T.stages - 1; i >= 0; --i) {
          // K_bar_i = h b_i lambda + sum_{j > i} h a_ji X_bar_j; the running cost's own adjoint
          // is 1, so its stage weight is h b_i.
          auto Kbar = weight.head(nx);
          Kbar = (h * T.b[i]) * lambda;
          for (int j = i + 1; j < T.stages; ++j)
            if (T.a[j][i] != 0.0) Kbar += (h * T.a[j][i]) * Xbar[static_cast<std::size_t>(j)];
          weight[nx] = h * T.b[i];
          const double ti = t + T.c[i] * h;
          localDerivatives(ti, X[static_cast<std::size_t>(i)], U[static_cast<std::size_t>(i)]);
          localAdjoint.noalias() = D.transpose() * weight;
          Xbar[static_cast<std::size_t>(i)] = localAdjoint.head(nx);
          addControlAdjoint(ti, localAdjoint.segment(nx, nu), g);
          g.head(nd) += localAdjoint.tail(nd);
        }
        for (int i = 0; i < T.stages; ++i) lambda += Xbar[static_cast<std::size_t>(i)];
      }
    }
    stats.storedStates = static_cast<long>(checkpoints.size() + segment.size());
    stats.checkpointInterval = interval;
    return J;
  }

  double direct(Eigen::VectorXd& g) {
    if (S.rows() != nx || S.cols() != P) {  // first direct run: size once
      S.resize(nx, P);
      G.resize(nx + nu + nd, P);
      Wctl.resize(nu, P);
      dKL.assign(static_cast<std::size_t>(tableau.stages), Eigen::MatrixXd(nx + 1, P));
    }
    const detail::ExplicitTableau& T = tableau;
    Eigen::VectorXd x = x0;
    S.setZero();
    Eigen::RowVectorXd dJ = Eigen::RowVectorXd::Zero(P);
    double J = 0.0;
    for (int k = 0; k < steps; ++k) {
      const double t = time(k), h = time(k + 1) - t;
      J += stages(t, h, x);
      for (int i = 0; i < T.stages; ++i) {
        const double ti = t + T.c[i] * h;
        // G = [dX_i/db; du_i/db; dp/db]
        auto dX = G.topRows(nx);
        dX = S;
        for (int j = 0; j < i; ++j)
          if (T.a[i][j] != 0.0) dX += (h * T.a[i][j]) * dKL[static_cast<std::size_t>(j)].topRows(nx);
        Wctl.setZero();
        for (int c = 0; c < nu; ++c) {
          const ControlBasis& basis = problem.controls[static_cast<std::size_t>(c)].basis;
          auto w = basisWeights.head(basis.size());
          basis.weights(ti, w);
          Wctl.row(c).segment(controlOffset[static_cast<std::size_t>(c)], basis.size()) = w.transpose();
        }
        G.middleRows(nx, nu) = Wctl;
        G.bottomRows(nd).setZero();
        for (int d = 0; d < nd; ++d) G(nx + nu + d, d) = 1.0;
        localDerivatives(ti, X[static_cast<std::size_t>(i)], U[static_cast<std::size_t>(i)]);
        dKL[static_cast<std::size_t>(i)].noalias() = D * G;
      }
      for (int i = 0; i < T.stages; ++i) {
        S += (h * T.b[i]) * dKL[static_cast<std::size_t>(i)].topRows(nx);
        dJ += (h * T.b[i]) * dKL[static_cast<std::size_t>(i)].row(nx);
        x += (h * T.b[i]) * K[static_cast<std::size_t>(i)];
      }
      if (!x.allFinite()) throw Error("the forward run produced a non-finite state at t = " + std::to_string(time(k + 1)) + " s");
    }
    Eigen::VectorXd sx(nx);
    terminalGradient(x, sx);
    g = (dJ + sx.transpose() * S).transpose();
    return J + costs->terminal(problem.tf, x);
  }
};

TrajectoryGradient::TrajectoryGradient(const OptimalControlProblem& problem, const GradientOptions& options)
    : impl_(std::make_unique<Impl>(problem, options)) {}
TrajectoryGradient::~TrajectoryGradient() = default;

int TrajectoryGradient::parameterCount() const { return impl_->P; }
const Model& TrajectoryGradient::workingModel() const { return impl_->model; }
const GradientStats& TrajectoryGradient::stats() const { return impl_->stats; }

double TrajectoryGradient::cost(const Eigen::VectorXd& b) {
  impl_->apply(b);
  Eigen::VectorXd x(impl_->nx);
  return impl_->forward(x, false);
}

double TrajectoryGradient::gradient(const Eigen::VectorXd& b, Eigen::VectorXd& g, GradientMethod method) {
  switch (method) {
    case GradientMethod::Adjoint: impl_->apply(b); return impl_->adjoint(g);
    case GradientMethod::DirectDifferentiation: impl_->apply(b); return impl_->direct(g);
    case GradientMethod::FiniteDifference: {
      const double J = cost(b);
      g.resize(impl_->P);
      Eigen::VectorXd bp = b;
      for (int k = 0; k < impl_->P; ++k) {
        const double step = impl_->options.finiteDifferenceStep * std::max(1.0, std::abs(b[k]));
        bp[k] = b[k] + step;
        const double plus = cost(bp);
        bp[k] = b[k] - step;
        const double minus = cost(bp);
        g[k] = (plus - minus) / (2.0 * step);
        bp[k] = b[k];
      }
      impl_->apply(b);
      return J;
    }
  }
  return 0.0;
}

void TrajectoryGradient::trajectory(
    const Eigen::VectorXd& b,
    const std::function<void(double, const Eigen::VectorXd&, const Eigen::VectorXd&, double)>& sample) {
  Impl& m = *impl_;
  m.apply(b);
  Eigen::VectorXd x = m.x0, u(m.nu);
  double J = 0.0;
  m.controlsAt(0.0, u);
  sample(0.0, x, u, J);
  for (int k = 0; k < m.steps; ++k) {
    J += m.step(k, x);
    m.controlsAt(m.time(k + 1), u);
    sample(m.time(k + 1), x, u, k + 1 == m.steps ? J + m.costs->terminal(m.problem.tf, x) : J);
  }
}

void TrajectoryGradient::controls(const Eigen::VectorXd& b, double t, Eigen::VectorXd& u) const {
  Impl& m = *impl_;
  m.apply(b);
  u.resize(m.nu);
  m.controlsAt(t, u);
}

}  // namespace articula
