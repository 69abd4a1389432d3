#include "articula/dynamics/global.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "articula/kinematics/kinematics.hpp"
#include "augmented_lagrangian.hpp"

namespace articula {

using augmented_lagrangian::infNorm;

GlobalFormulation::GlobalFormulation(const Model& model, const AugmentedLagrangianOptions& options)
    : model_(model), options_(options), natural_(model), ws_(model) {
  if (!(options.penalty >= 0.0 && std::isfinite(options.penalty)))
    throw Error("global formulation: the penalty factor must be 0 (automatic) or positive and finite");
  const int n = natural_.size(), m = natural_.constraintCount(), nx = model.nq + model.nv;
  J_ = natural_.jacobianPattern();
  if (options.finiteDifferenceTangent)
    derivatives_ = std::make_unique<NaturalForceDerivatives>(natural_, options.derivatives);
  else
    tangentRows_ = natural_.tangentRows();
  buildTangentPattern();
  massScale_ = natural_.penaltyMassScale();
  for (Eigen::VectorXd* v :
       {&X_, &Xd_, &Xdd_, &accelerationLike_, &dz_, &xq_, &xv_, &xa_, &xqdd_, &vHat_, &aHat_, &r_, &Q_})
    *v = Eigen::VectorXd::Zero(n);
  for (Eigen::VectorXd* v : {&lambda_, &lambdaSaved_, &e_, &phi_, &nu_, &gamma_}) *v = Eigen::VectorXd::Zero(m);
  jointState_ = Eigen::VectorXd::Constant(nx, std::numeric_limits<double>::quiet_NaN());
  q_ = qNew_ = Eigen::VectorXd::Zero(model.nq);
  v_ = a_ = vNew_ = vdotNew_ = Eigen::VectorXd::Zero(model.nv);
}

void GlobalFormulation::buildTangentPattern() {
  const int n = natural_.size();
  const bool whole = derivatives_ != nullptr;  // LU: every entry; Cholesky: the upper triangle
  // Rows of the stored entries, per column.
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(n));
  auto addPair = [&](int i, int j) {  // a symmetric pair of entries (i, j) and (j, i)
    rows[static_cast<std::size_t>(std::max(i, j))].push_back(std::min(i, j));
    if (whole) rows[static_cast<std::size_t>(std::min(i, j))].push_back(std::max(i, j));
  };
  for (int b = 1; b <= model_.bodyCount(); ++b)  // M_b = factor (x) I_3
    for (int k = 0; k < 4; ++k)
      for (int l = k; l < 4; ++l)
        for (int d = 0; d < 3; ++d)
          addPair(NaturalCoordinates::offset(b) + 3 * k + d, NaturalCoordinates::offset(b) + 3 * l + d);
  for (const SparseRows* R : {&J_, &tangentRows_.gradients})  // Phi_x^T Phi_x, K, C: products of each row's entries
    for (int r = 0; r < R->rows(); ++r)
      for (int a = R->rowStart[r]; a < R->rowStart[r + 1]; ++a)
        for (int b = a; b < R->rowStart[r + 1]; ++b) addPair(R->column[a], R->column[b]);
  if (whole)  // finite-difference K and C: the rows each column can change
    for (int j = 0; j < n; ++j)
      for (int k = derivatives_->columnStart()[j]; k < derivatives_->columnStart()[j + 1]; ++k)
        rows[static_cast<std::size_t>(j)].push_back(derivatives_->rowIndex()[static_cast<std::size_t>(k)]);
  std::vector<int> columnStart(static_cast<std::size_t>(n) + 1, 0), rowIndex;
  for (int j = 0; j < n; ++j) {
    auto& c = rows[static_cast<std::size_t>(j)];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    rowIndex.insert(rowIndex.end(), c.begin(), c.end());
    columnStart[static_cast<std::size_t>(j) + 1] = static_cast<int>(rowIndex.size());
  }
  auto indexOf = [&](int i, int j) {  // value index of entry (i, j); of (j, i) when only the upper triangle is kept
    if (!whole && i > j) std::swap(i, j);
    const auto first = rowIndex.begin() + columnStart[static_cast<std::size_t>(j)];
    const auto last = rowIndex.begin() + columnStart[static_cast<std::size_t>(j) + 1];
    return static_cast<int>(std::lower_bound(first, last, i) - rowIndex.begin());
  };
  massValues_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rowIndex.size()));
  for (int b = 1; b <= model_.bodyCount(); ++b)
    for (int k = 0; k < 4; ++k)
      for (int l = k; l < 4; ++l)
        for (int d = 0; d < 3; ++d) {
          const int i = NaturalCoordinates::offset(b) + 3 * k + d, j = NaturalCoordinates::offset(b) + 3 * l + d;
          massValues_[indexOf(i, j)] = massValues_[indexOf(j, i)] = natural_.bodyMass(b)(k, l);
        }
  auto pairs = [&](const SparseRows& R, std::vector<int>& start, std::vector<int>& index, std::vector<int>* mirror) {
    start.assign(1, 0);
    index.clear();
    for (int r = 0; r < R.rows(); ++r) {
      for (int a = R.rowStart[r]; a < R.rowStart[r + 1]; ++a)
        for (int b = a; b < R.rowStart[r + 1]; ++b) {
          index.push_back(indexOf(R.column[a], R.column[b]));
          if (mirror) mirror->push_back(indexOf(R.column[b], R.column[a]));
        }
      start.push_back(static_cast<int>(index.size()));
    }
  };
  pairs(J_, constraintPairStart_, constraintPairIndex_, whole ? &constraintPairMirror_ : nullptr);
  pairs(tangentRows_.gradients, tangentPairStart_, tangentPairIndex_, nullptr);  // analytic tangent only (else no rows)
  derivativeIndex_.clear();
  if (whole) {
    for (int j = 0; j < n; ++j)
      for (int k = derivatives_->columnStart()[j]; k < derivatives_->columnStart()[j + 1]; ++k)
        derivativeIndex_.push_back(indexOf(derivatives_->rowIndex()[static_cast<std::size_t>(k)], j));
    lu_.analyze(n, columnStart, rowIndex);  // ordering and symbolic analysis, once per model
  } else {
    cholesky_.analyze(n, columnStart, rowIndex);  // ordering and symbolic factorisation, once per model
  }
}

