#include "articula/io/sample_signals.hpp"

#include <cassert>

#include "articula/kinematics/kinematics.hpp"

namespace articula {

std::vector<SignalColumn> sampleSignals(const Model& model) {
  std::vector<SignalColumn> c;
  auto perJoint = [&](const char* kind, bool positions) {
    for (int i = 1; i <= model.bodyCount(); ++i) {
      const Joint& j = model.joints[i];
      const int n = positions ? j.nq : j.nv;
      for (int k = 0; k < n; ++k)
        c.push_back({j.name + "." + kind + (n > 1 ? std::to_string(k) : ""),
                     positions ? SignalGroup::JointPosition : SignalGroup::JointVelocity});
    }
  };
  perJoint("q", true);
  perJoint("v", false);
  for (const auto& m : model.markers)
    for (const char* axis : {".x", ".y", ".z"}) c.push_back({m.name + axis, SignalGroup::MarkerPosition});
  for (const char* name : {"kinetic_energy", "potential_energy", "total_energy"}) c.push_back({name, SignalGroup::Energy});
  for (const char* name : {"constraint_position_error", "constraint_velocity_error"})
    c.push_back({name, SignalGroup::ConstraintError});
  return c;
}

void sampleValues(const Model& model, const Sample& s, std::span<double> out) {
  std::size_t k = 0;
  for (Eigen::Index i = 0; i < s.q.size(); ++i) out[k++] = s.q[i];
  for (Eigen::Index i = 0; i < s.v.size(); ++i) out[k++] = s.v[i];
  for (const auto& m : model.markers) {
    const Vec3 p = pointPosition(s.ws, m.body, m.position);
    for (int a = 0; a < 3; ++a) out[k++] = p[a];
  }
  for (double x : {s.kineticEnergy, s.potentialEnergy, s.kineticEnergy + s.potentialEnergy, s.positionError, s.velocityError})
    out[k++] = x;
  assert(k == out.size());
}

std::string_view signalGroupName(SignalGroup group) {
  switch (group) {
    case SignalGroup::JointPosition: return "q";
    case SignalGroup::JointVelocity: return "v";
    case SignalGroup::MarkerPosition: return "marker";
    case SignalGroup::Energy: return "energy";
    case SignalGroup::ConstraintError: return "constraint";
  }
  return "";
}

}  // namespace articula
