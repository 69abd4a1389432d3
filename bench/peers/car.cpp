// The neutral helpers of the car part (car.hpp), compiled with every engine.
#include <algorithm>
#include <cmath>
#include <ctime>

#include "car.hpp"

namespace peers {

Vec3d carPoint(const CarPose& pose, const Vec3d& p) {
  const Mat3d& R = pose.rotation;
  Vec3d w;
  for (int i = 0; i < 3; ++i) w[i] = pose.origin[i] + R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2];
  return w;
}

double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double carDistance(const Vec3d& a, const Vec3d& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

double carClosure(const Car& car, const std::vector<CarPose>& poses) {
  double worst = 0;
  for (const CarLoop& l : car.loops) {
    const Vec3d a = carPoint(poses[static_cast<std::size_t>(l.bodyA)], l.pointA);
    const Vec3d b = carPoint(poses[static_cast<std::size_t>(l.bodyB)], l.pointB);
    const double d = carDistance(a, b);
    worst = std::max(worst, l.distance ? std::abs(d - l.length) : d);
  }
  return worst;
}

}  // namespace peers
