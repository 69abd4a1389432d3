// Reverse-mode (adjoint) derivatives of the forward dynamics of a tree: for weights abar on the
// joint accelerations vdot(q, v, tau), the row vectors abar^T dvdot/dq, abar^T dvdot/dv and
// abar^T dvdot/dtau in O(n) operations, without forming a Jacobian. The discrete and continuous
// adjoints of optimize/ need exactly these products at every Runge-Kutta stage.
//
// vdot solves ID(q, v, vdot) = tau_app(q, v), with ID the recursive Newton-Euler inverse dynamics
// (gravity included) and tau_app the generalised forces of the force elements and loads. So
// dvdot/dx = -M^-1 (dID/dx - dtau_app/dx), and with w = M^-1 abar (M symmetric):
//
//   abar^T dvdot/dx   = -d/dx [w^T ID(q, v, vdot)] + d/dx [w^T tau_app(q, v)]   (w, vdot held),
//   abar^T dvdot/dtau = w^T.
//
// w comes from the articulated-body passes at zero velocity and zero gravity, or (MassSolve::
// DivideAndConquer) from the handle equations of the divide-and-conquer algorithm on the assembly
// tree, shared among threads: the Hamiltonian adjoint-based DCA of seed 002 section 4.5 (HADCA),
// whose point is that the adjoint's leading matrix is the forward dynamics' one, so the same
// assembly and disassembly solve it, in parallel over the tree's tiers. The gradient of the
// scalar phi = w^T ID = sum_i W_i^T f_i (W_i: the body velocity that joint rates w would give) is
// one sweep from the leaves to the root: raising q_k moves the bodies of the subtree of k by the
// screw s_k, which is the same as moving the subtree's inputs from the parent (V_p, A_p, W_p) by
// -s_k x (.), since phi of a subtree does not change when everything in it moves rigidly. So
//
//   dphi/dq_k = -[Vbar . (s_k x V_p) + Abar . (s_k x A_p) + Wbar . (s_k x W_p)],
//   dphi/dv_k = Vbar . s_k + Abar . (V_k x s_k),
//
// with the subtree sums Abar = sum I_j W_j, Wbar = sum f_j (the joint's transmitted force) and
// Vbar = sum [I_j (W_j x V_j) - W_j x* I_j V_j + (V_j - V_p) x* I_j W_j]. The sweep works in world
// axes about the world origin, on the poses, velocities and inertias of the ABA's first pass, so
// that a subtree's sums add to the parent's as they stand. (The analytic RNEA derivatives of
// Carpentier and Mansard, RSS 2018, give whole Jacobians in O(n d); one weighted row needs only
// this sweep.)
//
// Covers models whose joints are chains of screws with q_dot = v (revolute, prismatic,
// cylindrical, universal, planar, fixed; a joint of several columns is swept as one-column joints in
// series through massless bodies, its later columns seeing the motion after the earlier ones)
// with joint springs, limits, friction and loads, loads on bodies (forces and torques fixed in the
// body or in world axes) and point springs (through -T(L, Ldot) Ldot_w, their share of
// w^T tau_app, with Ldot_w the length's rate under the rates w). Loop closures and
// prescribed motions are differentiated as the reference formulation integrates them (index 1,
// Baumgarte terms from the options): w is then the weights projected onto J w = 0 and the
// constraints add their own term (src/dynamics/constraint_adjoint.hpp). Tyres are not
// differentiated here: `unsupported` says why, and the caller differentiates numerically.
#pragma once

#include <memory>
#include <string>

#include "articula/dynamics/formulation.hpp"
#include "articula/dynamics/handle_assembly.hpp"
#include "articula/dynamics/kinematic_adjoint.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

class ConstraintAdjoint;

class ForwardDynamicsAdjoint final : public KinematicAdjoint {
 public:
  /// How w = M^-1 abar is solved: by the articulated-body passes (serial), or on the assembly
  /// tree by the divide-and-conquer algorithm's handle equations with options.threads threads
  /// (HADCA; open trees only; the result is the same for every thread count, bit for bit).
  enum class MassSolve { ArticulatedBody, DivideAndConquer };

  /// Sized once for the model; `model` must outlive this object (its parameters may change).
  /// A constrained model's accelerations are those of the reference formulation with the
  /// options' Baumgarte terms. Throws articula::Error for DivideAndConquer on a constrained model.
  explicit ForwardDynamicsAdjoint(const Model& model, const FormulationOptions& options = {},
                                  MassSolve massSolve = MassSolve::ArticulatedBody);
  ~ForwardDynamicsAdjoint();

  /// Empty when the model is within reach; otherwise why not (naming the joint or element).
  static std::string unsupported(const Model& model);

