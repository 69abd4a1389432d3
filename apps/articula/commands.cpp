#include "commands.hpp"

#include <iomanip>

namespace articula::cli {

AssemblyResult checkAssembly(const Model& model) {
  Eigen::VectorXd q = model.q0, v = model.v0;
  return assemble(model, 0.0, q, v);
}

void printModelInfo(std::ostream& out, const Model& model) {
  out << "model " << model.name << "\n"
      << "  gravity " << model.gravity.transpose() << " m/s^2\n"
      << "  bodies " << model.bodyCount() << ":\n";
  double mass = 0.0;
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Body& b = model.bodies[i];
    mass += b.mass;
    out << "    " << std::left << std::setw(16) << b.name << " mass " << b.mass << " kg, parent "
        << model.bodies[model.parent(i)].name << "\n";
  }
  out << "  total mass " << mass << " kg\n  joints " << model.bodyCount() << ":\n";
  for (int i = 1; i <= model.bodyCount(); ++i) {
    const Joint& j = model.joints[i];
    out << "    " << std::left << std::setw(16) << j.name << " " << std::setw(12) << jointTypeName(j.type)
        << model.bodies[j.parent].name << " -> " << model.bodies[j.child].name << "  (" << j.nq << " coordinates, "
        << j.nv << " dof)\n";
  }
  out << "  loops " << model.loops.size() << ":\n";
  for (const auto& l : model.loops)
    out << "    " << std::left << std::setw(16) << l.name << " " << std::setw(12) << loopTypeName(l.type)
        << model.bodies[l.bodyA].name << " <-> " << model.bodies[l.bodyB].name << "  (" << l.equations()
        << " equations)\n";
  out << "  force elements: " << model.jointSprings.size() << " joint spring-dampers, " << model.jointLimits.size()
      << " joint limits, " << model.jointFrictions.size() << " joint frictions, " << model.pointSprings.size()
      << " point spring-dampers, " << model.bodyLoads.size() << " body loads, " << model.jointLoads.size()
      << " joint loads, " << model.prescribed.size() << " prescribed motions, " << model.tyres.size() << " tyres\n"
      << "  markers " << model.markers.size() << "\n"
      << "  coordinates " << model.nq << ", tree degrees of freedom " << model.nv << ", constraint equations "
      << model.constraintCount() << "\n";
  if (model.hasConstraints()) {
    const AssemblyResult a = checkAssembly(model);
    out << "  constraint rank " << a.constraintRank << " at the assembled configuration: " << model.nv - a.constraintRank
        << " degrees of freedom\n";
  } else {
    out << "  degrees of freedom " << model.nv << "\n";
  }
}

namespace {
// What passed between the MPI ranks: per evaluation by level, and per step on average.
void printRankTraffic(std::ostream& out, const SimulationResult& r) {
  const RankTraffic& t = r.rankTraffic;
  out << "  between " << t.ranks << " MPI ranks per evaluation:";
  for (const RankTraffic::Level& l : t.levels)
    out << " level " << l.level << " " << l.messagesUp << " up (" << l.bytesUp << " B), " << l.messagesDown << " down ("
        << l.bytesDown << " B);";
  out << " all-gather of the joint accelerations " << t.gatherBytes << " B\n";
  const double perStep = r.steps > 0 ? static_cast<double>(r.evaluations) / static_cast<double>(r.steps) : 0.0;
  out << "  per step (" << perStep << " evaluations): " << perStep * static_cast<double>(t.messages())
      << " point-to-point messages, " << perStep * static_cast<double>(t.levelBytes()) << " B, and "
      << perStep << " all-gathers of " << t.gatherBytes << " B\n";
}
}  // namespace

void printRunReport(std::ostream& out, const Model& model, const SimulationResult& r, const std::string& outDir,
                    const std::string& htmlPath) {
  out << model.name << ": simulated " << r.tReached << " s with " << r.formulation << " + " << r.integrator << " in "
      << std::setprecision(3) << r.wallSeconds << " s (" << r.steps << " steps, " << r.evaluations
      << " evaluations)\n"
      << "  energy drift " << std::setprecision(3) << r.maxRelativeEnergyDrift << " relative"
      << (r.conservative ? "" : " (the model is not conservative)") << "\n";
  if (r.momentumConserved) out << "  momentum drift " << r.maxMomentumDrift << " (nothing external acts: it is conserved)\n";
  if (r.formulation == "distributed")
    out << "  " << r.exchangedBytesPerEvaluation
        << " bytes of interface matrices and forces between hierarchy levels per evaluation\n";
  if (r.rankTraffic.ranks > 1) printRankTraffic(out, r);
  if (model.hasConstraints())
    out << "  max constraint error " << r.maxPositionError << " (position), " << r.maxVelocityError << " (velocity)\n";
  if (r.realtime.speed > 0.0) {
    const RealtimeStats& rt = r.realtime;
    out << "  real time x" << rt.speed << ": step time worst " << rt.worstStep * 1e6 << " us, mean " << rt.meanStep * 1e6
        << " us; " << rt.deadlineMisses << " of " << rt.steps << " steps missed their deadline";
    if (rt.deadlineMisses > 0) out << " (worst by " << rt.worstLateness * 1e3 << " ms)";
    if (rt.outputStalls > 0) out << "; the output held the steps back " << rt.outputStalls << " times";
    out << "\n";
  }
  out << "  results: " << outDir << "/results.csv, " << outDir << "/summary.json";
  if (!htmlPath.empty()) out << ", animation: " << htmlPath;
  out << "\n";
}

}  // namespace articula::cli
