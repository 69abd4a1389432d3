// The passes of the world-coordinate articulated-body algorithm (aba.cpp) that other kernels
// reuse: the distributed formulation (distributed_condensation.cpp) runs pass 2 inside each
// subsystem and stops at the subsystem's top body; the forward-dynamics adjoint
// (forward_dynamics_adjoint.cpp) solves M w = abar by the three passes at zero velocity and gravity.
#pragma once

#include "articula/dynamics/recursive.hpp"

namespace articula {

/// Pass 1 of the 6D ABA over all bodies: world poses ws.aba.X0, motion subspaces (s1 or S),
/// velocities v, velocity-product terms c, rigid-body inertias in IA and bias forces in pA
/// (v x* I v minus the applied force fext), all in world axes about the world origin.
void articulatedBodiesFirstPass(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const ForceList* fext);

/// Pass 2 for body i: U, D^-1 and u of its joint j (tau: the model's generalised forces), and,
/// unless parent is 0, the projected articulated inertia and bias force added to the parent's.
/// Throws articula::Error naming the joint when D is not positive definite.
void articulatedProjection(Workspace::ArticulatedBodies& w, int i, int parent, const Joint& j,
                           const Eigen::VectorXd& tau);

/// Pass 3 over all bodies, after pass 2: joint accelerations vdot and body accelerations ws.aba.a
/// from the base acceleration a0 (world axes; -g for gravity, zero for M^-1 tau alone).
void articulatedAccelerations(const Model& model, Workspace& ws, const Vec6& a0, Eigen::Ref<Eigen::VectorXd> vdot);

}  // namespace articula
