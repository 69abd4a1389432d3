// Seed 001's error measure for the whole-run tables (bench/formulation_table.cpp,
// bench/car_table.cpp): the vertical coordinates z_i of three points of the mechanism, sampled at
// fixed times, against a reference run:
//   error = sum_i sqrt(sum_j (z_ij - z*_ij)^2) / (3 (ns + 1))     seed 001 eq. (43)
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

// The car's three points of seed 001 eq. (43) (models/car.yaml's markers): the chassis front and
// the front-left and rear-right wheel centres. Throws articula::Error naming a missing marker.
inline std::vector<Probe> carProbes(const Model& m) {
  std::vector<Probe> p;
  for (const char* name : {"chassis_front", "wheel_front_left_centre", "wheel_rear_right_centre"}) {
    const auto i = m.findMarker(name);
    if (!i) throw Error(std::string("the model has no marker ") + name + " (seed 001 eq. (43) needs it)");
    p.push_back({m.markers[*i].body, m.markers[*i].position});
  }
  return p;
}

// Vertical coordinates of the probes at every sample.
struct Heights final : SampleSink {
  std::vector<Probe> probes;
  Vec3 up;                             // against gravity
  std::vector<std::vector<double>> z;  // [probe][sample]
  Heights(std::vector<Probe> p, const Model& m) : probes(std::move(p)), up(-m.gravity.normalized()), z(probes.size()) {}
  void write(const Sample& s) override {
    for (std::size_t i = 0; i < probes.size(); ++i)
      z[i].push_back(up.dot(pointPosition(s.ws, probes[i].body, probes[i].point)));
  }
};

// Seed 001 eq. (43) over the samples the two runs share.
inline double seed001Error(const Heights& run, const Heights& reference) {
  double error = 0.0;
  for (std::size_t i = 0; i < run.probes.size(); ++i) {
    double sum = 0.0;
    const std::size_t ns = std::min(run.z[i].size(), reference.z[i].size());
    for (std::size_t j = 0; j < ns; ++j) sum += (run.z[i][j] - reference.z[i][j]) * (run.z[i][j] - reference.z[i][j]);
    error += std::sqrt(sum) / (3.0 * static_cast<double>(ns));
  }
  return error;
}

}  // namespace articula::bench
