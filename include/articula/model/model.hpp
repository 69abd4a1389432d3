// The immutable multibody model: bodies on a spanning tree of joints, loop-closure
// constraints that close kinematic loops, force elements, markers and the initial
// state. Built and validated by ModelBuilder (builder.hpp); never changes during a run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "articula/core/error.hpp"
#include "articula/model/joint.hpp"
#include "articula/model/road.hpp"
#include "articula/model/time_function.hpp"
#include "articula/model/tyre.hpp"
#include "articula/spatial/spatial.hpp"

namespace articula {

/// Visual shape attached to a body (used by viewers, not by the dynamics).
struct Shape {
  enum class Kind { None, Box, Cylinder, Sphere, Capsule, Mesh };
  Kind kind = Kind::None;
  Vec3 size = Vec3::Zero();  ///< box edge lengths
  double radius = 0.0;       ///< cylinder, sphere, capsule
  double length = 0.0;       ///< cylinder, capsule (along the shape's local z)
  Vec3 position = Vec3::Zero();       ///< shape centre in the body frame
  Mat3 rotation = Mat3::Identity();   ///< shape axes in the body frame
  std::string color;                  ///< "#rrggbb" or empty
  std::string mesh;                   ///< mesh: the file (STL or OBJ), as resolved when the model was read
  Vec3 scale = Vec3::Ones();          ///< mesh: scale factors along the mesh's own axes
};

struct Body {
  std::string name;
  double mass = 0.0;
  Vec3 com = Vec3::Zero();            ///< centre of mass in the body frame
  Mat3 inertiaCom = Mat3::Zero();     ///< inertia tensor about the centre of mass, body axes
  SpatialInertia inertia;             ///< spatial inertia about the body-frame origin
  std::vector<Shape> shapes;          ///< what viewers draw; may be empty (the ground's: fixed scenery)
};

/// Loop-closure (cut-joint) constraint between a frame on body A and one on body B.
///  - ball: the two points coincide (3 equations);
///  - revolute: the points coincide and the z axes of the two frames stay aligned (5);
///  - weld: the two frames coincide (6);
///  - distance: the points stay `distance` apart (1).
struct LoopConstraint {
  enum class Type { Ball, Revolute, Weld, Distance };
  std::string name;
  Type type = Type::Ball;
  int bodyA = 0, bodyB = 0;
  Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero();   ///< frame origins in the body frames
  Mat3 rotationA = Mat3::Identity(), rotationB = Mat3::Identity();  ///< frame axes in the body frames
  double distance = 0.0;

  int equations() const;
};
std::string_view loopTypeName(LoopConstraint::Type type);

/// Torque/force on a scalar joint coordinate: -k (q - q0) - c qdot. With a `reference` q_r(t)
/// the rest position moves: -k (q - q_r(t)) - c (qdot - q_r'(t)), a servo's PD law (a
/// controller's gains times the actuator's gain), and restPosition is not used.
struct JointSpringDamper {
  std::string name;
  int joint = 0;  ///< index of the joint (= its child body)
  int dof = 0;    ///< which coordinate of the joint
  double stiffness = 0.0, damping = 0.0, restPosition = 0.0;
  std::optional<TimeFunction> reference;

  double rest(double t) const { return reference ? reference->value(t) : restPosition; }
  double restRate(double t) const { return reference ? reference->derivative(t) : 0.0; }
  /// The generalised force on the coordinate at (t, q, qdot).
  double force(double t, double q, double qdot) const {
    return -stiffness * (q - rest(t)) - damping * (qdot - restRate(t));
  }
};

/// End stops of one scalar joint coordinate: inside [lower, upper] nothing acts; beyond a bound a
/// stiff spring-damper pushes back, tau = -k (q - bound) - c qdot, and never pulls (tau is clipped
/// to the side that restores the range). A penalty stop, as URDF limits are usually simulated.
struct JointLimit {
  std::string name;
  int joint = 0, dof = 0;
  double lower = 0.0, upper = 0.0;
  double stiffness = 0.0, damping = 0.0;
};

/// Coulomb friction on one scalar joint coordinate, regularised so that it is a smooth function of
/// the rate: tau = -F tanh(qdot / v_s). Below the slip rate v_s it acts as a viscous damper of
/// coefficient F / v_s, which is what an explicit step must resolve.
struct JointFriction {
  std::string name;
  int joint = 0, dof = 0;
  double force = 0.0;         ///< F: the Coulomb force or torque
  double slipVelocity = 0.0;  ///< v_s > 0
};

/// Spring-damper along the line between a point on body A and a point on body B: tension
/// k (L - L0) + c dL/dt, with two options for suspensions (docs/vehicles.md):
///  - a damping curve: the damper's tension as a piecewise-linear function of dL/dt through
///    (curveVelocity, curveForce), extended beyond its ends with the end segments' slopes, in place
///    of c dL/dt (different slopes in bump, dL/dt < 0, and rebound);
///  - a bump stop: below the length bumpStopLength, a further one-sided tension
///    bumpStopStiffness (L - bumpStopLength) < 0 pushes the points apart.
/// The gas of an air spring between the two points of a PointSpringDamper: absolute pressure
/// p = p0 (V0 / V)^n (polytropic law) in the volume V = V0 + A (L - L0), pushing the points
/// apart with (p - p_ambient) A (docs/vehicles.md, "Air springs").
struct AirSpring {
  double area = 0.0;         ///< effective area A [m^2]
  double volume = 0.0;       ///< gas volume V0 at the design length [m^3]
  double pressure = 0.0;     ///< absolute pressure p0 at the design length [Pa]
  double length = 0.0;       ///< design length L0 [m]
  double exponent = 1.4;     ///< polytropic exponent n
  double ambient = 101325.0; ///< ambient (absolute) pressure [Pa]
};

struct PointSpringDamper {
  std::string name;
  int bodyA = 0, bodyB = 0;
  Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero();
  double stiffness = 0.0, damping = 0.0, restLength = 0.0;
  std::vector<double> curveVelocity, curveForce;  ///< empty: linear damping
  double bumpStopLength = 0.0, bumpStopStiffness = 0.0;  ///< stiffness 0: no bump stop
  AirSpring air;  ///< area 0: no gas spring
  double frictionForce = 0.0, frictionSlipVelocity = 0.0;  ///< force 0: no (interleaf) friction

