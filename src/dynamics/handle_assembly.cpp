#include "articula/dynamics/handle_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "articula/core/error.hpp"

namespace articula {

template <class Scalar, class Space>
BasicHandleAssembly<Scalar, Space>::BasicHandleAssembly(const Model& model, const PairingPolicy& pairing, int threads,
                               std::string_view formulation)
    : model_(model), tree_(model, pairing), schedule_(tree_, std::max(1, threads)) {
  if (threads < 1) throw Error(std::string(formulation) + ": the thread count must be at least 1");
  team_ = std::make_unique<parallel::ThreadTeam>(threads);
  const int n = model.bodyCount();
  inverseCentralInertia_.resize(static_cast<std::size_t>(n) + 1, Mat3::Zero());
  S_.resize(static_cast<std::size_t>(n) + 1);
  c_.assign(static_cast<std::size_t>(n) + 1, V::Zero());
  jointForce_.assign(static_cast<std::size_t>(n) + 1, V::Zero());
  singular_.assign(static_cast<std::size_t>(n) + 1, 0);
  axis_.assign(static_cast<std::size_t>(n) + 1, 0);
  axisSign_.assign(static_cast<std::size_t>(n) + 1, Scalar(1));
  for (int i = 1; i <= n; ++i) {
    const auto idx = static_cast<std::size_t>(i);
    inverseCentralInertia_[idx] = model.bodies[idx].inertiaCom.inverse();
    S_[idx].setZero(D, model.joints[idx].nv);
    double sign = 1.0;
    axis_[idx] = Space::axisJoint(model.joints[idx], sign);
    axisSign_[idx] = static_cast<Scalar>(sign);
    if (axis_[idx]) S_[idx](0, 0) = axisSign_[idx];  // constant: leaf() leaves it
  }
  if (tree_.articulated()) {
    articulated_.emplace(model, tree_);
    return;
  }
  eq_.resize(tree_.nodes().size());
  rootJoint_.resize(tree_.roots().size());
  auto size = [&](JointElimination& el, int joint) {
    const int nv = joint > 0 ? model.joints[static_cast<std::size_t>(joint)].nv : 0;
    el.Ft.setZero();
    el.fullRank = nv == 0;
    el.axis = joint > 0 && axis_[static_cast<std::size_t>(joint)];  // factorAxisJoint keeps Ft's zeros
    el.E.setZero(D, nv);
    el.Z.setZero(nv, nv);
    el.mu.setZero(nv);
  };
  for (std::size_t k = 0; k < rootJoint_.size(); ++k)
    size(rootJoint_[k], tree_.nodes()[static_cast<std::size_t>(tree_.roots()[k])].top);
  for (std::size_t k = 0; k < eq_.size(); ++k) {
    size(eq_[k].joint, tree_.nodes()[k].joint);
    eq_[k].f2.setZero();
    eq_[k].leaf = tree_.nodes()[k].first < 0;
  }
}

// Phi = I^-1 for the inertia I about the body's origin (Space::leafMobility), world axes.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::leaf(const Workspace& ws, int i) {
  const auto idx = static_cast<std::size_t>(i);
  if (!axis_[idx]) Space::subspace(model_, ws, i, S_[idx]);
  if (articulated_) {
    articulated_->leaf(ws, i, S_[idx]);
    return;
  }
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  eq.phi11 = Space::template leafMobility<Scalar>(model_, ws, i, inverseCentralInertia_[idx]);
  eq.b1.setZero();
  eq.b2.setZero();
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::setLeafForce(int i, const V& force) {
  if (articulated_) {
    articulated_->setLeafForce(i, force);
    return;
  }
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  eq.b1.noalias() = eq.phi11 * force;
  eq.b2 = eq.b1;
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::clearLeafForce(int i) {
  if (articulated_) {
    articulated_->clearLeafForce(i);
    return;
  }
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  eq.b1.setZero();
  eq.b2.setZero();
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::leafMotion(int i, V& m) const {
  if (articulated_) {
    articulated_->bodyMotion(i, m);
    return;
  }
  const NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  m = eq.b1;
  m.noalias() += eq.phi11 * (eq.f1 + eq.f2);
}

namespace {

// Thin QR of U (6 x nv, full column rank) by Gram-Schmidt applied twice to each column, which
// keeps Q orthonormal to round-off for any conditioning short of rank deficiency. Returns false
// when a column is (numerically) dependent on the previous ones.
template <class Sub, class SmallM>
bool thinQR(const Sub& U, Sub& Q, SmallM& R) {
  using S = typename Sub::Scalar;
  const Eigen::Index nv = U.cols();
  R.setZero(nv, nv);
  Q = U;
  for (Eigen::Index k = 0; k < nv; ++k) {
    for (int pass = 0; pass < 2; ++pass)
      for (Eigen::Index i = 0; i < k; ++i) {
        const S r = Q.col(i).dot(Q.col(k));
        R(i, k) += r;
        Q.col(k) -= r * Q.col(i);
      }
    const S norm = Q.col(k).norm();
    if (!(norm > S(1e3) * std::numeric_limits<S>::epsilon() * U.col(k).norm())) return false;
    R(k, k) = norm;
    Q.col(k) *= S(1) / norm;
  }
  return true;
}

// Completes the nv orthonormal columns of Q to an orthonormal basis: the D - nv further columns
// of `basis`, each the coordinate axis farthest from the span so far, orthogonalised against it
// twice (Gram-Schmidt) and normalised.
template <class Sub, class Mat>
void completeBasis(const Sub& Q, Mat& basis) {
  using S = typename Mat::Scalar;
  using Vec = Eigen::Matrix<S, Mat::RowsAtCompileTime, 1>;
  constexpr int D = Mat::RowsAtCompileTime;
  const auto nv = static_cast<int>(Q.cols());
  basis.leftCols(nv) = Q;
  for (int count = nv; count < D; ++count) {
    Vec best = Vec::Zero();
    for (int i = 0; i < D; ++i) {
      Vec w = Vec::Unit(i);
      for (int pass = 0; pass < 2; ++pass)
        for (int k = 0; k < count; ++k) w -= basis.col(k).dot(w) * basis.col(k);
      if (w.squaredNorm() > best.squaredNorm()) best = w;
    }
    basis.col(count) = best.normalized();
  }
}

// The inverse L^-1 of the Cholesky factor of a symmetric 6x6 matrix K = L L^T, written out with
// one square root and one division per column (Eigen's LLT divides every entry, and its
// triangular solves with a matrix right-hand side take the blocked general-size path, both
// several times slower at 6x6). Returns false unless K is numerically positive definite.
template <class Mat>
bool inverseCholeskyFactor(const Mat& K, Mat& Linv) {
  using S = typename Mat::Scalar;
  constexpr int D = Mat::RowsAtCompileTime;
  Mat L;
  Eigen::Matrix<S, D, 1> reciprocal;
#pragma GCC unroll 6
  for (int j = 0; j < D; ++j) {
    S d = K(j, j);
#pragma GCC unroll 6
    for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
    if (!(d > S(0)) || !std::isfinite(d)) return false;
    L(j, j) = std::sqrt(d);
    reciprocal[j] = S(1) / L(j, j);
#pragma GCC unroll 6
    for (int i = j + 1; i < D; ++i) {
      S x = K(i, j);
#pragma GCC unroll 6
      for (int k = 0; k < j; ++k) x -= L(i, k) * L(j, k);
      L(i, j) = x * reciprocal[j];
    }
  }
  Linv.setZero();
#pragma GCC unroll 6
  for (int j = 0; j < D; ++j) {
    Linv(j, j) = reciprocal[j];
#pragma GCC unroll 6
    for (int i = j + 1; i < D; ++i) {
      S sum = S(0);
#pragma GCC unroll 6
      for (int k = j; k < i; ++k) sum += L(i, k) * Linv(k, j);
      Linv(i, j) = -sum * reciprocal[i];
    }
  }
  return true;
}

// M - G G^T for symmetric M, into `out`. In 6D the full product, whose columns of 6 fill whole
// SIMD packets (entries (i, j) and (j, i) sum the same products in the same order, so the result
// stays symmetric); in the plane the lower triangle by row dot products, mirrored (half the work
// of the full product).
template <class Mat, class G>
[[gnu::always_inline]] inline void gramDifference(Mat& out, const Mat& M, const G& Gt) {
  constexpr int D = Mat::RowsAtCompileTime;
  if constexpr (D % 2 == 0) {
    out.noalias() = M - Gt.lazyProduct(Gt.transpose());
  } else {
#pragma GCC unroll 6
    for (int j = 0; j < D; ++j)
#pragma GCC unroll 6
      for (int i = j; i < D; ++i) out(i, j) = M(i, j) - Gt.row(i).dot(Gt.row(j));
    out.template triangularView<Eigen::StrictlyUpper>() = out.transpose();
  }
}

}  // namespace

// One joint's force from its relative motion (see handle_assembly.hpp). With K = L L^T and
// U = L^-1 S = Q R: K^-1 S = L^-T Q R, S^T K^-1 S = R^T R, so Z = R^-1 R^-T, E = L^-T Q R^-T,
// and W = L^-T (1 - Q Q^T) L^-1 = F^T F with F = N^T L^-1 for an orthonormal basis N of the
// complement of Q, which equals the thesis's D (D^T K D)^-1 D^T of eq. (3.38)-(3.39) for any D
// spanning the constraint directions. For one coordinate, N^T holds the first D - 1 rows of the
// Householder reflection that takes q to -sign(q_last) e_last. The factors depend on the
// configuration only; jointBiases gives e and mu for each r = beta.
template <class Scalar, class Space>
bool BasicHandleAssembly<Scalar, Space>::factorJoint(const M& K, int j, JointElimination& out) const {
  const auto jdx = static_cast<std::size_t>(j);
  if (out.axis) return factorAxisJoint(K, axisSign_[jdx], out);
  M Linv;
  if (!inverseCholeskyFactor(K, Linv)) return false;
  const Sub& S = S_[jdx];
  if (S.cols() == 1) {  // one coordinate: Q = U / |U|, without dynamic-size temporaries
    const V u = Linv * S.col(0);
    const Scalar r = u.norm();
    if (!(r > Scalar(1e3) * std::numeric_limits<Scalar>::epsilon() * S.col(0).norm())) return false;
    const V q = u / r;
    const Eigen::Matrix<Scalar, 1, D> qL = q.transpose() * Linv;
    // Householder vector v = q + s e_last, s = sign(q_last): rows 0..D-2 of (1 - v v^T / (1 + s q_last)) L^-1.
    const Scalar s = q[D - 1] >= Scalar(0) ? Scalar(1) : Scalar(-1);
    const Eigen::Matrix<Scalar, 1, D> vL = qL + s * Linv.row(D - 1);
    out.Ft.template leftCols<D - 1>() = Linv.template topRows<D - 1>().transpose();
    out.Ft.template leftCols<D - 1>().noalias() -= vL.transpose() * (q.template head<D - 1>() / (Scalar(1) + s * q[D - 1])).transpose();
    out.Ft.col(D - 1).setZero();
    out.E.col(0) = qL.transpose() / r;
    out.Z(0, 0) = Scalar(1) / (r * r);
    return true;
  }
  const Sub U = Linv.lazyProduct(S);
  Sub Q;
  SmallM R;
  if (!thinQR(U, Q, R)) return false;
  const auto nv = static_cast<int>(S.cols());
  M basis;
  completeBasis(Q, basis);
  out.Ft.setZero();
  out.Ft.leftCols(D - nv).noalias() = Linv.transpose() * basis.rightCols(D - nv);
  const SmallM Rinv = R.template triangularView<Eigen::Upper>().solve(SmallM::Identity(nv, nv));
  out.E.noalias() = Linv.transpose() * (Q * Rinv.transpose());
  out.Z.noalias() = Rinv * Rinv.transpose();
  return true;
}

// The joint-frame elimination for S = sign e_0: the constraint directions D are the other
// coordinate axes, D^T K D is K without its row and column 0 (the thesis's D^T Phi D of eq.
// (3.38) with D a selection), F = L^-1 D^T for D^T K D = L L^T; K^-1 S Z = sign (e_0 - W K e_0)
// and Z = K_00 - (K e_0)^T W K e_0 (the Schur complement of D^T K D in K). Writes only Ft's
// rows below row 0 and its first D - 1 columns: the rest stays zero from the constructor.
template <class Scalar, class Space>
bool BasicHandleAssembly<Scalar, Space>::factorAxisJoint(const M& K, Scalar sign, JointElimination& out) const {
  using Reduced = Eigen::Matrix<Scalar, D - 1, D - 1>;
  Reduced Linv;
  if (!inverseCholeskyFactor(Reduced(K.template bottomRightCorner<D - 1, D - 1>()), Linv)) return false;
  auto Ft = out.Ft.template bottomLeftCorner<D - 1, D - 1>();
  Ft = Linv.transpose();
  const Eigen::Matrix<Scalar, D - 1, 1> g = Linv * K.col(0).template tail<D - 1>();
  const Scalar z = K(0, 0) - g.squaredNorm();
  if (!(z > Scalar(0)) || !std::isfinite(z)) return false;
  out.E(0, 0) = sign;
  out.E.col(0).template tail<D - 1>().noalias() = -sign * (Ft * g);
  out.Z(0, 0) = z;
  return true;
}

// e = E tau - W beta and mu = Z tau + E^T beta (see handle_assembly.hpp).
template <class Scalar, class Space>
[[gnu::always_inline]] inline bool BasicHandleAssembly<Scalar, Space>::jointBiases(int j, const V& beta, const VecX& load, JointElimination& el) const {
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  const V Wbeta = weigh(el, beta);
  if (joint.nv == 1) {
    const Scalar tau = load[joint.iv];
    el.e.noalias() = el.E.col(0) * tau - Wbeta;
    el.mu[0] = el.Z(0, 0) * tau + el.E.col(0).dot(beta);
    return std::isfinite(el.e.sum() + el.mu[0]);
  }
  const auto tau = load.segment(joint.iv, joint.nv);
  el.e.noalias() = el.E * tau;
  el.e -= Wbeta;
  el.mu.noalias() = el.Z * tau;
  el.mu.noalias() += el.E.transpose() * beta;
  return std::isfinite(el.e.sum() + el.mu.sum());
}

// f = e + W y and qdot = mu - E^T y for y = beta - r.
template <class Scalar, class Space>
[[gnu::always_inline]] inline void BasicHandleAssembly<Scalar, Space>::applyElimination(const JointElimination& el, const V& y, V& f,
                                      Eigen::Ref<VecX> qdot) {
  f = el.e + weigh(el, y);
  if (el.E.cols() == 1) {
    qdot[0] = el.mu[0] - el.E.col(0).dot(y);
    return;
  }
  qdot = el.mu;
  qdot.noalias() -= el.E.transpose() * y;
}

// Assembly of C from A (above the joint) and B (below it), thesis eq. (3.42). Each handle
// equation is written about its own body's origin; the joint is solved about the origin of B's
// top body t, to which A's lower handle (about p, the joint's parent body) is shifted: hats mark
// A's coefficients seen from there. The joint force is f = e + W (Phi^A_21^ f_1 - X f_2)
// (eq. (3.39)), where C's f_2 enters the relative motion through X: Phi^B_12 when C's lower
// handle is B's (compress), -Phi^A_22 shifted when it stays A's (rake). Substituting f into A's
// upper handle and into C's lower handle gives C's coefficients; with W = Ft Ft^T the products
// weighted by W are Gram products of Ht = Phi^A_12^ Ft and Jt = X^T Ft, with A's shift T moved
// onto Ft (Phi^A_12^ = Phi^A_12 T^T).
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::assemble(const Workspace& ws, int node, const VecX& load) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  const auto j = static_cast<std::size_t>(n.joint);
  if (articulated_) {
    singular_[j] = !articulated_->assemble(node, n, c_[j], load);
    return;
  }
  const Offset s = jointOffset(ws, n.joint);
  NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  const NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  const NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  const M K = B.phi11 + Space::template shiftColumns<Scalar>(Space::template shiftRows<Scalar>(A.lower(), s), s);
  JointElimination& el = C.joint;
  singular_[static_cast<std::size_t>(n.joint)] = !factorJoint(K, n.joint, el);
  if (singular_[static_cast<std::size_t>(n.joint)]) return;
  if (el.fullRank)
    combineMobilities<D, false>(n, A, B, C, s);
  else if (el.axis)
    combineMobilities<D - 1, true>(n, A, B, C, s);
  else
    combineMobilities<D - 1, false>(n, A, B, C, s);
  combineBiases(node, s, load);
}

// An axis joint's Ft is zero in row 0: its products take the other columns of the left factor
// (timesAxisFactor), and the shift T^T goes onto the left factor (shiftColumns), since on Ft it
// would fill row 0.
template <class Scalar, class Space>
template <int Rows, bool Axis>
void BasicHandleAssembly<Scalar, Space>::combineMobilities(const AssemblyNode& n, const NodeEquations& A,
                                                           const NodeEquations& B, NodeEquations& C,
                                                           const Offset& s) const {
  static_assert(!Axis || Rows == D - 1, "an axis joint has one coordinate");
  using Factor = Eigen::Matrix<Scalar, D, Rows, FactorOrder>;
  const JointElimination& el = C.joint;
  const auto Ft = el.Ft.template leftCols<Rows>();
  Factor G;  // T^T Ft: the shift of A's lower handle, applied to a dense factor
  if constexpr (!Axis) {
    G = Ft;
    Space::template shiftForces<Scalar>(G, s);
  }
  const auto shifted = [&](const M& X) -> Factor {  // X T^T Ft
    if constexpr (Axis)
      return timesAxisFactor(Space::template shiftColumns<Scalar>(X, s), el);
    else
      return X.lazyProduct(G);
  };
  const Factor Ht = shifted(A.coupling());  // Phi^A_12^ W Phi^A_21^ = Ht Ht^T
  gramDifference(C.phi11, A.phi11, Ht);
  if (!n.hasDownHandle) return;  // C's f_2 is zero: its lower-handle coefficients are never read
  if (n.rake) {
    const Factor Jt = -shifted(A.lower());
    C.phi12.noalias() = A.coupling() + Ht.lazyProduct(Jt.transpose());
    gramDifference(C.phi22, A.lower(), Jt);
  } else {
    Factor Jt;
    if constexpr (Axis)
      Jt = timesAxisFactor(B.coupling().transpose(), el);
    else
      Jt = B.coupling().transpose().lazyProduct(Ft);
    C.phi12.noalias() = Ht.lazyProduct(Jt.transpose());
    gramDifference(C.phi22, B.lower(), Jt);
  }
}

// The right-hand sides of C's handle equations (the bias part of assemble): with A12 e =
// Phi^A_12 T^T e and X^T e = -Phi^A_22 T^T e (rake) or Phi^B_21 e (compress), mat-vec products only.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::assembleBiases(const Workspace& ws, int node, const VecX& load) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  const auto j = static_cast<std::size_t>(n.joint);
  if (!articulated_)
    combineBiases(node, jointOffset(ws, n.joint), load);
  else if (!singular_[j] && !articulated_->assembleBiases(node, n, c_[j], load))
    singular_[j] = 1;
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::combineBiases(int node, const Offset& s, const VecX& load) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  const NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  const NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  if (singular_[static_cast<std::size_t>(n.joint)]) return;
  const V beta = B.b1 - Space::template motionAt<Scalar>(A.b2, s) - c_[static_cast<std::size_t>(n.joint)];
  JointElimination& el = C.joint;
  if (!jointBiases(n.joint, beta, load, el)) singular_[static_cast<std::size_t>(n.joint)] = 1;
  const V shifted = Space::template forceAt<Scalar>(el.e, s);  // T^T e
  C.b1 = A.b1;
  C.b1.noalias() -= A.coupling() * shifted;
  if (!n.hasDownHandle) return;
  if (n.rake) {
    C.b2 = A.b2;
    C.b2.noalias() -= A.lower() * shifted;
  } else {
    C.b2 = B.b2;
    C.b2.noalias() += B.coupling().transpose() * el.e;
  }
}

// Base connection (thesis eq. (3.44)): the root's upper handle is joined to the ground, whose
// mobility is zero. factorRoot once per configuration, solveRoot for each right-hand side.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::factorRoot(int k) {
  const int node = tree_.roots()[static_cast<std::size_t>(k)];
  const int j = tree_.nodes()[static_cast<std::size_t>(node)].top;
  if (articulated_) {
    singular_[static_cast<std::size_t>(j)] = !articulated_->factorRoot(k, node, j);
    return;
  }
  singular_[static_cast<std::size_t>(j)] =
      !factorJoint(eq_[static_cast<std::size_t>(node)].phi11, j, rootJoint_[static_cast<std::size_t>(k)]);
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::solveRoot(int k, const V& groundMotion, const VecX& load, VecX& rates) {
  const int node = tree_.roots()[static_cast<std::size_t>(k)];
  const int j = tree_.nodes()[static_cast<std::size_t>(node)].top;
  const auto jdx = static_cast<std::size_t>(j);
  if (articulated_) {
    if (singular_[jdx]) {
      jointForce_[jdx].setZero();
      return;
    }
    if (!articulated_->solveRoot(k, node, j, c_[jdx], groundMotion, load, rates, jointForce_[jdx]))
      singular_[jdx] = 1;
    return;
  }
  NodeEquations& R = eq_[static_cast<std::size_t>(node)];
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  JointElimination& root = rootJoint_[static_cast<std::size_t>(k)];
  R.f2.setZero();
  if (singular_[static_cast<std::size_t>(j)]) {
    R.f1.setZero();
    jointForce_[static_cast<std::size_t>(j)].setZero();
    return;
  }
  const V beta = R.b1 - groundMotion - c_[static_cast<std::size_t>(j)];
  if (!jointBiases(j, beta, load, root)) singular_[static_cast<std::size_t>(j)] = 1;
  R.f1 = root.e;
  jointForce_[static_cast<std::size_t>(j)] = root.e;
  rates.segment(joint.iv, joint.nv) = root.mu;
}

// Disassembly (thesis eq. (3.39) and the text after eq. (3.44)): C's handle forces give the
// joint's relative-motion change y = Phi^A_21^ f_1 - X f_2, hence the joint force and rates, then
// A's and B's handle forces.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::disassemble(const Workspace& ws, int node, VecX& rates) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  if (articulated_) {
    const auto j = static_cast<std::size_t>(n.joint);
    articulated_->disassemble(node, n, c_[j], rates, jointForce_[j]);
    return;
  }
  const Offset s = jointOffset(ws, n.joint);
  const NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  V y = Space::template motionAt<Scalar>(V(A.coupling().transpose() * C.f1), s);
  if (n.hasDownHandle) {
    if (n.rake)
      y += Space::template motionAt<Scalar>(V(A.lower() * C.f2), s);
    else
      y.noalias() -= B.coupling() * C.f2;
  }
  const Joint& joint = model_.joints[static_cast<std::size_t>(n.joint)];
  V f;
  applyElimination(C.joint, y, f, rates.segment(joint.iv, joint.nv));
  A.f1 = C.f1;
  A.f2 = -Space::template forceAt<Scalar>(f, s);
  B.f1 = f;
  B.f2.setZero();
  if (n.hasDownHandle) (n.rake ? A.f2 : B.f2) += C.f2;
  jointForce_[static_cast<std::size_t>(n.joint)] = f;
}

template <class Scalar, class Space>
typename BasicHandleAssembly<Scalar, Space>::Offset BasicHandleAssembly<Scalar, Space>::jointOffset(const Workspace& ws, int j) const {
  return Space::template origin<Scalar>(ws, j) -
         Space::template origin<Scalar>(ws, model_.joints[static_cast<std::size_t>(j)].parent);
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::throwIfSingular(std::string_view formulation) const {
  for (int j = 1; j <= model_.bodyCount(); ++j)
    if (singular_[static_cast<std::size_t>(j)])
      throw Error(std::string(formulation) + ": the mobility at joint '" +
                  model_.joints[static_cast<std::size_t>(j)].name +
                  "' is singular or not finite (the state or the loads are not finite, or a body has no inertia "
                  "about the joint's axes)");
}

template class BasicHandleAssembly<double, SpatialSpace>;
template class BasicHandleAssembly<float, SpatialSpace>;
template class BasicHandleAssembly<double, PlanarSpace>;
template class BasicHandleAssembly<float, PlanarSpace>;

}  // namespace articula
