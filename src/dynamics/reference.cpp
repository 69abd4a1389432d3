#include "articula/dynamics/reference.hpp"

#include <cmath>

#include "articula/dynamics/force_elements.hpp"
#include "articula/dynamics/rank_threshold.hpp"
#include "articula/dynamics/recursive.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

ConstrainedSolver::ConstrainedSolver(const Model& m)
    : model(m),
      ws(m),
      constraints(m),
      B_(m.constraintCount(), m.nv),
      cod_(m.constraintCount(), m.nv),
      y_(m.nv) {
  cod_.setThreshold(kConstraintRankThreshold);
}

void ConstrainedSolver::factorize(double t, const Eigen::VectorXd& q) {
  // The dense nv x nv buffers are sized on first use, not in the constructor: a projector
  // for an open tree never factorises, and a model of 10^5 bodies cannot hold them.
  if (H.rows() != model.nv) H.resize(model.nv, model.nv);  // llt_ sizes itself in its first compute()
  massMatrix(model, ws, q, H);  // also updates the positions in ws
  llt_.compute(H);
  if (llt_.info() != Eigen::Success) throw Error("the joint-space mass matrix is not positive definite");
  if (constraints.size() == 0) return;  // an open tree: nothing to decompose
  constraints.positions(ws, t, q);
  constraints.jacobian(ws, t);
  // B = J L^-T: solve B L^T = J from the right.
  B_ = constraints.J;
  llt_.matrixU().solveInPlace<Eigen::OnTheRight>(B_);
  cod_.compute(B_);
}

void ConstrainedSolver::solveMass(Eigen::VectorXd& x) const { llt_.solveInPlace(x); }

void ConstrainedSolver::weightedSolve(const Eigen::VectorXd& r, Eigen::VectorXd& dv) {
  // Minimum-norm y with B y = r, then dv = L^-T y: the mass-weighted minimum-norm solution of J dv = r.
  y_ = cod_.solve(r);
  dv = y_;
  llt_.matrixU().solveInPlace(dv);
}

void ConstrainedSolver::multipliers(const Eigen::VectorXd& f, Eigen::VectorXd& lambda) {
  y_ = f;
  llt_.matrixL().solveInPlace(y_);
  lambda = cod_.transpose().solve(y_);
}

ReferenceFormulation::ReferenceFormulation(const Model& model, const FormulationOptions& options)
    : options_(options), solver_(model), C_(model.nv), rhs_(model.constraintCount()), dv_(model.nv) {}

void ReferenceFormulation::accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                         Eigen::VectorXd& vdot) {
  const Model& model = solver_.model;
  Workspace& ws = solver_.ws;
  solver_.factorize(t, q);
  updateVelocities(model, ws, q, v);
  evaluateForceElements(model, ws, t, q, v);
  biasForces(model, ws, q, v, &ws.fext, C_);
  // Unconstrained accelerations H^-1 (tau - C).
  vdot = ws.tau - C_;
  solver_.solveMass(vdot);
  if (solver_.constraints.size() == 0) return;
  solver_.constraints.accelerationBias(ws, t);
  // Constraint forces add the mass-weighted minimum-norm correction that satisfies
  // J vdot = gamma (- Baumgarte terms): H^-1 J^T lambda = L^-T B^+ r.
  rhs_ = solver_.constraints.gamma - solver_.constraints.J * vdot;
  if (options_.baumgarteAlpha != 0.0 || options_.baumgarteBeta != 0.0)
    rhs_ -= 2.0 * options_.baumgarteAlpha * (solver_.constraints.J * v - solver_.constraints.nu) +
            options_.baumgarteBeta * options_.baumgarteBeta * solver_.constraints.g;
  solver_.weightedSolve(rhs_, dv_);
  vdot += dv_;
}

ConstraintProjector::ConstraintProjector(const Model& model)
    : solver_(model), r_(model.constraintCount()), dv_(model.nv) {}

double ConstraintProjector::positionError(double t, const Eigen::VectorXd& q) {
  updatePositions(solver_.model, solver_.ws, q);
  solver_.constraints.positions(solver_.ws, t, q);
  return solver_.constraints.size() ? solver_.constraints.g.cwiseAbs().maxCoeff() : 0.0;
}

