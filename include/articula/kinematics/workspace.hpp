// Mutable per-model buffers shared by the kinematics and recursive dynamics
// algorithms. Sized once for a model; algorithms never allocate. A workspace also
// records facts about the model (planarity, the ABA's per-body shortcuts), so it
// serves the model it was built from: build a new one after changing a model.
#pragma once

#include <vector>

#include "articula/model/model.hpp"
#include "articula/model/planarity.hpp"

namespace articula {

using SubspaceForce = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;
using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

struct Workspace {
  explicit Workspace(const Model& model);

  // Per body (index 0 = ground), all in body coordinates unless noted.
  std::vector<JointKinematics> joint;  ///< X_J, S, c_J of each body's parent joint
  std::vector<Transform> Xup;          ///< ^i X_parent(i)
  std::vector<Transform> X0;           ///< ^i X_0: world to body
  std::vector<Motion> v;               ///< body spatial velocity
  std::vector<Motion> c;               ///< velocity-product acceleration c_J + v x v_J
  std::vector<Motion> a;               ///< body spatial acceleration
  std::vector<Force> f;                ///< RNEA body forces
  std::vector<Force> fext;             ///< applied forces from force elements
  std::vector<SpatialInertia> Ic;      ///< composite inertias (CRBA)
  Eigen::VectorXd tau;                 ///< applied generalised forces from force elements
  SubspaceForce F;                     ///< CRBA column block

  /// Articulated-body algorithm buffers. Unlike the rest of the workspace these are
  /// in world coordinates with the world origin as reference point, so that passing
  /// articulated inertias to the parent needs no change of frame.
  struct ArticulatedBodies {
    std::vector<Transform> X0;    ///< body poses, as Workspace::X0
    std::vector<Vec6> v, c, a;    ///< body velocity, velocity-product term, acceleration
    std::vector<Mat6> IA;         ///< articulated inertias
    std::vector<Vec6> pA;         ///< articulated bias forces
    std::vector<SubspaceForce> S, U;  ///< motion subspace in world coordinates, IA S
    std::vector<SmallMatrix> Dinv;    ///< (S^T IA S)^-1
    std::vector<SmallVector> u;       ///< tau - S^T pA
    // Fixed-size copies for single-dof joints (the common case).
    std::vector<Vec6> s1, U1;          ///< S as a 6-vector, IA s
    std::vector<double> invD1, u1;     ///< 1 / (s^T IA s), tau - s^T pA - U^T c
    /// What each body allows the kernel to skip, read from the model once.
    struct BodyPlan {
      int revoluteAxis = -1;          ///< 0, 1, 2: a revolute joint about +-x, +-y, +-z; else -1
      double axisSign = 1.0;          ///< the sign of that coordinate axis
      bool rotatedPlacement = false;  ///< the joint frame is rotated in the parent frame
      bool diagonalInertia = false;   ///< central inertia diagonal in body axes
    };
    std::vector<BodyPlan> plan;
  } aba;

  /// Buffers of the planar articulated-body algorithm, used when every body moves
  /// parallel to the world x-y plane (`isPlanar`); world coordinates as in `aba`.
  struct PlanarBodies {
    bool isPlanar = false;
    std::vector<PlanarJoint> joint;   ///< in-plane description of each body's joint
    std::vector<PlanarPose> pose;     ///< body frames in the world plane
    std::vector<double> angle;        ///< body frame rotation about z
    /// Per planar joint: its frame's rotation in the world plane, (cos, sin), written with the
    /// child's pose by PlanarTreePoses (the HDCA's planar subspace reads it).
    std::vector<Vec2> jointRotation;
    std::vector<PlanarVector> v, c, a, pA, s1, U1;
    std::vector<PlanarMatrix> IA;
    std::vector<double> invD1, u1;
    std::vector<PlanarMatrix> S3, U3, Dinv3;  ///< planar joints (3 dofs)
    std::vector<PlanarVector> u3;
  } planar;
};

}  // namespace articula
