// The Hamiltonian divide-and-conquer algorithm in one scalar type and one vector space of the
// handle equations (dynamics/handle_space.hpp): the implementation behind dynamics/hdca.hpp,
// which documents the method and picks the space.
#pragma once

#include <optional>
#include <vector>

#include <Eigen/QR>

#include "articula/dynamics/constraint_impulses.hpp"
#include "articula/dynamics/handle_assembly.hpp"
#include "articula/dynamics/hdca_planar_poses.hpp"
#include "articula/dynamics/tree_kinematics.hpp"
#include "articula/kinematics/constraints.hpp"

namespace articula {

struct HdcaOptions {
  int threads = 1;  ///< threads sharing the tree's subtrees (1 = serial; parallel/thread_team.hpp)
  PairingPolicy pairing = balancedPairing;
  /// On planar mechanisms (model/planarity.hpp), run the handle equations in the plane (3x3);
  /// false keeps them 6D.
  bool planarKernel = true;
};

template <class Scalar, class Space>
class HdcaKernel {
 public:
  using VecX = VectorXT<Scalar>;
  using V = typename Space::template Vec<Scalar>;
  using VectorSpace = Space;

  /// Throws articula::Error for threads < 1.
  HdcaKernel(const Model& model, const HdcaOptions& options);

  /// Hamilton's equations at (t, q, p): joint velocities v (so qdot = G(q) v) and momentum rates
  /// pdot, force elements and gravity included. Throws articula::Error naming the joint whose
  /// mobility is singular or not finite.
  void derivatives(double t, const VecX& q, const VecX& p, VecX& v,
                   VecX& pdot);
  /// The state map v = v(t, q, p) (velocity level only): M(q)^-1 p on open trees,
  /// M^-1 (p + J^T sigma) with J v = nu(t) with loops or prescribed motion.
  void velocities(double t, const VecX& q, const VecX& p, VecX& v);
  /// A state map p = p(q, v) = M(q) v, by one recursion over the bodies (O(n)); on closed loops
  /// (v with J v = 0) the canonical momenta with sigma = 0, one of those that map back to v.
  void momenta(const VecX& q, const VecX& v, VecX& p);

  const Model& model() const { return model_; }
  const AssemblyTree& tree() const { return handles_.tree(); }
  /// After derivatives() or velocities(): the spatial momentum P_j of the bodies below joint j
  /// (world axes, about body j's origin; index 0 unused).
  const std::vector<V>& jointMomenta() const { return handles_.jointForces(); }
  int threads() const { return handles_.threads(); }
  /// After derivatives() or velocities() on closed loops: the constraint impulses sigma, one per
  /// row of the loops' constraint Jacobian (empty on open trees).
  const VecX& constraintImpulses() const { return sigma_; }

 private:
  void velocitySweep(double t, const Eigen::VectorXd& q, const VecX& p, VecX& v);
  void chainedDerivatives(double t, const Eigen::VectorXd& q, const VecX& p, VecX& v, VecX& pdot);
  class VelocityAndForceSweep;
  void closeLoops(double t, const VecX& p, VecX& v);
  void bodyVelocity(int body);
  void forceSweep(const VecX& v, VecX& pdot);
  void leafForce(int body);
  typename Space::template Offset<Scalar> referenceOffset(int body) const;
  void accumulateForces(int node);
  void forceAtRoots();
  void distributeForces(int node);
  void momentumRate(int joint, const VecX& v, VecX& pdot, bool jointForces = true) const;

  const Model& model_;
  Workspace ws_;
  BasicHandleAssembly<Scalar, Space> handles_;
  // The poses the handle equations read (handle_space.hpp): the 3D ones of the workspace, or in
  // the plane those of planarPoses_, with the 3D ones only where loops or force elements read
  // them (kinematics3D_).
  TreePositions positions_;
  std::optional<PlanarTreePoses> planarPoses_;
  bool bodyForces_;    // force elements apply body forces (forceElementsNeedKinematics)
  bool kinematics3D_;
  Eigen::VectorXd qd_, vd_, sigmad_;  // q, v, sigma in double for the kinematics (Scalar = float)
  std::vector<V> V_;             // body velocities, world axes, about the body's origin
  // The force sums of forceSweep, each about the origin of the body on the ground above it
  // (referenceBody_), so that they add without shifts.
  std::vector<int> referenceBody_;  // per body: its ancestor whose joint hangs from the ground
  std::vector<V> nodeForce_;     // per node: applied forces on its bodies
  std::vector<V> belowForce_;    // per node: applied forces on the bodies below its bottom body
  std::vector<V> subtreeForce_;  // per joint: F_j
  // Closed loops (closeLoops): impulses, Jacobian, G = M^-1 J^T, its compliance J G, sigma.
  ConstraintImpulses impulses_;
  ConstraintEvaluator constraints_;
  using MatX = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  MatX J_, G_, compliance_;
  Eigen::CompleteOrthogonalDecomposition<MatX> cod_;
  VecX sigma_, rhs_, unitLoad_, load_, column_;
  std::vector<V> loopImpulse_;    // per body: sum of sigma_k times its impulses
  std::vector<Vec6> impulseRate_;  // per body: their rates
};

}  // namespace articula
