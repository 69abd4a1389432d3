// Whole runs of a vehicle (models/car.yaml: 8 s over the ramp and stairs; models/truck.yaml: the
// 5 s slalom; docs/vehicles.md) with one formulation and integrator, timed as seed 001's tables
// time them: the integration alone, the run's wall time less the time spent writing its samples
// (SimulationResult::outputSeconds). Prints the median of the runs, the real-time factor, the
// steps and residual evaluations, and the run's error by seed 001 eq. (43) against hybrid +
// trapezoidal at 1e-3 s (5e-3 accepted; bench/seed001_error.hpp: the car's heights, the truck's
// horizontal distances) and the largest deviation of a probe from the reference. Run from the repository root:
//   build-bench/bin/vehicle_speed [model [formulation integrator step [runs [basic [newton [threads]]]]]]
// (default: models/car.yaml hybrid hht 0.01 21; `basic` is the integrator family's basic
// parameter, - for its default; `newton` the hybrid and global formulations' Newton tolerance,
// default 1e-10; `threads` the hybrid tangent's threads, default 1).
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
bench::ProbeTrace reference(const Model& m, const bench::VehicleScenario& vehicle) {
  SimulationOptions o;
  o.formulation = "hybrid";
  o.integrator = "trapezoidal";
  o.integratorOptions.dt = 1e-3;
  o.tEnd = vehicle.tEnd;
  o.outputInterval = 0.01;
  bench::ProbeTrace trace(vehicle.probes, m, vehicle.displacement);
  const SimulationResult r = simulate(m, o, {&trace});
  if (!r.ok) throw Error("the reference run failed: " + r.error);
  return trace;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string path = argc > 1 ? argv[1] : "models/car.yaml";
  SimulationOptions o;
  o.formulation = argc > 2 ? argv[2] : "hybrid";
  o.integrator = argc > 3 ? argv[3] : "hht";
  const double step = argc > 4 ? std::atof(argv[4]) : 0.01;
  const int runs = argc > 5 ? std::max(1, std::atoi(argv[5])) : 21;
  if (argc > 6 && std::string(argv[6]) != "-") o.basicParameter = std::atof(argv[6]);
  if (argc > 7) o.augmentedLagrangian.newtonTolerance = std::atof(argv[7]);
  if (argc > 8) o.augmentedLagrangian.derivatives.threads = std::max(1, std::atoi(argv[8]));
  if (o.integrator == "rk45") {
    o.integratorOptions.rtol = step;
    o.integratorOptions.atol = 1e-2 * step;
  } else {
    o.integratorOptions.dt = step;
  }
  const Model m = loadModel(path);
  const bench::VehicleScenario vehicle = bench::vehicleScenario(m);
  o.tEnd = vehicle.tEnd;
  o.outputInterval = 0.01;
  std::vector<double> seconds;
  SimulationResult r;
  for (int k = 0; k < runs; ++k) {
    r = simulate(m, o, {});
    if (!r.ok) throw Error(r.error);
    seconds.push_back(r.wallSeconds - r.outputSeconds);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  bench::ProbeTrace trace(vehicle.probes, m, vehicle.displacement);
  if (!simulate(m, o, {&trace}).ok) throw Error("the run with samples failed");
  const bench::ProbeTrace exact = reference(m, vehicle);
  std::printf("%s %s + %s, step %g: %.2f ms median of %d runs (%.0fx real time), %ld steps, %.2f evaluations per step, "
              "seed 001 eq. (43) error %.2e, largest deviation %.2e m\n",
              path.c_str(), o.formulation.c_str(), o.integrator.c_str(), step, 1e3 * median, runs, o.tEnd / median,
              r.steps, static_cast<double>(r.evaluations) / static_cast<double>(std::max(1L, r.steps)),
              bench::seed001Error(trace, exact), bench::largestDeviation(trace, exact));
} catch (const std::exception& e) {
  std::fprintf(stderr, "vehicle_speed: %s\n", e.what());
  return 1;
}
