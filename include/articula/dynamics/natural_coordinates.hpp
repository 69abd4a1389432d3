// Natural (fully Cartesian) coordinates of a Model, for the global formulation (seed 001
// section 2, its ref. 3): every moving body i is described by its frame origin r_i and its three
// frame axes u_i, v_i, w_i in world coordinates, x_i = [r; u; v; w] (12 coordinates, body-major:
// body i at offset 12 (i - 1)); the ground is fixed and has none. A material point at body-frame
// position p is at r + p_x u + p_y v + p_z w, linear in x_i, so
//  - the mass matrix is constant: M_i = (integral of [1; p] [1; p]^T dm) (x) I_3, the 4 x 4 factor
//    built from the mass, the first moment m c and the second moments integral p p^T dm =
//    tr(Ibar)/2 I - Ibar (Ibar: the inertia about the frame origin); no velocity-product forces;
//  - gravity is a constant generalised force, [m; m c] (x) g per body;
//  - every constraint used here is a sum of dot products of vectors linear in x (at most
//    quadratic): Phi_x is cheap and exact, and Phi_x-dot x-dot is -2 (a-dot . b-dot).
//
// Constraints, in this row order:
//  - rigid body (6 per body): (u.u - 1)/2, (v.v - 1)/2, (w.w - 1)/2, u.v, v.w, w.u;
//  - tree joints between parent P and child C, joint frame J placed in P: revolute 5 (origins
//    coincide, axis fixed in both stays aligned: two dot products with normals), prismatic 5
//    (axis aligned, rotation about it locked, child origin on the axis line), cylindrical 4,
//    universal 4 (origins coincide, the angle between axis 1 in P and axis 2 in C kept),
//    spherical 3, planar 3 (normals aligned, child origin in the plane), fixed 6, free 0.
//    The joint's zero configuration is not enforced, only its kinematic constraint;
//  - loop constraints: ball 3, revolute 5 (z axes aligned), weld 6, distance 1
//    ((|d|^2 - L^2) / 2L, which is |d| - L to first order);
//  - prescribed motions on revolute and cylindrical angles (sin(theta - f(t)), a bilinear form
//    rotating with f), on prismatic, cylindrical and planar displacements (a.(r_C - o) - f(t)) and
//    on the planar angle.
// Joint springs/dampers and joint loads act on the same coordinate functions (angle by atan2 of
// the child's normal in the joint frame, displacement along the axis): revolute, prismatic,
// cylindrical and planar coordinates; universal coordinates are refused with an error naming the
// element. Point springs/dampers and body loads map through the same linear map as the mass.
#pragma once

#include <string>
#include <vector>

#include "articula/kinematics/workspace.hpp"

namespace articula {

/// A sparse matrix stored by rows with a fixed pattern (columns ascending in each row); the
/// values change, the pattern never does.
struct SparseRows {
  int columns = 0;
  std::vector<int> rowStart{0};  ///< row r: entries rowStart[r] .. rowStart[r + 1]
  std::vector<int> column;
  Eigen::VectorXd value;

  int rows() const { return static_cast<int>(rowStart.size()) - 1; }
  /// y = A x.
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  /// x += s A^T y.
  void addTransposedProduct(double s, const Eigen::VectorXd& y, Eigen::VectorXd& x) const;
  Eigen::MatrixXd dense() const;
};

class NaturalCoordinates {
 public:
  static constexpr int kPerBody = 12;

  /// Converts the model. Throws articula::Error naming the element for what is not supported
  /// (springs, loads or prescribed motion on universal-joint coordinates).
  explicit NaturalCoordinates(const Model& model);
  ~NaturalCoordinates();
  NaturalCoordinates(const NaturalCoordinates&) = delete;
  NaturalCoordinates& operator=(const NaturalCoordinates&) = delete;

  const Model& model() const { return model_; }
  /// Number of natural coordinates (12 per moving body).
  int size() const { return kPerBody * model_.bodyCount(); }
  /// Offset of body b's coordinates (b >= 1).
  static int offset(int body) { return kPerBody * (body - 1); }
  int constraintCount() const;
  /// Name of the element a constraint row comes from ("body 'b1'", "joint 'elbow'", ...).
  std::string constraintSource(int row) const;

