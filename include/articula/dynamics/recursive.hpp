// Recursive rigid-body dynamics on the spanning tree (Featherstone, RBDA):
// RNEA (inverse dynamics), CRBA (joint-space inertia) and ABA (O(n) forward
// dynamics). Gravity is the model's; `fext` are applied spatial forces per body in
// body coordinates (nullptr for none). None of these allocate.
#pragma once

#include "articula/kinematics/workspace.hpp"

namespace articula {

using ForceList = std::vector<Force>;

/// tau = M(q) vdot + C(q, v) - (applied forces), RBDA table 5.1.
void inverseDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& vdot, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> tau);

/// C(q, v) - (applied forces): inverse dynamics at zero acceleration (gravity included).
void biasForces(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const ForceList* fext, Eigen::Ref<Eigen::VectorXd> C);

/// Joint-space inertia matrix H(q) (nv x nv, symmetric), RBDA table 6.2.
void massMatrix(const Model& model, Workspace& ws, const Eigen::VectorXd& q, Eigen::Ref<Eigen::MatrixXd> H);

/// vdot = H^-1 (tau - C), articulated-body algorithm, RBDA table 7.1, in world
/// coordinates. Updates the poses ws.Xup and ws.X0 and the world-frame buffers
/// ws.aba (whose accelerations include the base acceleration -g); the body-frame
/// velocities ws.v and ws.c are left alone.
/// Throws articula::Error naming the joint when an articulated inertia is singular.
void forwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot);

/// Kinetic energy 0.5 v^T H v (after updateVelocities).
double kineticEnergy(const Model& model, const Workspace& ws);
/// Gravitational potential energy -sum m g . c (after updatePositions), zero at the world origin.
double gravitationalEnergy(const Model& model, const Workspace& ws);

}  // namespace articula
