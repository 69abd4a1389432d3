// The road: profile and height-map heights and normals, the profile features, the disc contact
// (enveloping of steps by the wheel radius) and the errors of malformed roads.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "articula/core/error.hpp"
#include "articula/model/road.hpp"

namespace articula {
namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

TEST(Road, ProfileInterpolatesAndHoldsItsEnds) {
  const Road r = Road::profile({{0, 0}, {2, 0.2}, {3, 0.2}});
  EXPECT_DOUBLE_EQ(r.height(1.0, 5.0), 0.1);
  EXPECT_DOUBLE_EQ(r.height(-7.0, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(r.height(9.0, 0.0), 0.2);
  EXPECT_NEAR((r.normal(1.0, 0.0) - Vec3(-0.1, 0, 1).normalized()).norm(), 0.0, 1e-15);
  EXPECT_EQ(r.normal(2.5, 0.0), Vec3::UnitZ());
}

TEST(Road, FeaturesBuildTheProfileTheyDescribe) {
  const Road r = RoadProfileBuilder(-1.0, 0.0).flat(1.0).ramp(2.0, 0.4).stairs(2, -0.1, 0.5).bump(1.0, 0.05).pothole(1.0, 0.03).build();
  EXPECT_DOUBLE_EQ(r.height(1.0, 0.0), 0.2);    // half-way up the ramp
  EXPECT_DOUBLE_EQ(r.height(2.25, 0.0), 0.3);   // first tread
  EXPECT_DOUBLE_EQ(r.height(2.75, 0.0), 0.2);   // second tread
  EXPECT_NEAR(r.height(3.5, 0.0), 0.25, 1e-15);  // bump crest (a sample point of the 16 chords)
  EXPECT_NEAR(r.height(4.5, 0.0), 0.17, 1e-15);  // pothole bottom
  EXPECT_DOUBLE_EQ(r.height(10.0, 0.0), 0.2);
  // A vertical step: the height just past it is the upper one.
  const Road s = RoadProfileBuilder(0.0, 0.0).flat(1.0).step(0.1).flat(1.0).build();
  EXPECT_DOUBLE_EQ(s.height(1.0, 0.0), 0.1);
  EXPECT_DOUBLE_EQ(s.height(0.999, 0.0), 0.0);
}

TEST(Road, MalformedProfilesAreErrors) {
  EXPECT_THROW(Road::profile({{0, 0}, {2, 0}, {1, 0}}), Error);           // unsorted
  EXPECT_THROW(Road::profile({{0, 0}, {1, 0}, {1, 1}, {1, 2}}), Error);   // three points at one x
  EXPECT_THROW(Road::profile({{0, 0}}), Error);
  EXPECT_THROW(RoadProfileBuilder(0, 0).ramp(-1.0, 0.1), Error);
  EXPECT_THROW(RoadProfileBuilder(0, 0).flat(1.0).step(0.1).step(0.1), Error);
  EXPECT_THROW(RoadProfileBuilder(0, 0).stairs(0, 0.1, 1.0), Error);
  EXPECT_THROW(Road::heightMap(0, 0, 0.0, 1.0, 2, 2, {0, 0, 0, 0}), Error);
  EXPECT_THROW(Road::heightMap(0, 0, 1.0, 1.0, 2, 2, {0, 0, 0}), Error);
}

TEST(Road, TheDiscEnvelopesAStepCorner) {
  // A step up of 0.1 m at x = 1; a wheel of radius 0.3 with its centre at x = 0.9, z = 0.3: the
  // flat road is exactly R below it and the corner (1, 0.1) is sqrt(0.05) away, so the corner
  // is the contact, with its normal pointing from the corner to the centre.
  const Road r = RoadProfileBuilder(0.0, 0.0).flat(1.0).step(0.1).flat(1.0).build();
  const RoadContact c = r.discContact(Vec3(0.9, 0.0, 0.3), Vec3::UnitX(), 0.3);
  ASSERT_TRUE(c.touching);
  EXPECT_NEAR(c.distance, std::sqrt(0.05), 1e-15);
  EXPECT_NEAR((c.point - Vec3(1.0, 0.0, 0.1)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((c.normal - Vec3(-0.1, 0.0, 0.2) / std::sqrt(0.05)).norm(), 0.0, 1e-15);
  // Heading the other way (a wheel whose axis points to -y) finds the same contact.
  const RoadContact back = r.discContact(Vec3(0.9, 0.0, 0.3), -Vec3::UnitX(), 0.3);
  EXPECT_NEAR((back.point - c.point).norm(), 0.0, 1e-15);
  // Heading along y, the section is level at the height under the centre.
  const RoadContact across = r.discContact(Vec3(0.9, 0.0, 0.29), Vec3::UnitY(), 0.3);
  ASSERT_TRUE(across.touching);
  EXPECT_NEAR(across.distance, 0.29, 1e-15);
}

TEST(Road, TheDiscOnARampTouchesAlongTheNormal) {
  // Slope 0.2: the distance from the centre to the ramp is the vertical gap times cos(theta).
  const Road r = RoadProfileBuilder(-10.0, -2.0).ramp(20.0, 4.0).build();
  const RoadContact c = r.discContact(Vec3(1.0, 0.0, 0.2 + 0.28), Vec3::UnitX(), 0.3);
  ASSERT_TRUE(c.touching);
  EXPECT_NEAR(c.distance, 0.28 / std::sqrt(1.04), 1e-14);
  EXPECT_NEAR((c.normal - Vec3(-0.2, 0, 1).normalized()).norm(), 0.0, 1e-14);
}

TEST(Road, HeightMapIsBilinearAndItsSectionExactOnAPlane) {
  // z = 0.1 x - 0.05 y sampled on a 5 x 4 grid: bilinear interpolation reproduces the plane.
  std::vector<double> h;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 5; ++i) h.push_back(0.1 * (-1.0 + 0.5 * i) - 0.05 * (2.0 + 0.7 * j));
  const Road r = Road::heightMap(-1.0, 2.0, 0.5, 0.7, 5, 4, h);
  EXPECT_NEAR(r.height(0.3, 3.1), 0.03 - 0.155, 1e-15);
  EXPECT_NEAR((r.normal(0.3, 3.1) - Vec3(-0.1, 0.05, 1).normalized()).norm(), 0.0, 1e-15);
  const Vec3 heading = Vec3(1, 1, 0).normalized();
  const Vec3 centre(0.3, 3.1, 0.03 - 0.155 + 0.25);
  const RoadContact c = r.discContact(centre, heading, 0.3);
  ASSERT_TRUE(c.touching);
  // The section along (1, 1)/sqrt(2) has slope (0.1 - 0.05)/sqrt(2).
  const double slope = 0.05 / std::sqrt(2.0);
  EXPECT_NEAR(c.distance, 0.25 / std::sqrt(1.0 + slope * slope), 1e-14);
  // Outside the grid the edge heights are held.
  EXPECT_NEAR(r.height(-5.0, 2.0), -0.1 - 0.1, 1e-15);
}

}  // namespace ARTICULA_TEST_FILE
}  // namespace articula
