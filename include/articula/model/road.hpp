// The road surface that tyres roll on (docs/vehicles.md). World axes: z up, x along the road;
// a model with tyres must have its gravity along -z. Three kinds:
//  - flat: z = height everywhere;
//  - profile: a longitudinal profile z(x), piecewise linear through points with non-decreasing x
//    (two points may share an x: a vertical step face), held at its end heights beyond them and
//    independent of y;
//  - height map: z(x, y) on a regular grid, bilinear inside a cell, held at the edge values outside.
#pragma once

#include <vector>

#include "articula/spatial/spatial.hpp"

namespace articula {

/// The road point nearest to a wheel centre in the vertical plane of the wheel's heading.
struct RoadContact {
  bool touching = false;     ///< a road point lies closer to the centre than the radius
  double distance = 0.0;     ///< from the centre to that point (the loaded radius when touching)
  Vec3 point = Vec3::Zero();   ///< the nearest road point (world)
  Vec3 normal = Vec3::UnitZ(); ///< unit vector from the point towards the centre
};

class Road {
 public:
  enum class Kind { Flat, Profile, HeightMap };
  struct ProfilePoint {
    double x = 0.0, z = 0.0;
  };

  Road() = default;
  static Road flat(double height);
  /// Throws articula::Error when there are fewer than two points, a value is not finite, x
  /// decreases, or more than two points share an x.
  static Road profile(std::vector<ProfilePoint> points);
  /// heights[j * nx + i] is the height at (x0 + i dx, y0 + j dy); throws articula::Error when the
  /// grid has fewer than 2 x 2 points, a spacing is not positive or a value is not finite.
  static Road heightMap(double x0, double y0, double dx, double dy, int nx, int ny, std::vector<double> heights);

  Kind kind() const { return kind_; }
  double flatHeight() const { return flatHeight_; }
  const std::vector<ProfilePoint>& points() const { return points_; }
  double x0() const { return x0_; }
  double y0() const { return y0_; }
  double dx() const { return dx_; }
  double dy() const { return dy_; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  const std::vector<double>& heights() const { return heights_; }

  /// Height z(x, y) (at a vertical step face, the height after the step).
  double height(double x, double y) const;
  /// Upward unit normal of the surface at (x, y) (of the segment or cell that contains it).
  Vec3 normal(double x, double y) const;

  /// Disc-on-road contact: the road's section along the horizontal unit vector `heading` through
  /// `centre` (a vertical plane), and the section's point nearest to the centre within `radius`.
  /// The section of a profile and of a flat road is exact; that of a height map is the polyline
  /// through the points where the line crosses the grid lines (exact on the grid lines, the
  /// chord of the bilinear patch's quadratic section in between). Allocates nothing.
  RoadContact discContact(const Vec3& centre, const Vec3& heading, double radius) const;

 private:
  double gridHeight(double x, double y) const;
  template <class Visit>
  void profileSection(const Vec3& centre, const Vec3& heading, double radius, Visit&& visit) const;
  template <class Visit>
  void gridSection(const Vec3& centre, const Vec3& heading, double radius, Visit&& visit) const;

  Kind kind_ = Kind::Flat;
  double flatHeight_ = 0.0;
  std::vector<ProfilePoint> points_;
  double x0_ = 0.0, y0_ = 0.0, dx_ = 1.0, dy_ = 1.0;
  int nx_ = 0, ny_ = 0;
  std::vector<double> heights_;
};

/// Builds a profile from a start point and features appended one after the other, each beginning
/// where the profile ends. Lengths are along x; rises are signed changes of height. Each method
/// throws articula::Error for a non-positive length (or count) or a non-finite value.
class RoadProfileBuilder {
 public:
  RoadProfileBuilder(double x, double z);
  /// A point; it must not lie before the end of the profile.
  RoadProfileBuilder& to(double x, double z);
  RoadProfileBuilder& flat(double length);
  /// A straight ramp rising by `rise` over `length`.
  RoadProfileBuilder& ramp(double length, double rise);
  /// A vertical step of `rise` (negative: down) at the end of the profile.
  RoadProfileBuilder& step(double rise);
  /// `count` steps of `rise`, each followed by a flat tread of `run`.
  RoadProfileBuilder& stairs(int count, double rise, double run);
  /// A cosine bump (1 - cos) / 2 of `height` (negative: a dip) over `length`, sampled at
  /// `segments` chords, back to the starting height.
  RoadProfileBuilder& bump(double length, double height, int segments = 16);
  /// A cosine pothole of `depth` > 0 over `length`: bump(length, -depth).
  RoadProfileBuilder& pothole(double length, double depth, int segments = 16);
  Road build() const;
  double endX() const { return points_.back().x; }
  double endZ() const { return points_.back().z; }

 private:
  std::vector<Road::ProfilePoint> points_;
};

}  // namespace articula
