#include "articula/dynamics/dca.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <string>

#include "articula/core/error.hpp"
#include "articula/dynamics/force_elements.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// The iterations of one tier, shared among the threads of the enclosing parallel region.
template <class Work>
void forEachInTier(int begin, int end, const Work& work) {
#pragma omp for schedule(static)
  for (int k = begin; k < end; ++k) work(k);
}

// Changes of reference point between handles, world axes throughout. With s = Q - P, a motion
// vector about P is T m about Q, T = [1 0; -sx 1] (the transpose of the thesis's shift matrix
// S_PQ, eq. (3.18)-(3.19)); a force about Q is T^T f about P (eq. (3.23)).
Vec6 motionAt(const Vec6& m, const Vec3& s) {
  Vec6 out = m;
  out.tail<3>() -= s.cross(Vec3(m.head<3>()));
  return out;
}
Vec6 forceAt(const Vec6& f, const Vec3& s) {
  Vec6 out = f;
  out.head<3>() += s.cross(Vec3(f.tail<3>()));
  return out;
}
// T M and M T^T for a 6x6 M.
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

DcaFormulation::DcaFormulation(const Model& model, const DcaOptions& options)
    : model_(model), ws_(model), tree_(model, options.pairing), threads_(options.threads) {
  if (model.hasConstraints())
    throw Error("formulation 'dca' handles open trees only, but the model has " + std::to_string(model.loops.size()) +
                " loop closure(s) and " + std::to_string(model.prescribed.size()) + " prescribed motion(s)");
  if (threads_ < 1) throw Error("dca: the thread count must be at least 1");
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

// Leaf coefficients (thesis eq. (3.29)-(3.31) at acceleration level): a rigid body with spatial
// inertia I about its frame origin obeys I a + v x* I v = f_1 + f_2 + f_ext, so both handles share
// Phi = I^-1 and b = Phi (f_ext - v x* I v). I^-1 is formed from the central inertia Ic and the
// centre of mass c: [Ic^-1, -Ic^-1 cx; cx Ic^-1, 1/m - cx Ic^-1 cx]. World axes, body origin.
void DcaFormulation::leafEquations(int i) {
  const auto idx = static_cast<std::size_t>(i);
  const Joint& joint = model_.joints[idx];
  const Body& body = model_.bodies[idx];
  const Mat3 R = ws_.X0[idx].E.transpose();  // body axes in world axes
  for (int k = 0; k < joint.nv; ++k) {
    S_[idx].col(k).head<3>().noalias() = R * ws_.joint[idx].S.col(k).head<3>();
    S_[idx].col(k).tail<3>().noalias() = R * ws_.joint[idx].S.col(k).tail<3>();
  }
  c_[idx] << R * ws_.c[idx].ang, R * ws_.c[idx].lin;

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
  const Motion& v = ws_.v[idx];
  const Force applied = ws_.fext[idx] - crossForce(v, body.inertia * v);  // body coordinates
  Vec6 appliedWorld;
  appliedWorld << R * applied.ang, R * applied.lin;
  eq.b1.noalias() = phi * appliedWorld;
  eq.phi12 = phi;
  eq.phi22 = phi;
  eq.b2 = eq.b1;
}

// One joint's force from its relative acceleration. With both sides' handle equations, the
// joint gives K f + r = S qdd (K the sum of the mobilities at the joint) and S^T f = tau (the
// applied joint forces; constraint forces do no work along S), so
//   qdd = M^-1 (tau + S^T K^-1 r),  f = Y tau - W r,   M = S^T K^-1 S,  Y = K^-1 S M^-1,
//   W = K^-1 - Y S^T K^-1,
// which is thesis eq. (3.38)-(3.39) with the constraint subspace D eliminated through S.
bool DcaFormulation::eliminate(const Mat6& K, int j, const Vec6& beta, JointElimination& out) const {
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
  const auto tau = ws_.tau.segment(joint.iv, joint.nv);
  out.e.noalias() = out.Y * tau;
  out.e.noalias() -= out.W * beta;
  out.mu.noalias() = invM * tau;
  out.mu.noalias() += out.Y.transpose() * beta;
  return std::isfinite(out.e.sum() + out.mu.sum());
}

// Assembly of C from A (above the joint) and B (below it), thesis eq. (3.42) in the
// acceleration-level form. Each handle equation is written about its own body's origin; the joint
// is solved about the origin of B's top body t, to which A's lower handle (about p, the joint's
// parent body) is shifted: hats mark A's coefficients seen from there. The joint force is
// f = W Phi^A_21^ f_1 - W X f_2 + e (eq. (3.39)), where C's f_2 enters the relative acceleration
// through X: Phi^B_12 when C's lower handle is B's (compress), -Phi^A_22 shifted when it stays
// A's (rake). Substituting f into A's upper handle and into C's lower handle gives C's coefficients.
void DcaFormulation::assemble(int node) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  const NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  const NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  const Vec3 s = jointOffset(n.joint);
  const Mat6 A12 = shiftColumns(A.phi12, s);
  const Mat6 A22 = shiftRows(A.phi22, s);  // T Phi^A_22
  const Mat6 K = B.phi11 + shiftColumns(A22, s);
  const Vec6 beta = B.b1 - motionAt(A.b2, s) - c_[static_cast<std::size_t>(n.joint)];
  const bool ok = eliminate(K, n.joint, beta, C.joint);
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
// mobility is zero and which accelerates at -g so that gravity acts on every body.
void DcaFormulation::solveRoot(int node, Eigen::VectorXd& vdot) {
  NodeEquations& R = eq_[static_cast<std::size_t>(node)];
  const int j = tree_.nodes()[static_cast<std::size_t>(node)].top;
  Vec6 a0;
  a0 << Vec3::Zero(), -model_.gravity;
  const Vec6 beta = R.b1 - a0 - c_[static_cast<std::size_t>(j)];
  JointElimination root;
  root.Y.resize(6, model_.joints[static_cast<std::size_t>(j)].nv);
  root.mu.resize(model_.joints[static_cast<std::size_t>(j)].nv);
  const bool ok = eliminate(R.phi11, j, beta, root);
  singular_[static_cast<std::size_t>(j)] = !ok;
  R.f1 = root.e;
  R.f2.setZero();
  jointForce_[static_cast<std::size_t>(j)] = root.e;
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  vdot.segment(joint.iv, joint.nv) = root.mu;
}

// Disassembly (thesis eq. (3.39) and the text after eq. (3.44)): C's handle forces give the
// joint force, then A's and B's handle forces and the joint accelerations qdd = mu + Y^T (r - beta).
void DcaFormulation::disassemble(int node, Eigen::VectorXd& vdot) {
  const AssemblyNode& n = tree_.nodes()[static_cast<std::size_t>(node)];
  const NodeEquations& C = eq_[static_cast<std::size_t>(node)];
  NodeEquations& A = eq_[static_cast<std::size_t>(n.first)];
  NodeEquations& B = eq_[static_cast<std::size_t>(n.second)];
  const Vec3 s = jointOffset(n.joint);
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
  auto qdd = vdot.segment(joint.iv, joint.nv);
  qdd = C.joint.mu;
  qdd.noalias() += C.joint.Y.transpose() * r;
}

Vec3 DcaFormulation::jointOffset(int j) const {
  const auto idx = static_cast<std::size_t>(j);
  return ws_.X0[idx].r - ws_.X0[static_cast<std::size_t>(model_.joints[idx].parent)].r;
}

void DcaFormulation::accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   Eigen::VectorXd& vdot) {
  updateVelocities(model_, ws_, q, v);
  evaluateForceElements(model_, ws_, t, q, v);
  const int bodies = model_.bodyCount();
  const std::vector<int>& roots = tree_.roots();
  const int tiers = tree_.tierCount();
#pragma omp parallel num_threads(threads_) if (threads_ > 1)
  {
    forEachInTier(1, bodies + 1, [&](int i) { leafEquations(i); });
    for (int tier = 1; tier < tiers; ++tier)
      forEachInTier(tree_.tierBegin(tier), tree_.tierEnd(tier), [&](int node) { assemble(node); });
    forEachInTier(0, static_cast<int>(roots.size()),
                  [&](int k) { solveRoot(roots[static_cast<std::size_t>(k)], vdot); });
    for (int tier = tiers - 1; tier >= 1; --tier)
      forEachInTier(tree_.tierBegin(tier), tree_.tierEnd(tier), [&](int node) { disassemble(node, vdot); });
  }
  for (int j = 1; j <= bodies; ++j)
    if (singular_[static_cast<std::size_t>(j)])
      throw Error("dca: the mobility at joint '" + model_.joints[static_cast<std::size_t>(j)].name +
                  "' is singular or not finite (the state or the loads are not finite, or a body has no inertia "
                  "about the joint's axes)");
}

}  // namespace articula
