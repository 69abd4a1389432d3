// The adjoint product of AbsoluteHamiltonianSystem (seed 002 section 4.2 and appendix B) and the
// kinematic queries the cost terms differentiate through.
//
// The right-hand side F(x) is evaluated in three steps: (1) [v; sigma] = K(q)^-1 [p*; 0] with
// K = [M C^T; C 0] (3.14a); (2) r-dot = v_lin, e-dot = e (x) (0, w) / 2; (3) p*-dot = f(t, q, v)
// + C-dot(q, v)^T sigma (3.14b). Its adjoint runs them backwards for the weights xdotBar =
// [qdotBar; pdotBar]:
//  - (3) and (2) give weights vbar on v and sigmabar = C-dot pdotBar on sigma, and terms in q:
//    the gradients of pdotBar^T f and sigma^T C-dot pdotBar, which are the element terms of
//    (4.8) and (B.7) (p*-dot_s, p*-dot_v = A^T);
//  - (1) maps them back through the same leading matrix as the forward dynamics (the thesis's
//    point after (4.11b)): K [yv; ys] = [vbar; sigmabar], so pbar = yv and
//    qbar -= d/dq (yv^T C^T sigma + ys^T C v), the term (4.8)'s p*_s and C's variation bring.
// The element terms are the gradients of scalar powers, taken by forward-mode automatic
// differentiation over the two bodies of each element: exact, and no second derivative of a
// constraint is written by hand.
#include "absolute_hamiltonian_detail.hpp"

