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
    : model_(model), tree_(model, pairing), threads_(threads), schedule_(tree_, std::max(1, threads)) {
  if (threads < 1) throw Error(std::string(formulation) + ": the thread count must be at least 1");
  const int n = model.bodyCount();
  centralInertia_.resize(static_cast<std::size_t>(n) + 1, Mat3::Zero());
  inverseCentralInertia_.resize(static_cast<std::size_t>(n) + 1, Mat3::Zero());
  S_.resize(static_cast<std::size_t>(n) + 1);
  c_.assign(static_cast<std::size_t>(n) + 1, V::Zero());
  jointForce_.assign(static_cast<std::size_t>(n) + 1, V::Zero());
  singular_.assign(static_cast<std::size_t>(n) + 1, 0);
  for (int i = 1; i <= n; ++i) {
    centralInertia_[static_cast<std::size_t>(i)] = model.bodies[static_cast<std::size_t>(i)].inertiaCom;
    inverseCentralInertia_[static_cast<std::size_t>(i)] = model.bodies[static_cast<std::size_t>(i)].inertiaCom.inverse();
    S_[static_cast<std::size_t>(i)].setZero(D, model.joints[static_cast<std::size_t>(i)].nv);
  }
  eq_.resize(tree_.nodes().size());
  rootJoint_.resize(tree_.roots().size());
  auto size = [&](JointElimination& el, int joint) {
    const int nv = joint > 0 ? model.joints[static_cast<std::size_t>(joint)].nv : 0;
    el.Q.setZero(D, nv);
    el.R.setZero(nv, nv);
    el.mu.setZero(nv);
  };
  for (std::size_t k = 0; k < rootJoint_.size(); ++k)
    size(rootJoint_[k], tree_.nodes()[static_cast<std::size_t>(tree_.roots()[k])].top);
  for (std::size_t k = 0; k < eq_.size(); ++k) {
    size(eq_[k].joint, tree_.nodes()[k].joint);
    eq_[k].f2.setZero();
  }
}

// Phi = I^-1 for the inertia I about the body's origin (Space::mobility), world axes.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::leaf(const Workspace& ws, int i) {
  const auto idx = static_cast<std::size_t>(i);
  const Joint& joint = model_.joints[idx];
  const Body& body = model_.bodies[idx];
  const Mat3 R = ws.X0[idx].E.transpose();  // body axes in world axes
  for (int k = 0; k < joint.nv; ++k) {
    Vec6 column;
    column << R * ws.joint[idx].S.col(k).head<3>(), R * ws.joint[idx].S.col(k).tail<3>();
    S_[idx].col(k) = Space::template fromWorld<Scalar>(column);
  }
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  eq.phi11 = Space::template mobility<Scalar>(R, centralInertia_[idx], inverseCentralInertia_[idx], R * body.com, body.mass);
  eq.phi12 = eq.phi11;
  eq.phi22 = eq.phi11;
  eq.b1.setZero();
  eq.b2.setZero();
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::setLeafForce(int i, const V& force) {
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  eq.b1.noalias() = eq.phi11 * force;
  eq.b2 = eq.b1;
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::clearLeafForce(int i) {
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  eq.b1.setZero();
  eq.b2.setZero();
}

template <class Scalar, class Space>
typename BasicHandleAssembly<Scalar, Space>::V BasicHandleAssembly<Scalar, Space>::leafMotion(int i) const {
  const NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  V m = eq.b1;
  m.noalias() += eq.phi11 * (eq.f1 + eq.f2);
  return m;
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
  for (int j = 0; j < D; ++j) {
    S d = K(j, j);
    for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
    if (!(d > S(0)) || !std::isfinite(d)) return false;
    L(j, j) = std::sqrt(d);
    reciprocal[j] = S(1) / L(j, j);
    for (int i = j + 1; i < D; ++i) {
      S x = K(i, j);
      for (int k = 0; k < j; ++k) x -= L(i, k) * L(j, k);
      L(i, j) = x * reciprocal[j];
    }
  }
  Linv.setZero();
  for (int j = 0; j < D; ++j) {
    Linv(j, j) = reciprocal[j];
    for (int i = j + 1; i < D; ++i) {
      S sum = S(0);
      for (int k = j; k < i; ++k) sum += L(i, k) * Linv(k, j);
      Linv(i, j) = -sum * reciprocal[i];
    }
  }
  return true;
}

// M -= A^T A for symmetric M: the lower triangle by column dot products, mirrored (half the
// work of the full product).
template <class Mat>
void subtractGram(Mat& M, const Mat& A) {
  constexpr int D = Mat::RowsAtCompileTime;
  for (int j = 0; j < D; ++j)
    for (int i = j; i < D; ++i) M(i, j) -= A.col(i).dot(A.col(j));
  M.template triangularView<Eigen::StrictlyUpper>() = M.transpose();
}

// M += sign (Q^T A)^T (Q^T B) for the few orthonormal columns of Q (one per joint coordinate):
// one fixed-size outer product per column (the common single-coordinate joint without
// dynamic-size temporaries).
template <class Mat, class Sub>
void addProjected(Mat& M, const Sub& Q, const Mat& A, const Mat& B, typename Mat::Scalar sign) {
  using Vec = Eigen::Matrix<typename Mat::Scalar, Mat::RowsAtCompileTime, 1>;
  for (Eigen::Index k = 0; k < Q.cols(); ++k) {
    const Vec q = Q.col(k);
    const Vec a = A.transpose() * q, b = B.transpose() * q;
    M.noalias() += (sign * a) * b.transpose();
  }
}

}  // namespace

