// Loop closures and prescribed motions as impulses on the bodies and joints of a tree, for the
// Hamiltonian divide-and-conquer algorithm on closed loops (dynamics/hdca.hpp).
//
// Row k of the constraint Jacobian (kinematics/constraints.hpp) is J_k v = d_k . (relative motion
// of the loop's two frames): a world direction e of the relative velocity of the frame origins
// (translational rows; the unit vector u between them for a distance loop), an axis a fixed in
// frame A of the relative angular velocity (rotational rows). J^T sigma is therefore the
// generalised force of spatial impulses on the loop's two bodies, equal and opposite: the impulse
// per unit sigma_k is returned for each row, world axes, about each body's origin. A prescribed
// motion's row (after the loops' rows in J) is one joint coordinate: its impulse is a joint
// impulse on that coordinate, and its J is constant.
//
// The HDCA state holds the canonical momenta of the constrained system, p* = M v - J^T sigma with
// sigma the integral of the multipliers (thesis eq. (3.6)-(3.9), (3.14) in joint coordinates);
// their rate is pdot* = pdot(q, v) - (dJ/dt)^T sigma, and (dJ/dt)^T sigma is the generalised force
// of the rates of the impulses: with F = sum sigma_k e_k (+ sigma u) and N = sum sigma_k a_k,
// the impulse on B about the world origin is [p_B x F + N; F], whose rate at fixed sigma is
// [v_B x F + p_B x Fdot + w_A x N; Fdot] (a is fixed in A, p_B moves with B), and on A the same
// with A's point and the opposite sign. The joints' motion subspaces turn with their child bodies;
// that part of (dJ/dt)^T sigma is the transport term of the momentum rates (see hdca.hpp).
#pragma once

#include <vector>

#include "articula/kinematics/workspace.hpp"

namespace articula {

class ConstraintImpulses {
 public:
  struct Row {
    int bodyA = 0, bodyB = 0;  ///< the loop's bodies (0: the ground, which takes no impulse)
    Vec6 onA, onB;             ///< impulse per unit multiplier (world axes, about the body's origin)
    int coordinate = -1;       ///< prescribed motion: the velocity coordinate it acts on (else -1)
  };

  explicit ConstraintImpulses(const Model& model);

  /// The rows, in the order of the constraint Jacobian: the loops', then the prescribed motions'.
  int size() const { return static_cast<int>(rows_.size()); }
  /// The rows at the positions of ws (after updatePositions).
  void update(const Workspace& ws);
  const std::vector<Row>& rows() const { return rows_; }
  /// The rates of the impulses for multipliers sigma (world axes, about each body's origin),
  /// added to rate[body]; needs the body velocities of ws.
  void addRates(const Workspace& ws, const Eigen::VectorXd& sigma, std::vector<Vec6>& rate) const;

 private:
  const Model& model_;
  std::vector<Row> rows_;
};

}  // namespace articula
