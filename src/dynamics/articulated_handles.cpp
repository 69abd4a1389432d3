#include "articula/dynamics/articulated_handles.hpp"

#include <cmath>

#include <Eigen/Cholesky>

namespace articula {

template <class Scalar, class Space>
ArticulatedHandles<Scalar, Space>::ArticulatedHandles(const Model& model, const AssemblyTree& tree) : model_(model) {
  const auto bodies = static_cast<std::size_t>(model.bodyCount()) + 1;
  reference_.assign(bodies, 0);
  offset_.assign(bodies, Offset::Zero());
  S_.resize(bodies);
  for (std::size_t i = 1; i < bodies; ++i) {  // parents precede their children
    const int parent = model.joints[i].parent;
    reference_[i] = parent == 0 ? static_cast<int>(i) : reference_[static_cast<std::size_t>(parent)];
    S_[i].setZero(D, model.joints[i].nv);
  }
  auto size = [&](JointFactor& f, int joint) {
    const int nv = joint > 0 ? model.joints[static_cast<std::size_t>(joint)].nv : 0;
    f.U.setZero(D, nv);
    f.Dinv.setZero(nv, nv);
    f.u.setZero(nv);
  };
  nodes_.resize(tree.nodes().size());
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    nodes_[k].K.setZero();
    nodes_[k].beta.setZero();
    nodes_[k].motion.setZero();
    size(nodes_[k].joint, tree.nodes()[k].joint);
  }
  rootJoint_.resize(tree.roots().size());
  for (std::size_t k = 0; k < rootJoint_.size(); ++k)
    size(rootJoint_[k], tree.nodes()[static_cast<std::size_t>(tree.roots()[k])].top);
}

// The shifts from the body's origin to the reference point, once per body: its offset, its
// inertia, its joint's subspace.
template <class Scalar, class Space>
void ArticulatedHandles<Scalar, Space>::leaf(const Workspace& ws, int i, const Sub& S) {
  const auto idx = static_cast<std::size_t>(i);
  const Offset r = Space::template origin<Scalar>(ws, i) - Space::template origin<Scalar>(ws, reference_[idx]);
  offset_[idx] = r;
  Node& leaf = node(i - 1);
  Space::template leafInertia<Scalar>(model_, ws, i, r, leaf.K);
  leaf.beta.setZero();
  S_[idx] = S;
  Space::template shiftMotions<Scalar>(S_[idx], Offset(-r));
}

// U = K S and D^-1 = (S^T U)^-1; one coordinate (revolute, prismatic) without a factorisation.
template <class Scalar, class Space>
bool ArticulatedHandles<Scalar, Space>::factor(const M& K, int j, JointFactor& f) const {
  const Sub& S = S_[static_cast<std::size_t>(j)];
  const Eigen::Index nv = S.cols();
  if (nv == 0) return true;  // a fixed joint: the child moves with the parent
  f.U.noalias() = K * S;
  if (nv == 1) {
    const Scalar d = S.col(0).dot(f.U.col(0));
    if (!(d > Scalar(0)) || !std::isfinite(d)) return false;
    f.Dinv(0, 0) = Scalar(1) / d;
    return true;
  }
  const Eigen::LLT<SmallM> llt(SmallM(S.transpose() * f.U));
  if (llt.info() != Eigen::Success) return false;
  f.Dinv = llt.solve(SmallM::Identity(nv, nv));
  return f.Dinv.allFinite();
}

template <class Scalar, class Space>
typename ArticulatedHandles<Scalar, Space>::V ArticulatedHandles<Scalar, Space>::referenceBias(int j,
                                                                                              const V& c) const {
  return Space::template motionAt<Scalar>(c, Offset(-offset_[static_cast<std::size_t>(j)]));
}

// u = tau - S^T beta - U^T c.
template <class Scalar, class Space>
bool ArticulatedHandles<Scalar, Space>::jointLoad(int j, const V& c, const V& beta, const VecX& load,
                                                  JointFactor& f) const {
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  const Sub& S = S_[static_cast<std::size_t>(j)];
  if (joint.nv == 1) {
    f.u[0] = load[joint.iv] - S.col(0).dot(beta) - f.U.col(0).dot(c);
    return std::isfinite(f.u[0]);
  }
  f.u = load.segment(joint.iv, joint.nv);
  f.u.noalias() -= S.transpose() * beta;
  f.u.noalias() -= f.U.transpose() * c;
  return f.u.allFinite();
}

