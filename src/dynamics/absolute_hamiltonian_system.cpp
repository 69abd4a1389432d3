// The equations of motion of AbsoluteHamiltonianSystem (seed 002 eq. (3.14)); its adjoint
// product is in absolute_hamiltonian_adjoint.cpp.
#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "absolute_hamiltonian_detail.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "semidefinite_solver.hpp"

namespace articula {

using absolute::BodyState;
using absolute::PairVelocity;

std::string AbsoluteHamiltonianSystem::unsupported(const Model& model) {
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Body& b = model.bodies[static_cast<std::size_t>(i)];
    if (!(b.mass > 0.0) || Eigen::LLT<Mat3>(b.inertiaCom).info() != Eigen::Success)
      return "body '" + b.name + "' has no positive mass and positive definite inertia (the absolute-coordinate "
             "mass matrix must be invertible)";
    const Joint& j = model.joints[static_cast<std::size_t>(i)];
    if (j.type == JointType::Universal && std::abs(j.axis.normalized().dot(j.axis2.normalized())) > 1e-9)
      return "universal joint '" + j.name + "' has axes that are not perpendicular";
  }
  for (const LoopConstraint& l : model.loops)
    if (l.type == LoopConstraint::Type::Distance && !(l.distance > 0.0))
      return "distance loop '" + l.name + "' has no positive length";
  if (!model.prescribed.empty()) return "prescribed motion '" + model.prescribed.front().name + "'";
  if (!model.tyres.empty()) return "tyre '" + model.tyres.front().name + "'";
  if (!model.jointLimits.empty()) return "joint limit '" + model.jointLimits.front().name + "'";
  const auto scalarJoint = [&](int joint, const std::string& name) -> std::string {
    const JointType t = model.joints[static_cast<std::size_t>(joint)].type;
    if (t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Cylindrical ||
        t == JointType::Universal)
      return {};
    return "'" + name + "' acts on joint '" + model.joints[static_cast<std::size_t>(joint)].name +
           "', which is not revolute, prismatic, cylindrical or universal";
  };
  for (const JointSpringDamper& s : model.jointSprings)
    if (auto why = scalarJoint(s.joint, s.name); !why.empty()) return why;
  for (const JointFriction& f : model.jointFrictions)
    if (auto why = scalarJoint(f.joint, f.name); !why.empty()) return why;
  for (const JointLoad& l : model.jointLoads)
    if (auto why = scalarJoint(l.joint, l.name); !why.empty()) return why;
  for (const PointSpringDamper& s : model.pointSprings)
    if (!s.isLinear()) return "spring '" + s.name + "' is not linear (damping curve, bump stop, air spring or friction)";
  return {};
}

