#include "gradient_engine.hpp"

#include <cmath>

#include "articula/core/central_difference.hpp"
#include "articula/dynamics/absolute_hamiltonian_system.hpp"
#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/forward_dynamics_adjoint.hpp"
#include "articula/dynamics/reference.hpp"
#include "articula/simulate/hamiltonian_system.hpp"
#include "articula/simulate/system.hpp"

namespace articula {

namespace {

// The problem's model with one load per control input, each a constant that the gradient
// overwrites with u_c(t) before every evaluation (TimeFunction::setConstant). Returns the index
// of each control's load in jointLoads or bodyLoads.
std::vector<int> appendControlLoads(Model& model, const std::vector<ControlInput>& controls) {
  std::vector<int> index;
  for (const ControlInput& c : controls) {
    const bool joint = c.kind == ControlInput::Kind::JointForce;
    index.push_back(static_cast<int>(joint ? model.jointLoads.size() : model.bodyLoads.size()));
    appendControlLoad(model, c, TimeFunction::constant(0.0));
  }
  return index;
}

}  // namespace

TrajectoryGradient::Impl::Impl(const OptimalControlProblem& p, const GradientOptions& o)
    : problem(p), options(o), model(p.model) {
  checkProblem(problem);
  controlLoad = appendControlLoads(model, problem.controls);
  nx = model.nq + model.nv;
  Eigen::VectorXd q = model.q0, v = model.v0;
  if (model.hasConstraints()) assemble(model, 0.0, q, v);
  qv.resize(nx);
  qv << q, v;
  x0.resize(nx);
  FormulationOptions& fo = formulationOptions;
  fo.baumgarteAlpha = problem.baumgarteAlpha;
  fo.baumgarteBeta = problem.baumgarteBeta;
  fo.threads = problem.threads;
  buildEquations();
  if (hamiltonian)
    hamiltonian->canonicalState(qv, x0);
  else if (absolute)
    absolute->canonicalState(qv, x0);
  else
    x0 = qv;
  nx = ode->size();
  costs = std::make_unique<detail::CostEvaluator>(model, problem.cost, qv);
  if (absolute) {
    costs->useAbsoluteCoordinates(*absolute);
    qbarAbsolute.resize(absolute->positionSize());
    vbarAbsolute.resize(absolute->velocitySize());
  }
  stats.localDerivatives = "central differences";
  if (!options.reverseModeDerivatives) {
    stats.localDerivatives += " (asked for)";
  } else if (absolute) {
    stats.localDerivatives = "reverse mode, absolute-coordinate Hamiltonian adjoint (seed 002 section 4.2)";
  } else if (hamiltonian) {
    stats.localDerivatives += " (the Hamiltonian state [q; p] is not differentiated in reverse mode)";
  } else if (const std::string why = ForwardDynamicsAdjoint::unsupported(model); !why.empty()) {
    stats.localDerivatives += " (" + why + ")";
  } else if (model.hasConstraints() && problem.formulation != "reference" && problem.formulation != "auto") {
    // Constraints are differentiated as the reference formulation's index-1 equations; the
    // others stabilise or partition differently, so their f is another function.
    stats.localDerivatives += " (the constrained model runs formulation '" + problem.formulation +
                              "'; reverse mode follows the reference formulation's equations)";
  } else {
    // With the divide-and-conquer formulation the adjoint's mass solve runs on its assembly tree
    // too (HADCA), on the same threads.
    using Solve = ForwardDynamicsAdjoint::MassSolve;
    const bool dca = problem.formulation == "dca";
    stats.localDerivatives = dca ? "reverse mode, divide-and-conquer mass solve (HADCA, " + std::to_string(fo.threads) +
                                       (fo.threads == 1 ? " thread)" : " threads)")
                                 : "reverse mode";
    reverse = std::make_unique<ForwardDynamicsAdjoint>(model, fo, dca ? Solve::DivideAndConquer : Solve::ArticulatedBody);
    qPart.resize(model.nq);
    for (auto* part : {&vPart, &aPart, &abar}) part->resize(model.nv);
  }
  for (std::size_t d = 0; d < problem.design.size(); ++d)
    if (problem.design[d].target == DesignParameter::Target::JointPosition) {
      // The difference Jacobians would difference formulations that keep joint positions; the
      // reverse mode reads them live (kinematics, inverse dynamics).
      if (!reverse)
        throw Error("design parameter " + problem.design[d].name + ": joint positions need the reverse-mode local "
                    "derivatives, which this problem does not have: " + stats.localDerivatives);
      jointPositions.push_back(static_cast<int>(d));
    }
  builtPositions = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(jointPositions.size()), std::nan(""));
  adaptive = problem.integrator == "rk45";
  if (!adaptive) {
    tableau = detail::explicitTableau(problem.integrator);
    steps = problem.stepCount();
  }
  nu = static_cast<int>(problem.controls.size());
  nd = static_cast<int>(problem.design.size());
  P = problem.parameterCount();
  int offset = nd;
  for (const ControlInput& c : problem.controls) {
    controlOffset.push_back(offset);
    offset += c.basis.size();
  }
  xWork.resize(nx);
  fPlus.resize(nx);
  fMinus.resize(nx);
  uWork.resize(nu);
  localAdjoint.resize(nx + nu + nd);
  D.resize(nx + 1, nx + nu + nd);
  unitWeight.resize(nx + 1);
  int widest = 1;
  for (const ControlInput& c : problem.controls) widest = std::max(widest, c.basis.size());
  basisWeights.resize(widest);
  if (!adaptive) {
    const int s = tableau.stages;
    for (auto* vs : {&X, &K, &Xbar}) vs->assign(static_cast<std::size_t>(s), Eigen::VectorXd::Zero(nx));
    U.assign(static_cast<std::size_t>(s), Eigen::VectorXd::Zero(nu));
    L.assign(static_cast<std::size_t>(s), 0.0);
    weight.resize(nx + 1);
    // N / m checkpoints and 2 s m stage vectors (arguments and slopes) for N steps of s stages
    // with m steps per segment: m = sqrt(N / (2 s)) holds the fewest.
    interval = options.checkpointInterval > 0
                   ? options.checkpointInterval
                   : static_cast<int>(std::ceil(std::sqrt(static_cast<double>(steps) / (2.0 * s))));
    interval = std::min(interval, steps);
    checkpoints.assign(static_cast<std::size_t>((steps + interval - 1) / interval), Eigen::VectorXd(nx));
    const auto records = static_cast<std::size_t>(interval * s);
    segmentX.assign(records, Eigen::VectorXd(nx));
    segmentK.assign(records, Eigen::VectorXd(nx));
    segmentU.assign(records, Eigen::VectorXd(nu));
    stats.steps = steps;
  }
  b = problem.initialParameters();
}

