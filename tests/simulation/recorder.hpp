// Collects simulation samples in memory for assertions.
#pragma once

#include <vector>

#include "articula/simulate/simulation.hpp"

namespace articula::test_models {

struct Recorder final : SampleSink {
  std::vector<double> t, energy, positionError;
  std::vector<Eigen::VectorXd> q, v;
  void write(const Sample& s) override {
    t.push_back(s.t);
    q.push_back(s.q);
    v.push_back(s.v);
    energy.push_back(s.kineticEnergy + s.potentialEnergy);
    positionError.push_back(s.positionError);
  }
};

}  // namespace articula::test_models
