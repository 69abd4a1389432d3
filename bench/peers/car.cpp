// The neutral helpers of the car part (car.hpp), compiled with every engine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include "car.hpp"

namespace peers {

namespace {
Vec3d mul(const Mat3d& R, const Vec3d& v) {
  return {R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
          R[6] * v[0] + R[7] * v[1] + R[8] * v[2]};
}
Vec3d mulTransposed(const Mat3d& R, const Vec3d& v) {
  return {R[0] * v[0] + R[3] * v[1] + R[6] * v[2], R[1] * v[0] + R[4] * v[1] + R[7] * v[2],
          R[2] * v[0] + R[5] * v[1] + R[8] * v[2]};
}
Mat3d mul(const Mat3d& A, const Mat3d& B) {
  Mat3d C{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 3; ++k) C[3 * i + j] += A[3 * i + k] * B[3 * k + j];
  return C;
}
Mat3d transposed(const Mat3d& A) { return {A[0], A[3], A[6], A[1], A[4], A[7], A[2], A[5], A[8]}; }
Vec3d add(const Vec3d& a, const Vec3d& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3d scaled(const Vec3d& a, double s) { return {s * a[0], s * a[1], s * a[2]}; }
double dot(const Vec3d& a, const Vec3d& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
// The world velocity of a world point moving with the body.
Vec3d pointVelocity(const CarPose& pose, const Vec3d& world) {
  return add(pose.velocity, cross(pose.omega, sub(world, pose.origin)));
}
}  // namespace

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

CarFigures sampleCarRun(const Car& car, double tEnd, double sample, const CarStepper& engine) {
  CarFigures f;
  f.heights.assign(car.probes.size(), {});
  auto look = [&] {
    const std::vector<CarPose> poses = engine.poses();
    for (std::size_t i = 0; i < car.probes.size(); ++i) {
      const Vec3d p = carPoint(poses[static_cast<std::size_t>(car.probes[i].body)], car.probes[i].point);
      f.heights[i].push_back(dot(car.up, p));
    }
    f.maxClosure = std::max(f.maxClosure, carClosure(car, poses));
  };
  const long n = std::max(1L, std::lround(tEnd / sample));
  const double c0 = processCpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  engine.start();
  look();
  for (long k = 1; k <= n; ++k) {
    engine.advanceTo(k == n ? tEnd : static_cast<double>(k) * sample);
    look();
  }
  f.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  f.cpuSeconds = processCpuSeconds() - c0;
  return f;
}

void requireStepDividesSample(const std::string& engine, double dt, double sample) {
  if (std::abs(sample / dt - std::round(sample / dt)) > 1e-9)
    throw std::runtime_error(engine + ": the step does not divide the sampling interval");
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

CarPose carJointMotion(const Car& car, int b) {
  const CarBody& body = car.bodies[static_cast<std::size_t>(b)];
  const CarPose parent = body.parent < 0 ? CarPose{} : car.bodies[static_cast<std::size_t>(body.parent)].initial;
  const CarPose& child = body.initial;
  const Mat3d RF = mul(parent.rotation, body.jointRotation);  // the joint frame's axes, world
  const Vec3d pF = carPoint(parent, body.jointOrigin);
  CarPose r;
  r.rotation = mul(transposed(RF), child.rotation);
  r.origin = mulTransposed(RF, sub(child.origin, pF));
  r.omega = mulTransposed(RF, sub(child.omega, parent.omega));
  // d/dt of RF^T (pB - pF) with RF turning at the parent's omega: RF^T (vB - vP - wP x (pB - pP)).
  r.velocity = mulTransposed(RF, sub(sub(child.velocity, parent.velocity),
                                     cross(parent.omega, sub(child.origin, parent.origin))));
  return r;
}

std::array<double, 4> carQuaternion(const Mat3d& R) {
  // Shepperd's method: from the largest of w, x, y, z, for accuracy near every rotation.
  const double t = R[0] + R[4] + R[8];
  std::array<double, 4> q;
  if (t >= R[0] && t >= R[4] && t >= R[8]) {
    const double s = 2 * std::sqrt(1 + t);
    q = {0.25 * s, (R[7] - R[5]) / s, (R[2] - R[6]) / s, (R[3] - R[1]) / s};
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    const double s = 2 * std::sqrt(1 + R[0] - R[4] - R[8]);
    q = {(R[7] - R[5]) / s, 0.25 * s, (R[1] + R[3]) / s, (R[2] + R[6]) / s};
  } else if (R[4] >= R[8]) {
    const double s = 2 * std::sqrt(1 + R[4] - R[0] - R[8]);
    q = {(R[2] - R[6]) / s, (R[1] + R[3]) / s, 0.25 * s, (R[5] + R[7]) / s};
  } else {
    const double s = 2 * std::sqrt(1 + R[8] - R[0] - R[4]);
    q = {(R[3] - R[1]) / s, (R[2] + R[6]) / s, (R[5] + R[7]) / s, 0.25 * s};
  }
  if (q[0] < 0)
    for (double& c : q) c = -c;
  return q;
}

std::array<double, 2> carJointCoordinate(const CarBody& b, const CarPose& relative) {
  if (b.joint == CarJoint::Prismatic) return {dot(b.axis, relative.origin), dot(b.axis, relative.velocity)};
  if (b.joint != CarJoint::Revolute) throw std::logic_error("carJointCoordinate: " + b.jointName + " has no single coordinate");
  const std::array<double, 4> q = carQuaternion(relative.rotation);  // a turn about the axis
  return {2 * std::atan2(q[1] * b.axis[0] + q[2] * b.axis[1] + q[3] * b.axis[2], q[0]), dot(b.axis, relative.omega)};
}

const CarLock* carLockOf(const Car& car, int b) {
  for (const CarLock& l : car.locks)
    if (l.body == b) return &l;
  return nullptr;
}

CarPose carLockedFrame(const CarBody& b, double position) {
  CarPose f;
  f.rotation = b.jointRotation;
  f.origin = b.jointOrigin;
  if (b.joint == CarJoint::Prismatic) {
    f.origin = add(b.jointOrigin, mul(b.jointRotation, scaled(b.axis, position)));
  } else if (b.joint == CarJoint::Revolute) {  // Rodrigues: I + sin K + (1 - cos) K^2
    const Vec3d& a = b.axis;
    const double c = std::cos(position), s = std::sin(position), v = 1 - c;
    const Mat3d turn{c + v * a[0] * a[0],        v * a[0] * a[1] - s * a[2], v * a[0] * a[2] + s * a[1],
                     v * a[1] * a[0] + s * a[2], c + v * a[1] * a[1],        v * a[1] * a[2] - s * a[0],
                     v * a[2] * a[0] - s * a[1], v * a[2] * a[1] + s * a[0], c + v * a[2] * a[2]};
    f.rotation = mul(b.jointRotation, turn);
  } else {
    throw std::logic_error("carLockedFrame: " + b.jointName + " has no single coordinate");
  }
  return f;
}

void carLoads(const Car& car, const std::vector<CarPose>& poses, std::vector<CarLoad>& loads) {
  loads.clear();
  for (const CarSpring& s : car.springs) {
    const CarPose &a = poses[static_cast<std::size_t>(s.bodyA)], &b = poses[static_cast<std::size_t>(s.bodyB)];
    const Vec3d pa = carPoint(a, s.pointA), pb = carPoint(b, s.pointB);
    const Vec3d d = sub(pb, pa);
    const double length = std::sqrt(dot(d, d));
    const Vec3d u = scaled(d, 1 / length);  // from A to B
    const double rate = dot(u, sub(pointVelocity(b, pb), pointVelocity(a, pa)));
    const double tension = s.stiffness * (length - s.restLength) + s.damping * rate;
    loads.push_back({s.bodyA, pa, scaled(u, tension), {}});
    loads.push_back({s.bodyB, pb, scaled(u, -tension), {}});
  }
  for (std::size_t k = 0; k < car.tyreBodies.size(); ++k) {
    const int body = car.tyreBodies[k];
    const TyreLoad l = car.tyre(static_cast<int>(k), poses[static_cast<std::size_t>(body)]);
    if (l.fz != 0.0) loads.push_back({body, l.point, l.force, l.moment});  // off the road: nothing
  }
}

double carElasticEnergy(const Car& car, const std::vector<CarPose>& poses) {
  double e = 0;
  for (const CarSpring& s : car.springs) {
    const double stretch = carDistance(carPoint(poses[static_cast<std::size_t>(s.bodyA)], s.pointA),
                                       carPoint(poses[static_cast<std::size_t>(s.bodyB)], s.pointB)) -
                           s.restLength;
    e += 0.5 * s.stiffness * stretch * stretch;
  }
  for (std::size_t k = 0; k < car.tyreBodies.size(); ++k)
    e += car.tyreEnergy(static_cast<int>(k), poses[static_cast<std::size_t>(car.tyreBodies[k])]);
  return e;
}

}  // namespace peers
