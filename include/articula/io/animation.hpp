// Self-contained HTML animation of a run: one page that holds the model's shapes (mesh files'
// triangles included), the sampled body poses and the sampled signals, and plays them in 3D
// with an inline three.js viewer (docs/viewer.md), without any network access.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "articula/core/archive.hpp"
#include "articula/kinematics/workspace.hpp"
#include "articula/simulate/simulation.hpp"

namespace articula {

class AnimationWriter {
 public:
  using Warn = std::function<void(const std::string&)>;
  /// Reads the model's mesh files now. One that cannot be read is reported once through `warn`
  /// (by default a line "articula: warning: ..." on stderr) and drawn as a box of its body's inertia.
  AnimationWriter(const Model& model, std::string path, const Warn& warn = {});

  /// Records an output sample: the body poses of sample.ws and the values of sampleSignals(model)
  /// (io/sample_signals.hpp). Frames with a non-finite time or pose are skipped; long runs are
  /// thinned to at most about 5000 evenly spaced frames, the latest frame always kept.
  void addFrame(const Sample& sample);
  /// Records a stored state, such as a line of results.csv read back: the body poses follow from
  /// the joint coordinates q, `signals` holds the values of sampleSignals(model) in order.
  void addFrame(double t, const Eigen::VectorXd& q, std::span<const double> signals);

  /// Writes the HTML file (write-then-rename); safe to call after a failed run, with a note shown on the page.
  void write(const std::string& note = "") const;
  std::size_t frames() const { return times_.size(); }
  /// Restart support: the frames recorded so far and the thinning state.
  void saveFrames(ArchiveWriter& out) const;
  void restoreFrames(ArchiveReader& in);
  const std::string& path() const { return path_; }

 private:
  /// Stores a frame from the poses in ws and the signal values in signals_.
  void record(double t, const Workspace& ws);
  /// Keeps every second stored frame (the first included) and doubles the stride; needs no tail stored.
  void halveFrames();

  const Model& model_;
  std::string path_;
  std::string scene_;  // the model's part of the page data (animation_scene.hpp)
  std::vector<double> times_;
  std::vector<float> poses_;    // per frame, per body 1..n: position (3) and quaternion (x, y, z, w)
  std::vector<double> values_;  // per frame, the values of sampleSignals(model)
  // Long runs are thinned as they are recorded: a frame is kept when its index among the
  // frames offered is a multiple of stride_; the latest frame is always held as well (tail).
  std::size_t stride_ = 1;
  std::size_t offered_ = 0;
  bool lastIsTail_ = false;  // the last stored frame is the off-stride latest one
  std::vector<float> pose_;     // one frame's poses, before it is stored
  std::vector<double> signals_;  // one frame's signal values, before it is stored
  std::optional<Workspace> stored_;  // kinematics of stored states (the second addFrame)
};

/// The run's samples as frames of an AnimationWriter, with the recorded frames in restart files.
class AnimationSink final : public SampleSink {
 public:
  explicit AnimationSink(AnimationWriter& writer) : writer_(writer) {}
  void write(const Sample& s) override { writer_.addFrame(s); }
  void saveState(ArchiveWriter& out) const override { writer_.saveFrames(out); }
  void restoreState(ArchiveReader& in) override { writer_.restoreFrames(in); }

 private:
  AnimationWriter& writer_;
};

}  // namespace articula
