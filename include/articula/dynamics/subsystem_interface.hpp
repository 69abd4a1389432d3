// What the subsystems of the distributed formulation exchange (seed 003, docs/distributed.md).
//
// A subsystem, or a group of subsystems combined by the hierarchy, meets the rest of the model at
// a few handle bodies. Its interface equations give their spatial accelerations as an affine
// function of the forces the outside applies to them:
//     a = D Q + R                                   (seed 003 eq. (3) and (6))
// with a and Q stacked per handle (6 each, world axes about the world origin, as the world-
// coordinate ABA uses), D symmetric positive semidefinite (the mobility at the handles) and R the
// accelerations under zero interface forces. The ground's acceleration enters as a base
// acceleration of -g (gravity is not a body force here).
//
// A link is a connection between two bodies that the hierarchy eliminates: a tree joint whose
// two bodies are in different subsystems (or whose parent is the ground), or a loop closure. Its
// rows are written on the accelerations of its two bodies,
//     G_A a_A + G_B a_B = u,
// and it acts on them with the forces G_A^T lambda and G_B^T lambda. The ground's known
// acceleration is already moved into u, so a link to the ground has one body end.
#pragma once

#include <vector>

#include <Eigen/Core>

namespace articula {

struct SubsystemInterface {
  std::vector<int> handles;  ///< body indices; a subsystem's own interface starts with its top body
  Eigen::MatrixXd D;         ///< 6k x 6k
  Eigen::VectorXd R;         ///< 6k

  int size() const { return static_cast<int>(handles.size()); }
  /// Bytes of D and R as they travel between hierarchy levels (doubles).
  long bytesUp() const { return static_cast<long>(sizeof(double)) * (D.size() + R.size()); }
  /// Bytes of the handle forces Q that come back down.
  long bytesDown() const { return static_cast<long>(sizeof(double)) * 6L * size(); }
};

struct InterfaceLink {
  using Rows = Eigen::Matrix<double, Eigen::Dynamic, 6, 0, 6, 6>;
  using Rhs = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;
  int bodyA = 0, bodyB = 0;  ///< 0: the ground (its row is folded into u)
  int joint = -1;            ///< a tree joint (its index, = bodyB), or -1
  int loop = -1;             ///< a loop closure (index in model.loops), or -1
  int firstRow = 0;          ///< a loop's first row in the constraint evaluator's order
  int rows = 0;
  Rows GA, GB;  ///< rows x 6
  Rhs u;        ///< rows
};

}  // namespace articula
