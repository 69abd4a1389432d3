#include "articula/dynamics/handle_assembly.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <string>

#include "articula/core/error.hpp"

namespace articula {

namespace {

// T M and M T^T for a 6x6 M (see motionAt).
Mat6 shiftRows(const Mat6& M, const Vec3& s) {
  Mat6 out = M;
  out.bottomRows<3>().noalias() -= skew(s) * M.topRows<3>();
  return out;
}
Mat6 shiftColumns(const Mat6& M, const Vec3& s) {
  Mat6 out = M;
  out.rightCols<3>().noalias() += M.leftCols<3>() * skew(s);
  return out;
}

}  // namespace

HandleAssembly::HandleAssembly(const Model& model, const PairingPolicy& pairing, std::string_view formulation)
    : model_(model), tree_(model, pairing) {
  if (model.hasConstraints())
    throw Error("formulation '" + std::string(formulation) + "' handles open trees only, but the model has " +
                std::to_string(model.loops.size()) + " loop closure(s) and " + std::to_string(model.prescribed.size()) +
                " prescribed motion(s)");
  const int n = model.bodyCount();
  inverseCentralInertia_.resize(static_cast<std::size_t>(n) + 1, Mat3::Zero());
  S_.resize(static_cast<std::size_t>(n) + 1);
  c_.assign(static_cast<std::size_t>(n) + 1, Vec6::Zero());
  jointForce_.assign(static_cast<std::size_t>(n) + 1, Vec6::Zero());
  singular_.assign(static_cast<std::size_t>(n) + 1, 0);
  for (int i = 1; i <= n; ++i) {
    inverseCentralInertia_[static_cast<std::size_t>(i)] =
        model.bodies[static_cast<std::size_t>(i)].inertiaCom.inverse();
    S_[static_cast<std::size_t>(i)].setZero(6, model.joints[static_cast<std::size_t>(i)].nv);
  }
  eq_.resize(tree_.nodes().size());
  for (std::size_t k = 0; k < eq_.size(); ++k) {
    const int j = tree_.nodes()[k].joint;
    const int nv = j > 0 ? model.joints[static_cast<std::size_t>(j)].nv : 0;
    eq_[k].joint.Y.setZero(6, nv);
    eq_[k].joint.mu.setZero(nv);
    eq_[k].f2.setZero();
  }
}

// Phi = I^-1 for the spatial inertia I about the body's origin, formed from the central inertia
// Ic and the centre of mass c: [Ic^-1, -Ic^-1 cx; cx Ic^-1, 1/m - cx Ic^-1 cx]. World axes.
void HandleAssembly::leaf(const Workspace& ws, int i) {
  const auto idx = static_cast<std::size_t>(i);
  const Joint& joint = model_.joints[idx];
  const Body& body = model_.bodies[idx];
  const Mat3 R = ws.X0[idx].E.transpose();  // body axes in world axes
  for (int k = 0; k < joint.nv; ++k) {
    S_[idx].col(k).head<3>().noalias() = R * ws.joint[idx].S.col(k).head<3>();
    S_[idx].col(k).tail<3>().noalias() = R * ws.joint[idx].S.col(k).tail<3>();
  }
  const Mat3 invIc = R * inverseCentralInertia_[idx] * R.transpose();
  const Mat3 cx = skew(R * body.com);
  const Mat3 invIcCx = invIc * cx;
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  Mat6& phi = eq.phi11;
  phi.topLeftCorner<3, 3>() = invIc;
  phi.topRightCorner<3, 3>() = -invIcCx;
  phi.bottomLeftCorner<3, 3>() = -invIcCx.transpose();  // cx Ic^-1
  phi.bottomRightCorner<3, 3>() = Mat3::Identity() / body.mass;
  phi.bottomRightCorner<3, 3>().noalias() -= cx * invIcCx;
  eq.phi12 = phi;
  eq.phi22 = phi;
  eq.b1.setZero();
  eq.b2.setZero();
}

void HandleAssembly::setLeafForce(int i, const Vec6& force) {
  NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  eq.b1.noalias() = eq.phi11 * force;
  eq.b2 = eq.b1;
}

Vec6 HandleAssembly::leafMotion(int i) const {
  const NodeEquations& eq = eq_[static_cast<std::size_t>(i - 1)];
  Vec6 m = eq.b1;
  m.noalias() += eq.phi11 * (eq.f1 + eq.f2);
  return m;
}

// One joint's force from its relative motion. With both sides' handle equations, the joint
// gives K f + r = S qdot (K the sum of the mobilities at the joint) and S^T f = tau (the joint
// load; constraint forces do no work along S), so
//   qdot = M^-1 (tau + S^T K^-1 r),  f = Y tau - W r,   M = S^T K^-1 S,  Y = K^-1 S M^-1,
//   W = K^-1 - Y S^T K^-1,
// which is thesis eq. (3.38)-(3.39) with the constraint subspace D eliminated through S.
bool HandleAssembly::eliminate(const Mat6& K, int j, const Vec6& beta, const Eigen::VectorXd& load,
                               JointElimination& out) const {
  const Eigen::LLT<Mat6> llt(K);
  if (llt.info() != Eigen::Success) return false;
  out.W = llt.solve(Mat6::Identity());
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  if (joint.nv == 0) {
    out.e.noalias() = -out.W * beta;
    return std::isfinite(out.e.sum());
  }
  const SubspaceForce& S = S_[static_cast<std::size_t>(j)];
  const SubspaceForce KS = out.W * S;  // K^-1 S
  const SmallMatrix M = S.transpose() * KS;
  const Eigen::LLT<SmallMatrix> lltM(M);
  if (lltM.info() != Eigen::Success) return false;
  const SmallMatrix invM = lltM.solve(SmallMatrix::Identity(joint.nv, joint.nv));
  out.Y.noalias() = KS * invM;
  out.W.noalias() -= out.Y * KS.transpose();
  const auto tau = load.segment(joint.iv, joint.nv);
  out.e.noalias() = out.Y * tau;
  out.e.noalias() -= out.W * beta;
  out.mu.noalias() = invM * tau;
  out.mu.noalias() += out.Y.transpose() * beta;
  return std::isfinite(out.e.sum() + out.mu.sum());
}

// Assembly of C from A (above the joint) and B (below it), thesis eq. (3.42). Each handle
// equation is written about its own body's origin; the joint is solved about the origin of B's
// top body t, to which A's lower handle (about p, the joint's parent body) is shifted: hats mark
// A's coefficients seen from there. The joint force is f = W Phi^A_21^ f_1 - W X f_2 + e
// (eq. (3.39)), where C's f_2 enters the relative motion through X: Phi^B_12 when C's lower
// handle is B's (compress), -Phi^A_22 shifted when it stays A's (rake). Substituting f into A's
// upper handle and into C's lower handle gives C's coefficients.
void HandleAssembly::assemble(const Workspace& ws, int node, const Eigen::VectorXd& load) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  const NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  const NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  const Vec3 s = jointOffset(ws, n.joint);
  const Mat6 A12 = shiftColumns(A.phi12, s);
  const Mat6 A22 = shiftRows(A.phi22, s);  // T Phi^A_22
  const Mat6 K = B.phi11 + shiftColumns(A22, s);
  const Vec6 beta = B.b1 - motionAt(A.b2, s) - c_[static_cast<std::size_t>(n.joint)];
  const bool ok = eliminate(K, n.joint, beta, load, C.joint);
  singular_[static_cast<std::size_t>(n.joint)] = !ok;
  if (!ok) return;
  const Mat6& W = C.joint.W;
  const Vec6& e = C.joint.e;
  C.WPhi.noalias() = W * A12.transpose();
  C.phi11 = A.phi11;
  C.phi11.noalias() -= A12 * C.WPhi;
  C.b1 = A.b1;
  C.b1.noalias() -= A12 * e;
  if (!n.hasDownHandle) return;  // C's f_2 is zero: its lower-handle coefficients are never read
  const Mat6 X = n.rake ? Mat6(-A22) : B.phi12;
  C.WX.noalias() = W * X;
  if (n.rake) {
    C.phi12 = A.phi12;
    C.phi22 = A.phi22;
    C.b2 = A.b2;
  } else {
    C.phi12.setZero();
    C.phi22 = B.phi22;
    C.b2 = B.b2;
  }
  C.phi12.noalias() += A12 * C.WX;
  C.phi22.noalias() -= X.transpose() * C.WX;
  C.b2.noalias() += X.transpose() * e;
}