  bool hasDampingCurve() const { return !curveVelocity.empty(); }
  bool hasBumpStop() const { return bumpStopStiffness > 0.0; }
  bool hasAirSpring() const { return air.area > 0.0; }
  bool hasFriction() const { return frictionForce > 0.0; }
  /// True when the tension is k (L - L0) + c L' alone (what the global formulation's analytic
  /// tangent assumes).
  bool isLinear() const { return !hasDampingCurve() && !hasBumpStop() && !hasAirSpring() && !hasFriction(); }
};

/// A force (applied at `point`) or a pure torque on a body: vector = direction * f(t),
/// with the direction fixed in the world or in the body.
struct BodyLoad {
  std::string name;
  int body = 0;
  bool torque = false;
  bool worldFrame = true;
  Vec3 point = Vec3::Zero();  ///< application point in the body frame (forces only)
  Vec3 direction = Vec3::UnitX();
  TimeFunction magnitude = TimeFunction::constant(0.0);
};

/// Generalised force f(t) on one scalar joint coordinate.
struct JointLoad {
  std::string name;
  int joint = 0, dof = 0;
  TimeFunction magnitude = TimeFunction::constant(0.0);
};

/// Rheonomic constraint q_dof(t) = f(t) on one scalar joint coordinate.
struct PrescribedMotion {
  std::string name;
  int joint = 0, dof = 0;
  TimeFunction position = TimeFunction::constant(0.0);
};

/// Named point on a body, for outputs and Jacobians.
struct Marker {
  std::string name;
  int body = 0;
  Vec3 position = Vec3::Zero();
};

struct Model {
  std::string name;
  Vec3 gravity = Vec3(0.0, -9.81, 0.0);

  /// bodies[0] is the ground; bodies 1..n are ordered so that a parent comes before its children.
  std::vector<Body> bodies;
  /// joints[i] (i >= 1) is the tree joint whose child is body i; joints[0] is unused.
  std::vector<Joint> joints;
  std::vector<LoopConstraint> loops;
  std::vector<JointSpringDamper> jointSprings;
  std::vector<JointLimit> jointLimits;
  std::vector<JointFriction> jointFrictions;
  std::vector<PointSpringDamper> pointSprings;
  std::vector<BodyLoad> bodyLoads;
  std::vector<JointLoad> jointLoads;
  std::vector<PrescribedMotion> prescribed;
  std::vector<Tyre> tyres;
  /// The surface the tyres roll on (z up; flat at z = 0 unless the model file says otherwise).
  Road road = Road::flat(0.0);
  std::vector<Marker> markers;
  /// A partition of the bodies into subsystems for the distributed formulation (model file key
  /// `subsystems`, model/subsystems.hpp): body indices, ascending, lists ordered by their top
  /// body. Empty when the model gives none.
  std::vector<std::vector<int>> subsystems;
  /// What the loader could map only approximately (e.g. a URDF mesh that was not found); the
  /// command line prints them.
  std::vector<std::string> warnings;

  int nq = 0;  ///< position coordinates
  int nv = 0;  ///< velocity coordinates (degrees of freedom of the tree)
  Eigen::VectorXd q0, v0;       ///< initial state as given (before assembly)
  std::vector<bool> lockedInAssembly;  ///< per velocity coordinate: kept fixed by initial assembly

  int bodyCount() const { return static_cast<int>(bodies.size()) - 1; }
  int parent(int body) const { return joints[body].parent; }
  /// Number of scalar constraint equations (loops and prescribed motions).
  int constraintCount() const;
  bool hasConstraints() const { return constraintCount() > 0; }

  std::optional<int> findBody(std::string_view name) const;
  std::optional<int> findJoint(std::string_view name) const;
  std::optional<int> findMarker(std::string_view name) const;
};

}  // namespace articula
