// Hamilton's equations in absolute coordinates (seed 002 section 3.2.2, eq. (3.14)) and their
// adjoint (section 4.2, eq. (4.10)-(4.16), appendix B), as a first-order ODE for the explicit
// integrators.
//
// State x = [q; p*]: per body its centre of mass r (world) and Euler parameters e (7 numbers,
// bodies in model order), then per body the augmented momenta p* = M v + C^T sigma (6 numbers:
// linear in world axes, angular in body axes). The velocities v (centre-of-mass velocity in world
// axes, angular velocity in body axes) and the constraint impulses sigma solve
//     [M C^T; C 0] [v; sigma] = [p*; 0]                                     (3.14a)
// and p*-dot = f(t, q, v) + C-dot^T sigma (3.14b), f holding gravity, the gyroscopic torques and
// the force elements. C has a block of rows for every joint of the tree (the relative twist of the
// child frame in the directions the joint forbids) and for every loop closure. The positions are
// not stabilised: as the thesis says, their drift grows linearly in time (positionViolation).
//
// The adjoint product (prepare, then adjoint) is the reverse-mode derivative of this ODE's right-
// hand side: the weights on v and sigma are mapped back by one solve with the same leading matrix
// [M C^T; C 0] (the thesis's observation after (4.11b)), and the element-wise terms of (4.8) and
// (B.7) (the derivatives of C^T sigma, C v, C-dot^T sigma and f in q and v) are exact, by
// forward-mode automatic differentiation of each element over its two bodies' states.
//
// What it covers (unsupported() says what it does not): joints fixed, revolute, prismatic,
// cylindrical, universal (perpendicular axes), planar, spherical and free, ball/revolute/weld/
// distance loop closures, gravity, linear spring-dampers between points, spring-dampers, Coulomb friction and
// loads on revolute, prismatic, cylindrical and universal coordinates, and loads on bodies. Every body needs a positive mass and
// a positive definite central inertia (M must be invertible, section 3.2.2).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "articula/dynamics/kinematic_adjoint.hpp"
#include "articula/integrate/ode.hpp"
#include "articula/kinematics/workspace.hpp"
#include "articula/model/model.hpp"

namespace articula {

namespace detail {
class SemidefiniteSolver;
}

class AbsoluteHamiltonianSystem final : public OdeSystem, public KinematicAdjoint {
 public:
  /// Throws articula::Error naming the element that unsupported() finds. The model must outlive this
  /// object; its force parameters and load magnitudes may change (they are read at every call).
  explicit AbsoluteHamiltonianSystem(const Model& model);
  ~AbsoluteHamiltonianSystem() override;

  /// Empty when the model is within reach of the formulation; otherwise why not.
  static std::string unsupported(const Model& model);

  int size() const override { return 13 * n_; }
  int positionSize() const { return 7 * n_; }
  int velocitySize() const { return 6 * n_; }
  int constraintRows() const { return m_; }
  /// xdot = [r-dot = v_lin, e-dot = e (x) (0, omega) / 2; p*-dot]. Throws articula::Error when the
  /// state is not finite.
  void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override;
  /// Renormalises the Euler parameters (which leaves the rotations, and so the dynamics, as they
  /// are).
  bool afterStep(double t, Eigen::VectorXd& x) override;

  /// The absolute state of the tree state [q; v] (joint coordinates), with sigma = 0.
  void canonicalState(const Eigen::VectorXd& qv, Eigen::VectorXd& x);
  /// Body poses (X0) and velocities (v) at x into a workspace of the model, as the tree
  /// kinematics would write them, for outputs and cost terms.
  void fillWorkspace(const Eigen::VectorXd& x, Workspace& ws);
  /// The largest violation of the position-level joint and loop constraints at x (m or rad).
  double positionViolation(const Eigen::VectorXd& x);
  /// Kinetic plus gravitational potential energy at x.
  double energy(const Eigen::VectorXd& x);

  /// Poses, velocities and impulses at x (they do not depend on time: no prescribed motion): what
  /// the KinematicAdjoint queries and `adjoint` read.
  void prepare(const Eigen::VectorXd& x);
  /// After prepare(x), at time t: xbar = (d xdot / dx)^T xdotBar + the gradient of a function of the
  /// poses and velocities whose derivatives are qbar (positionSize) and vbar (velocitySize), as
  /// the cost terms give them (KinematicAdjoint). Never allocates.
  void adjoint(double t, const Eigen::Ref<const Eigen::VectorXd>& xdotBar, const Eigen::VectorXd& qbar,
               const Eigen::VectorXd& vbar,
               Eigen::Ref<Eigen::VectorXd> xbar);
  /// After adjoint: the weight of a load per unit of its magnitude, pbar^T d(p*-dot)/d(magnitude).
  double loadWeight(const BodyLoad& load) const;
  double loadWeight(const JointLoad& load) const;

