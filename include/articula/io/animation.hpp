// Self-contained HTML animation of a run: the page embeds the body shapes and the
// sampled body poses and plays them back in the browser without any network access.
#pragma once

#include <string>
#include <vector>

#include "articula/core/archive.hpp"
#include "articula/kinematics/workspace.hpp"

namespace articula {

class AnimationWriter {
 public:
  AnimationWriter(const Model& model, std::string path);
  /// Records the pose of every body (call after kinematics were updated for time t).
  /// Frames with non-finite poses are skipped; long runs are thinned to at most about
  /// 5000 evenly spaced frames, the latest frame always kept.
  void addFrame(double t, const Workspace& ws);
  /// Writes the HTML file (write-then-rename); safe to call after a failed run, with a note shown on the page.
  void write(const std::string& note = "") const;
  std::size_t frames() const { return times_.size(); }
  /// Restart support: the frames recorded so far and the thinning state.
  void saveFrames(ArchiveWriter& out) const;
  void restoreFrames(ArchiveReader& in);
  const std::string& path() const { return path_; }

 private:
  /// Keeps every second stored frame (the first included) and doubles the stride; needs no tail stored.
  void halveFrames();

  const Model& model_;
  std::string path_;
  std::vector<double> times_;
  std::vector<float> poses_;  // per frame, per body 1..n: position (3) and quaternion (x, y, z, w)
  // Long runs are thinned as they are recorded: a frame is kept when its index among the
  // frames offered is a multiple of stride_; the latest frame is always held as well (tail).
  std::size_t stride_ = 1;
  std::size_t offered_ = 0;
  bool lastIsTail_ = false;  // the last stored frame is the off-stride latest one
};

}  // namespace articula
