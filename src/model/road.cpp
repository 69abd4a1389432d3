#include "articula/model/road.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "articula/core/error.hpp"

namespace articula {

namespace {

std::string num(double x) {
  std::string s = std::to_string(x);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

void requireFinite(double x, const char* what) {
  if (!std::isfinite(x)) throw Error(std::string(what) + " is not a finite number");
}

void requirePositive(double x, const char* what) {
  requireFinite(x, what);
  if (x <= 0.0) throw Error(std::string(what) + " must be positive, got " + num(x));
}

// Nearest point to the origin-relative centre (0, cz) of the segment (sa, za)-(sb, zb) in the
// section plane; keeps it when it is the nearest so far.
struct Nearest {
  double cz;
  double best = std::numeric_limits<double>::infinity();
  double s = 0.0, z = 0.0;
  double ts = 1.0, tz = 0.0;  // the segment's direction, for a centre lying on it

  void segment(double sa, double za, double sb, double zb) {
    const double ds = sb - sa, dz = zb - za, length2 = ds * ds + dz * dz;
    double t = length2 > 0.0 ? ((0.0 - sa) * ds + (cz - za) * dz) / length2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double ps = sa + t * ds, pz = za + t * dz;
    const double d = std::hypot(ps, cz - pz);
    if (d < best) {
      best = d;
      s = ps;
      z = pz;
      if (length2 > 0.0) {
        ts = ds;
        tz = dz;
      }
    }
  }
};

}  // namespace

Road Road::flat(double height) {
  requireFinite(height, "road height");
  Road r;
  r.kind_ = Kind::Flat;
  r.flatHeight_ = height;
  return r;
}

Road Road::profile(std::vector<ProfilePoint> points) {
  if (points.size() < 2) throw Error("a road profile needs at least two points, got " + std::to_string(points.size()));
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (!std::isfinite(points[k].x) || !std::isfinite(points[k].z))
      throw Error("profile point " + std::to_string(k) + " is not finite");
    if (k == 0) continue;
    if (points[k].x < points[k - 1].x)
      throw Error("profile points must have non-decreasing x: point " + std::to_string(k) + " (x = " + num(points[k].x) +
                  ") comes after x = " + num(points[k - 1].x));
    if (k >= 2 && points[k].x == points[k - 2].x)
      throw Error("profile points " + std::to_string(k - 2) + " to " + std::to_string(k) + " share x = " + num(points[k].x) +
                  ": at most two points (a vertical step) may share an x");
  }
  Road r;
  r.kind_ = Kind::Profile;
  r.points_ = std::move(points);
  return r;
}

Road Road::heightMap(double x0, double y0, double dx, double dy, int nx, int ny, std::vector<double> heights) {
  requireFinite(x0, "height map origin x");
  requireFinite(y0, "height map origin y");
  requirePositive(dx, "height map spacing dx");
  requirePositive(dy, "height map spacing dy");
  if (nx < 2 || ny < 2)
    throw Error("a height map needs at least 2 x 2 points, got " + std::to_string(nx) + " x " + std::to_string(ny));
  if (heights.size() != static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny))
    throw Error("a height map of " + std::to_string(nx) + " x " + std::to_string(ny) + " points needs " +
                std::to_string(nx * ny) + " heights, got " + std::to_string(heights.size()));
  for (double h : heights) requireFinite(h, "a height map height");
  if (!std::isfinite(x0 + (nx - 1) * dx) || !std::isfinite(y0 + (ny - 1) * dy))
    throw Error("the height map's extent is not finite");
  Road r;
  r.kind_ = Kind::HeightMap;
  r.x0_ = x0;
  r.y0_ = y0;
  r.dx_ = dx;
  r.dy_ = dy;
  r.nx_ = nx;
  r.ny_ = ny;
  r.heights_ = std::move(heights);
  return r;
}

double Road::gridHeight(double x, double y) const {
  // Cell index and local coordinates, clamped to the grid: outside, the edge values are held.
  const double u = std::clamp((x - x0_) / dx_, 0.0, static_cast<double>(nx_ - 1));
  const double w = std::clamp((y - y0_) / dy_, 0.0, static_cast<double>(ny_ - 1));
  const int i = std::min(static_cast<int>(u), nx_ - 2), j = std::min(static_cast<int>(w), ny_ - 2);
  const double a = u - i, b = w - j;
  const double* row0 = heights_.data() + static_cast<std::size_t>(j) * nx_;
  const double* row1 = row0 + nx_;
  return (1 - b) * ((1 - a) * row0[i] + a * row0[i + 1]) + b * ((1 - a) * row1[i] + a * row1[i + 1]);
}

