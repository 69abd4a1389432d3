// Identities of the spatial algebra (RBDA chapter 2).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include <Eigen/Cholesky>

#include "articula/spatial/planar.hpp"
#include "articula/spatial/spatial.hpp"
#include "articula/spatial/spd_inverse.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {
struct Rng {
  std::mt19937 gen{42};
  std::uniform_real_distribution<double> d{-1.0, 1.0};
  double operator()() { return d(gen); }
  Vec3 vec() { return {d(gen), d(gen), d(gen)}; }
  Motion motion() { return {vec(), vec()}; }
  Force force() { return {vec(), vec()}; }
  Mat3 rotation() { return Quat(d(gen), d(gen), d(gen), d(gen)).normalized().toRotationMatrix(); }
  Transform transform() { return {rotation(), vec()}; }
  SpatialInertia inertia() {
    const Vec3 p(1.0 + d(gen) * 0.3, 1.0 + d(gen) * 0.3, 1.0 + d(gen) * 0.3);
    const Mat3 R = rotation();
    return SpatialInertia::fromMassComInertia(2.0 + d(gen), vec(), R * p.asDiagonal() * R.transpose());
  }
};
constexpr double kTol = 1e-12;  // a few ulps of O(1) quantities through O(10) flops
}  // namespace

TEST(Spatial, CrossProductsAreDual) {
  Rng rng;
  for (int k = 0; k < 100; ++k) {
    const Motion m = rng.motion(), n = rng.motion();
    const Force f = rng.force();
    EXPECT_NEAR(dot(n, crossForce(m, f)), -dot(crossMotion(m, n), f), kTol);
    // crossForce is -crossMotion^T as 6x6 matrices.
    EXPECT_LT((crossForce(m, f).vector() + crossMotionMatrix(m).transpose() * f.vector()).norm(), kTol);
    EXPECT_LT(crossMotion(m, m).vector().norm(), kTol);
  }
}

TEST(Spatial, TransformPreservesPowerAndComposes) {
  Rng rng;
  for (int k = 0; k < 100; ++k) {
    const Transform X = rng.transform(), Y = rng.transform();
    const Motion m = rng.motion();
    const Force f = rng.force();
    EXPECT_NEAR(dot(X.apply(m), X.apply(f)), dot(m, f), kTol);
    EXPECT_LT((X.applyInverse(X.apply(m)) - m).vector().norm(), kTol);
    EXPECT_LT((X.applyInverse(X.apply(f)) - f).vector().norm(), kTol);
    EXPECT_LT(((Y * X).apply(m) - Y.apply(X.apply(m))).vector().norm(), kTol);
    EXPECT_LT((X.motionMatrix() * m.vector() - X.apply(m).vector()).norm(), kTol);
    EXPECT_LT((X.inverse().apply(m) - X.applyInverse(m)).vector().norm(), kTol);
    const Vec3 p = rng.vec();
    EXPECT_LT((X.inverseTransformPoint(X.transformPoint(p)) - p).norm(), kTol);
    // Transforming a cross product: X (m x n) = (X m) x (X n).
    const Motion n = rng.motion();
    EXPECT_LT((X.apply(crossMotion(m, n)) - crossMotion(X.apply(m), X.apply(n))).vector().norm(), 1e-11);
  }
}

TEST(Spatial, InertiaTransformIsConsistent) {
  Rng rng;
  for (int k = 0; k < 100; ++k) {
    const SpatialInertia I = rng.inertia();
    const Transform X = rng.transform();
    const Motion v = rng.motion();
    // Momentum transforms as a force: I_B (X v) = X* (I_A v).
    const SpatialInertia IB = I.transformedBy(X);
    EXPECT_LT((IB * X.apply(v) - X.apply(I * v)).vector().norm(), 1e-11);
    EXPECT_LT((IB.transformedByInverse(X).matrix() - I.matrix()).norm(), 1e-11);
    // The 6x6 projection X^T I X matches the rigid-body formula.
    EXPECT_LT((transformInertiaToParent(X, IB.matrix()) - I.matrix()).norm(), 1e-11);
    EXPECT_LT((X.motionMatrix().transpose() * IB.matrix() * X.motionMatrix() - I.matrix()).norm(), 1e-11);
    // Kinetic energy is frame-independent.
    EXPECT_NEAR(dot(X.apply(v), IB * X.apply(v)), dot(v, I * v), 1e-11);
    EXPECT_LT((I.matrix() * v.vector() - (I * v).vector()).norm(), kTol * 10);
  }
}

TEST(Spatial, InertiaAboutComMatchesParallelAxisTheorem) {
  const Vec3 c(0.3, -0.2, 0.5);
  const Mat3 Ic = Vec3(1.0, 2.0, 2.5).asDiagonal();
  const SpatialInertia I = SpatialInertia::fromMassComInertia(3.0, c, Ic);
  // Moving the reference point to the COM gives back the central inertia.
  const SpatialInertia central = I.transformedBy(Transform::translation(c));
  EXPECT_LT(central.h.norm(), kTol);
  EXPECT_LT((central.Ibar - Ic).norm(), kTol);
}

