// The exponential-map increments of quaternion joints and their Newton corrections.
#include <gtest/gtest.h>

#include <random>

#include "articula/kinematics/kinematics.hpp"
#include "random_model.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// Largest difference between two configurations, spherical joints' quaternions up to sign.
double configurationDistance(const Model& model, const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double d = 0.0;
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    double same = 0.0, flipped = 0.0;
    for (int k = 0; k < j.nq; ++k) {
      same = std::max(same, std::abs(a[j.iq + k] - b[j.iq + k]));
      flipped = std::max(flipped, std::abs(a[j.iq + k] + b[j.iq + k]));
    }
    d = std::max(d, j.type == JointType::Spherical ? std::min(same, flipped) : same);
  }
  return d;
}

}  // namespace

// q (+) (dv + s e) with e = incrementFromTangent(dv, d) equals (q (+) dv) (+) (s d) to first order
// in s: the difference falls as s^2 (by 100 when s falls by 10), where without the map it falls
// only as s for rotations of order one. The floating base has a free joint (SE(3) twist) and a
// spherical joint; leaving out the free joint's translation coupling alone made it first order.
TEST(JointIncrements, TangentCorrectionsComposeWithTheExponentialMap) {
  const Model model = test_models::floatingBase();
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd dv(model.nv), d(model.nv);
  for (int k = 0; k < model.nv; ++k) dv[k] = 0.8 * u(gen), d[k] = u(gen);
  Eigen::VectorXd e = d;
  incrementFromTangent(model, dv, e);
  auto mismatch = [&](double s, const Eigen::VectorXd& step) {
    Eigen::VectorXd viaIncrement = model.q0, viaTangent = model.q0;
    integrateConfiguration(model, viaIncrement, Eigen::VectorXd(dv + s * step));
    integrateConfiguration(model, viaTangent, dv);
    integrateConfiguration(model, viaTangent, Eigen::VectorXd(s * d));
    return configurationDistance(model, viaIncrement, viaTangent);
  };
  const double mapped1 = mismatch(1e-3, e), mapped2 = mismatch(1e-4, e);
  const double plain1 = mismatch(1e-3, d), plain2 = mismatch(1e-4, d);
  EXPECT_LT(mapped2, 0.02 * mapped1) << mapped1 << " " << mapped2;  // second order: ratio 0.01
  EXPECT_GT(plain2, 0.05 * plain1) << plain1 << " " << plain2;      // first order: ratio 0.1
  EXPECT_LT(mapped1, 1e-5);
}

}  // namespace ARTICULA_TEST_FILE
