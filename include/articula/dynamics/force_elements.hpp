// Applied forces from the model's force elements (springs, dampers, loads).
#pragma once

#include "articula/dynamics/tyre_forces.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

/// Fills ws.tau (generalised forces) and ws.fext (spatial forces in body coordinates)
/// at time t. Requires updateVelocities(model, ws, q, v) for the same state.
/// Throws articula::Error naming the element when its force is undefined
/// (a spring with a positive rest length whose end points coincide).
void evaluateForceElements(const Model& model, Workspace& ws, double t, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v);

/// Generalised force of a joint limit at coordinate q and rate qd, with its partial derivatives.
struct JointForce {
  double tau = 0.0;
  double dq = 0.0;   ///< d tau / d q
  double dqd = 0.0;  ///< d tau / d qdot
};
JointForce jointLimitForce(const JointLimit& l, double q, double qd);
/// Tension of a point spring-damper at length L and rate dL/dt (positive: pulls the points
/// together), with its partial derivatives (dq: by L, dqd: by dL/dt): spring, damper or damping
/// curve, bump stop, air spring, friction.
JointForce pointSpringTension(const PointSpringDamper& s, double L, double Ld);
/// Potential energy of a point spring (its spring, bump stop and gas) at length L.
double pointSpringEnergy(const PointSpringDamper& s, double L);
JointForce jointFrictionForce(const JointFriction& f, double qd);

/// The response of a tyre of the model for the wheel state in ws (after updateVelocities).
TyreResponse tyreResponse(const Model& model, const Workspace& ws, const Tyre& tyre);

/// True when some element acts on bodies (point springs, body loads, tyres) and so needs the world
/// poses and velocities of updateVelocities; joint-level elements need only q and v.
bool forceElementsNeedKinematics(const Model& model);

/// out = ID(q, v, vdot) - tau_app(t, q, v): the generalised force that the inverse dynamics asks
/// beyond the force elements and loads (J^T lambda of the constraints, zero on a tree whose
/// vdot is its forward dynamics). Updates ws as the force elements need.
void residualForces(const Model& model, Workspace& ws, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                    const Eigen::VectorXd& vdot, Eigen::Ref<Eigen::VectorXd> out);

/// Potential energy of gravity, of the springs and of the tyres' radial springs (after
/// updatePositions for q).
double potentialEnergy(const Model& model, const Workspace& ws, const Eigen::VectorXd& q);

}  // namespace articula