// The planar operations are the 6D ones restricted to [w_z; v_x; v_y] / [n_z; f_x; f_y]:
// embed planar vectors as 6D vectors with zero out-of-plane parts and compare.
namespace {
Vec6 embed(const PlanarVector& x) {
  Vec6 out = Vec6::Zero();
  out[2] = x[0];
  out[3] = x[1];
  out[4] = x[2];
  return out;
}
}  // namespace

TEST(PlanarSpatial, CrossProductsMatchTheirSpatialCounterparts) {
  Rng rng;
  for (int k = 0; k < 100; ++k) {
    const PlanarVector m(rng(), rng(), rng()), n(rng(), rng(), rng()), f(rng(), rng(), rng());
    const Motion M = Motion::fromVector(embed(m));
    EXPECT_LT((embed(planarCrossMotion(m, n)) - crossMotion(M, Motion::fromVector(embed(n))).vector()).norm(), kTol);
    EXPECT_LT((embed(planarCrossForce(m, f)) - crossForce(M, Force::fromVector(embed(f))).vector()).norm(), kTol);
  }
}

TEST(PlanarSpatial, InertiaIsThePlanarBlockOfTheSpatialInertia) {
  Rng rng;
  for (int k = 0; k < 100; ++k) {
    // A body turned about z only, with an arbitrary central inertia tensor and a centre of mass off the plane.
    const double mass = 2.0 + rng();
    const Vec3 c = rng.vec();
    const Mat3 R = rng.rotation();
    const Mat3 Ic = R * Vec3(1.0 + 0.3 * rng(), 1.0 + 0.3 * rng(), 1.0 + 0.3 * rng()).asDiagonal() * R.transpose();
    const Mat6 I6 = SpatialInertia::fromMassComInertia(mass, c, Ic).matrix();
    const PlanarMatrix I3 = planarInertia(mass, c.head<2>(), Ic(2, 2));
    const int rows[] = {2, 3, 4};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) EXPECT_NEAR(I3(a, b), I6(rows[a], rows[b]), kTol);
  }
}

TEST(PlanarSpatial, PoseMatchesTheSpatialTransform) {
  Rng rng;
  for (int k = 0; k < 100; ++k) {
    const double angle = 3.0 * rng();
    const Vec3 origin = rng.vec();
    const PlanarPose pose(angle, origin.head<2>());
    // ^B X_A for frame B rotated by angle about z with origin `origin` in A.
    const Transform X = Transform::fromPose(axisAngle(Vec3::UnitZ(), angle), origin);
    const PlanarVector m(rng(), rng(), rng()), f(rng(), rng(), rng());
    EXPECT_LT((embed(pose.motion(m)) - X.applyInverse(Motion::fromVector(embed(m))).vector()).norm(), kTol);
    // A force's planar part in A depends only on its planar part in B (the z height drops out).
    const Vec6 F = X.applyInverse(Force::fromVector(embed(f))).vector();
    EXPECT_LT((pose.force(f) - planarPart(F)).norm(), kTol);
    const Vec3 p = rng.vec();
    EXPECT_LT((pose.point(p.head<2>()) - X.inverseTransformPoint(p).head<2>()).norm(), kTol);
  }
}

// The written-out Cholesky inverse against Eigen's LLT, on spatial inertias (positive definite)
// with condition numbers from 1 to 1e8 made by scaling one direction, as a floating subsystem's
// articulated inertia can be: A^-1 A = 1 to eps cond(A) times a small factor (the error bound of
// an inverse from a backward-stable factorisation), and the two inverses agree as closely. A
// matrix that is not positive definite, or not finite, is refused.
TEST(SpdInverse, MatchesCholeskySolvesAndRefusesIndefiniteMatrices) {
  Rng rng;
  const double eps = std::numeric_limits<double>::epsilon();
  for (double cond : {1.0, 1e4, 1e8}) {
    for (int trial = 0; trial < 20; ++trial) {
      const Vec6 u = Vec6(rng(), rng(), rng(), rng(), rng(), rng()).normalized();
      const Mat6 I = rng.inertia().matrix();
      const Mat6 A = I - (1.0 - 1.0 / cond) * (I * u) * (I * u).transpose() / u.dot(I * u);  // I with u's share cut by cond
      Mat6 inverse;
      ASSERT_TRUE(invertSpd6(A, inverse));
      const double kappa = A.norm() * inverse.norm();
      EXPECT_LT((inverse * A - Mat6::Identity()).norm(), 100 * eps * kappa) << "cond " << cond;
      const Mat6 llt = A.llt().solve(Mat6::Identity());
      EXPECT_LT((inverse - llt).norm() / llt.norm(), 100 * eps * kappa) << "cond " << cond;
      EXPECT_EQ((inverse - inverse.transpose()).norm(), 0.0);
    }
  }
  Mat6 inverse;
  Mat6 indefinite = Mat6::Identity();
  indefinite(4, 4) = -1e-3;
  EXPECT_FALSE(invertSpd6(indefinite, inverse));
  EXPECT_FALSE(invertSpd6(Mat6::Zero(), inverse));
  Mat6 notFinite = Mat6::Identity();
  notFinite(2, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(invertSpd6(notFinite, inverse));
}

}  // namespace ARTICULA_TEST_FILE