double ConstraintProjector::velocityError(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  if (solver_.constraints.size() == 0) return 0.0;
  updatePositions(solver_.model, solver_.ws, q);
  solver_.constraints.jacobian(solver_.ws, t);
  return (solver_.constraints.J * v - solver_.constraints.nu).cwiseAbs().maxCoeff();
}

double ConstraintProjector::projectPositions(double t, Eigen::VectorXd& q, double tol, int maxIterations) {
  if (solver_.constraints.size() == 0) return 0.0;
  double err = 0.0;
  for (int it = 0; it <= maxIterations; ++it) {
    solver_.factorize(t, q);
    err = solver_.constraints.g.cwiseAbs().maxCoeff();
    if (err <= tol || it == maxIterations) break;
    r_ = -solver_.constraints.g;
    solver_.weightedSolve(r_, dv_);
    integrateConfiguration(solver_.model, q, dv_);
  }
  return err;
}

double ConstraintProjector::projectVelocities(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  if (solver_.constraints.size() == 0) return 0.0;
  solver_.factorize(t, q);
  r_ = solver_.constraints.nu - solver_.constraints.J * v;
  solver_.weightedSolve(r_, dv_);
  v += dv_;
  return (solver_.constraints.J * v - solver_.constraints.nu).cwiseAbs().maxCoeff();
}

AssemblyResult assemble(const Model& model, double t, Eigen::VectorXd& q, Eigen::VectorXd& v, double tol) {
  AssemblyResult result;
  normalizeConfiguration(model, q);
  const int m = model.constraintCount();
  if (m == 0) return result;
  Workspace ws(model);
  ConstraintEvaluator c(model);
  // Locked coordinates drop out of the least-norm problem (their columns are zeroed).
  Eigen::VectorXd free = Eigen::VectorXd::Ones(model.nv);
  for (int k = 0; k < model.nv; ++k)
    if (model.lockedInAssembly[static_cast<std::size_t>(k)]) free[k] = 0.0;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(m, model.nv);
  cod.setThreshold(kConstraintRankThreshold);
  const auto lockedJacobian = [&] { return Eigen::MatrixXd(c.J * free.asDiagonal()); };

  constexpr int kMaxIterations = 50;
  double err = 0.0;
  for (result.iterations = 0;; ++result.iterations) {
    updatePositions(model, ws, q);
    c.positions(ws, t, q);
    err = c.g.cwiseAbs().maxCoeff();
    if (!std::isfinite(err)) throw ModelError({}, "initial assembly", "the constraint residual is not finite");
    if (err <= tol || result.iterations == kMaxIterations) break;
    c.jacobian(ws, t);
    cod.compute(lockedJacobian());
    // Newton step, damped when it is large so a rough initial guess does not jump branches.
    Eigen::VectorXd dv = cod.solve(Eigen::VectorXd(-c.g));
    const double size = dv.cwiseAbs().maxCoeff();
    if (size > 0.5) dv *= 0.5 / size;
    integrateConfiguration(model, q, dv);
  }
  result.positionError = err;
  if (err > std::max(tol, 1e-9))
    throw ModelError({}, "initial assembly",
                     "the loop constraints cannot be satisfied from the initial configuration (residual " + std::to_string(err) +
                         " after " + std::to_string(result.iterations) +
                         " Newton iterations); check the initial joint coordinates, the loop points and the joints locked in assembly");
  updatePositions(model, ws, q);
  c.jacobian(ws, t);
  cod.compute(lockedJacobian());
  result.constraintRank = static_cast<int>(cod.rank());
  v += free.asDiagonal() * cod.solve(Eigen::VectorXd(c.nu - c.J * v));
  result.velocityError = (c.J * v - c.nu).cwiseAbs().maxCoeff();
  if (result.velocityError > 1e-9)
    throw ModelError({}, "initial assembly",
                     "the initial velocities cannot be made consistent with the constraints (residual " +
                         std::to_string(result.velocityError) + "); unlock some joints or change the initial velocities");
  return result;
}

}  // namespace articula