TrajectoryGradient::Impl::~Impl() = default;

void TrajectoryGradient::Impl::buildEquations() {
  if (problem.formulation == "hdca") {
    auto h = std::make_unique<HamiltonianSystem>(model);
    hamiltonian = h.get();
    ode = std::move(h);
  } else if (problem.formulation == "absolute") {
    auto a = std::make_unique<AbsoluteHamiltonianSystem>(model);
    absolute = a.get();
    ode = std::move(a);
  } else {
    ode = std::make_unique<MultibodySystem>(model, makeFormulation(problem.formulation, model, formulationOptions),
                                            Stabilization::None);
  }
}

void TrajectoryGradient::Impl::apply(const Eigen::VectorXd& params) {
  if (params.size() != P)
    throw Error("the parameter vector has " + std::to_string(params.size()) + " entries; the problem has " +
                std::to_string(P));
  if (!params.allFinite()) throw Error("the parameter vector holds a non-finite number");
  b = params;
  for (int d = 0; d < nd; ++d) writeParameter(model, problem.design[static_cast<std::size_t>(d)], b[d], problem.model);
  bool moved = false;
  for (std::size_t k = 0; k < jointPositions.size(); ++k) {
    const double value = b[jointPositions[k]];
    moved = moved || value != builtPositions[static_cast<Eigen::Index>(k)];
    builtPositions[static_cast<Eigen::Index>(k)] = value;
  }
  if (moved) buildEquations();
}

void TrajectoryGradient::Impl::controlsAt(double t, Eigen::VectorXd& u) const {
  for (int c = 0; c < nu; ++c) {
    const ControlBasis& basis = problem.controls[static_cast<std::size_t>(c)].basis;
    u[c] = basis.value(t, b.segment(controlOffset[static_cast<std::size_t>(c)], basis.size()));
  }
}

void TrajectoryGradient::Impl::setControls(const Eigen::VectorXd& u) {
  for (int c = 0; c < nu; ++c) {
    const auto k = static_cast<std::size_t>(controlLoad[static_cast<std::size_t>(c)]);
    const ControlInput& control = problem.controls[static_cast<std::size_t>(c)];
    if (control.kind == ControlInput::Kind::JointForce)
      model.jointLoads[k].magnitude.setConstant(control.gain * u[c]);
    else
      model.bodyLoads[k].magnitude.setConstant(control.gain * u[c]);
  }
}

