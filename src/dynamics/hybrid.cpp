#include "articula/dynamics/hybrid.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "augmented_lagrangian.hpp"

namespace articula {

using augmented_lagrangian::infNorm;

HybridFormulation::HybridFormulation(const Model& model, const AugmentedLagrangianOptions& options)
    : model_(model),
      options_(options),
      ws_(model),
      dynamics_(model),
      springs_(model),
      derivatives_(options.finiteDifferenceTangent ? std::make_unique<ForceDerivatives>(model, options.derivatives)
                                                   : nullptr),
      constraints_(model),
      tangent_(model),
      lu_(model.nv),
      M_(model.nv, model.nv),
      K_(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      C_(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      T_(model.nv, model.nv),
      Q_(model.nv),
      lambda_(Eigen::VectorXd::Zero(model.constraintCount())),
      lambdaSaved_(model.constraintCount()),
      accelerationLike_(Eigen::VectorXd::Zero(model.nv)),
      dz_(model.nv),
      q_(model.nq),
      v_(model.nv),
      a_(model.nv),
      qdd_(model.nv),
      vHat_(model.nv),
      aHat_(model.nv),
      r_(model.nv),
      e_(model.constraintCount()),
      luRhs_(model.nv),
      tangentTeam_(!options.finiteDifferenceTangent && options.derivatives.threads >= 2 && springs_.active()
                       ? std::make_unique<parallel::ThreadTeam>(2)
                       : nullptr) {
  if (!(options.penalty >= 0.0 && std::isfinite(options.penalty)))
    throw Error("hybrid formulation: the penalty factor must be 0 (automatic) or positive and finite");
}

void HybridFormulation::evaluateResidualTerms(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  evaluateForceElements(model_, ws_, t, q, v);
  dynamics_.evaluate(ws_, M_, Q_);  // seed 001 eq. (14)-(19)
  if (constraints_.size()) {
    constraints_.positions(ws_, t, q);
    constraints_.jacobian(ws_, t);
  }
}

void HybridFormulation::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  updateVelocities(model_, ws_, q, v);
  if (!tangentTeam_) {
    evaluateResidualTerms(t, q, v);
    return;
  }
  // Both tasks read the kinematics in ws_; only the first writes to ws_ (the force elements' loads
  // in fext and tau, which K and C do not read). An exception may not leave the team's run: each
  // task keeps its own and the first is rethrown after the join.
  std::exception_ptr failed[2];
  tangentTeam_->run([&] {
    const int member = parallel::ThreadTeam::member().member;
    try {
      if (member == 0)
        evaluateResidualTerms(t, q, v);
      else
        springs_.evaluate(ws_, q, v, K_, C_);  // seed 001 eq. (28)-(34)
    } catch (...) {
      failed[member] = std::current_exception();
    }
  });
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

void HybridFormulation::start(double t0, const Eigen::VectorXd& x0, Eigen::Ref<const Eigen::VectorXd> a0,
                              const StructuralParameters& parameters) {
  p_ = parameters;
  q_ = x0.head(model_.nq);
  v_ = x0.tail(model_.nv);
  updateVelocities(model_, ws_, q_, v_);
  evaluateResidualTerms(t0, q_, v_);  // K and C only with the first iteration's tangent
  massScale_ = M_.diagonal().maxCoeff();
  lambda_.setZero();  // the first Newton iteration finds the multipliers
  accelerationLike_ = a0;
}

void HybridFormulation::project(Eigen::VectorXd& y, const Eigen::VectorXd& target, double weight) {
  // Minimises (y - y*)^T W (y - y*) + weight (J y - target)^T (J y - target) with
  // W + weight J^T J = the tangent matrix (eq. (35)-(36)); repeated, it converges to J y = target.
  const Eigen::MatrixXd& J = constraints_.J;
  for (int k = 0; k < augmented_lagrangian::kMaxProjectionIterations; ++k) {
    e_.noalias() = J * y;  // products apart from sums: combined, they make heap temporaries
    e_ -= target;
    if (infNorm(e_) <= options_.projectionTolerance) return;
    r_.noalias() = J.transpose() * e_;
    r_ *= weight;
    solveTangent(r_);
    y -= r_;
  }
}

bool HybridFormulation::factorizeTangent(double t, double constraintWeight, double stiffnessWeight,
                                         double dampingWeight) {
  // K and C only here: the iteration that converges uses the residual terms alone.
  if (derivatives_)
    derivatives_->evaluate(t, q_, v_, K_, C_);  // seed 004 eq. (52)-(53)
  else if (springs_.active() && !tangentTeam_)  // otherwise evaluate() has just computed them
    springs_.evaluate(ws_, q_, v_, K_, C_);  // seed 001 eq. (28)-(34)
  if (derivatives_) {
    // Tangent matrix, eq. (26) generalised: M + mix [gamma h C + beta h^2 (K + Phi_z^T alpha Phi_z)].
    T_ = M_ + stiffnessWeight * K_ + dampingWeight * C_;
    if (constraints_.size()) T_.noalias() += constraintWeight * (constraints_.J.transpose() * constraints_.J);
    lu_.compute(T_);
    // PartialPivLU does not report failure: a vanishing or non-finite pivot shows on U's diagonal.
    // (Not through the determinant: the 40-dof truck's 63 pivots, masses and penalties of 1e3-1e12,
    // overflow its product.)
    const auto pivots = lu_.matrixLU().diagonal();
    return pivots.allFinite() && pivots.cwiseAbs().minCoeff() > 0.0;
  }
  static const Eigen::MatrixXd kNone;
  const bool springs = springs_.active();
  tangent_.assemble(M_, springs ? K_ : kNone, stiffnessWeight, springs ? C_ : kNone, dampingWeight, constraints_.J,
                    constraintWeight);
  return tangent_.factorize();
}

void HybridFormulation::solveTangent(Eigen::VectorXd& x) {
  if (derivatives_) {
    luRhs_ = x;
    x.noalias() = lu_.solve(luRhs_);
  } else
    tangent_.solveInPlace(x);
}

NewtonReport HybridFormulation::step(double t, double h, const Eigen::VectorXd& x,
                                     Eigen::Ref<const Eigen::VectorXd> qddOld, Eigen::VectorXd& xNew,
                                     Eigen::VectorXd& fNew) {
  const int nq = model_.nq, nv = model_.nv;
  const double tNew = t + h;
  const auto qn = x.head(nq);
  const auto vn = x.tail(nv);
  const double g = p_.gamma, b = p_.beta, dm = p_.deltaM, df = p_.deltaF;
  const Eigen::VectorXd& an = accelerationLike_;
  augmented_lagrangian::newmarkStep(p_, h, vn, an, vHat_, aHat_, dz_);

  augmented_lagrangian::StepPenalty penalty(augmented_lagrangian::penalty(options_, massScale_, b, h), options_);
  const double mix = (1.0 - df) / (1.0 - dm);  // d qdd_{n+1} / d a_{n+1}
  const double scale = b * h * h * mix;        // residual scaling, as in eq. (27)
  lambdaSaved_ = lambda_;

  // The constraint functions are evaluated in world coordinates, so their rounding, and with it the
  // round-off floor of the corrections, follows the bodies' distance from the origin (40 m on IFToMM
  // A02, whose joint angles are all near 0 at its flat positions), not only the joint coordinates.
  double positionSize = infNorm(x.head(nq));
  for (const Transform& pose : ws_.X0) positionSize = std::max(positionSize, pose.r.cwiseAbs().maxCoeff());
  augmented_lagrangian::NewtonConvergence convergence(options_, b, h, positionSize);
  NewtonReport report;
  for (report.iterations = 1; report.iterations <= options_.maxIterations; ++report.iterations) {
    q_ = qn;
    integrateConfiguration(model_, q_, dz_);
    v_ = (g / (b * h)) * dz_ + vHat_;
    a_ = (1.0 / (b * h * h)) * dz_ + aHat_;
    qdd_ = (1.0 / (1.0 - df)) * ((1.0 - dm) * a_ + dm * an - df * qddOld);
    try {
      evaluate(tNew, q_, v_);
    } catch (const Error& e) {
      // A diverging correction can reach positions where a force is undefined (at the car's
      // stairs, a strut pulled to zero length): a failed iteration, which a smaller step retries.
      report.unevaluable = e.what();
      break;
    }
    report.constraintError = infNorm(constraints_.g);
    if (!std::isfinite(report.constraintError) || !Q_.allFinite()) break;
    // Multipliers from the positions the last correction produced, eq. (2). Updating them with
    // the constraint error of the positions before the correction instead would lag one
    // iteration behind, and the coupled iteration then oscillates instead of converging.
    if (report.iterations > 1 && constraints_.size()) lambda_ += penalty.value() * constraints_.g;
    if (convergence.converged(infNorm(qdd_), report.constraintError)) {
      report.converged = true;
      break;
    }
    penalty.update(convergence, report.constraintError);  // raised while the multipliers converge slowly (singular positions)
    const double alpha = penalty.value();
    // Residual of eq. (1) at t_{n+1}, scaled like eq. (27).
    r_.noalias() = M_ * qdd_;  // the product on its own: inside a sum it makes a heap temporary
    r_ -= Q_;
    if (constraints_.size()) {
      e_ = alpha * constraints_.g + lambda_;
      r_.noalias() += constraints_.J.transpose() * e_;
    }
    r_ *= scale;
    // Tangent matrix, eq. (26) generalised: M + mix [gamma h C + beta h^2 (K + Phi_z^T alpha Phi_z)].
    if (!factorizeTangent(tNew, mix * b * h * h * alpha, mix * b * h * h, mix * g * h)) break;
    solveTangent(r_);
    // The tangent holds Jacobians at q_ = q_n (+) dz; a rotation increment composes with its
    // correction through the exponential map's Jacobian, without which Newton converges only
    // linearly, at a rate of about half the rotation per step.
    incrementFromTangent(model_, dz_, r_);
    dz_ -= r_;
    convergence.corrected(infNorm(r_));
  }
  report.residual = convergence.accelerationCorrection();
  if (report.converged && constraints_.size()) {
    // Velocity and acceleration projections with the last factorisation, eq. (35)-(36). The
    // acceleration-like variable moves with the projected accelerations so that its defining
    // relation keeps holding. Near a singular position the iterated projection converges slowly
    // in the direction the Jacobian loses; what it leaves is reported by the run (largest
    // velocity constraint error), and a smaller step would not help, so the step stands.
    const double weight = mix * b * h * h * penalty.value();
    project(v_, constraints_.nu, weight);
    updateVelocities(model_, ws_, q_, v_);
    constraints_.accelerationBias(ws_, tNew);
    aHat_ = qdd_;  // free again: keeps the unprojected accelerations
    project(qdd_, constraints_.gamma, weight);
    a_ += (1.0 / mix) * (qdd_ - aHat_);
  }
  if (!report.converged) {
    lambda_ = lambdaSaved_;
    return report;
  }
  accelerationLike_ = a_;
  xNew.head(nq) = q_;
  xNew.tail(nv) = v_;
  configurationRate(model_, q_, v_, fNew.head(nq));
  fNew.tail(nv) = qdd_;
  return report;
}

void HybridFormulation::save(ArchiveWriter& out) const {
  out.put(lambda_);
  out.put(accelerationLike_);
  out.put(massScale_);
}

void HybridFormulation::restore(ArchiveReader& in) {
  Eigen::VectorXd lambda = in.getVector(), accelerationLike = in.getVector();
  const double scale = in.getDouble();
  if (lambda.size() != lambda_.size() || accelerationLike.size() != accelerationLike_.size() || !(scale > 0.0))
    throw Error(in.label() + ": the saved hybrid-formulation state does not fit this model");
  lambda_ = lambda;
  accelerationLike_ = accelerationLike;
  massScale_ = scale;
}

}  // namespace articula
