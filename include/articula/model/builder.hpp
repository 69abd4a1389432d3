// C++ builder API for models. Elements refer to each other by name; build()
// validates everything, orders the tree and returns an immutable Model, or
// throws a ModelError that names the element (and, when the element came from a
// file, the file, line and column).
#pragma once

#include <string>
#include <vector>

#include "articula/model/model.hpp"

namespace articula {

struct BodySpec {
  std::string name;
  double mass = 0.0;
  Vec3 com = Vec3::Zero();          ///< in the body frame (= the frame of the body's parent joint)
  Mat3 inertia = Mat3::Zero();      ///< about the centre of mass, body axes
  std::vector<Shape> shapes;
  SourceLocation where;
};

struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  std::string parent;  ///< body name; "ground" (or "world") for the fixed frame
  std::string child;
  Vec3 position = Vec3::Zero();       ///< joint frame origin in the parent body frame
  Mat3 rotation = Mat3::Identity();   ///< joint frame axes in the parent body frame
  Vec3 axis = Vec3::UnitZ();          ///< in the joint frame (revolute, prismatic, cylindrical, universal)
  Vec3 axis2 = Vec3::UnitY();         ///< second universal axis, in the once-rotated frame
  std::vector<double> q0;  ///< initial coordinates (nq values); empty = neutral
  std::vector<double> v0;  ///< initial velocities (nv values); empty = zero
  bool lockedInAssembly = false;  ///< initial assembly keeps this joint's coordinates fixed
  SourceLocation where;
};

struct LoopSpec {
  std::string name;
  LoopConstraint::Type type = LoopConstraint::Type::Ball;
  std::string bodyA, bodyB;
  Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero();
  Vec3 axisA = Vec3::UnitZ(), axisB = Vec3::UnitZ();    ///< revolute: hinge axis on each body
  Mat3 rotationA = Mat3::Identity(), rotationB = Mat3::Identity();  ///< weld: frame axes on each body
  double distance = 0.0;  ///< distance constraint
  SourceLocation where;
};

struct JointSpringSpec {
  std::string name, joint;
  int dof = 0;
  double stiffness = 0.0, damping = 0.0, restPosition = 0.0;
  SourceLocation where;
  std::optional<TimeFunction> reference = {};  ///< a moving rest position (JointSpringDamper::reference)
};

struct JointLimitSpec {
  std::string name, joint;
  int dof = 0;
  double lower = 0.0, upper = 0.0, stiffness = 0.0, damping = 0.0;
  SourceLocation where;
};

struct JointFrictionSpec {
  std::string name, joint;
  int dof = 0;
  double force = 0.0, slipVelocity = 0.0;
  SourceLocation where;
};

struct PointSpringSpec {
  std::string name, bodyA, bodyB;
  Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero();
  double stiffness = 0.0, damping = 0.0, restLength = 0.0;
  SourceLocation where;
  /// Optional damping curve (rates strictly increasing, at least two points; replaces `damping`,
  /// which must then be 0) and bump stop (engagement length >= 0, stiffness > 0).
  std::vector<double> curveVelocity = {}, curveForce = {};
  double bumpStopLength = 0.0, bumpStopStiffness = 0.0;
  /// Optional gas spring (area > 0; `air.pressure` absolute) and smoothed Coulomb friction
  /// (force > 0, slip velocity > 0), e.g. a leaf spring's interleaf friction.
  AirSpring air = {};
  double frictionForce = 0.0, frictionSlipVelocity = 0.0;
};

struct BodyLoadSpec {
  std::string name, body;
  bool torque = false;
  bool worldFrame = true;
  Vec3 point = Vec3::Zero();
  Vec3 direction = Vec3::UnitX();
  TimeFunction magnitude = TimeFunction::constant(0.0);
  SourceLocation where;
};

struct JointLoadSpec {
  std::string name, joint;
  int dof = 0;
  TimeFunction magnitude = TimeFunction::constant(0.0);
  SourceLocation where;
};

struct PrescribedMotionSpec {
  std::string name, joint;
  int dof = 0;
  TimeFunction position = TimeFunction::constant(0.0);
  SourceLocation where;
};

