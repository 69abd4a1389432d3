// An optimal design / optimal control problem (seed 002 chapter 4, eq. (4.1)):
//   minimise J(b) = integral_0^tf h(t, q, v, u) dt + S(q(tf), v(tf))
// over a parameter vector b = [design parameters; control coefficients], subject to the equations
// of motion of the model and to bounds on b. Design parameters change force elements or bodies of
// the model; each control input u_c(t) = sum_k b_k phi_k(t) (optimize/control_basis.hpp) is a
// generalised force on one joint coordinate or a force/torque on a body.
// The problem is written in YAML next to the model (docs/optimal-control.md, io/problem_yaml.hpp)
// or built here through the C++ API.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "articula/model/model.hpp"
#include "articula/optimize/control_basis.hpp"

namespace articula {

/// One scalar property of the model that the optimiser may change. None moves a loop's geometry:
/// the reverse-mode adjoint's design derivative (ForwardDynamicsAdjoint::weightedResidual) leaves
/// the constraints' term out, so a joint's position (a link length) is a design parameter on open
/// trees only (checkProblem).
struct DesignParameter {
  enum class Target {
    SpringRestLength,   ///< PointSpringDamper::restLength
    SpringStiffness,    ///< PointSpringDamper::stiffness
    SpringDamping,      ///< PointSpringDamper::damping
    JointSpringRest,    ///< JointSpringDamper::restPosition
    JointSpringStiffness,
    JointSpringDamping,
    BodyMass,           ///< scales the body's mass and inertia together (density change)
    /// One coordinate (`component`: 0 x, 1 y, 2 z) of a joint's position in its parent body: a link
    /// length. The parent's mass properties stay.
    JointPosition,
  };
  std::string name;  ///< for messages and outputs, e.g. "spring1.rest_length"
  Target target = Target::SpringRestLength;
  int element = 0;   ///< index into the model's pointSprings / jointSprings / bodies
  double initial = 0.0;
  double lower = -std::numeric_limits<double>::infinity(), upper = std::numeric_limits<double>::infinity();
  int component = 0;  ///< JointPosition: 0, 1, 2 for x, y, z
};

/// The current value of the parameter in the model, and writing a new one into it. A mass scales
/// the inertia of the body in `reference` (by default the model itself); a fixed reference keeps
/// repeated writes from drifting by round-off.
double readParameter(const Model& model, const DesignParameter& p);
void writeParameter(Model& model, const DesignParameter& p, double value, const Model& reference);
inline void writeParameter(Model& model, const DesignParameter& p, double value) { writeParameter(model, p, value, model); }
std::string_view targetName(DesignParameter::Target target);  ///< "rest_length", "mass", ...

/// A control input: a generalised force on a joint coordinate (torque of a revolute joint, force
/// of a prismatic one), or a force along a fixed direction at a body point, or a torque about it.
struct ControlInput {
  std::string name;
  enum class Kind { JointForce, BodyForce, BodyTorque } kind = Kind::JointForce;
  int joint = 0, dof = 0;              ///< JointForce
  int body = 0;                        ///< BodyForce / BodyTorque
  Vec3 point = Vec3::Zero();           ///< BodyForce: application point in the body frame
  Vec3 direction = Vec3::UnitX();      ///< unit vector, world frame
  ControlBasis basis{ControlBasis::Kind::PiecewiseLinear, {0.0, 1.0}};
  double initial = 0.0;  ///< initial value of every coefficient
  double lower = -std::numeric_limits<double>::infinity(), upper = std::numeric_limits<double>::infinity();
  /// The load is gain * u(t): u may be a signal in its own units, e.g. a DC motor's voltage, with
  /// gain its stall torque per volt at the joint (k_g k_t / R_m; the back-emf and friction are a
  /// joint damper of the model).
  double gain = 1.0;
};

/// One term of the cost. Running terms are integrated over [0, tf]; terminal ones evaluated at tf.
struct CostTerm {
  enum class Kind {
    MarkerPosition,   ///< w |r_P(q) - target(t)|^2, running or terminal
    MarkerVelocity,   ///< w |v_P(q, v) - target(t)|^2, running or terminal
    JointPosition,    ///< w (q_i - target(t))^2 on one coordinate (of a joint with scalar coordinates)
    JointVelocity,    ///< w (v_i - target(t))^2
    ControlEffort,    ///< w u_c(t)^2, or w (|u_c| - limit)^2 beyond a limit (running only)
    /// w gamma^2, gamma the angle between a body-fixed axis and a world direction (seed 002 eq.
    /// (5.8): a pendulum's tilt from the vertical)
    BodyAxisAngle,
    /// w (|v_c|^2 + |omega|^2): the body's centre-of-mass velocity and angular velocity, world
    /// axes (eq. (5.8)'s v5^T v5, the body's velocity in absolute coordinates)
    BodyVelocity,
  };
  Kind kind = Kind::MarkerPosition;
  std::string name;  ///< optional; a continuation stage changes a term's weight by its name
  bool terminal = false;
  double weight = 1.0;
  int body = 0;          ///< BodyAxisAngle / BodyVelocity
  Vec3 axis = Vec3::UnitZ(), direction = Vec3::UnitZ();  ///< BodyAxisAngle: body axis, world direction (unit)
  int marker = 0;        ///< MarkerPosition / MarkerVelocity
  int coordinate = 0;    ///< JointPosition: index into q; JointVelocity: into v
  int control = 0;       ///< ControlEffort: index into controls
  /// ControlEffort: 0 counts all of u; a positive limit only the excess max(0, |u| - limit), a
  /// penalty on inputs beyond what the actuator should give (seed 002 eq. (7.4), with w = gamma / 2).
  double limit = 0.0;
  /// The target, per component (x, y, z for markers; one for joints); a marker target that
  /// is not given is the marker's initial position (initialTarget) or zero velocity.
  std::vector<TimeFunction> target;
  bool initialTarget = false;  ///< MarkerPosition: track the marker's position at t = 0
};

/// An inequality constraint G(b) <= upper on a functional of the run, written with the cost terms'
/// library: G = integral of the running terms + the terminal terms (for example a bound on the
/// control energy, or on the terminal error that a cost would otherwise penalise). The optimisers
/// that take constraints (slsqp, mma, ccsaq, ipopt) get G and dG/db, from its own adjoint run.
struct FunctionalConstraint {
  std::string name;
  double upper = 0.0;
  std::vector<CostTerm> terms;
};

struct OptimalControlProblem {
  Model model;
  /// An ODE formulation (formulations() list), the Hamiltonian "hdca" (state [q; p]) or the
  /// absolute-coordinate Hamiltonian "absolute" (state [r, e; p*], dynamics/absolute_hamiltonian_system.hpp).
  std::string formulation = "auto";
  /// Threads of the divide-and-conquer formulation (dca) and of its adjoint (HADCA); the
  /// results do not depend on it.
  int threads = 1;
  /// Fixed step: "euler", "heun" or "rk4" (discrete adjoint); adaptive: "rk45" (continuous adjoint).
  std::string integrator = "rk4";
  double dt = 1e-3;  ///< the step; for rk45 the first step's hint
  double rtol = 1e-8, atol = 1e-10;  ///< rk45's tolerances, forward and adjoint
  double tf = 1.0;
  /// Constraint stabilisation inside the equations of motion (Baumgarte; 0 = none): the
  /// gradient is that of the integrated ODE, so no projection after the step is allowed.
  double baumgarteAlpha = 0.0, baumgarteBeta = 0.0;
  std::vector<DesignParameter> design;
  std::vector<ControlInput> controls;
  std::vector<CostTerm> cost;
  std::vector<FunctionalConstraint> constraints;