// One joint's force from its relative motion. With both sides' handle equations, the joint
// gives K f + r = S qdot (K the sum of the mobilities at the joint) and S^T f = tau (the joint
// load; constraint forces do no work along S). With K = L L^T, g = L^T f and U = L^-1 S = Q R:
//   g = U qdot - L^-1 r,  U^T g = tau  =>  qdot = R^-1 (R^-T tau + Q^T L^-1 r),
//   f = L^-T (Q R^-T tau - P L^-1 r),  P = 1 - Q Q^T,
// which is thesis eq. (3.38)-(3.39): L^-T P L^-1 equals D (D^T K D)^-1 D^T for any D spanning the
// constraint directions (D^T S = 0), and no D is formed. factorJoint writes the factors (they
// depend on the configuration only), jointBiases the force e and rates mu at r = beta.
template <class Scalar, class Space>
bool BasicHandleAssembly<Scalar, Space>::factorJoint(const M& K, int j, JointElimination& out) const {
  if (!inverseCholeskyFactor(K, out.Linv)) return false;
  const Sub& S = S_[static_cast<std::size_t>(j)];
  if (S.cols() == 1) {  // one coordinate: Q = U / |U|, without dynamic-size temporaries
    const V u = out.Linv * S.col(0);
    const Scalar r = u.norm();
    if (!(r > Scalar(1e3) * std::numeric_limits<Scalar>::epsilon() * S.col(0).norm())) return false;
    out.Q.col(0) = u / r;
    out.R(0, 0) = r;
    return true;
  }
  const Sub U = out.Linv.lazyProduct(S);
  return thinQR(U, out.Q, out.R);
}

template <class Scalar, class Space>
bool BasicHandleAssembly<Scalar, Space>::jointBiases(int j, const V& beta, const VecX& load, JointElimination& el) const {
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  const V z = el.Linv * beta;
  if (joint.nv == 1) {
    const V q = el.Q.col(0);
    const Scalar r = el.R(0, 0), t = load[joint.iv] / r + q.dot(z);
    el.e.noalias() = el.Linv.transpose() * V(q * t - z);
    el.mu[0] = t / r;
    return std::isfinite(el.e.sum() + el.mu[0]);
  }
  SmallV t = load.segment(joint.iv, joint.nv);
  el.R.transpose().template triangularView<Eigen::Lower>().solveInPlace(t);  // R^-T tau
  t.noalias() += el.Q.transpose() * z;
  V g = -z;
  g.noalias() += el.Q * t;
  el.e.noalias() = el.Linv.transpose() * g;
  el.mu = t;
  el.R.template triangularView<Eigen::Upper>().solveInPlace(el.mu);
  return std::isfinite(el.e.sum() + el.mu.sum());
}

// f = e + W y and qdot = mu - Y^T y for y = beta - r (see factorJoint).
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::applyElimination(const JointElimination& el, const V& y, V& f,
                                      Eigen::Ref<VecX> qdot) {
  V z = el.Linv * y;
  if (el.Q.cols() == 1) {
    const V q = el.Q.col(0);
    const Scalar c = q.dot(z);
    z -= q * c;
    f = el.e;
    f.noalias() += el.Linv.transpose() * z;
    qdot[0] = el.mu[0] - c / el.R(0, 0);
    return;
  }
  SmallV c = el.Q.transpose() * z;
  z.noalias() -= el.Q * c;
  f = el.e;
  f.noalias() += el.Linv.transpose() * z;
  el.R.template triangularView<Eigen::Upper>().solveInPlace(c);
  qdot = el.mu - c;
}