double Road::height(double x, double y) const {
  switch (kind_) {
    case Kind::Flat:
      return flatHeight_;
    case Kind::Profile: {
      if (x <= points_.front().x) return points_.front().z;
      if (x >= points_.back().x) return points_.back().z;
      // The first point beyond x: at a vertical face (two equal x) this takes the upper segment.
      const auto it = std::upper_bound(points_.begin(), points_.end(), x,
                                       [](double value, const ProfilePoint& p) { return value < p.x; });
      const ProfilePoint& b = *it;
      const ProfilePoint& a = *(it - 1);
      return a.z + (b.z - a.z) * (x - a.x) / (b.x - a.x);
    }
    case Kind::HeightMap:
      return gridHeight(x, y);
  }
  return 0.0;
}

Vec3 Road::normal(double x, double y) const {
  double gx = 0.0, gy = 0.0;  // the gradient of z
  if (kind_ == Kind::Profile && x > points_.front().x && x < points_.back().x) {
    const auto it = std::upper_bound(points_.begin(), points_.end(), x,
                                     [](double value, const ProfilePoint& p) { return value < p.x; });
    gx = (it->z - (it - 1)->z) / (it->x - (it - 1)->x);
  } else if (kind_ == Kind::HeightMap) {
    const double u = (x - x0_) / dx_, w = (y - y0_) / dy_;
    const int i = std::clamp(static_cast<int>(std::floor(u)), 0, nx_ - 2), j = std::clamp(static_cast<int>(std::floor(w)), 0, ny_ - 2);
    const double a = std::clamp(u - i, 0.0, 1.0), b = std::clamp(w - j, 0.0, 1.0);
    const double* row0 = heights_.data() + static_cast<std::size_t>(j) * nx_;
    const double* row1 = row0 + nx_;
    // Outside the grid the held edge values have no slope across the edge.
    if (u > 0.0 && u < nx_ - 1) gx = ((1 - b) * (row0[i + 1] - row0[i]) + b * (row1[i + 1] - row1[i])) / dx_;
    if (w > 0.0 && w < ny_ - 1) gy = ((1 - a) * (row1[i] - row0[i]) + a * (row1[i + 1] - row0[i + 1])) / dy_;
  }
  return Vec3(-gx, -gy, 1.0).normalized();
}

// Visits the profile's section along the heading as segments (s_a, z_a)-(s_b, z_b), s the
// distance along the heading from the centre, covering at least s in [-radius, radius].
template <class Visit>
void Road::profileSection(const Vec3& c, const Vec3& heading, double radius, Visit&& visit) const {
  const double ux = heading.x();
  if (std::abs(ux) < 1e-12) {  // heading across the profile: the section is level
    const double z = height(c.x(), c.y());
    visit(-radius, z, radius, z);
    return;
  }
  const double reach = radius * std::abs(ux);
  const double lo = c.x() - reach, hi = c.x() + reach;
  auto at = [&](double x) { return (x - c.x()) / ux; };
  const ProfilePoint& first = points_.front();
  const ProfilePoint& last = points_.back();
  if (lo < first.x) visit(at(lo), first.z, at(std::min(first.x, hi)), first.z);
  if (hi > last.x) visit(at(std::max(last.x, lo)), last.z, at(hi), last.z);
  auto it = std::upper_bound(points_.begin(), points_.end(), lo, [](double value, const ProfilePoint& p) { return value < p.x; });
  if (it != points_.begin()) --it;
  for (; it + 1 != points_.end() && it->x <= hi; ++it) visit(at(it->x), it->z, at((it + 1)->x), (it + 1)->z);
}