void GlobalFormulation::assembleTangent(double constraintWeight, double stiffnessWeight, double dampingWeight) {
  Eigen::Map<Eigen::VectorXd> values = derivatives_ ? lu_.values() : cholesky_.values();
  values = massValues_;
  // w R_r^T R_r for row r of R: each product pair into its entry and, when stored, its mirror image.
  auto addRows = [&](const SparseRows& R, const std::vector<int>& start, const std::vector<int>& index,
                     const std::vector<int>* mirror, int r, double w) {
    if (w == 0.0) return;
    int p = start[static_cast<std::size_t>(r)];
    for (int a = R.rowStart[r]; a < R.rowStart[r + 1]; ++a) {
      const double wa = w * R.value[a];
      for (int b = a; b < R.rowStart[r + 1]; ++b, ++p) {
        const double v = wa * R.value[b];
        values[index[static_cast<std::size_t>(p)]] += v;
        if (mirror && b != a) values[(*mirror)[static_cast<std::size_t>(p)]] += v;
      }
    }
  };
  const std::vector<int>* mirror = derivatives_ ? &constraintPairMirror_ : nullptr;
  for (int r = 0; r < J_.rows(); ++r)
    addRows(J_, constraintPairStart_, constraintPairIndex_, mirror, r, constraintWeight);
  if (derivatives_) {  // K and C of every applied force by finite differences, seed 004 eq. (52)-(53)
    const Eigen::VectorXd& K = derivatives_->stiffness();
    const Eigen::VectorXd& C = derivatives_->damping();
    for (std::size_t e = 0; e < derivativeIndex_.size(); ++e) {
      const Eigen::Index k = static_cast<Eigen::Index>(e);
      values[derivativeIndex_[e]] += stiffnessWeight * K[k] + dampingWeight * C[k];
    }
    return;
  }
  const Eigen::VectorXd& k = tangentRows_.stiffness;  // seed 001 eq. (31), (34)
  const Eigen::VectorXd& c = tangentRows_.damping;
  for (int r = 0; r < tangentRows_.gradients.rows(); ++r)
    addRows(tangentRows_.gradients, tangentPairStart_, tangentPairIndex_, nullptr, r,
            stiffnessWeight * k[r] + dampingWeight * c[r]);
}

bool GlobalFormulation::factorizeTangent() { return derivatives_ ? lu_.factorize() : cholesky_.factorize(); }

