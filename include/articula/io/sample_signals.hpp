// The quantities recorded per output sample besides its time, in one order for every output:
// joint coordinates, joint velocities, marker positions, energies, constraint errors. They are
// the columns of results.csv after `time` and the signals the animation page plots.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "articula/simulate/simulation.hpp"

namespace articula {

enum class SignalGroup { JointPosition, JointVelocity, MarkerPosition, Energy, ConstraintError };

struct SignalColumn {
  std::string name;  ///< e.g. "A.q", "hip.v1", "tip.x", "total_energy"
  SignalGroup group;
};

std::vector<SignalColumn> sampleSignals(const Model& model);
/// The values of sampleSignals(model) for one sample, in order; `out` has one entry per signal.
void sampleValues(const Model& model, const Sample& sample, std::span<double> out);
/// "q", "v", "marker", "energy", "constraint".
std::string_view signalGroupName(SignalGroup group);

}  // namespace articula
