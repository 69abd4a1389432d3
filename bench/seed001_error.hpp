// Seed 001's error measure for the whole-run tables (bench/formulation_table.cpp,
// bench/vehicle_table.cpp, bench/vehicle_speed.cpp): a displacement z_i of three points of the
// mechanism, sampled at fixed times, against a reference run:
//   error = sum_i sqrt(sum_j (z_ij - z*_ij)^2) / (3 (ns + 1))     seed 001 eq. (43)
// The seed measures vertical coordinates (its car goes over a ramp and stairs); on the truck's
// flat-road slalom the heights hardly move (1.5e-8 m between two formulations, test_truck.cpp),
// so there the same sum runs over the points' horizontal distances from the reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "articula/kinematics/kinematics.hpp"
#include "articula/simulate/simulation.hpp"

namespace articula::bench {

struct Probe {
  int body;
  Vec3 point;  // in the body's frame
};

// Which displacement of a probe the error sums.
enum class Displacement { vertical, horizontal };

// Positions of the probes at every sample.
struct ProbeTrace final : SampleSink {
  std::vector<Probe> probes;
  Displacement displacement;
  Vec3 up;                             // against gravity
  std::vector<std::vector<Vec3>> p;    // [probe][sample]
  ProbeTrace(std::vector<Probe> pr, const Model& m, Displacement d = Displacement::vertical)
      : probes(std::move(pr)), displacement(d), up(-m.gravity.normalized()), p(probes.size()) {}
  void write(const Sample& s) override {
    for (std::size_t i = 0; i < probes.size(); ++i) p[i].push_back(pointPosition(s.ws, probes[i].body, probes[i].point));
  }
  // The measured displacement between two positions.
  double distance(const Vec3& a, const Vec3& b) const {
    const double vertical = up.dot(a - b);
    return displacement == Displacement::vertical ? std::abs(vertical) : (a - b - vertical * up).norm();
  }
};

// Seed 001 eq. (43) over the samples the two runs share.
inline double seed001Error(const ProbeTrace& run, const ProbeTrace& reference) {
  double error = 0.0;
  for (std::size_t i = 0; i < run.probes.size(); ++i) {
    double sum = 0.0;
    const std::size_t ns = std::min(run.p[i].size(), reference.p[i].size());
    for (std::size_t j = 0; j < ns; ++j) sum += std::pow(run.distance(run.p[i][j], reference.p[i][j]), 2);
    error += std::sqrt(sum) / (3.0 * static_cast<double>(ns));
  }
  return error;
}

// The largest measured displacement of any probe at any shared sample: what the average of
// eq. (43) (an RMS over sqrt(ns)) hides.
inline double largestDeviation(const ProbeTrace& run, const ProbeTrace& reference) {
  double largest = 0.0;
  for (std::size_t i = 0; i < run.probes.size(); ++i)
    for (std::size_t j = 0; j < std::min(run.p[i].size(), reference.p[i].size()); ++j)
      largest = std::max(largest, run.distance(run.p[i][j], reference.p[i][j]));
  return largest;
}

// A vehicle's benchmark scenario (docs/vehicles.md): its three probes, what the error measures
// and the run's length. The car of seed 001 (8 s over the ramp and stairs): the chassis front
// and the front-left and rear-right wheel centres, vertical. The truck of seed 004 (5 s slalom):
// the tractor's centre and the front-left and last trailer axle's right wheel centres,
// horizontal. Told apart by their markers; throws articula::Error for any other model.
struct VehicleScenario {
  std::vector<Probe> probes;
  Displacement displacement;
  double tEnd;
};

inline VehicleScenario vehicleScenario(const Model& m) {
  auto probes = [&m](std::initializer_list<const char*> names) {
    std::vector<Probe> p;
    for (const char* name : names) {
      const auto i = m.findMarker(name);
      if (!i) return std::vector<Probe>{};
      p.push_back({m.markers[*i].body, m.markers[*i].position});
    }
    return p;
  };
  if (auto car = probes({"chassis_front", "wheel_front_left_centre", "wheel_rear_right_centre"}); !car.empty())
    return {car, Displacement::vertical, 8.0};
  if (auto truck = probes({"tractor_centre", "wheel_front_left_centre", "wheel_trailer3_right_centre"}); !truck.empty())
    return {truck, Displacement::horizontal, 5.0};
  throw Error("the model has neither the car's markers (chassis_front, wheel_front_left_centre, "
              "wheel_rear_right_centre) nor the truck's (tractor_centre, wheel_front_left_centre, "
              "wheel_trailer3_right_centre) that seed 001 eq. (43) measures");
}

}  // namespace articula::bench