  /// b = [design parameters; control 0 coefficients; control 1 coefficients; ...].
  int parameterCount() const;
  Eigen::VectorXd initialParameters() const;
  Eigen::VectorXd lowerBounds() const;
  Eigen::VectorXd upperBounds() const;
  /// Name of parameter k, e.g. "spring1.rest_length" or "motor1[12]".
  std::string parameterName(int k) const;
  /// The fixed-step grid: steps of dt from 0, the last one shortened to end at tf.
  int stepCount() const;
  double stepTime(int k) const { return k >= stepCount() ? tf : k * dt; }
};

/// Appends the load through which `control` acts to the model (a joint_force, or a force or torque
/// on a body along its world direction), with the given magnitude (the load's: gain * u).
void appendControlLoad(Model& model, const ControlInput& control, TimeFunction magnitude);

/// Seed 002 chapter 6's benchmark: the cart + `links`-link pendulum (makeCartPendulum) driven by a
/// horizontal force on the cart, u(t) on `force` (its basis; every coefficient `initial`),
/// J = integral_0^tf |r_tip - r_tip(0)|^2 + 1e-3 u^2 dt, rk4 at the fixed step dt.
OptimalControlProblem cartPendulumProblem(int links, ControlBasis force, double initial, double tf, double dt);

/// The problem whose cost is the constraint's functional G (and which has no constraints).
OptimalControlProblem constraintProblem(const OptimalControlProblem& problem, const FunctionalConstraint& constraint);

/// Throws articula::Error naming what is wrong: a formulation or integrator that does not fit,
/// bounds that exclude the initial value, a cost term that refers to nothing, no cost, a
/// constraint without terms or with a bound that is not finite.
void checkProblem(const OptimalControlProblem& problem);

}  // namespace articula
