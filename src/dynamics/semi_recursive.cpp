// Semi-recursive dynamic terms (seed 001, eq. (3)-(19)) and the tree-sparse LTL factorisation
// (RBDA section 6.5, table 6.3).
//
// Every body quantity is expressed in world axes about the world origin, as in seed 001 eq. (3):
// the velocity Z_i is the spatial velocity [w; sdot], sdot the velocity of the body point that
// coincides with the origin. In that single frame a child's accumulated inertia and force add to
// its parent's unchanged, which is what makes eq. (17) and (19) plain sums.
//
// We take accelerations in Featherstone's sense (the time derivative of Z_i), so the velocity
// term of a body's Newton-Euler equation is the spatial bias force V x* (Mbar V); its force part
// w x m(sdot + w x g) differs from the one printed in seed 001 eq. (5), which leaves out w x m sdot
// (that form belongs to a Zdot whose linear part is the classical acceleration of the body point
// at the origin). Both are consistent with their own velocity-product term; ours is checked
// against RNEA in tests/unit/test_semi_recursive.cpp.
#include "articula/dynamics/semi_recursive.hpp"

#include <cmath>
#include <string>

namespace articula {

namespace {

// seed 001 eq. (4): a body's inertia in world axes about the world origin, from its pose X0 = ^iX_0.
SpatialInertia worldInertia(const Body& b, const Transform& X0) {
  const Vec3 c = X0.inverseTransformPoint(b.com);
  const Mat3 Ic = X0.E.transpose() * b.inertiaCom * X0.E;
  return SpatialInertia::fromMassComInertia(b.mass, c, Ic);
}

}  // namespace

SemiRecursiveDynamics::SemiRecursiveDynamics(const Model& model)
    : model_(model), R_(model.bodies.size()), bias_(model.bodies.size()), Msum_(model.bodies.size()),
      Qsum_(model.bodies.size()) {
  for (int i = 1; i <= model.bodyCount(); ++i) R_[i].resize(6, model.joints[i].nv);
}

// Per body: R_i (the columns of H, eq. (9), in world coordinates), Mbar_i (eq. (4)) and
// Qbar_i - Mbar_i (T Hdot zdot)_i, the body's own part of eq. (19).
void SemiRecursiveDynamics::bodyTerms(const Workspace& ws) {
  // (T Hdot zdot)_i sums Rdot_k zdot_k over the joints k from the root to body i (eq. (7)-(9)).
  // With R_k = ^0X_k S_k, Rdot_k zdot_k = V_k x (R_k zdot_k) + ^0X_k (dS_k/dt) zdot_k, the
  // world image of the body-frame velocity-product term ws.c[k] = c_J + v x v_J.
  // Gravity enters as an acceleration of the ground, -g: Mbar_i (0, g) is the weight m g
  // at the centre of mass that eq. (5) writes into Qbar_i.
  bias_[0] = Motion(Vec3::Zero(), -model_.gravity);
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Joint& j = model_.joints[i];
    const Transform& X0 = ws.X0[i];
    const MotionSubspace& S = ws.joint[i].S;
    for (int col = 0; col < j.nv; ++col) R_[i].col(col) = X0.applyInverse(Motion::fromVector(S.col(col))).vector();
    bias_[i] = bias_[j.parent] + X0.applyInverse(ws.c[i]);
    const Motion V = X0.applyInverse(ws.v[i]);  // Z_i, eq. (3)
    const SpatialInertia I = worldInertia(model_.bodies[i], X0);
    Msum_[i] = I;
    // Qbar_i (eq. (5): applied forces and velocity products) minus Mbar_i (T Hdot zdot)_i.
    Qsum_[i] = X0.applyInverse(ws.fext[i]) - I * bias_[i] - crossForce(V, I * V);
  }
}

void SemiRecursiveDynamics::jointForce(const Workspace& ws, int i, Eigen::Ref<Eigen::VectorXd> Q) const {
  const Joint& j = model_.joints[i];
  // eq. (15), as a lazy product: Eigen's matrix-vector kernel would copy its operands to the heap
  Q.segment(j.iv, j.nv).noalias() = R_[i].transpose().lazyProduct(Qsum_[i].vector());
  Q.segment(j.iv, j.nv) += ws.tau.segment(j.iv, j.nv);
}

void SemiRecursiveDynamics::forces(const Workspace& ws, Eigen::Ref<Eigen::VectorXd> Q) {
  bodyTerms(ws);
  for (int i = model_.bodyCount(); i >= 1; --i) {  // leaves to root, eq. (19)
    const Joint& j = model_.joints[i];
    jointForce(ws, i, Q);
    if (j.parent != 0) Qsum_[j.parent] += Qsum_[i];
  }
}

