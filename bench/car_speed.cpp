// Whole runs of the car (models/car.yaml: 8 s over the ramp and stairs, docs/vehicles.md) with one
// formulation and integrator, timed as seed 001's tables time them: the integration alone, the
// run's wall time less the time spent writing its samples (SimulationResult::outputSeconds).
// Prints the median of the runs, the real-time factor, and the steps and residual evaluations.
// The accuracy of the configurations docs/benchmarks.md quotes ("Car: speed") is asserted by
// tests/simulation/test_car.cpp (seed 001 eq. (43)).
// Run from the repository root:
//   build-bench/bin/car_speed [formulation integrator step [runs]]   (default: hybrid hht 0.01 21)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "articula/io/yaml_model.hpp"
#include "articula/simulate/simulation.hpp"

using namespace articula;

int main(int argc, char** argv) {
  SimulationOptions o;
  o.formulation = argc > 1 ? argv[1] : "hybrid";
  o.integrator = argc > 2 ? argv[2] : "hht";
  const double step = argc > 3 ? std::atof(argv[3]) : 0.01;
  const int runs = argc > 4 ? std::max(1, std::atoi(argv[4])) : 21;
  if (o.integrator == "rk45") {
    o.integratorOptions.rtol = step;
    o.integratorOptions.atol = 1e-2 * step;
  } else {
    o.integratorOptions.dt = step;
  }
  o.tEnd = 8.0;
  const Model car = loadModel("models/car.yaml");
  std::vector<double> seconds;
  SimulationResult r;
  for (int k = 0; k < runs; ++k) {
    r = simulate(car, o, {});
    if (!r.ok) {
      std::fprintf(stderr, "car_speed: %s\n", r.error.c_str());
      return 1;
    }
    seconds.push_back(r.wallSeconds - r.outputSeconds);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("car %s + %s, step %g: %.2f ms median of %d runs (%.0fx real time), %ld steps, %.2f evaluations per step\n",
              o.formulation.c_str(), o.integrator.c_str(), step, 1e3 * median, runs, o.tEnd / median, r.steps,
              static_cast<double>(r.evaluations) / static_cast<double>(std::max(1L, r.steps)));
}