  // --- Mass and constant forces -------------------------------------------------------------
  /// The 4 x 4 factor of body b's mass matrix (M_b = factor (x) I_3).
  const Eigen::Matrix4d& bodyMass(int body) const { return bodyMass_[static_cast<std::size_t>(body)]; }
  /// y = M x.
  void multiplyMass(const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  /// The whole mass matrix, dense (tests, inspection).
  Eigen::MatrixXd denseMassMatrix() const;
  /// The largest body mass (the scale of the global formulation's automatic penalty), or the
  /// largest diagonal entry of M when every body is massless. Not the largest entry whatever it
  /// is: the unit vectors' entries are second moments about the body's origin, which depend on
  /// where the origin lies and on the unit of length (the truck's trailer, its origin at the
  /// kingpin 7.6 m from its centre of mass, has 1.27e6 kg m^2 there against its 22 t).
  double penaltyMassScale() const;

  // --- Maps to and from the tree's joint coordinates -----------------------------------------
  /// Natural positions and velocities of the state (q, v) by forward kinematics (leaves ws at
  /// updateVelocities(q, v)).
  void fromJoint(Workspace& ws, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& x,
                 Eigen::VectorXd& xd) const;
  /// Natural accelerations of the joint accelerations vdot; requires fromJoint for the state in ws.
  void accelerationsFromJoint(Workspace& ws, const Eigen::VectorXd& vdot, Eigen::VectorXd& xdd) const;
  /// Joint positions read from each tree joint's relative pose: angles (atan2 about the axis) on
  /// the branch within pi of qNear, quaternions with the sign of qNear's.
  void positionsToJoint(const Eigen::VectorXd& x, const Eigen::VectorXd& qNear, Eigen::VectorXd& q) const;
  /// Joint positions, velocities (each joint's relative twist on its motion subspace) and, when
  /// xdd and vdot are given, accelerations (the inverse of the forward recursion a_i = X a_p +
  /// S vdot + c_i). Leaves ws at updateVelocities(q, v).
  void toJoint(Workspace& ws, const Eigen::VectorXd& x, const Eigen::VectorXd& xd, const Eigen::VectorXd* xdd,
               const Eigen::VectorXd& qNear, Eigen::VectorXd& q, Eigen::VectorXd& v, Eigen::VectorXd* vdot) const;

  // --- Constraints ---------------------------------------------------------------------------
  /// Phi(t, x).
  void constraints(double t, const Eigen::VectorXd& x, Eigen::VectorXd& phi) const;
  /// Phi(t, x), the Jacobian Phi_x (values in the fixed pattern of jacobianPattern()) and
  /// nu = -Phi_t, so that Phi_x x-dot = nu on velocity level.
  void jacobian(double t, const Eigen::VectorXd& x, Eigen::VectorXd& phi, SparseRows& J, Eigen::VectorXd& nu) const;
  /// gamma with Phi_x x-ddot = gamma: -(Phi_x x-dot)_x x-dot - 2 Phi_xt x-dot - Phi_tt.
  void accelerationBias(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& xd, Eigen::VectorXd& gamma) const;
  /// An empty Jacobian with the pattern filled in.
  SparseRows jacobianPattern() const;

  // --- Applied forces --------------------------------------------------------------------------
  /// The rows g_r of the analytic tangent's K and C (seed 001 eq. (31), (34), second derivatives
  /// of the coordinates neglected): K = sum_r k_r g_r g_r^T and C = sum_r c_r g_r g_r^T, with the
  /// coefficients of the current state. In this order:
  ///  - one row per joint spring-damper (the gradient of its joint coordinate; k and c its
  ///    stiffness and damping) and per point spring-damper (the gradient of its length; k and c
  ///    the slopes of its tension: bump stop, damping curve, air spring and friction included);
  ///    elements that cannot have a slope (all coefficients zero) have none;
  ///  - three per tyre: the contact point of the wheel moved along the road normal (k and c the
  ///    radial spring-damper), along the longitudinal and along the lateral direction (c = K_x / V
  ///    and K_y / V: the slip forces linearised at zero slip), all zero off the road; as
  ///    SpringDamperTangent in joint coordinates (spring_damper_tangent.hpp).
  struct TangentRows {
    SparseRows gradients;
    Eigen::VectorXd stiffness, damping;  ///< k_r, c_r
  };
  /// The rows' pattern, values zero.
  TangentRows tangentRows() const;
  /// Generalised forces Q of gravity, springs, dampers, loads and tyres at (t, x, x-dot); joint
  /// angles are read on the branch of qNear (joint springs). Also, when `tangent` is given, the
  /// tangent rows at that state.
  /// Throws articula::Error naming a point spring whose end points coincide with a positive rest
  /// length, or a tyre whose wheel lies flat.
  void appliedForces(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& xd, const Eigen::VectorXd& qNear,
                     Eigen::VectorXd& Q, TangentRows* tangent = nullptr) const;
  /// What one applied force element reads and writes (gravity, constant, is none): the entries of
  /// Q it adds to (elsewhere it adds exact zeros) and the entries of x and x-dot it depends on.
  struct ForceSupport {
    std::vector<int> rows, positions, velocities;
  };
  /// One per joint spring-damper, joint load, point spring-damper, body load on a moving body and
  /// tyre (in that order): the structural pattern of K = -dQ/dx and C = -dQ/dx-dot
  /// (natural_force_derivatives.hpp).
  std::vector<ForceSupport> forceSupports() const;

  /// Kinetic energy 1/2 x-dot^T M x-dot.
  double kineticEnergy(const Eigen::VectorXd& xd) const;

  // Internal representation (defined in natural_coordinates.cpp).
  struct Form;
  struct Coordinate;

 private:
  const Model& model_;
  std::vector<Eigen::Matrix4d> bodyMass_;  // per body, index 0 unused
  Eigen::VectorXd gravity_;                // constant generalised gravity forces
  std::vector<Form> constraints_;
  std::vector<std::string> constraintSources_;
  std::vector<Coordinate> jointSpringCoordinates_, jointLoadCoordinates_;
  std::vector<Form> pointSpringForms_;  // |d|^2 / 2 of each point spring
  // Tangent rows: of each joint and point spring (-1: none), and the first of each tyre's three.
  std::vector<int> tangentRowOfJointSpring_, tangentRowOfPointSpring_, tangentRowOfTyre_;
  int tangentRowCount_ = 0;
};

}  // namespace articula