void SemiRecursiveDynamics::evaluate(const Workspace& ws, Eigen::Ref<Eigen::MatrixXd> M, Eigen::Ref<Eigen::VectorXd> Q) {
  bodyTerms(ws);
  M.setZero();  // blocks between different branches are zero, eq. (16)
  for (int i = model_.bodyCount(); i >= 1; --i) {  // leaves to root, eq. (17) and (19)
    const Joint& j = model_.joints[i];
    const MotionSubspace& Ri = R_[i];
    jointForce(ws, i, Q);
    // Column block i of eq. (14): M_ki = R_k^T M^Sigma_i R_i for body i and each ancestor k.
    F_.resize(6, j.nv);
    for (int col = 0; col < j.nv; ++col) F_.col(col) = (Msum_[i] * Motion::fromVector(Ri.col(col))).vector();
    if (j.nv == 1) {  // the common single-dof joint: dot products instead of small dynamic products
      M(j.iv, j.iv) = Ri.col(0).dot(F_.col(0));
      for (int k = j.parent; k != 0; k = model_.joints[k].parent) {
        const Joint& jk = model_.joints[k];
        for (int col = 0; col < jk.nv; ++col) M(jk.iv + col, j.iv) = M(j.iv, jk.iv + col) = R_[k].col(col).dot(F_.col(0));
      }
    } else if (j.nv > 1) {
      M.block(j.iv, j.iv, j.nv, j.nv).noalias() = Ri.transpose().lazyProduct(F_);
      for (int k = j.parent; k != 0; k = model_.joints[k].parent) {
        const Joint& jk = model_.joints[k];
        M.block(jk.iv, j.iv, jk.nv, j.nv).noalias() = R_[k].transpose().lazyProduct(F_);
        M.block(j.iv, jk.iv, j.nv, jk.nv) = M.block(jk.iv, j.iv, jk.nv, j.nv).transpose();
      }
    }
    if (j.parent != 0) {
      Msum_[j.parent] += Msum_[i];
      Qsum_[j.parent] += Qsum_[i];
    }
  }
}

TreeCholesky::TreeCholesky(const Model& model)
    : model_(model), lambda_(model.nv, -1), joint_(model.nv, 0), rowStart_(model.nv + 1, 0) {
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    int ancestor = -1;  // last coordinate of the nearest ancestor joint that has any
    for (int k = j.parent; k != 0 && ancestor < 0; k = model.joints[k].parent)
      if (model.joints[k].nv > 0) ancestor = model.joints[k].iv + model.joints[k].nv - 1;
    for (int d = 0; d < j.nv; ++d) {
      lambda_[j.iv + d] = d == 0 ? ancestor : j.iv + d - 1;  // a joint's coordinates form a chain
      joint_[j.iv + d] = i;
    }
  }
  for (int k = 0; k < model.nv; ++k) {
    int depth = 0;
    for (int i = lambda_[k]; i != -1; i = lambda_[i]) ++depth;
    rowStart_[k + 1] = rowStart_[k] + 1 + depth;
  }
  factor_.resize(rowStart_[model.nv]);
}

void TreeCholesky::factorize(Eigen::Ref<Eigen::MatrixXd> A) {
  // Row k of L is nonzero only at k's ancestors, held contiguously in factor_. The ancestors of an
  // ancestor i = lambda^p(k) are the tail of k's list, so row i is aligned with row k from
  // position p on, and the update of row i below is one contiguous axpy. (Worked in place in the
  // column-major A, the same update strides across rows: 35 times slower for a 512-link chain.)
  const int n = static_cast<int>(lambda_.size());
  for (int k = 0; k < n; ++k) {
    int p = rowStart_[k];
    factor_[p] = A(k, k);
    for (int i = lambda_[k]; i != -1; i = lambda_[i]) factor_[++p] = A(k, i);
  }
  // RBDA table 6.3 (LTL): eliminate coordinates from the last (a leaf) to the first; the updates
  // touch only ancestor pairs, so there is no fill-in.
  for (int k = n - 1; k >= 0; --k) {
    double* rowK = factor_.data() + rowStart_[k];
    const int length = rowStart_[k + 1] - rowStart_[k];
    const double pivot = rowK[0];
    if (!(pivot > 0.0) || !std::isfinite(pivot)) {
      const Joint& j = model_.joints[joint_[k]];
      throw Error("matrix is not positive definite at joint '" + j.name + "' (coordinate " +
                  std::to_string(k - j.iv) + ", pivot " + std::to_string(pivot) + ")");
    }
    rowK[0] = std::sqrt(pivot);
    Eigen::Map<Eigen::VectorXd>(rowK + 1, length - 1) /= rowK[0];
    int p = 1;
    for (int i = lambda_[k]; i != -1; i = lambda_[i], ++p)
      Eigen::Map<Eigen::VectorXd>(factor_.data() + rowStart_[i], length - p) -=
          rowK[p] * Eigen::Map<const Eigen::VectorXd>(rowK + p, length - p);
  }
  for (int k = 0; k < n; ++k) {
    int p = rowStart_[k];
    A(k, k) = factor_[p];
    for (int i = lambda_[k]; i != -1; i = lambda_[i]) A(k, i) = factor_[++p];
  }
}

void TreeCholesky::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const {
  const int n = static_cast<int>(lambda_.size());
  for (int k = n - 1; k >= 0; --k) {  // L^T y = x, from the leaves to the root
    int p = rowStart_[k];
    x[k] /= factor_[p];
    for (int i = lambda_[k]; i != -1; i = lambda_[i]) x[i] -= factor_[++p] * x[k];
  }
  for (int k = 0; k < n; ++k) {  // L x = y, from the root to the leaves
    int p = rowStart_[k];
    double s = x[k];
    for (int i = lambda_[k]; i != -1; i = lambda_[i]) s -= factor_[++p] * x[i];
    x[k] = s / factor_[rowStart_[k]];
  }
}

}  // namespace articula