void TrajectoryGradient::Impl::evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                                        Eigen::VectorXd& f, double& h) {
  setControls(u);
  ode->derivative(t, x, f);
  ++stats.evaluations;
  if (!costs->hasRunning()) {
    h = 0.0;
  } else if (hamiltonian) {
    hamiltonian->velocityState(t, x, qv);
    h = costs->running(t, qv, u);
  } else {
    h = costs->running(t, x, u);
  }
}

double TrajectoryGradient::Impl::terminalCost(const Eigen::VectorXd& x) {
  if (!costs->hasTerminal()) return 0.0;
  if (!hamiltonian) return costs->terminal(problem.tf, x);
  hamiltonian->velocityState(problem.tf, x, qv);
  return costs->terminal(problem.tf, qv);
}

void TrajectoryGradient::Impl::localDerivatives(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u) {
  if (reverse) {
    reverseJacobian(t, x, u);
    return;
  }
  if (absolute && options.reverseModeDerivatives) {  // row by row: nx + 1 adjoint products
    unitWeight.setZero();
    for (int r = 0; r <= nx; ++r) {
      unitWeight[r] = 1.0;
      absoluteAdjointProduct(t, x, u, unitWeight);
      D.row(r) = localAdjoint.transpose();
      unitWeight[r] = 0.0;
    }
    return;
  }
  xWork = x;
  uWork = u;
  // Column `col` of D: central differences in one input, which set() writes (xWork, uWork or the
  // model's design parameter); every evaluation reads the inputs from there.
  const auto differentiate = [&](int col, double value, const auto& set) {
    const double step = centralDifferenceStep(value), up = value + step, down = value - step;
    double hPlus = 0.0, hMinus = 0.0;
    set(up);
    evaluate(t, xWork, uWork, fPlus, hPlus);
    set(down);
    evaluate(t, xWork, uWork, fMinus, hMinus);
    set(value);
    D.col(col).head(nx) = (fPlus - fMinus) / (up - down);
    D(nx, col) = (hPlus - hMinus) / (up - down);
  };
  for (int j = 0; j < nx; ++j) differentiate(j, x[j], [&](double v) { xWork[j] = v; });
  for (int c = 0; c < nu; ++c) differentiate(nx + c, u[c], [&](double v) { uWork[c] = v; });
  for (int d = 0; d < nd; ++d) {
    const DesignParameter& p = problem.design[static_cast<std::size_t>(d)];
    differentiate(nx + nu + d, b[d], [&](double v) { writeParameter(model, p, v, problem.model); });
  }
}

// D row by row in reverse mode: the rows of q_dot = v are the identity in v; each row of vdot and
// the running cost's row are the local adjoint product with that row's unit weight (nv + 1
// sweeps, each about one evaluation of the equations of motion).
void TrajectoryGradient::Impl::reverseJacobian(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u) {
  double h = 0.0;
  evaluate(t, x, u, fPlus, h);
  const int nq = model.nq;
  D.setZero();
  for (int k = 0; k < nq; ++k) D(k, nq + k) = 1.0;  // nq = nv on the joints reverse mode covers
  unitWeight.setZero();
  for (int r = nq; r <= nx; ++r) {
    unitWeight[r] = 1.0;
    localAdjointProduct(t, x, u, &fPlus, unitWeight);
    D.row(r) = localAdjoint.transpose();
    unitWeight[r] = 0.0;
  }
}

void TrajectoryGradient::Impl::localAdjointProduct(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                                                   const Eigen::VectorXd* f, const Eigen::VectorXd& weight) {
  if (absolute && options.reverseModeDerivatives) {
    absoluteAdjointProduct(t, x, u, weight);
    return;
  }
  if (!reverse) {
    localDerivatives(t, x, u);
    localAdjoint.noalias() = D.transpose() * weight;
    return;
  }
  if (!f) {
    double h = 0.0;
    evaluate(t, x, u, fPlus, h);
    f = &fPlus;
  }
  setControls(u);
  const int nq = model.nq, nv = model.nv;
  qPart = x.head(nq);
  vPart = x.tail(nv);
  aPart = f->tail(nv);
  abar = weight.segment(nq, nv);
  localAdjoint.setZero();
  auto xbar = localAdjoint.head(nx);
  const Eigen::VectorXd& w = reverse->accumulate(t, qPart, vPart, aPart, abar, xbar.head(nq), xbar.tail(nv));
  xbar.tail(nv) += weight.head(nq);  // q_dot = v on these joints
  costs->addRunningGradient(t, x, u, weight[nx], *reverse, xbar.head(nq), xbar.tail(nv), localAdjoint.segment(nx, nu));
  for (int c = 0; c < nu; ++c) {  // a joint control adds to tau_app, a body control is a load on its body
    const ControlInput& control = problem.controls[static_cast<std::size_t>(c)];
    const auto load = static_cast<std::size_t>(controlLoad[static_cast<std::size_t>(c)]);
    localAdjoint[nx + c] += control.gain * (control.kind == ControlInput::Kind::JointForce
                                                ? w[model.joints[static_cast<std::size_t>(control.joint)].iv + control.dof]
                                                : reverse->loadWeight(model.bodyLoads[load]));
  }
  ++stats.evaluations;  // the sweeps cost about one evaluation of the equations of motion
  for (int d = 0; d < nd; ++d) {
    localAdjoint[nx + nu + d] = designSlope(d, [&] { return reverse->weightedResidual(t, qPart, vPart, aPart); });
    // A joint's position moves the markers and bodies that the running cost measures.
    if (problem.design[static_cast<std::size_t>(d)].target == DesignParameter::Target::JointPosition &&
        weight[nx] != 0.0 && costs->hasRunning())
      localAdjoint[nx + nu + d] += weight[nx] * designSlope(d, [&] { return costs->running(t, x, u); });
  }
}