AbsoluteHamiltonianSystem::AbsoluteHamiltonianSystem(const Model& model) : model_(model), n_(model.bodyCount()) {
  if (const std::string why = unsupported(model); !why.empty())
    throw Error("the absolute-coordinate Hamiltonian formulation cannot run this model: " + why);
  rhoCom_.assign(static_cast<std::size_t>(n_ + 1), Vec3::Zero());
  for (int i = 1; i <= n_; ++i) rhoCom_[static_cast<std::size_t>(i)] = -model.bodies[static_cast<std::size_t>(i)].com;
  const auto addBlock = [&](ConstraintBlock block) {
    block.row = m_;
    m_ += block.rows();
    if (block.rows() > 0) blocks_.push_back(std::move(block));
  };
  JointKinematics jk;
  Eigen::VectorXd q0(7), v0 = Eigen::VectorXd::Zero(6);
  for (int i = 1; i <= n_; ++i) {
    const Joint& j = model.joints[static_cast<std::size_t>(i)];
    jointNeutral(j, q0.data());
    jointKinematics(j, q0.data(), v0.data(), jk);
    ConstraintBlock b;
    b.a = j.parent;
    b.b = i;
    b.axesA = j.placement.rotationInParent();
    b.originA = j.placement.r + rhoCom_[static_cast<std::size_t>(j.parent)];
    b.axesB = Mat3::Identity();
    b.originB = rhoCom_[static_cast<std::size_t>(i)];
    // D: an orthonormal basis of the directions the joint's motion subspace leaves out (child
    // axes; the subspace's span is constant there for every joint type covered).
    if (j.nv == 0) {
      b.D = Eigen::Matrix<double, 6, 6>::Identity();
    } else if (j.type == JointType::Universal) {  // the child's origin stays; one angular row turns
      b.D = Eigen::Matrix<double, 6, 6>::Identity().rightCols(3);
      b.turning = true;
      b.turningA = b.axesA * j.axis.normalized();
      b.turningB = j.axis2.normalized();
    } else {
      Eigen::JacobiSVD<Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>> svd(jk.S, Eigen::ComputeFullU);
      b.D = svd.matrixU().rightCols(6 - j.nv);
    }
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic || j.type == JointType::Cylindrical ||
        j.type == JointType::Universal)
      for (int k = 0; k < j.nv; ++k) {
        JointCoordinate c;
        c.joint = i;
        c.dof = k;
        c.angle = j.type != JointType::Prismatic && !(j.type == JointType::Cylindrical && k == 1);
        c.universal = j.type == JointType::Universal;
        c.axis2 = j.axis2.normalized();
        c.s = jk.S.col(k);
        c.axesA = b.axesA;
        c.originA = b.originA;
        c.originB = b.originB;
        c.axis = c.universal ? j.axis.normalized() : j.axis;
        coordinates_.push_back(std::move(c));
      }
    addBlock(std::move(b));
  }
  for (std::size_t k = 0; k < model.jointSprings.size(); ++k)
    coordinates_[static_cast<std::size_t>(coordinateOf(model.jointSprings[k].joint, model.jointSprings[k].dof))]
        .springs.push_back(static_cast<int>(k));
  for (std::size_t k = 0; k < model.jointFrictions.size(); ++k)
    coordinates_[static_cast<std::size_t>(coordinateOf(model.jointFrictions[k].joint, model.jointFrictions[k].dof))]
        .frictions.push_back(static_cast<int>(k));
  for (std::size_t k = 0; k < model.jointLoads.size(); ++k)
    coordinates_[static_cast<std::size_t>(coordinateOf(model.jointLoads[k].joint, model.jointLoads[k].dof))]
        .loads.push_back(static_cast<int>(k));
  for (const LoopConstraint& l : model.loops) {
    ConstraintBlock b;
    b.a = l.bodyA;
    b.b = l.bodyB;
    b.axesA = l.rotationA;
    b.axesB = l.rotationB;
    b.originA = l.pointA + rhoCom_[static_cast<std::size_t>(l.bodyA)];
    b.originB = l.pointB + rhoCom_[static_cast<std::size_t>(l.bodyB)];
    const Eigen::Matrix<double, 6, 6> I = Eigen::Matrix<double, 6, 6>::Identity();
    switch (l.type) {
      case LoopConstraint::Type::Ball: b.D = I.rightCols(3); break;
      case LoopConstraint::Type::Revolute:
        b.D.resize(6, 5);
        b.D << I.col(0), I.col(1), I.rightCols(3);
        break;
      case LoopConstraint::Type::Weld: b.D = I; break;
      case LoopConstraint::Type::Distance:
        b.D.resize(6, 0);
        b.distance = true;
        b.length = l.distance;
        break;
    }
    addBlock(std::move(b));
  }
  poses_.resize(static_cast<std::size_t>(n_ + 1));
  Pose& ground = poses_[0];
  ground.r.setZero();
  ground.rdot.setZero();
  ground.w.setZero();
  ground.e << 1.0, 0.0, 0.0, 0.0;
  ground.finish();
  C_.setZero(m_, 6 * n_);
  P_.resize(m_, m_);
  for (auto* v : {&v_, &vbar_, &yv_}) v->resize(6 * n_);
  pbar_.resize(6 * n_);
  for (auto* v : {&sigma_, &rhs_, &ysigma_, &sigmabar_}) v->resize(m_);
  pstar_.resize(6 * n_);
  solver_ = std::make_unique<detail::SemidefiniteSolver>(m_, 1);
  bodyRows_.assign(static_cast<std::size_t>(n_ + 1), {});
  for (const ConstraintBlock& b : blocks_)
    for (int k = 0; k < b.rows(); ++k)
      for (int body : {b.a, b.b})
        if (body > 0) bodyRows_[static_cast<std::size_t>(body)].push_back(b.row + k);
  std::size_t widest = 0;
  for (const std::vector<int>& rows : bodyRows_) widest = std::max(widest, rows.size());
  gather_.resize(static_cast<Eigen::Index>(widest), 6);
  gatherM_.resize(static_cast<Eigen::Index>(widest), 6);
  minvA_.resize(6 * n_);
  inverseInertia_.resize(static_cast<std::size_t>(n_ + 1), Mat3::Zero());
  for (int i = 1; i <= n_; ++i)
    inverseInertia_[static_cast<std::size_t>(i)] = model.bodies[static_cast<std::size_t>(i)].inertiaCom.inverse();
}

