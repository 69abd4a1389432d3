// Whole runs of the car (models/car.yaml: 8 s over the ramp and stairs, docs/vehicles.md) with one
// formulation and integrator, timed as seed 001's tables time them: the integration alone, the
// run's wall time less the time spent writing its samples (SimulationResult::outputSeconds).
// Prints the median of the runs, the real-time factor, the steps and residual evaluations, and
// the run's error by seed 001 eq. (43) against hybrid + trapezoidal at 1e-3 s (5e-3 accepted).
// Run from the repository root:
//   build-bench/bin/car_speed [formulation integrator step [runs [basic [newton]]]]
// (default: hybrid hht 0.01 21; `basic` is the integrator family's basic parameter, - for its
// default; `newton` the hybrid and global formulations' Newton tolerance, default 1e-10).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "articula/io/yaml_model.hpp"
#include "articula/simulate/simulation.hpp"
#include "seed001_error.hpp"

using namespace articula;

namespace {

// The seed's reference: hybrid + trapezoidal at 1e-3 s, sampled every 0.01 s like every run.
bench::Heights reference(const Model& car) {
  SimulationOptions o;
  o.formulation = "hybrid";
  o.integrator = "trapezoidal";
  o.integratorOptions.dt = 1e-3;
  o.tEnd = 8.0;
  o.outputInterval = 0.01;
  bench::Heights h(bench::carProbes(car), car);
  const SimulationResult r = simulate(car, o, {&h});
  if (!r.ok) throw Error("the reference run failed: " + r.error);
  return h;
}

}  // namespace

int main(int argc, char** argv) try {
  SimulationOptions o;
  o.formulation = argc > 1 ? argv[1] : "hybrid";
  o.integrator = argc > 2 ? argv[2] : "hht";
  const double step = argc > 3 ? std::atof(argv[3]) : 0.01;
  const int runs = argc > 4 ? std::max(1, std::atoi(argv[4])) : 21;
  if (argc > 5 && std::string(argv[5]) != "-") o.basicParameter = std::atof(argv[5]);
  if (argc > 6) o.augmentedLagrangian.newtonTolerance = std::atof(argv[6]);
  if (o.integrator == "rk45") {
    o.integratorOptions.rtol = step;
    o.integratorOptions.atol = 1e-2 * step;
  } else {
    o.integratorOptions.dt = step;
  }
  o.tEnd = 8.0;
  o.outputInterval = 0.01;
  const Model car = loadModel("models/car.yaml");
  std::vector<double> seconds;
  SimulationResult r;
  for (int k = 0; k < runs; ++k) {
    r = simulate(car, o, {});
    if (!r.ok) throw Error(r.error);
    seconds.push_back(r.wallSeconds - r.outputSeconds);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  bench::Heights heights(bench::carProbes(car), car);
  if (!simulate(car, o, {&heights}).ok) throw Error("the run with samples failed");
  std::printf("car %s + %s, step %g: %.2f ms median of %d runs (%.0fx real time), %ld steps, %.2f evaluations per step, "
              "seed 001 eq. (43) error %.2e\n",
              o.formulation.c_str(), o.integrator.c_str(), step, 1e3 * median, runs, o.tEnd / median, r.steps,
              static_cast<double>(r.evaluations) / static_cast<double>(std::max(1L, r.steps)),
              bench::seed001Error(heights, reference(car)));
} catch (const std::exception& e) {
  std::fprintf(stderr, "car_speed: %s\n", e.what());
  return 1;
}