// Visits the height map's section along the heading: the chords between the line's successive
// crossings of the grid lines, from s = -radius to s = radius.
template <class Visit>
void Road::gridSection(const Vec3& c, const Vec3& heading, double radius, Visit&& visit) const {
  auto z = [&](double s) { return gridHeight(c.x() + s * heading.x(), c.y() + s * heading.y()); };
  // The crossings of the lines x = x0 + i dx (and y = ...) form arithmetic sequences in s.
  struct Crossings {
    double next = std::numeric_limits<double>::infinity(), step = 0.0;
    Crossings(double origin, double spacing, double centre, double u, double from) {
      if (std::abs(u) < 1e-12) return;
      step = spacing / std::abs(u);
      const double base = (origin - centre) / u;
      next = base + std::floor((from - base) / step + 1.0) * step;
    }
  };
  Crossings cx(x0_, dx_, c.x(), heading.x(), -radius), cy(y0_, dy_, c.y(), heading.y(), -radius);
  double s = -radius, zs = z(s);
  while (s < radius) {
    double next = std::min({cx.next, cy.next, radius});
    if (next <= s) next = std::min(radius, s + 1e-9 * radius);  // round-off guard
    const double zn = z(next);
    visit(s, zs, next, zn);
    if (cx.next <= next) cx.next += cx.step;
    if (cy.next <= next) cy.next += cy.step;
    s = next;
    zs = zn;
  }
}

RoadContact Road::discContact(const Vec3& centre, const Vec3& heading, double radius) const {
  Nearest nearest{centre.z()};
  auto visit = [&](double sa, double za, double sb, double zb) { nearest.segment(sa, za, sb, zb); };
  switch (kind_) {
    case Kind::Flat:
      visit(-radius, flatHeight_, radius, flatHeight_);
      break;
    case Kind::Profile:
      profileSection(centre, heading, radius, visit);
      break;
    case Kind::HeightMap:
      gridSection(centre, heading, radius, visit);
      break;
  }
  RoadContact contact;
  contact.distance = nearest.best;
  contact.touching = nearest.best < radius;
  contact.point = Vec3(centre.x() + nearest.s * heading.x(), centre.y() + nearest.s * heading.y(), nearest.z);
  const Vec3 away = centre - contact.point;
  if (nearest.best > 1e-12 * radius) {
    contact.normal = away / nearest.best;
  } else {  // the centre lies on the road: the normal of the segment it lies on, upwards
    Vec3 n = -nearest.tz * heading + nearest.ts * Vec3::UnitZ();
    if (n.z() < 0.0) n = -n;
    contact.normal = n.normalized();
  }
  return contact;
}

RoadProfileBuilder::RoadProfileBuilder(double x, double z) {
  requireFinite(x, "profile start x");
  requireFinite(z, "profile start height");
  points_.push_back({x, z});
}

RoadProfileBuilder& RoadProfileBuilder::to(double x, double z) {
  requireFinite(x, "profile point x");
  requireFinite(z, "profile point height");
  if (x < endX()) throw Error("profile point x = " + num(x) + " lies before the end of the profile (x = " + num(endX()) + ")");
  points_.push_back({x, z});
  return *this;
}

RoadProfileBuilder& RoadProfileBuilder::flat(double length) {
  requirePositive(length, "flat length");
  return to(endX() + length, endZ());
}

RoadProfileBuilder& RoadProfileBuilder::ramp(double length, double rise) {
  requirePositive(length, "ramp length");
  requireFinite(rise, "ramp rise");
  return to(endX() + length, endZ() + rise);
}

RoadProfileBuilder& RoadProfileBuilder::step(double rise) {
  requireFinite(rise, "step rise");
  if (points_.size() >= 2 && points_[points_.size() - 2].x == endX())
    throw Error("a step cannot follow a step directly: put a flat tread between them");
  return to(endX(), endZ() + rise);
}

RoadProfileBuilder& RoadProfileBuilder::stairs(int count, double rise, double run) {
  if (count < 1) throw Error("stairs need at least one step, got " + std::to_string(count));
  requireFinite(rise, "stairs rise");
  requirePositive(run, "stairs run");
  for (int k = 0; k < count; ++k) step(rise).flat(run);
  return *this;
}

RoadProfileBuilder& RoadProfileBuilder::bump(double length, double height, int segments) {
  requirePositive(length, "bump length");
  requireFinite(height, "bump height");
  if (segments < 2) throw Error("a bump needs at least 2 segments, got " + std::to_string(segments));
  const double x = endX(), z = endZ();
  for (int k = 1; k <= segments; ++k) {
    const double f = static_cast<double>(k) / segments;
    to(k == segments ? x + length : x + f * length, z + 0.5 * height * (1.0 - std::cos(2.0 * std::numbers::pi * f)));
  }
  points_.back().z = z;  // exactly back to the starting height
  return *this;
}

RoadProfileBuilder& RoadProfileBuilder::pothole(double length, double depth, int segments) {
  requirePositive(depth, "pothole depth");
  return bump(length, -depth, segments);
}

Road RoadProfileBuilder::build() const { return Road::profile(points_); }

}  // namespace articula