template <class Scalar, class Space>
typename ArticulatedHandles<Scalar, Space>::V ArticulatedHandles<Scalar, Space>::childMotion(
    int j, const JointFactor& f, const V& c, const V& m, VecX& rates) const {
  const Joint& joint = model_.joints[static_cast<std::size_t>(j)];
  const Sub& S = S_[static_cast<std::size_t>(j)];
  V child = m + c;
  if (joint.nv == 0) return child;
  auto qdot = rates.segment(joint.iv, joint.nv);
  if (joint.nv == 1) {
    qdot[0] = f.Dinv(0, 0) * (f.u[0] - f.U.col(0).dot(m));
    child.noalias() += S.col(0) * qdot[0];
    return child;
  }
  qdot.noalias() = f.Dinv * (f.u - f.U.transpose() * m);
  child.noalias() += S * qdot;
  return child;
}

template <class Scalar, class Space>
void ArticulatedHandles<Scalar, Space>::childForce(int j, const Node& below, V& f) const {
  V about = below.beta;
  about.noalias() += below.K * below.motion;
  f = Space::template forceAt<Scalar>(about, Offset(-offset_[static_cast<std::size_t>(j)]));
}

// K_C = K_A + K_B - U D^-1 U^T (see the top of articulated_handles.hpp).
template <class Scalar, class Space>
bool ArticulatedHandles<Scalar, Space>::assemble(int k, const AssemblyNode& n, const V& c, const VecX& load) {
  Node& C = node(k);
  const Node& B = node(n.second);
  if (!factor(B.K, n.joint, C.joint)) return false;
  const JointFactor& f = C.joint;
  const Eigen::Index nv = f.U.cols();
  C.K.noalias() = node(n.first).K + B.K;
  if (nv == 1) {
    const V w = f.U.col(0) * f.Dinv(0, 0);
    C.K.noalias() -= w.lazyProduct(f.U.col(0).transpose());
  } else if (nv > 1) {
    C.K.noalias() -= f.U * f.Dinv * f.U.transpose();
  }
  return assembleBiases(k, n, c, load);
}

// beta_C = beta_A + K_B c + beta_B + U D^-1 u.
template <class Scalar, class Space>
bool ArticulatedHandles<Scalar, Space>::assembleBiases(int k, const AssemblyNode& n, const V& c, const VecX& load) {
  Node& C = node(k);
  const Node& B = node(n.second);
  JointFactor& f = C.joint;
  const bool moving = !c.isZero(Scalar(0));  // c = 0 at the velocity level (HDCA)
  const V cr = moving ? referenceBias(n.joint, c) : V::Zero();
  const bool finite = jointLoad(n.joint, cr, B.beta, load, f);
  C.beta = node(n.first).beta + B.beta;
  if (moving) C.beta.noalias() += B.K * cr;
  if (f.U.cols() == 1)
    C.beta += f.U.col(0) * (f.Dinv(0, 0) * f.u[0]);
  else if (f.U.cols() > 1)
    C.beta.noalias() += f.U * (f.Dinv * f.u);
  return finite;
}

template <class Scalar, class Space>
bool ArticulatedHandles<Scalar, Space>::factorRoot(int k, int root, int j) {
  return factor(node(root).K, j, rootJoint_[static_cast<std::size_t>(k)]);
}

// The root's top joint j with the ground's motion as the parent side (the root body's origin is
// the reference point).
template <class Scalar, class Space>
bool ArticulatedHandles<Scalar, Space>::solveRoot(int k, int root, int j, const V& c, const V& groundMotion,
                                                  const VecX& load, VecX& rates, V& force) {
  Node& R = node(root);
  JointFactor& f = rootJoint_[static_cast<std::size_t>(k)];
  const bool finite = jointLoad(j, c, R.beta, load, f);
  R.motion = childMotion(j, f, c, groundMotion, rates);
  childForce(j, R, force);
  return finite;
}

template <class Scalar, class Space>
void ArticulatedHandles<Scalar, Space>::disassemble(int k, const AssemblyNode& n, const V& c, VecX& rates,
                                                    V& force) {
  const V& m = node(k).motion;
  Node& B = node(n.second);
  node(n.first).motion = m;
  const V cr = c.isZero(Scalar(0)) ? V::Zero() : referenceBias(n.joint, c);
  B.motion = childMotion(n.joint, node(k).joint, cr, m, rates);
  childForce(n.joint, B, force);
}

template class ArticulatedHandles<double, SpatialSpace>;
template class ArticulatedHandles<float, SpatialSpace>;
template class ArticulatedHandles<double, PlanarSpace>;
template class ArticulatedHandles<float, PlanarSpace>;

}  // namespace articula