  Vec3 pointPosition(int body, const Vec3& p) const override;
  void addPointForce(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar) const override;
  Vec3 pointVelocity(int body, const Vec3& p) const override;
  void addPointVelocityGradient(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar,
                                Eigen::Ref<Eigen::VectorXd> vbar) const override;
  Mat3 bodyRotation(int body) const override;
  Vec3 angularVelocity(int body) const override;
  void addAngularVelocityGradient(int body, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar,
                                  Eigen::Ref<Eigen::VectorXd> vbar) const override;
  void addBodyVectorGradient(int body, const Vec3& a, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar) const override;

  /// A block of constraint rows D^T (twist) of frame F on body b relative to body a (section 3.3:
  /// D spans the directions the joint forbids, in F's axes, rows [angular; linear]); frame A
  /// (on body a) is where F should be, for positionViolation.
  /// A universal joint adds one row that turns with the joint: its axes a (fixed in the parent)
  /// and b (fixed in the child) stay perpendicular, so the relative angular velocity has no part
  /// along n = a x b (`turning`, with a in A's axes and b in frame B's). A distance loop is one
  /// row of its own (`distance`, D empty): the two origins' relative velocity along the line
  /// between them, n . (v_B - v_A), n the unit vector from A's point to B's.
  struct ConstraintBlock {
    int a = 0, b = 0, row = 0;
    Mat3 axesA, axesB;    ///< frame axes in body axes
    Vec3 originA, originB;  ///< frame origins from the bodies' centres of mass, body axes
    Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6> D;
    bool turning = false;
    Vec3 turningA = Vec3::Zero(), turningB = Vec3::Zero();
    bool distance = false;
    double length = 0.0;  ///< the distance loop's length (for positionViolation)
    int rows() const { return static_cast<int>(D.cols()) + (turning ? 1 : 0) + (distance ? 1 : 0); }
  };
  /// A scalar joint coordinate that force elements act on: a revolute angle or a prismatic
  /// displacement of a tree joint (a cylindrical joint has one of each), with the elements on it.
  struct JointCoordinate {
    int joint = 0, dof = 0;
    bool angle = true;
    bool universal = false;   ///< one of a universal joint's two angles (about a, then about b)
    Vec3 axis2;               ///< a universal joint's second axis b, child axes
    Vec6 s;                   ///< the coordinate's motion-subspace column, child axes [angular; linear]
    Mat3 axesA;               ///< the joint frame's axes in the parent's axes
    Vec3 originA, originB;    ///< the joint and child frames' origins from the centres of mass
    Vec3 axis;                ///< the joint axis, joint axes
    std::vector<int> springs, frictions, loads;  ///< indices in the model's lists
  };

 private:
  struct Pose;
  void readState(const Eigen::VectorXd& x);
  int coordinateOf(int joint, int dof) const;  ///< index in coordinates_; throws when there is none
  void buildConstraints();
  void applyInverseMass(Eigen::Ref<Eigen::VectorXd> x) const;
  /// [M C^T; C 0] [v; s] = [a; b] with the factorisation of the last buildConstraints.
  void saddleSolve(const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::VectorXd& v, Eigen::VectorXd& s);
  // Defined in absolute_hamiltonian_detail.hpp. forEachElement calls f(a, b, power) for every force
  // element between bodies a and b, power a generic callable (A, B, w) -> its power under w. A
  // power returns the scalar type itself (T(...)): with automatic differentiation an expression
  // would keep references to the callable's locals.
  template <class F>
  void forEachElement(double t, const F& f) const;
  /// out (6n) += the generalised force of an element, the gradient of its power in w.
  template <class Power>
  void addGeneralisedForce(int a, int b, const Power& power, Eigen::Ref<Eigen::VectorXd> out) const;
  /// qbar (7n) and vbar (6n) += scale times the gradient of the power at the test velocity w in
  /// the two bodies' states.
  template <class Power, class W>
  void addStateGradient(int a, int b, const Power& power, const W& w, double scale, Eigen::Ref<Eigen::VectorXd> qbar,
                        Eigen::Ref<Eigen::VectorXd> vbar) const;
  void addRotatedGradient(int body, const Vec3& y, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar) const;

  const Model& model_;
  int n_ = 0, m_ = 0;
  std::vector<ConstraintBlock> blocks_;
  std::vector<JointCoordinate> coordinates_;
  std::vector<Vec3> rhoCom_;         ///< per body: the body origin from the centre of mass (-com)
  std::vector<Mat3> inverseInertia_;  ///< per body: the central inertia's inverse
  std::vector<Pose> poses_;          ///< per body, 0 = ground
  std::vector<std::vector<int>> bodyRows_;  ///< per body: the constraint rows that involve it
  Eigen::MatrixXd C_, P_, gather_, gatherM_;
  Eigen::VectorXd minvA_, pstar_, v_, sigma_, rhs_, ysigma_, yv_, vbar_, pbar_, sigmabar_;
  std::unique_ptr<detail::SemidefiniteSolver> solver_;
};

}  // namespace articula