void TrajectoryGradient::Impl::absoluteAdjointProduct(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& u,
                                                      const Eigen::VectorXd& weight) {
  setControls(u);
  absolute->prepare(x);
  localAdjoint.setZero();
  qbarAbsolute.setZero();
  vbarAbsolute.setZero();
  costs->addRunningGradient(t, x, u, weight[nx], *absolute, qbarAbsolute, vbarAbsolute, localAdjoint.segment(nx, nu));
  absolute->adjoint(t, weight.head(nx), qbarAbsolute, vbarAbsolute, localAdjoint.head(nx));
  for (int c = 0; c < nu; ++c) {
    const ControlInput& control = problem.controls[static_cast<std::size_t>(c)];
    const auto load = static_cast<std::size_t>(controlLoad[static_cast<std::size_t>(c)]);
    localAdjoint[nx + c] += control.gain * (control.kind == ControlInput::Kind::JointForce
                                                ? absolute->loadWeight(model.jointLoads[load])
                                                : absolute->loadWeight(model.bodyLoads[load]));
  }
  ++stats.evaluations;  // about one evaluation of the equations of motion
  // Design parameters (forces only: masses and joint positions are refused) by differences of
  // weight^T f, two evaluations each.
  for (int d = 0; d < nd; ++d)
    localAdjoint[nx + nu + d] = designSlope(d, [&] {
      ode->derivative(t, x, fMinus);
      return weight.head(nx).dot(fMinus);
    });
}

void TrajectoryGradient::Impl::addTerminalDesignGradient(const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> g) {
  if (!costs->hasTerminal()) return;
  for (int d : jointPositions) g[d] += designSlope(d, [&] { return terminalCost(x); });
}

void TrajectoryGradient::Impl::terminalGradient(const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> grad) {
  grad.setZero();
  if (!costs->hasTerminal()) return;
  Eigen::VectorXd& xs = xWork;
  xs = x;
  for (int j = 0; j < nx; ++j) {
    const double value = x[j], step = centralDifferenceStep(value), up = value + step, down = value - step;
    xs[j] = up;
    const double plus = terminalCost(xs);
    xs[j] = down;
    const double minus = terminalCost(xs);
    xs[j] = value;
    grad[j] = (plus - minus) / (up - down);
  }
}

void TrajectoryGradient::Impl::addControlAdjoint(double t, const Eigen::Ref<const Eigen::VectorXd>& ubar,
                                                 Eigen::Ref<Eigen::VectorXd> g) {
  for (int c = 0; c < nu; ++c) {
    const ControlBasis& basis = problem.controls[static_cast<std::size_t>(c)].basis;
    basis.addWeights(t, ubar[c], g.segment(controlOffset[static_cast<std::size_t>(c)], basis.size()));
  }
}

void TrajectoryGradient::Impl::fillParameterRows(double t, Eigen::Ref<Eigen::MatrixXd> rows) {
  // rows: the nu + nd rows below dX/db in G
  rows.setZero();
  for (int c = 0; c < nu; ++c) {
    const ControlBasis& basis = problem.controls[static_cast<std::size_t>(c)].basis;
    auto w = basisWeights.head(basis.size());
    w.setZero();
    basis.addWeights(t, 1.0, w);
    rows.row(c).segment(controlOffset[static_cast<std::size_t>(c)], basis.size()) = w.transpose();
  }
  for (int d = 0; d < nd; ++d) rows(nu + d, d) = 1.0;
}

}  // namespace articula
