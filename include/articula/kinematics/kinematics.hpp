// Forward kinematics over the spanning tree: body poses, velocities and
// accelerations (RBDA chapter 4), points, markers and Jacobians.
#pragma once

#include <vector>

#include "articula/kinematics/workspace.hpp"

namespace articula {

/// Poses only: joint transforms, Xup and X0 (c_J and v are not updated).
void updatePositions(const Model& model, Workspace& ws, const Eigen::VectorXd& q);
/// Poses, body velocities v and velocity-product terms c.
void updateVelocities(const Model& model, Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
/// Body accelerations a for joint accelerations vdot (gravity not included);
/// requires updateVelocities for the same state.
void updateAccelerations(const Model& model, Workspace& ws, const Eigen::VectorXd& vdot);

/// World pose of a body frame (after updatePositions).
inline Vec3 bodyPosition(const Workspace& ws, int body) { return ws.X0[body].r; }
inline Mat3 bodyRotation(const Workspace& ws, int body) { return ws.X0[body].E.transpose(); }

/// World position, velocity and classical acceleration of a point given in body coordinates.
Vec3 pointPosition(const Workspace& ws, int body, const Vec3& p);
Vec3 pointVelocity(const Workspace& ws, int body, const Vec3& p);
Vec3 pointAcceleration(const Workspace& ws, int body, const Vec3& p);
/// Angular velocity and acceleration of a body, world coordinates.
Vec3 angularVelocity(const Workspace& ws, int body);
Vec3 angularAcceleration(const Workspace& ws, int body);

/// Velocity coordinates of the joints on the path from the root to `body` (none for the ground),
/// ascending: the columns the body's Jacobian can have non-zero.
std::vector<int> pathCoordinates(const Model& model, int body);
/// The union of the two bodies' pathCoordinates, ascending: the coordinates that move a force
/// element (a point spring) or a constraint between them.
std::vector<int> pathCoordinates(const Model& model, int bodyA, int bodyB);
/// Spatial Jacobian of a body in world coordinates about the world origin:
/// J (6 x nv) maps v to the body's spatial velocity [w; v_O] (after updatePositions).
void bodyJacobian(const Model& model, const Workspace& ws, int body, Eigen::Ref<Eigen::MatrixXd> J);
/// Jacobian (3 x nv) of the world velocity of a point given in body coordinates.
void pointJacobian(const Model& model, const Workspace& ws, int body, const Vec3& p, Eigen::Ref<Eigen::MatrixXd> J);

/// Column `col` of the motion subspace of `body`'s joint in world coordinates about the world
/// origin (after updatePositions).
inline Motion worldMotionColumn(const Workspace& ws, int body, int col) {
  return ws.X0[body].applyInverse(Motion::fromVector(ws.joint[body].S.col(col)));
}
/// All worldMotionColumn's, one column [angular; linear] per velocity coordinate. Code that forms
/// many point Jacobians at one configuration (spring-damper tangents, constraint Jacobians) reads
/// them from here instead of transforming each joint's subspace again for every point.
using WorldMotionColumns = Eigen::Matrix<double, 6, Eigen::Dynamic>;
void worldMotionColumns(const Model& model, const Workspace& ws, WorldMotionColumns& S);
/// The velocity of the material point at world position p per unit rate of one of those columns.
template <class Column>
Vec3 columnPointVelocity(const Column& column, const Vec3& p) {
  return column.template tail<3>() + column.template head<3>().cross(p);
}

/// qdot = G(q) v for the whole model.
void configurationRate(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       Eigen::Ref<Eigen::VectorXd> qdot);
/// q <- q (+) dv, joint by joint (quaternions stay unit).
void integrateConfiguration(const Model& model, Eigen::VectorXd& q, const Eigen::VectorXd& dv);
/// d <- the change of the increment dv that moves q (+) dv by d to first order, joint by joint
/// (jointIncrementFromTangent): Newton corrections of an increment stay quadratically convergent
/// for large rotations.
void incrementFromTangent(const Model& model, const Eigen::VectorXd& dv, Eigen::VectorXd& d);
/// Renormalises every quaternion in q.
void normalizeConfiguration(const Model& model, Eigen::VectorXd& q);

}  // namespace articula