struct TyreSpec {
  std::string name, body;
  Vec3 centre = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();
  double radius = 0.0, radialStiffness = 0.0, radialDamping = 0.0, rollingResistance = 0.0, lowSpeed = 1.0;
  MagicFormula mf = MagicFormula::passengerCar();
  SourceLocation where;
};

struct MarkerSpec {
  std::string name, body;
  Vec3 position = Vec3::Zero();
  SourceLocation where;
};

/// One subsystem of the distributed formulation's partition: body names, with where each was
/// written (bodyWhere may be empty: then `where` stands for all).
struct SubsystemSpec {
  std::vector<std::string> bodies;
  std::vector<SourceLocation> bodyWhere;
  SourceLocation where;
};

class ModelBuilder {
 public:
  std::string name = "model";
  Vec3 gravity = Vec3(0.0, -9.81, 0.0);
  SourceLocation where;  ///< of the model as a whole (the file)
  std::vector<std::string> warnings;  ///< copied into Model::warnings
  std::vector<Shape> groundShapes;    ///< drawn fixed in the world (a robot's base), bodies[0].shapes
  Road road = Road::flat(0.0);        ///< the surface tyres roll on (z up)

  ModelBuilder& addBody(BodySpec spec);
  ModelBuilder& addJoint(JointSpec spec);
  ModelBuilder& addLoop(LoopSpec spec);
  ModelBuilder& addJointSpring(JointSpringSpec spec);
  ModelBuilder& addJointLimit(JointLimitSpec spec);
  ModelBuilder& addJointFriction(JointFrictionSpec spec);
  ModelBuilder& addPointSpring(PointSpringSpec spec);
  ModelBuilder& addBodyLoad(BodyLoadSpec spec);
  ModelBuilder& addJointLoad(JointLoadSpec spec);
  ModelBuilder& addPrescribedMotion(PrescribedMotionSpec spec);
  ModelBuilder& addTyre(TyreSpec spec);
  ModelBuilder& addMarker(MarkerSpec spec);
  /// Subsystems are optional; when given, build() checks that they partition the bodies into
  /// connected parts (model/subsystems.hpp).
  ModelBuilder& addSubsystem(SubsystemSpec spec);

  /// Validates and assembles the model. Throws ModelError on the first problem found.
  Model build() const;

 private:
  std::vector<BodySpec> bodies_;
  std::vector<JointSpec> joints_;
  std::vector<LoopSpec> loops_;
  std::vector<JointSpringSpec> jointSprings_;
  std::vector<JointLimitSpec> jointLimits_;
  std::vector<JointFrictionSpec> jointFrictions_;
  std::vector<PointSpringSpec> pointSprings_;
  std::vector<BodyLoadSpec> bodyLoads_;
  std::vector<JointLoadSpec> jointLoads_;
  std::vector<PrescribedMotionSpec> prescribed_;
  std::vector<TyreSpec> tyres_;
  std::vector<SubsystemSpec> subsystems_;
  std::vector<MarkerSpec> markers_;
};

/// True for the names that denote the fixed ground frame ("ground", "world").
bool isGroundName(std::string_view name);

/// Inertia tensor about the centre of mass of a uniform solid box with edges (a, b, c).
Mat3 boxInertia(double mass, const Vec3& edges);
/// The inverse: edges of the uniform box of this mass whose principal moments (about its edges'
/// directions) are `moments`, a_i^2 = 6 (I_j + I_k - I_i) / m; 0 for an edge whose square is not
/// positive (a point mass, a thin rod).
Vec3 boxEdges(double mass, const Vec3& moments);

/// Axes of a frame whose z axis is the unit vector z (x and y completed to a right-handed set;
/// the identity for z = e_z).
Mat3 frameWithZ(const Vec3& z);

/// A box shape with edges `edges` centred at `centre` in the body frame; `color` "#rrggbb" or empty.
Shape boxShape(const Vec3& edges, const Vec3& centre, const std::string& color);

}  // namespace articula