void GlobalFormulation::solveTangent(Eigen::VectorXd& x) {
  if (derivatives_)
    lu_.solveInPlace(x);
  else
    cholesky_.solveInPlace(x);
}

void GlobalFormulation::evaluate(double t) {
  natural_.appliedForces(t, xq_, xv_, q_, Q_, derivatives_ ? nullptr : &tangentRows_);
  natural_.jacobian(t, xq_, phi_, J_, nu_);
}

void GlobalFormulation::synchronise(const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> a) {
  if (x == jointState_) return;
  q_ = x.head(model_.nq);
  v_ = x.tail(model_.nv);
  a_ = a;
  natural_.fromJoint(ws_, q_, v_, X_, Xd_);
  natural_.accelerationsFromJoint(ws_, a_, Xdd_);
  accelerationLike_ = Xdd_;
  jointState_ = x;
}

void GlobalFormulation::start(double, const Eigen::VectorXd& x0, Eigen::Ref<const Eigen::VectorXd> a0,
                              const StructuralParameters& parameters) {
  p_ = parameters;
  lambda_.setZero();                    // the first Newton iteration finds the multipliers
  if (derivatives_) lu_.resetPivots();  // chosen by the run's first factorisation, whatever ran before
  jointState_.setConstant(std::numeric_limits<double>::quiet_NaN());
  synchronise(x0, a0);
}

void GlobalFormulation::project(Eigen::VectorXd& y, const Eigen::VectorXd& target, double weight) {
  // Minimises (y - y*)^T W (y - y*) + weight |J y - target|^2 with W + weight J^T J = the tangent
  // matrix (eq. (35)-(36)); repeated, it converges to J y = target.
  // One pass more once the tolerance is met: the joint velocities and accelerations read from the
  // natural ones sum each joint's residual twist along the tree and over lever arms, so residuals
  // at the tolerance in natural coordinates showed up to 8x larger in joint coordinates (four-bar);
  // the extra pass takes them to round-off (each pass shrinks them about 1e4-fold).
  bool polished = false;
  for (int k = 0; k < augmented_lagrangian::kMaxProjectionIterations; ++k) {
    J_.multiply(y, e_);
    e_ -= target;
    if (infNorm(e_) <= options_.projectionTolerance) {
      if (polished) return;
      polished = true;
    }
    r_.setZero();
    J_.addTransposedProduct(weight, e_, r_);
    solveTangent(r_);
    y -= r_;
  }
}