// Base connection (thesis eq. (3.44)): the root's upper handle is joined to the ground, whose
// mobility is zero.
void HandleAssembly::solveRoot(int node, const Vec6& groundMotion, const Eigen::VectorXd& load,
                               Eigen::VectorXd& rates) {
  NodeEquations& R = eq_[static_cast<std::size_t>(node)];
  const int j = tree_.nodes()[static_cast<std::size_t>(node)].top;
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  const Vec6 beta = R.b1 - groundMotion - c_[static_cast<std::size_t>(j)];
  JointElimination root;
  root.Y.resize(6, joint.nv);
  root.mu.resize(joint.nv);
  const bool ok = eliminate(R.phi11, j, beta, load, root);
  singular_[static_cast<std::size_t>(j)] = !ok;
  R.f1 = root.e;
  R.f2.setZero();
  jointForce_[static_cast<std::size_t>(j)] = root.e;
  rates.segment(joint.iv, joint.nv) = root.mu;
}

// Disassembly (thesis eq. (3.39) and the text after eq. (3.44)): C's handle forces give the
// joint force, then A's and B's handle forces and the joint rates qdot = mu + Y^T (r - beta).
void HandleAssembly::disassemble(const Workspace& ws, int node, Eigen::VectorXd& rates) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  const NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  const Vec3 s = jointOffset(ws, n.joint);
  Vec6 f = C.joint.e;
  f.noalias() += C.WPhi * C.f1;
  Vec6 r = -motionAt(A.phi12.transpose() * C.f1, s);
  if (n.hasDownHandle) {
    f.noalias() -= C.WX * C.f2;
    if (n.rake)
      r -= motionAt(A.phi22 * C.f2, s);
    else
      r.noalias() += B.phi12 * C.f2;
  }
  A.f1 = C.f1;
  A.f2 = -forceAt(f, s);
  B.f1 = f;
  B.f2.setZero();
  if (n.hasDownHandle) (n.rake ? A.f2 : B.f2) += C.f2;
  jointForce_[static_cast<std::size_t>(n.joint)] = f;
  const Joint& joint = model_.joints[static_cast<std::size_t>(n.joint)];
  if (joint.nv == 0) return;
  auto qdot = rates.segment(joint.iv, joint.nv);
  qdot = C.joint.mu;
  qdot.noalias() += C.joint.Y.transpose() * r;
}

