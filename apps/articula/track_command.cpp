#include "track_command.hpp"

#include <filesystem>
#include <iomanip>
#include <iostream>

#include "articula/io/yaml_problem.hpp"
#include "articula/optimize/tracking.hpp"
#include "optimize_command.hpp"

namespace articula::cli {

namespace {

const char* const kAxes[] = {"x", "y", "z"};

// Per sample: the reference path, then per architecture the marker and each loop's correction;
// the joint references and feed-forward inputs.
void writeTrackingCsv(const std::string& path, const OptimalControlProblem& p, const TrackingStudy& s,
                      const TrackingResult& r) {
  std::ofstream out = openOutput(path);
  out << "time";
  for (const char* a : kAxes) out << ",reference_" << a;
  for (std::size_t l = 0; l < s.loops.size(); ++l) {
    const std::string& name = p.controls[static_cast<std::size_t>(s.loops[l].control)].name;
    out << ",joint_reference_" << name << ",feedforward_" << name;
  }
  const char* const prefixes[] = {"feedback", "feedforward_feedback", "exact_plant"};
  for (std::size_t k = 0; k < r.runs.size(); ++k) {
    for (const char* a : kAxes) out << "," << prefixes[k] << "_" << a;
    for (const FeedbackLoop& loop : s.loops) out << "," << prefixes[k] << "_pd_" << p.controls[static_cast<std::size_t>(loop.control)].name;
  }
  out << "\n";
  for (std::size_t i = 0; i < r.t.size(); ++i) {
    out << r.t[i];
    for (int a = 0; a < 3; ++a) out << "," << r.reference[i][a];
    for (std::size_t l = 0; l < s.loops.size(); ++l) out << "," << r.jointReference[l][i] << "," << r.feedforward[l][i];
    for (const TrackingRun& run : r.runs) {
      // a run that stopped early leaves its later cells empty
      for (int a = 0; a < 3; ++a) {
        out << ",";
        if (i < run.marker.size()) out << run.marker[i][a];
      }
      for (const auto& u : run.feedback) {
        out << ",";
        if (i < u.size()) out << u[i];
      }
    }
    out << "\n";
  }
}

void writeTrackingJson(const std::string& path, const std::string& problemPath, const OptimalControlProblem& p,
                       const TrackingStudy& s, const TrackingResult& r) {
  std::ofstream out = openOutput(path);
  out << "{\n  \"problem\": \"" << problemPath << "\",\n  \"runs\": [\n";
  for (std::size_t k = 0; k < r.runs.size(); ++k) {
    const TrackingRun& run = r.runs[k];
    out << "    {\"architecture\": \"" << run.name << "\", \"ok\": " << (run.ok ? "true" : "false")
        << ", \"ise\": " << run.ise << ", \"max_deviation\": " << run.maxDeviation << ", \"feedback_rms\": {";
    for (std::size_t l = 0; l < s.loops.size(); ++l)
      out << (l ? ", " : "") << "\"" << p.controls[static_cast<std::size_t>(s.loops[l].control)].name << "\": " << run.feedbackRms[l];
    out << "}, \"feedback_max\": {";
    for (std::size_t l = 0; l < s.loops.size(); ++l)
      out << (l ? ", " : "") << "\"" << p.controls[static_cast<std::size_t>(s.loops[l].control)].name << "\": " << run.feedbackMax[l];
    out << "}}" << (k + 1 < r.runs.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

}  // namespace

int trackCommand(const Command& c) {
  const ProblemFile f = loadProblem(c.problemPath);
  if (!f.tracking) throw Error(c.problemPath + ": no 'tracking' section (the PD loops and the plant; docs/optimal-control.md)");
  const OptimalControlProblem& p = f.problem;
  const TrackingStudy& s = *f.tracking;
  if (c.startFile.empty())
    std::cerr << "articula: warning: no --start: the feed-forward inputs are the problem's initial controls\n";
  const Eigen::VectorXd b = c.startFile.empty() ? p.initialParameters() : readStartParameters(c.startFile, p);
  const TrackingResult r = runTrackingStudy(p, s, b);
  std::filesystem::create_directories(c.outDir);
  writeTrackingCsv(c.outDir + "/tracking.csv", p, s, r);
  writeTrackingJson(c.outDir + "/tracking.json", c.problemPath, p, s, r);
  bool ok = true;
  if (!c.quiet) {
    std::cout << c.problemPath << ": " << s.loops.size() << " PD loops, marker '" << p.model.markers[static_cast<std::size_t>(s.marker)].name
              << "', " << r.t.size() << " samples\n"
              << std::left << std::setw(36) << "architecture" << std::setw(14) << "ISE (m^2 s)" << std::setw(20)
              << "max deviation (m)" << "PD correction RMS\n";
  }
  for (const TrackingRun& run : r.runs) {
    ok = ok && run.ok;
    if (!run.ok) std::cerr << "articula: the run '" << run.name << "' failed: " << run.error << "\n";
    if (c.quiet) continue;
    std::cout << std::left << std::setw(36) << run.name << std::setw(14) << std::setprecision(4) << run.ise << std::setw(20)
              << run.maxDeviation;
    for (std::size_t l = 0; l < s.loops.size(); ++l)
      std::cout << (l ? "  " : "") << p.controls[static_cast<std::size_t>(s.loops[l].control)].name << " " << run.feedbackRms[l];
    std::cout << "\n";
  }
  if (!c.quiet) std::cout << "written to " << c.outDir << ": tracking.csv tracking.json\n";
  return ok ? 0 : 1;
}

}  // namespace articula::cli
