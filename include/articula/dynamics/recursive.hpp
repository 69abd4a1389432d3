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

/// vdot = H^-1 (tau - C), articulated-body algorithm (RBDA table 7.1) in world
/// coordinates: planarForwardDynamics when every body moves parallel to the world
/// x-y plane (ws.planar.isPlanar), spatialForwardDynamics otherwise. The kernels
/// keep their intermediate results in ws.aba or ws.planar (world coordinates), may
/// overwrite ws.joint, and update no other part of the workspace: call updatePositions/updateVelocities for
/// body poses and velocities. Throws articula::Error naming the joint when an
/// articulated inertia is singular or not finite.
void forwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot);
/// The 6D kernel, for any tree.
void spatialForwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot);
/// The 3D kernel of spatial/planar.hpp; throws articula::Error for a model that is not planar.
void planarForwardDynamics(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           const Eigen::VectorXd& tau, const ForceList* fext, Eigen::Ref<Eigen::VectorXd> vdot);

/// Kinetic energy 0.5 v^T H v (after updateVelocities).
double kineticEnergy(const Model& model, const Workspace& ws);
/// Momentum of the whole system in world coordinates (after updateVelocities): angular momentum
/// about the world origin and linear momentum, sum over the bodies of I_i v_i moved to the world.
Force systemMomentum(const Model& model, const Workspace& ws);
/// Gravitational potential energy -sum m g . c (after updatePositions), zero at the world origin.
double gravitationalEnergy(const Model& model, const Workspace& ws);

}  // namespace articula