void HandleAssembly::solve(const Workspace& ws, const Vec6& groundMotion, const Eigen::VectorXd& load,
                           Eigen::VectorXd& rates) {
  const std::vector<int>& roots = tree_.roots();
  const int tiers = tree_.tierCount();
  for (int tier = 1; tier < tiers; ++tier)
    forEachInTier(tree_.tierBegin(tier), tree_.tierEnd(tier), [&](int node) { assemble(ws, node, load); });
  forEachInTier(0, static_cast<int>(roots.size()),
                [&](int k) { solveRoot(roots[static_cast<std::size_t>(k)], groundMotion, load, rates); });
  for (int tier = tiers - 1; tier >= 1; --tier)
    forEachInTier(tree_.tierBegin(tier), tree_.tierEnd(tier), [&](int node) { disassemble(ws, node, rates); });
}

Vec3 HandleAssembly::jointOffset(const Workspace& ws, int j) const {
  const auto idx = static_cast<std::size_t>(j);
  return ws.X0[idx].r - ws.X0[static_cast<std::size_t>(model_.joints[idx].parent)].r;
}

void HandleAssembly::throwIfSingular(std::string_view formulation) const {
  for (int j = 1; j <= model_.bodyCount(); ++j)
    if (singular_[static_cast<std::size_t>(j)])
      throw Error(std::string(formulation) + ": the mobility at joint '" +
                  model_.joints[static_cast<std::size_t>(j)].name +
                  "' is singular or not finite (the state or the loads are not finite, or a body has no inertia "
                  "about the joint's axes)");
}

}  // namespace articula
