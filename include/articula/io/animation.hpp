// Self-contained HTML animation of a run: the page embeds the body shapes and the
// sampled body poses and plays them back in the browser without any network access.
#pragma once

#include <string>
#include <vector>

#include "articula/kinematics/workspace.hpp"

namespace articula {

class AnimationWriter {
 public:
  AnimationWriter(const Model& model, std::string path);
  /// Records the pose of every body (call after kinematics were updated for time t).
  void addFrame(double t, const Workspace& ws);
  /// Writes the HTML file (write-then-rename); safe to call after a failed run, with a note shown on the page.
  void write(const std::string& note = "") const;
  std::size_t frames() const { return times_.size(); }
  const std::string& path() const { return path_; }

 private:
  const Model& model_;
  std::string path_;
  std::vector<double> times_;
  std::vector<float> poses_;  // per frame, per body 1..n: position (3) and quaternion (x, y, z, w)
};

}  // namespace articula