AbsoluteHamiltonianSystem::~AbsoluteHamiltonianSystem() = default;

int AbsoluteHamiltonianSystem::coordinateOf(int joint, int dof) const {
  for (std::size_t k = 0; k < coordinates_.size(); ++k)
    if (coordinates_[k].joint == joint && coordinates_[k].dof == dof) return static_cast<int>(k);
  throw Error("absolute Hamiltonian formulation: joint '" + model_.joints[static_cast<std::size_t>(joint)].name +
                   "' has no scalar coordinate " + std::to_string(dof));
}

void AbsoluteHamiltonianSystem::readState(const Eigen::VectorXd& x) {
  if (x.size() != size()) throw Error("absolute Hamiltonian state of size " + std::to_string(x.size()) +
                                      ", expected " + std::to_string(size()));
  for (int i = 1; i <= n_; ++i) {
    Pose& p = poses_[static_cast<std::size_t>(i)];
    p.r = x.segment<3>(7 * (i - 1));
    p.e = x.segment<4>(7 * (i - 1) + 3);
    if (!(p.e.squaredNorm() > 0.0) || !x.segment<7>(7 * (i - 1)).allFinite())
      throw Error("absolute Hamiltonian state: body '" + model_.bodies[static_cast<std::size_t>(i)].name +
                  "' has a non-finite position or zero Euler parameters");
    p.finish();
  }
}

void AbsoluteHamiltonianSystem::applyInverseMass(Eigen::Ref<Eigen::VectorXd> x) const {
  for (int i = 1; i <= n_; ++i) {
    x.segment<3>(6 * (i - 1)) /= model_.bodies[static_cast<std::size_t>(i)].mass;
    x.segment<3>(6 * (i - 1) + 3) = inverseInertia_[static_cast<std::size_t>(i)] * x.segment<3>(6 * (i - 1) + 3);
  }
}

void AbsoluteHamiltonianSystem::buildConstraints() {
  for (const ConstraintBlock& b : blocks_) {
    const auto Cb =
        absolute::blockMatrix(poses_[static_cast<std::size_t>(b.a)], poses_[static_cast<std::size_t>(b.b)], b);
    if (b.a > 0) C_.block(b.row, 6 * (b.a - 1), b.rows(), 6) = Cb.leftCols<6>();
    C_.block(b.row, 6 * (b.b - 1), b.rows(), 6) = Cb.rightCols<6>();
  }
  // P = C M^-1 C^T, the Schur complement of (3.14a)'s leading matrix, body by body: M is block
  // diagonal, so body i adds C_i M_i^-1 C_i^T on the rows that touch it (its own joint, its
  // children's and its loops').
  P_.setZero();
  for (int i = 1; i <= n_; ++i) {
    const std::vector<int>& rows = bodyRows_[static_cast<std::size_t>(i)];
    const auto r = static_cast<Eigen::Index>(rows.size());
    auto G = gather_.topRows(r), GM = gatherM_.topRows(r);
    for (Eigen::Index k = 0; k < r; ++k) G.row(k) = C_.block<1, 6>(rows[static_cast<std::size_t>(k)], 6 * (i - 1));
    GM.leftCols<3>() = G.leftCols<3>() / model_.bodies[static_cast<std::size_t>(i)].mass;
    GM.rightCols<3>().noalias() = G.rightCols<3>() * inverseInertia_[static_cast<std::size_t>(i)];  // J^-1 symmetric
    for (Eigen::Index k = 0; k < r; ++k)
      for (Eigen::Index l = 0; l < r; ++l)
        P_(rows[static_cast<std::size_t>(k)], rows[static_cast<std::size_t>(l)]) += GM.row(k).dot(G.row(l));
  }
  if (!solver_->compute(P_)) throw Error("absolute Hamiltonian formulation: the constraint matrix is not finite");
}