// Assembly of C from A (above the joint) and B (below it), thesis eq. (3.42). Each handle
// equation is written about its own body's origin; the joint is solved about the origin of B's
// top body t, to which A's lower handle (about p, the joint's parent body) is shifted: hats mark
// A's coefficients seen from there. The joint force is f = e + W (Phi^A_21^ f_1 - X f_2)
// (eq. (3.39)), where C's f_2 enters the relative motion through X: Phi^B_12 when C's lower
// handle is B's (compress), -Phi^A_22 shifted when it stays A's (rake). Substituting f into A's
// upper handle and into C's lower handle gives C's coefficients; with W = L^-T P L^-1 the
// products weighted by W are formed from H = L^-1 A12^T and J = L^-1 X.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::assemble(const Workspace& ws, int node, const VecX& load) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  const NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  const NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  const Offset s = jointOffset(ws, n.joint);
  const M A12 = Space::template shiftColumns<Scalar>(A.phi12, s);
  const M A22 = Space::template shiftRows<Scalar>(A.phi22, s);  // T Phi^A_22
  const M K = B.phi11 + Space::template shiftColumns<Scalar>(A22, s);
  JointElimination& el = C.joint;
  singular_[static_cast<std::size_t>(n.joint)] = !factorJoint(K, n.joint, el);
  if (singular_[static_cast<std::size_t>(n.joint)]) return;
  const M H = el.Linv.lazyProduct(A12.transpose());
  C.phi11 = A.phi11;
  subtractGram(C.phi11, H);
  addProjected(C.phi11, el.Q, H, H, Scalar(1));
  if (n.hasDownHandle) {  // else C's f_2 is zero: its lower-handle coefficients are never read
    const M X = n.rake ? M(-A22) : B.phi12;
    const M J = el.Linv.lazyProduct(X);
    if (n.rake) {
      C.phi12 = A.phi12;
      C.phi22 = A.phi22;
    } else {
      C.phi12.setZero();
      C.phi22 = B.phi22;
    }
    C.phi12.noalias() += H.transpose() * J;
    addProjected(C.phi12, el.Q, H, J, Scalar(-1));
    subtractGram(C.phi22, J);
    addProjected(C.phi22, el.Q, J, J, Scalar(1));
  }
  assembleBiases(ws, node, load);
}

// The right-hand sides of C's handle equations (the bias part of assemble): with A12 e =
// Phi^A_12 T^T e and X^T e = -Phi^A_22 T^T e (rake) or Phi^B_21 e (compress), mat-vec products only.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::assembleBiases(const Workspace& ws, int node, const VecX& load) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  const NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  const NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  if (singular_[static_cast<std::size_t>(n.joint)]) return;
  const Offset s = jointOffset(ws, n.joint);
  const V beta = B.b1 - Space::template motionAt<Scalar>(A.b2, s) - c_[static_cast<std::size_t>(n.joint)];
  JointElimination& el = C.joint;
  if (!jointBiases(n.joint, beta, load, el)) singular_[static_cast<std::size_t>(n.joint)] = 1;
  const V shifted = Space::template forceAt<Scalar>(el.e, s);  // T^T e
  C.b1 = A.b1;
  C.b1.noalias() -= A.phi12 * shifted;
  if (!n.hasDownHandle) return;
  if (n.rake) {
    C.b2 = A.b2;
    C.b2.noalias() -= A.phi22 * shifted;
  } else {
    C.b2 = B.b2;
    C.b2.noalias() += B.phi12.transpose() * el.e;
  }
}

// Base connection (thesis eq. (3.44)): the root's upper handle is joined to the ground, whose
// mobility is zero. factorRoot once per configuration, solveRoot for each right-hand side.
template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::factorRoot(int k) {
  const int node = tree_.roots()[static_cast<std::size_t>(k)];
  const int j = tree_.nodes()[static_cast<std::size_t>(node)].top;
  singular_[static_cast<std::size_t>(j)] =
      !factorJoint(eq_[static_cast<std::size_t>(node)].phi11, j, rootJoint_[static_cast<std::size_t>(k)]);
}

template <class Scalar, class Space>
void BasicHandleAssembly<Scalar, Space>::solveRoot(int k, const V& groundMotion, const VecX& load, VecX& rates) {
  const int node = tree_.roots()[static_cast<std::size_t>(k)];
  NodeEquations& R = eq_[static_cast<std::size_t>(node)];
  const int j = tree_.nodes()[static_cast<std::size_t>(node)].top;
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
  const NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  const Offset s = jointOffset(ws, n.joint);
  V y = Space::template motionAt<Scalar>(V(A.phi12.transpose() * C.f1), s);
  if (n.hasDownHandle) {
    if (n.rake)
      y += Space::template motionAt<Scalar>(V(A.phi22 * C.f2), s);
    else
      y.noalias() -= B.phi12 * C.f2;
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
  const auto idx = static_cast<std::size_t>(j);
  return Space::template offset<Scalar>(ws.X0[idx].r - ws.X0[static_cast<std::size_t>(model_.joints[idx].parent)].r);
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