NewtonReport GlobalFormulation::step(double t, double h, const Eigen::VectorXd& x,
                                     Eigen::Ref<const Eigen::VectorXd> qddOld, Eigen::VectorXd& xNew,
                                     Eigen::VectorXd& fNew) {
  synchronise(x, qddOld);
  const int nq = model_.nq, nv = model_.nv;
  q_ = x.head(nq);  // the branch of the joint angles
  const double tNew = t + h;
  const double g = p_.gamma, b = p_.beta, dm = p_.deltaM, df = p_.deltaF;
  const Eigen::VectorXd& an = accelerationLike_;
  augmented_lagrangian::newmarkStep(p_, h, Xd_, an, vHat_, aHat_, dz_);  // dz = x_{n+1} - x_n here

  augmented_lagrangian::StepPenalty penalty(augmented_lagrangian::penalty(options_, massScale_, b, h), options_);
  const double mix = (1.0 - df) / (1.0 - dm);  // d qdd_{n+1} / d a_{n+1}
  const double scale = b * h * h * mix;        // residual scaling, as in eq. (27)
  lambdaSaved_ = lambda_;

  augmented_lagrangian::NewtonConvergence convergence(options_, b, h, infNorm(X_));
  NewtonReport report;
  for (report.iterations = 1; report.iterations <= options_.maxIterations; ++report.iterations) {
    xq_ = X_ + dz_;
    xv_ = (g / (b * h)) * dz_ + vHat_;
    xa_ = (1.0 / (b * h * h)) * dz_ + aHat_;
    xqdd_ = (1.0 / (1.0 - df)) * ((1.0 - dm) * xa_ + dm * an - df * Xdd_);
    try {
      evaluate(tNew);
    } catch (const Error& e) {
      // As in hybrid.cpp: a diverging correction can reach positions where a force is undefined
      // (on the car at 0.03 s steps, a wheel turned flat): a failed iteration, which a smaller
      // step retries, not the end of the run.
      report.unevaluable = e.what();
      break;
    }
    report.constraintError = infNorm(phi_);
    if (!std::isfinite(report.constraintError) || !Q_.allFinite()) break;
    // Multipliers from the positions the last correction produced, eq. (2) (see hybrid.cpp).
    if (report.iterations > 1) lambda_ += penalty.value() * phi_;
    if (convergence.converged(infNorm(xqdd_), report.constraintError)) {
      report.converged = true;
      break;
    }
    penalty.update(convergence, report.constraintError);  // raised while the multipliers converge slowly (singular positions)
    const double alpha = penalty.value();
    // Residual of eq. (1) at t_{n+1}, scaled like eq. (27).
    natural_.multiplyMass(xqdd_, r_);
    r_ -= Q_;
    e_ = alpha * phi_ + lambda_;
    J_.addTransposedProduct(1.0, e_, r_);
    r_ *= scale;
    // Tangent matrix, eq. (26) generalised: M + mix [gamma h C + beta h^2 (K + Phi_x^T alpha Phi_x)].
    if (derivatives_) {
      try {
        derivatives_->evaluate(tNew, xq_, xv_, q_, Q_);  // at perturbed states: as likely to fail
      } catch (const Error& e) {
        report.unevaluable = e.what();
        break;
      }
    }
    assembleTangent(mix * b * h * h * alpha, mix * b * h * h, mix * g * h);
    if (!factorizeTangent()) break;
    solveTangent(r_);
    dz_ -= r_;
    convergence.corrected(infNorm(r_));
  }
  report.residual = convergence.accelerationCorrection();
  if (report.converged) {
    // Velocity and acceleration projections with the last factorisation, eq. (35)-(36); the
    // acceleration-like variable moves with the projected accelerations. Near a singular
    // position the iterated projection converges slowly in the direction the Jacobian loses;
    // what it leaves shows in the run's constraint errors, and the step stands (as in hybrid.cpp).
    const double weight = mix * b * h * h * penalty.value();
    project(xv_, nu_, weight);
    natural_.accelerationBias(tNew, xq_, xv_, gamma_);
    aHat_ = xqdd_;  // free again: keeps the unprojected accelerations
    project(xqdd_, gamma_, weight);
    xa_ += (1.0 / mix) * (xqdd_ - aHat_);
  }
  if (!report.converged) {
    lambda_ = lambdaSaved_;
    return report;
  }
  natural_.toJoint(ws_, xq_, xv_, &xqdd_, q_, qNew_, vNew_, &vdotNew_);
  X_ = xq_;
  Xd_ = xv_;
  Xdd_ = xqdd_;
  accelerationLike_ = xa_;
  xNew.head(nq) = qNew_;
  xNew.tail(nv) = vNew_;
  configurationRate(model_, qNew_, vNew_, fNew.head(nq));
  fNew.tail(nv) = vdotNew_;
  jointState_ = xNew;
  return report;
}

void GlobalFormulation::save(ArchiveWriter& out) const {
  for (const Eigen::VectorXd* v : {&X_, &Xd_, &Xdd_, &accelerationLike_, &lambda_, &jointState_}) out.put(*v);
  if (derivatives_) out.put(lu_.pivotingValues());
}

void GlobalFormulation::restore(ArchiveReader& in) {
  const int count = derivatives_ ? 7 : 6;
  Eigen::VectorXd saved[7];
  for (int k = 0; k < count; ++k) saved[k] = in.getVector();
  const Eigen::VectorXd* mine[6] = {&X_, &Xd_, &Xdd_, &accelerationLike_, &lambda_, &jointState_};
  for (int k = 0; k < 6; ++k)
    if (saved[k].size() != mine[k]->size())
      throw Error(in.label() + ": the saved global-formulation state does not fit this model");
  if (derivatives_) {
    if (saved[6].size() != 0 && saved[6].size() != lu_.nonZeros())
      throw Error(in.label() + ": the saved global-formulation state does not fit this model");
    if (!lu_.restorePivots(saved[6]))
      throw Error(in.label() + ": the saved pivot order of the global formulation's tangent matrix is singular");
  }
  X_ = saved[0];
  Xd_ = saved[1];
  Xdd_ = saved[2];
  accelerationLike_ = saved[3];
  lambda_ = saved[4];
  jointState_ = saved[5];
}

}  // namespace articula