void AbsoluteHamiltonianSystem::saddleSolve(const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::VectorXd& v,
                                            Eigen::VectorXd& s) {
  // [M C^T; C 0] [v; s] = [a; b]: C M^-1 C^T s = C M^-1 a - b, M v = a - C^T s
  minvA_ = a;
  applyInverseMass(minvA_);
  s.noalias() = C_ * minvA_;
  s -= b;
  solver_->solveInPlace(s);
  v = a;
  v.noalias() -= C_.transpose() * s;
  applyInverseMass(v);
}

void AbsoluteHamiltonianSystem::prepare(const Eigen::VectorXd& x) {
  readState(x);
  buildConstraints();
  rhs_.setZero();
  pstar_ = x.tail(6 * n_);
  saddleSolve(pstar_, rhs_, v_, sigma_);
  for (int i = 1; i <= n_; ++i) {
    Pose& p = poses_[static_cast<std::size_t>(i)];
    p.rdot = v_.segment<3>(6 * (i - 1));
    p.w = v_.segment<3>(6 * (i - 1) + 3);
  }
}

void AbsoluteHamiltonianSystem::derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) {
  prepare(x);
  for (int i = 1; i <= n_; ++i) {
    const Pose& p = poses_[static_cast<std::size_t>(i)];
    xdot.segment<3>(7 * (i - 1)) = p.rdot;
    xdot.segment<4>(7 * (i - 1) + 3) = absolute::eulerParameterRate(p.e, p.w);
  }
  auto pdot = xdot.tail(6 * n_);
  pdot.setZero();
  for (int i = 1; i <= n_; ++i) {
    const Body& b = model_.bodies[static_cast<std::size_t>(i)];
    const Vec3& w = poses_[static_cast<std::size_t>(i)].w;
    pdot.segment<3>(6 * (i - 1)) += b.mass * model_.gravity;
    pdot.segment<3>(6 * (i - 1) + 3) -= w.cross(b.inertiaCom * w);  // the gyroscopic part of f (3.14b)
  }
  forEachElement(t, [&](int a, int b, const auto& power) { addGeneralisedForce(a, b, power, pdot); });
  // C-dot^T sigma: the gradient in the test velocity of sigma^T D^T (d/dt twist)
  for (const ConstraintBlock& b : blocks_) {
    const auto sigma = sigma_.segment(b.row, b.rows());
    addGeneralisedForce(b.a, b.b, [&](const auto& A, const auto& B, const auto& w) {
      using T = typename std::decay_t<decltype(A.r)>::Scalar;
      return T(absolute::blockRate(A, B, b, w).dot(sigma.template cast<T>()));
    }, pdot);
  }
  if (!xdot.allFinite()) throw Error("absolute Hamiltonian formulation: the state derivative is not finite at t = " +
                                     std::to_string(t));
}

bool AbsoluteHamiltonianSystem::afterStep(double, Eigen::VectorXd& x) {
  for (int i = 1; i <= n_; ++i) x.segment<4>(7 * (i - 1) + 3).normalize();
  return true;
}

