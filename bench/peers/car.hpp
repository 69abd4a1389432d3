// The full car of models/car.yaml (docs/vehicles.md) in Articula and its peers, for the car part of
// the peers program (car_runs.cpp, `peers --car`): 8 s over the ramp and stairs.
//
// The car is read, assembled and described by Articula (articula_car.cpp) as the neutral
// description below: bodies on free, revolute, spherical and prismatic joints at rotated joint
// frames, full central inertias, ball and distance loops, a joint coordinate held constant (the
// steering rack's prescribed travel), linear point spring-dampers, and tyres. Every engine builds
// its own bodies, joints, constraints, springs and gravity from it; the tyres are the exception:
// no peer has a Magic Formula tyre, so every engine calls Articula's tyre element
// (articula::tyreResponse, dynamics/tyre_forces.hpp) through Car::tyre for the wheel body's world
// pose and velocity, and applies what it returns. Every engine uses Articula's tyre code.
//
// Header of plain C++17 (no Articula or engine types): the Simbody side is compiled as C++17.
// Adding an engine: a file <engine>_car.cpp with a make<Engine>CarRuns() factory declared below,
// one line in car_runs.cpp factories().
#pragma once

#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "linkage.hpp"  // Vec3d

namespace peers {

using Mat3d = std::array<double, 9>;  ///< row-major

/// A body's world state: its axes (columns of `rotation`) and origin in world coordinates, its
/// angular velocity and the velocity of its origin, world coordinates.
struct CarPose {
  Mat3d rotation{1, 0, 0, 0, 1, 0, 0, 0, 1};
  Vec3d origin{}, omega{}, velocity{};
};

enum class CarJoint { Free, Revolute, Spherical, Prismatic };

struct CarBody {
  std::string name, jointName;
  int parent = -1;                            ///< index in Car::bodies, -1 = ground; parents come first
  CarJoint joint = CarJoint::Free;
  Mat3d jointRotation{1, 0, 0, 0, 1, 0, 0, 0, 1};  ///< joint frame axes in the parent frame (columns)
  Vec3d jointOrigin{};                        ///< joint frame origin in the parent frame
  Vec3d axis{0, 0, 1};                        ///< revolute and prismatic: the axis in the joint frame, unit
  double mass = 0;
  Vec3d com{};                                ///< in the body frame
  Mat3d inertia{};                            ///< about the COM, body axes
  CarPose initial;                            ///< Articula's assembled initial state (the body frame at
                                              ///< q = 0 is the joint frame)
};

/// A loop-closure constraint: the two points coincide (ball) or stay `length` apart (distance).
struct CarLoop {
  std::string name;
  bool distance = false;
  int bodyA = 0, bodyB = 0;
  Vec3d pointA{}, pointB{};
  double length = 0;
};

/// Tension k (L - L0) + c dL/dt between pointA on bodyA and pointB on bodyB.
struct CarSpring {
  std::string name;
  int bodyA = 0, bodyB = 0;
  Vec3d pointA{}, pointB{};
  double stiffness = 0, damping = 0, restLength = 0;
};

/// The one coordinate of a body's joint held at `position` (a prescribed motion that is constant).
struct CarLock {
  std::string name;
  int body = 0;
  double position = 0;
};

/// What a tyre does (Articula's TyreResponse, world coordinates): `force` at `point` (a point of
/// the wheel body), `moment` a pure moment; fz == 0 off the road.
struct TyreLoad {
  Vec3d point{}, force{}, moment{};
  double fz = 0;
};

/// A point of seed 001 eq. (43): its vertical coordinate is sampled.
struct CarProbe {
  int body = 0;
  Vec3d point{};
};

struct Car {
  std::string source;
  Vec3d gravity{};
  std::vector<CarBody> bodies;
  std::vector<CarLoop> loops;
  std::vector<CarSpring> springs;
  std::vector<CarLock> locks;
  std::vector<int> tyreBodies;  ///< the wheel body of each tyre
  /// Articula's tyre element (articula::tyreResponse) of tyre k for its wheel's world state.
  std::function<TyreLoad(int k, const CarPose& wheel)> tyre;
  /// The elastic energy of tyre k's radial spring (articula::tyreEnergy) at its wheel's world pose.
  std::function<double(int k, const CarPose& wheel)> tyreEnergy;
  std::vector<CarProbe> probes;  ///< seed 001 eq. (43): chassis front, front-left and rear-right wheel centres
  Vec3d up{0, 0, 1};             ///< against gravity: the probes' vertical
  double energy0 = 0;            ///< kinetic + potential energy at the initial state (Articula)
};

/// Max over the loops of the closure error at the body poses: |pA - pB| for a ball loop,
/// | |pA - pB| - length | for a distance loop (m).
double carClosure(const Car& car, const std::vector<CarPose>& poses);
/// |a - b|.
double carDistance(const Vec3d& a, const Vec3d& b);
/// World position of a point given in a body frame.
Vec3d carPoint(const CarPose& pose, const Vec3d& p);
/// CPU time of the process so far (all threads), seconds.
double processCpuSeconds();

// For engines that take joint coordinates and apply the springs and tyres as their own external
// forces (MuJoCo, DART), shared so that each engine differs from the others only in its own API.

/// Body b's motion relative to its joint frame (the frame on its parent at jointRotation,
/// jointOrigin) at Articula's initial state, in joint-frame coordinates: the body frame's axes and
/// origin, its angular velocity and its origin's velocity relative to the joint frame.
CarPose carJointMotion(const Car& car, int b);
/// The coordinate of a revolute (angle about the axis) or prismatic (travel along it) joint and its
/// rate, from the body's carJointMotion.
std::array<double, 2> carJointCoordinate(const CarBody& b, const CarPose& relative);
/// The unit quaternion (w, x, y, z) of a rotation matrix.
std::array<double, 4> carQuaternion(const Mat3d& R);
/// The lock on body b's joint, or nullptr.
const CarLock* carLockOf(const Car& car, int b);
/// The body frame in its parent's frame when its one joint coordinate is held at `position`: the
/// joint frame turned about (revolute) or moved along (prismatic) the axis. A constant lock makes
/// the body part of its parent, which is how MuJoCo and DART hold the steering rack (exactly).
CarPose carLockedFrame(const CarBody& b, double position);

/// A force `force` at the world point `point` of `body` and a pure moment `moment` (world).
struct CarLoad {
  int body = 0;
  Vec3d point{}, force{}, moment{};
};
/// The point spring-dampers' and the tyres' loads at the body states (Car::tyre for the tyres; the
/// spring-dampers as car.hpp's CarSpring), appended to `loads` (cleared first).
void carLoads(const Car& car, const std::vector<CarPose>& poses, std::vector<CarLoad>& loads);
/// The elastic energy of the spring-dampers and of the tyres' radial springs at the body poses.
double carElasticEnergy(const Car& car, const std::vector<CarPose>& poses);

/// What one whole run observed.
struct CarFigures {
  double wallSeconds = 0, cpuSeconds = 0;
  long steps = -1;      ///< integrator steps, where the engine says
  double maxClosure = 0;  ///< over the samples
  /// Vertical coordinates of Car::probes every `sample` seconds from t = 0: [probe][sample].
  std::vector<std::vector<double>> heights;
};

/// What a peer engine does in a sampled run (sampleCarRun).
struct CarStepper {
  std::function<void()> start;              ///< to the initial state at t = 0
  std::function<void(double t)> advanceTo;  ///< steps to the sample time t
  std::function<std::vector<CarPose>()> poses;  ///< the body poses at the current time
};
/// A whole timed run (CPU and wall time) from 0 to tEnd: the probes' heights and the loop closure
/// at t = 0 and every `sample` seconds. CarFigures::steps is the engine's to fill.
CarFigures sampleCarRun(const Car& car, double tEnd, double sample, const CarStepper& engine);
/// Throws unless a fixed step dt divides the sampling interval (the samples must fall on steps).
void requireStepDividesSample(const std::string& engine, double dt, double sample);

/// One engine with one integrator setting on the car.
class CarRun {
 public:
  virtual ~CarRun() = default;
  virtual std::string engine() const = 0;
  virtual std::string settings() const = 0;
  /// From the initial state to tEnd with the engine's own integrator, sampling the probes and the
  /// loop closure every `sample` seconds (and at t = 0). Throws when the run fails.
  virtual CarFigures run(double tEnd, double sample) = 0;