  /// At the state (q, v) at time t with accelerations vdot (from any formulation of a tree, from
  /// the reference formulation when there are constraints): qbar += abar^T dvdot/dq and
  /// vbar += abar^T dvdot/dv. Returns w, the weights of the applied generalised forces
  /// (abar^T dvdot/dtau): M^-1 abar on a tree. Never allocates on a tree.
  const Eigen::VectorXd& accumulate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                    const Eigen::VectorXd& vdot, const Eigen::VectorXd& abar,
                                    Eigen::Ref<Eigen::VectorXd> qbar, Eigen::Ref<Eigen::VectorXd> vbar);

  /// After `accumulate`: the weight of a load on a body per unit of its magnitude, abar^T dvdot/dm
  /// (the power of the unit load under the body velocity that joint rates w give).
  double loadWeight(const BodyLoad& load) const;

  /// After `accumulate`, at its q: the world position of point p (body coordinates) of `body`, and
  /// qbar += J^T f, the gradient in q of f . r (r the point's world position, f fixed in world
  /// axes), from the poses and joint axes that `accumulate` computed.
  Vec3 pointPosition(int body, const Vec3& p) const override;
  void addPointForce(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar) const override;
  /// After `accumulate`, at its (q, v): the world velocity of point p of `body`, and the gradient
  /// of f . v_P (f fixed in world axes): qbar += d/dq (turning the subtree moves the point and
  /// turns the velocities of the joints after the one turned), vbar += J^T f.
  Vec3 pointVelocity(int body, const Vec3& p) const override;
  void addPointVelocityGradient(int body, const Vec3& p, const Vec3& f, Eigen::Ref<Eigen::VectorXd> qbar,
                                Eigen::Ref<Eigen::VectorXd> vbar) const override;
  /// After `accumulate`: the body's rotation (body to world) and angular velocity (world axes); the
  /// gradient of g . omega (g fixed in world axes): qbar += d/dq (the joints after a turned one
  /// turn with it), vbar += d/dv; and the gradient in q of g . (R a) for a body-fixed vector a.
  Mat3 bodyRotation(int body) const override;
  Vec3 angularVelocity(int body) const override;
  void addAngularVelocityGradient(int body, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar,
                                  Eigen::Ref<Eigen::VectorXd> vbar) const override;
  void addBodyVectorGradient(int body, const Vec3& a, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar) const override;

  /// w^T (tau_app(q, v) - ID(q, v, vdot)) at time t with the weights of the last `accumulate` and
  /// the model's parameters as they are now: its derivative in a model parameter (a mass, a
  /// spring's stiffness) is abar^T dvdot/d(parameter), which callers take by differences. The
  /// constraints' term is left out: no design parameter moves a loop (a link length would need
  /// it). Never allocates.
  double weightedResidual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& vdot);

 private:
  void solveMass(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& abar);
  void divideAndConquerSolve(const Eigen::VectorXd& q, const Eigen::VectorXd& abar);
  void bodyLoads(double t);
  Vec3 loadDirection(const BodyLoad& load) const;  ///< unit-magnitude direction in world axes
  /// Under the rates w: the velocity of a force's point, or the angular velocity for a torque.
  Vec3 virtualLoadRate(const BodyLoad& load) const;
  Motion jointAxis(int body, int e) const;  ///< column e of the body's joint subspace, world axes
  void inverseDynamicsSweep(double t, const Eigen::VectorXd& v, const Eigen::VectorXd& vdot,
                            Eigen::Ref<Eigen::VectorXd> qbar, Eigen::Ref<Eigen::VectorXd> vbar);
  Motion bodyVelocity(int body, bool virtualRates) const;
  void addRateGradient(int body, const Vec3& r, const Vec3& u, bool virtualRates, double scale,
                       Eigen::Ref<Eigen::VectorXd> qbar) const;
  void pointSprings(Eigen::Ref<Eigen::VectorXd> qbar, Eigen::Ref<Eigen::VectorXd> vbar) const;
  void jointForceElements(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::Ref<Eigen::VectorXd> qbar,
                          Eigen::Ref<Eigen::VectorXd> vbar) const;

  const Model& model_;
  Workspace ws_;
  Eigen::VectorXd zero_, w_, v_, residual_;  // v_: the rates of the last accumulate
  // Per body, world axes about the world origin: the rigid-body inertia, the velocity-product
  // term, the acceleration, the velocity that joint rates w would give, and (per body, then
  // summed over its subtree) the RNEA force, Abar and the sum in Vbar of the comment above.
  std::vector<SpatialInertia> inertia_;
  std::vector<Motion> c_, A_, W_;
  std::vector<Force> F_, P_, G_;
  std::vector<Force> fext_;  // the loads on bodies
  std::vector<Vec3> turn_;   // per subtree: the world-fixed loads' term of dphi/dq (the sweep)
  std::unique_ptr<ConstraintAdjoint> constraints_;  // when the model has constraints
  std::unique_ptr<HandleAssembly> handles_;  // MassSolve::DivideAndConquer
};

}  // namespace articula