void AbsoluteHamiltonianSystem::canonicalState(const Eigen::VectorXd& qv, Eigen::VectorXd& x) {
  Workspace ws(model_);
  updateVelocities(model_, ws, qv.head(model_.nq), qv.tail(model_.nv));
  x.resize(size());
  for (int i = 1; i <= n_; ++i) {
    const Body& b = model_.bodies[static_cast<std::size_t>(i)];
    const Mat3 R = articula::bodyRotation(ws, i);
    const Eigen::Quaterniond e(R);
    const Vec3& w = ws.v[static_cast<std::size_t>(i)].ang;
    x.segment<3>(7 * (i - 1)) = articula::pointPosition(ws, i, b.com);
    x.segment<4>(7 * (i - 1) + 3) << e.w(), e.x(), e.y(), e.z();
    x.segment<3>(7 * n_ + 6 * (i - 1)) = b.mass * articula::pointVelocity(ws, i, b.com);  // sigma(0) = 0: p* = M v
    x.segment<3>(7 * n_ + 6 * (i - 1) + 3) = b.inertiaCom * w;
  }
}

void AbsoluteHamiltonianSystem::fillWorkspace(const Eigen::VectorXd& x, Workspace& ws) {
  prepare(x);
  for (int i = 1; i <= n_; ++i) {
    const Pose& p = poses_[static_cast<std::size_t>(i)];
    const Vec3& c = model_.bodies[static_cast<std::size_t>(i)].com;
    ws.X0[static_cast<std::size_t>(i)] = Transform(p.R.transpose(), p.r - p.R * c);
    ws.v[static_cast<std::size_t>(i)] = Motion(p.w, p.R.transpose() * p.rdot - p.w.cross(c));
  }
}

double AbsoluteHamiltonianSystem::positionViolation(const Eigen::VectorXd& x) {
  readState(x);
  double worst = 0.0;
  for (const ConstraintBlock& b : blocks_) {
    const Pose& A = poses_[static_cast<std::size_t>(b.a)];
    const Pose& B = poses_[static_cast<std::size_t>(b.b)];
    const Mat3 RA = A.R * b.axesA, RB = B.R * b.axesB;
    const Mat3 Rrel = RB.transpose() * RA;
    Vec6 error;
    error.head<3>() = 0.5 * Vec3(Rrel(2, 1) - Rrel(1, 2), Rrel(0, 2) - Rrel(2, 0), Rrel(1, 0) - Rrel(0, 1));
    const Vec3 gap = B.r + B.R * b.originB - A.r - A.R * b.originA;  // frame A's origin to frame B's
    error.tail<3>() = RB.transpose() * gap;
    if (b.D.cols() > 0) worst = std::max(worst, (b.D.transpose() * error).cwiseAbs().maxCoeff());
    if (b.distance) worst = std::max(worst, std::abs(gap.norm() - b.length));
    if (b.turning)  // a universal joint's axes a (parent) and b (child) perpendicular
      worst = std::max(worst, std::abs((A.R * b.turningA).dot(B.R * b.turningB)));
  }
  return worst;
}

double AbsoluteHamiltonianSystem::energy(const Eigen::VectorXd& x) {
  prepare(x);
  double e = 0.0;
  for (int i = 1; i <= n_; ++i) {
    const Body& b = model_.bodies[static_cast<std::size_t>(i)];
    const Pose& p = poses_[static_cast<std::size_t>(i)];
    e += 0.5 * b.mass * p.rdot.squaredNorm() + 0.5 * p.w.dot(b.inertiaCom * p.w) - b.mass * model_.gravity.dot(p.r);
  }
  for (const PointSpringDamper& s : model_.pointSprings) {
    const Pose& A = poses_[static_cast<std::size_t>(s.bodyA)];
    const Pose& B = poses_[static_cast<std::size_t>(s.bodyB)];
    const double L = (B.r + B.R * (s.pointB + rhoCom_[static_cast<std::size_t>(s.bodyB)]) - A.r -
                      A.R * (s.pointA + rhoCom_[static_cast<std::size_t>(s.bodyA)]))
                         .norm();
    e += 0.5 * s.stiffness * (L - s.restLength) * (L - s.restLength);
  }
  return e;
}

}  // namespace articula
