#include "articula/io/summary_json.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "articula/simulate/option_names.hpp"

namespace articula {

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

namespace {
std::string jsonNumber(double x) {
  if (!std::isfinite(x)) return "null";  // JSON has no NaN/Inf
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

// [angular about the world origin (3), linear (3)]
std::string jsonVector(const Vec6& x) {
  std::string out = "[";
  for (int k = 0; k < 6; ++k) out += (k ? ", " : "") + jsonNumber(x[k]);
  return out + "]";
}
// The step timing of a paced run (null when the run was not paced).
std::string realtimeJson(const RealtimeStats& rt) {
  if (rt.speed <= 0.0) return "null";
  return "{\"speed\": " + jsonNumber(rt.speed) + ", \"steps\": " + std::to_string(rt.steps) +
         ", \"worst_step_s\": " + jsonNumber(rt.worstStep) + ", \"mean_step_s\": " + jsonNumber(rt.meanStep) +
         ", \"deadline_misses\": " + std::to_string(rt.deadlineMisses) +
         ", \"worst_lateness_s\": " + jsonNumber(rt.worstLateness) +
         ", \"sample_queue_capacity\": " + std::to_string(rt.queueCapacity) +
         ", \"output_stalls\": " + std::to_string(rt.outputStalls) + "}";
}
// The distributed formulation's messages between MPI ranks per evaluation (null in one process).
std::string rankTrafficJson(const RankTraffic& t) {
  if (t.ranks <= 1) return "null";
  std::string levels;
  for (const RankTraffic::Level& l : t.levels)
    levels += std::string(levels.empty() ? "" : ", ") + "{\"level\": " + std::to_string(l.level) +
              ", \"messages_up\": " + std::to_string(l.messagesUp) + ", \"bytes_up\": " + std::to_string(l.bytesUp) +
              ", \"messages_down\": " + std::to_string(l.messagesDown) +
              ", \"bytes_down\": " + std::to_string(l.bytesDown) + "}";
  return "{\"ranks\": " + std::to_string(t.ranks) + ", \"per_evaluation\": {\"levels\": [" + levels +
         "], \"gather_bytes\": " + std::to_string(t.gatherBytes) + "}}";
}
}  // namespace

void writeSummaryJson(const std::string& path, const Model& model, const std::string& modelPath,
                      const SimulationOptions& o, const SimulationResult& r) {
  std::ostringstream j;
  j << "{\n"
    << "  \"status\": " << jsonString(r.ok ? "ok" : "error") << ",\n"
    << "  \"error\": " << (r.ok ? "null" : jsonString(r.error)) << ",\n"
    << "  \"model\": {\"name\": " << jsonString(model.name) << ", \"file\": " << jsonString(modelPath)
    << ", \"bodies\": " << model.bodyCount() << ", \"coordinates\": " << model.nq << ", \"tree_dofs\": " << model.nv
    << ", \"constraint_equations\": " << model.constraintCount() << "},\n"
    << "  \"formulation\": " << jsonString(r.formulation) << ",\n"
    << "  \"integrator\": " << jsonString(r.integrator) << ",\n"
    << "  \"stabilization\": " << jsonString(std::string(stabilizationName(o.stabilization))) << ",\n"
    << "  \"dt\": " << jsonNumber(o.integratorOptions.dt) << ",\n"
    << "  \"rtol\": " << jsonNumber(o.integratorOptions.rtol) << ",\n"
    << "  \"atol\": " << jsonNumber(o.integratorOptions.atol) << ",\n"
    << "  \"t_start\": " << jsonNumber(o.tStart) << ",\n"
    << "  \"t_end\": " << jsonNumber(o.tEnd) << ",\n"
    << "  \"t_reached\": " << jsonNumber(r.tReached) << ",\n"
    << "  \"wall_time_s\": " << jsonNumber(r.wallSeconds) << ",\n"
    << "  \"output_time_s\": " << jsonNumber(r.outputSeconds) << ",\n"
    << "  \"steps\": " << r.steps << ",\n"
    << "  \"rejected_steps\": " << r.rejectedSteps << ",\n"
    << "  \"function_evaluations\": " << r.evaluations << ",\n"
    << "  \"exchanged_bytes_per_evaluation\": " << r.exchangedBytesPerEvaluation << ",\n"
    << "  \"mpi\": " << rankTrafficJson(r.rankTraffic) << ",\n"
    << "  \"samples\": " << r.samples << ",\n"
    << "  \"resumed_at\": " << (r.resumedAt >= 0.0 ? jsonNumber(r.resumedAt) : std::string("null")) << ",\n"
    << "  \"checkpoints\": " << r.checkpoints << ",\n"
    << "  \"realtime\": " << realtimeJson(r.realtime) << ",\n"
    << "  \"singular_configurations\": " << r.singularConfigurations << ",\n"
    << "  \"first_singular_configuration\": " << (r.firstSingularity.empty() ? std::string("null") : jsonString(r.firstSingularity)) << ",\n"
    << "  \"conservative\": " << (r.conservative ? "true" : "false") << ",\n"
    << "  \"initial_energy\": " << jsonNumber(r.initialEnergy) << ",\n"
    << "  \"final_energy\": " << jsonNumber(r.finalEnergy) << ",\n"
    << "  \"max_energy_drift\": " << jsonNumber(r.maxEnergyDrift) << ",\n"
    << "  \"max_relative_energy_drift\": " << jsonNumber(r.maxRelativeEnergyDrift) << ",\n"
    << "  \"momentum_conserved\": " << (r.momentumConserved ? "true" : "false") << ",\n"
    << "  \"initial_momentum\": " << jsonVector(r.initialMomentum.vector()) << ",\n"
    << "  \"final_momentum\": " << jsonVector(r.finalMomentum.vector()) << ",\n"
    << "  \"max_momentum_drift\": " << jsonNumber(r.maxMomentumDrift) << ",\n"
    << "  \"max_constraint_position_error\": " << jsonNumber(r.maxPositionError) << ",\n"
    << "  \"max_constraint_velocity_error\": " << jsonNumber(r.maxVelocityError) << ",\n"
    << "  \"assembly\": {\"iterations\": " << r.assembly.iterations
    << ", \"position_error\": " << jsonNumber(r.assembly.positionError)
    << ", \"velocity_error\": " << jsonNumber(r.assembly.velocityError)
    << ", \"constraint_rank\": " << r.assembly.constraintRank << "}\n"
    << "}\n";
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    f << j.str();
    f.flush();
    if (!f) throw Error("cannot write '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw Error("cannot rename '" + tmp + "' to '" + path + "'");
}

}  // namespace articula