  /// The state at t = 0 after the engine's own initialisation, for the physics check.
  struct Initial {
    std::vector<CarPose> poses;  ///< per body
    /// Per body: world angular acceleration and acceleration of the body origin (constrained
    /// dynamics; empty where the engine gives none).
    std::vector<std::array<double, 6>> accelerations;
    /// The engine's constraints are soft (MuJoCo: a spring-damper regularisation): its constrained
    /// accelerations differ from the exact ones by design, so they are reported, not checked.
    bool softConstraints = false;
    std::vector<double> tyreLoads;  ///< Fz of each tyre
    double energy = 0;  ///< kinetic + potential (gravity, springs, tyres' radial springs)
  };
  virtual Initial initial() = 0;
};

using CarRuns = std::vector<std::unique_ptr<CarRun>>;

/// The car of models/car.yaml, read and assembled by Articula.
Car carToMeasure();
/// Seed 001 eq. (43) of a run's probe heights against the seed's reference (hybrid + trapezoidal
/// at dt = 1e-3 s, Articula), computed once; sampled every 0.01 s over 8 s.
class CarReference {
 public:
  virtual ~CarReference() = default;
  virtual double error(const std::vector<std::vector<double>>& heights) const = 0;
  virtual std::string settings() const = 0;
  virtual double seconds() const = 0;  ///< wall time of the reference run
};
std::unique_ptr<CarReference> makeCarReference(double tEnd, double sample);

CarRuns makeArticulaCarRuns(const Car& car);
CarRuns makeSimbodyCarRuns(const Car& car);
CarRuns makeMujocoCarRuns(const Car& car);
CarRuns makeDartCarRuns(const Car& car);

}  // namespace peers
