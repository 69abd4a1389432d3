// Closed-loop planar linkages (the four-bar of models/four_bar.yaml, the N-four-bar of
// `articula generate n-four-bar`) in every engine, for the whole-run part of the peers
// program (loop_runs.cpp).
//
// The linkage is read from Articula's model and assembled by Articula's assemble() (so the
// peers start from the same closed configuration), then handed to each engine as the
// neutral description below: bodies on revolute joints about z at unrotated joint frames,
// diagonal central inertias, loops closed by point coincidence (a planar revolute cut joint
// is a coincident point: its axis rows hold identically in the plane).
//
// Adding an engine: a file <engine>_linkage.cpp with a make<Engine>Linkages() factory
// declared below (one LinkageRun per integrator setting), one line in loop_runs.cpp runs().
#pragma once

#include <array>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace peers {

using Vec3d = std::array<double, 3>;

struct LinkageBody {
  std::string name;
  int parent = -1;          ///< index in Linkage::bodies, -1 = ground; parents come first
  Vec3d joint{};            ///< joint position in the parent frame (the body frame's origin at q = 0)
  double mass = 0;
  Vec3d com{};              ///< in the body frame
  Vec3d inertia{};          ///< principal moments about the COM, body axes
  double q0 = 0, v0 = 0;    ///< assembled initial angle and rate
};

struct LinkageLoop {
  std::string name;
  int bodyA = 0, bodyB = 0;  ///< indices in Linkage::bodies
  Vec3d pointA{}, pointB{};  ///< the cut joint's two ends, in the body frames
};

struct Linkage {
  std::string name;
  Vec3d gravity{};
  std::vector<LinkageBody> bodies;
  std::vector<LinkageLoop> loops;
  double energy0 = 0;  ///< kinetic + potential energy at (q0, v0) by Articula (zero height at y = 0)
  std::string source;  ///< what the linkage was made from, for the report
};

/// The linkages measured: "four_bar" (models/four_bar.yaml) and "n_four_bar10"
/// (`articula generate n-four-bar --n 10`, hanging 1.2 rad from the bottom, at rest).
/// Needs Articula (the loader and the assembly).
std::vector<Linkage> linkagesToMeasure();

/// What a run observed: wall time of the run, and the largest loop-closure error (distance
/// between the two ends of a cut joint, m) and energy drift |E(t) - E(0)| (J) over the
/// observations (one at the end of a timed run; every 1 ms in the checked run).
struct RunFigures {
  double seconds = 0;
  double maxClosure = 0, maxEnergyDrift = 0;
  double energy0 = std::numeric_limits<double>::quiet_NaN();
  long steps = -1;  ///< integrator steps, where the engine says
  std::vector<double> finalAngles;  ///< joint angles at tEnd, in the order of Linkage::bodies
};

/// One engine with one integrator setting on one linkage.
class LinkageRun {
 public:
  virtual ~LinkageRun() = default;
  virtual std::string engine() const = 0;
  /// Integrator and settings, in the engine's words.
  virtual std::string settings() const = 0;
  /// Runs from the initial state to tEnd with the engine's own integrator, observing the
  /// loop closure and energy every `observe` seconds (and at the start and the end).
  /// The default steps advanceTo() from observation to observation.
  virtual RunFigures run(double tEnd, double observe);

  /// The state at t = 0, for the physics check: joint angles and rates (the engine's own,
  /// after its own initialisation), loop closure and energy.
  struct Initial {
    std::vector<double> q, v, qddot;  ///< qddot empty where the engine gives no constrained accelerations
    double closure = 0, energy = 0;
  };
  virtual Initial initial() = 0;

 protected:
  /// Back to the initial state at t = 0.
  virtual void reset() {}
  /// Integrates with the engine's own integrator to time t (> the current time).
  virtual void advanceTo(double /*t*/) {}
  virtual long steps() const { return -1; }
  /// At the current state: max over the loops of |pA - pB| (m), and kinetic + potential energy.
  virtual double closure() { return 0; }
  virtual double energy() { return 0; }
  /// Joint angles at the current state, in the order of Linkage::bodies.
  virtual std::vector<double> angles() { return {}; }
};

using LinkageRuns = std::vector<std::unique_ptr<LinkageRun>>;
LinkageRuns makeArticulaLinkages(const Linkage& linkage);
LinkageRuns makeSimbodyLinkages(const Linkage& linkage);
LinkageRuns makeDartLinkages(const Linkage& linkage);
LinkageRuns makeMujocoLinkages(const Linkage& linkage);

}  // namespace peers