namespace articula {

using absolute::PairVelocity;

void AbsoluteHamiltonianSystem::adjoint(double t, const Eigen::Ref<const Eigen::VectorXd>& xdotBar,
                                        const Eigen::VectorXd& qbarIn,
                                        const Eigen::VectorXd& vbarIn, Eigen::Ref<Eigen::VectorXd> xbar) {
  auto qbar = xbar.head(7 * n_);
  qbar = qbarIn;
  vbar_ = vbarIn;
  pbar_ = xdotBar.tail(6 * n_);
  // (2) r-dot = v_lin and e-dot = e (x) (0, w) / 2 (linear in e and in w).
  for (int i = 1; i <= n_; ++i) {
    const Pose& p = poses_[static_cast<std::size_t>(i)];
    const Eigen::Vector4d ebar = xdotBar.segment<4>(7 * (i - 1) + 3);
    const Vec3 epsBar = ebar.tail<3>(), eps = p.e.tail<3>();
    vbar_.segment<3>(6 * (i - 1)) += xdotBar.segment<3>(7 * (i - 1));
    vbar_.segment<3>(6 * (i - 1) + 3) += 0.5 * (-ebar[0] * eps + p.e[0] * epsBar + epsBar.cross(eps));
    qbar[7 * (i - 1) + 3] += 0.5 * epsBar.dot(p.w);
    qbar.segment<3>(7 * (i - 1) + 4) += 0.5 * (-ebar[0] * p.w + p.w.cross(epsBar));
  }
  // (3) the gyroscopic torque -w x J w, then the force elements and C-dot^T sigma.
  for (int i = 1; i <= n_; ++i) {
    const Mat3& J = model_.bodies[static_cast<std::size_t>(i)].inertiaCom;
    const Vec3& w = poses_[static_cast<std::size_t>(i)].w;
    const Vec3 a = pbar_.segment<3>(6 * (i - 1) + 3);
    vbar_.segment<3>(6 * (i - 1) + 3) -= (J * w).cross(a) + J * a.cross(w);
  }
  forEachElement(t, [&](int a, int b, const auto& power) {
    addStateGradient(a, b, power, absolute::pairOf(a, b, pbar_), 1.0, qbar, vbar_);
  });
  for (const ConstraintBlock& b : blocks_) {
    const Eigen::Index rows = b.rows();
    const auto sigma = sigma_.segment(b.row, rows);
    const PairVelocity<double> w = absolute::pairOf(b.a, b.b, pbar_);
    addStateGradient(b.a, b.b, [&](const auto& A, const auto& B, const auto& u) {
      using T = typename std::decay_t<decltype(A.r)>::Scalar;
      return T(absolute::blockRate(A, B, b, u).dot(sigma.template cast<T>()));
    }, w, 1.0, qbar, vbar_);
    sigmabar_.segment(b.row, rows) =
        absolute::blockRate<double>(poses_[static_cast<std::size_t>(b.a)], poses_[static_cast<std::size_t>(b.b)], b, w);
  }
  // (1) one solve with the forward leading matrix, then C's variation in q.
  saddleSolve(vbar_, sigmabar_, yv_, ysigma_);
  xbar.tail(6 * n_) = yv_;
  for (const ConstraintBlock& b : blocks_) {
    const Eigen::Index rows = b.rows();
    const auto sigma = sigma_.segment(b.row, rows);
    const auto ys = ysigma_.segment(b.row, rows);
    const PairVelocity<double> wy = absolute::pairOf(b.a, b.b, yv_), wv = absolute::pairOf(b.a, b.b, v_);
    // yv^T C^T sigma + ys^T C v: the twist is linear in the test velocity, so both are one twist
    // each; the velocities enter as constants (vbar receives nothing: the twist reads poses only).
    addStateGradient(b.a, b.b, [&](const auto& A, const auto& B, const auto& u) {
      using T = typename std::decay_t<decltype(A.r)>::Scalar;
      const PairVelocity<T> v = absolute::castPair<T>(wv);
      return T(absolute::blockTwist(A, B, b, u).dot(sigma.template cast<T>()) +
               absolute::blockTwist(A, B, b, v).dot(ys.template cast<T>()));
    }, wy, -1.0, qbar, vbar_);
  }
}

double AbsoluteHamiltonianSystem::loadWeight(const BodyLoad& load) const {
  const Vec3 rho = load.point + rhoCom_[static_cast<std::size_t>(load.body)];
  return absolute::bodyLoadPower<double>(load, 1.0, poses_[static_cast<std::size_t>(load.body)], rho,
                                         absolute::pairOf(0, load.body, pbar_));
}

double AbsoluteHamiltonianSystem::loadWeight(const JointLoad& load) const {
  const JointCoordinate& c = coordinates_[static_cast<std::size_t>(coordinateOf(load.joint, load.dof))];
  const int parent = model_.joints[static_cast<std::size_t>(load.joint)].parent;
  const Pose& A = poses_[static_cast<std::size_t>(parent)];
  const Pose& B = poses_[static_cast<std::size_t>(load.joint)];
  return absolute::coordinateAxis<double>(A, B, c).dot(
      absolute::relativeTwist<double>(A, B, Mat3::Identity(), c.originB, absolute::pairOf(parent, load.joint, pbar_)));
}

Vec3 AbsoluteHamiltonianSystem::pointPosition(int body, const Vec3& p) const {
  const Pose& s = poses_[static_cast<std::size_t>(body)];
  return s.r + s.R * (p + rhoCom_[static_cast<std::size_t>(body)]);
}

Vec3 AbsoluteHamiltonianSystem::pointVelocity(int body, const Vec3& p) const {
  const Pose& s = poses_[static_cast<std::size_t>(body)];
  return s.rdot + s.R * s.w.cross(p + rhoCom_[static_cast<std::size_t>(body)]);
}

Mat3 AbsoluteHamiltonianSystem::bodyRotation(int body) const { return poses_[static_cast<std::size_t>(body)].R; }

Vec3 AbsoluteHamiltonianSystem::angularVelocity(int body) const {
  const Pose& s = poses_[static_cast<std::size_t>(body)];
  return s.R * s.w;
}

void AbsoluteHamiltonianSystem::addRotatedGradient(int body, const Vec3& y, const Vec3& g,
                                                   Eigen::Ref<Eigen::VectorXd> qbar) const {
  if (body == 0) return;
  using Ad4 = Eigen::AutoDiffScalar<Eigen::Vector4d>;
  absolute::BodyState<Ad4> s;
  const Eigen::Vector4d& e = poses_[static_cast<std::size_t>(body)].e;
  for (int k = 0; k < 4; ++k) s.e[k] = Ad4(e[k], 4, k);
  s.finish();
  const Ad4 value = g.cast<Ad4>().dot(s.R * y.cast<Ad4>());
  qbar.segment<4>(7 * (body - 1) + 3) += value.derivatives();
}

void AbsoluteHamiltonianSystem::addPointForce(int body, const Vec3& p, const Vec3& f,
                                              Eigen::Ref<Eigen::VectorXd> qbar) const {
  if (body == 0) return;
  qbar.segment<3>(7 * (body - 1)) += f;
  addRotatedGradient(body, p + rhoCom_[static_cast<std::size_t>(body)], f, qbar);
}

void AbsoluteHamiltonianSystem::addPointVelocityGradient(int body, const Vec3& p, const Vec3& f,
                                                         Eigen::Ref<Eigen::VectorXd> qbar,
                                                         Eigen::Ref<Eigen::VectorXd> vbar) const {
  if (body == 0) return;
  const Pose& s = poses_[static_cast<std::size_t>(body)];
  const Vec3 rho = p + rhoCom_[static_cast<std::size_t>(body)];
  // f . (rdot + R (w x rho))
  vbar.segment<3>(6 * (body - 1)) += f;
  vbar.segment<3>(6 * (body - 1) + 3) += rho.cross(s.R.transpose() * f);
  addRotatedGradient(body, s.w.cross(rho), f, qbar);
}

void AbsoluteHamiltonianSystem::addAngularVelocityGradient(int body, const Vec3& g, Eigen::Ref<Eigen::VectorXd> qbar,
                                                           Eigen::Ref<Eigen::VectorXd> vbar) const {
  if (body == 0) return;
  const Pose& s = poses_[static_cast<std::size_t>(body)];
  vbar.segment<3>(6 * (body - 1) + 3) += s.R.transpose() * g;
  addRotatedGradient(body, s.w, g, qbar);
}

void AbsoluteHamiltonianSystem::addBodyVectorGradient(int body, const Vec3& a, const Vec3& g,
                                                      Eigen::Ref<Eigen::VectorXd> qbar) const {
  addRotatedGradient(body, a, g, qbar);
}

}  // namespace articula
