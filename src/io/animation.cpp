#include "articula/io/animation.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "animation_scene.hpp"
#include "articula/io/markup.hpp"
#include "articula/io/sample_signals.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "base64.hpp"
#include "viewer_assets.hpp"

namespace articula {

namespace {

// At most this many frames are kept (plus the latest one): the page stays light, and
// the CSV has every sample. Thinning halves the frames, so a long run keeps 2500-5000.
constexpr std::size_t kMaxFrames = 5000;
constexpr std::size_t kPoseSize = 7;  // position (3) + quaternion (x, y, z, w)

/// Fills the template's @@KEY@@ placeholders in one pass (values are never rescanned).
std::string fillTemplate(std::string_view tpl, const std::string& title, const std::string& note, const std::string& data) {
  const std::string_view script = viewer_assets::kScript;
  std::string out;
  out.reserve(tpl.size() + data.size() + script.size() + 256);
  std::size_t at = 0;
  while (true) {
    const std::size_t open = tpl.find("@@", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = tpl.find("@@", open + 2);
    if (close == std::string_view::npos) throw std::logic_error("animation page template: unclosed placeholder");
    out.append(tpl.substr(at, open - at));
    const std::string_view key = tpl.substr(open + 2, close - open - 2);
    if (key == "TITLE") out += title;
    else if (key == "NOTE") out += note;
    else if (key == "DATA") out += data;
    else if (key == "SCRIPT") out += script;
    else throw std::logic_error("animation page template: unknown placeholder " + std::string(key));
    at = close + 2;
  }
  out.append(tpl.substr(at));
  return out;
}

void printWarning(const std::string& message) { std::cerr << "articula: warning: " << message << "\n"; }

}  // namespace

AnimationWriter::AnimationWriter(const Model& model, std::string path, const Warn& warn)
    : model_(model),
      path_(std::move(path)),
      scene_(sceneJson(model, warn ? warn : Warn(printWarning))),
      pose_(kPoseSize * static_cast<std::size_t>(model.bodyCount())),
      signals_(sampleSignals(model).size()) {}

void AnimationWriter::addFrame(const Sample& sample) {
  sampleValues(model_, sample, signals_);
  record(sample.t, sample.ws);
}

void AnimationWriter::addFrame(double t, const Eigen::VectorXd& q, std::span<const double> signals) {
  if (q.size() != model_.nq || signals.size() != signals_.size())
    throw Error("cannot animate the state at t = " + std::to_string(t) + ": it has " + std::to_string(q.size()) +
                " joint coordinates and " + std::to_string(signals.size()) + " signal values, the model " +
                std::to_string(model_.nq) + " and " + std::to_string(signals_.size()));
  if (!stored_) stored_.emplace(model_);
  updatePositions(model_, *stored_, q);
  std::copy(signals.begin(), signals.end(), signals_.begin());
  record(t, *stored_);
}

void AnimationWriter::record(double t, const Workspace& ws) {
  if (!std::isfinite(t)) return;
  auto pose = pose_.begin();
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Vec3 p = bodyPosition(ws, i);
    const Quat q(bodyRotation(ws, i));
    for (double x : {p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w()}) {
      if (!std::isfinite(x)) return;  // a diverged state cannot be drawn: skip the frame
      *pose++ = static_cast<float>(x);
    }
  }

  if (lastIsTail_) {  // the previous latest frame was off-stride: the new one replaces it
    times_.pop_back();
    poses_.resize(poses_.size() - pose_.size());
    values_.resize(values_.size() - signals_.size());
    lastIsTail_ = false;
  }
  if (times_.size() >= kMaxFrames && offered_ % stride_ == 0) halveFrames();
  times_.push_back(t);
  poses_.insert(poses_.end(), pose_.begin(), pose_.end());
  values_.insert(values_.end(), signals_.begin(), signals_.end());
  lastIsTail_ = offered_ % stride_ != 0;
  ++offered_;
}

void AnimationWriter::halveFrames() {
  // Called with no tail stored: frame k holds the frame offered as k * stride_.
  const std::size_t n = pose_.size(), m = signals_.size();
  std::size_t kept = 0;
  for (std::size_t k = 0; k < times_.size(); k += 2, ++kept) {
    times_[kept] = times_[k];
    std::copy_n(poses_.begin() + static_cast<std::ptrdiff_t>(k * n), n, poses_.begin() + static_cast<std::ptrdiff_t>(kept * n));
    std::copy_n(values_.begin() + static_cast<std::ptrdiff_t>(k * m), m, values_.begin() + static_cast<std::ptrdiff_t>(kept * m));
  }
  times_.resize(kept);
  poses_.resize(kept * n);
  values_.resize(kept * m);
  stride_ *= 2;
}

void AnimationWriter::saveFrames(ArchiveWriter& out) const {
  out.put(times_);
  out.put(poses_);
  out.put(values_);
  out.put(static_cast<std::int64_t>(stride_));
  out.put(static_cast<std::int64_t>(offered_));
  out.put(static_cast<std::int64_t>(lastIsTail_ ? 1 : 0));
}

void AnimationWriter::restoreFrames(ArchiveReader& in) {
  times_ = in.getDoubles();
  poses_ = in.getFloats();
  values_ = in.getDoubles();
  const std::int64_t stride = in.getInt(), offered = in.getInt(), tail = in.getInt();
  if (poses_.size() != times_.size() * pose_.size() || values_.size() != times_.size() * signals_.size() || stride < 1 ||
      offered < 0)
    throw Error(in.label() + ": the animation frames do not fit this model");
  stride_ = static_cast<std::size_t>(stride);
  offered_ = static_cast<std::size_t>(offered);
  lastIsTail_ = tail != 0;
}

void AnimationWriter::write(const std::string& note) const {
  const std::string title = escapeMarkup(model_.name.empty() ? "untitled model" : model_.name);
  const std::string banner = note.empty() ? "" : "<div id=\"note\" role=\"alert\">" + escapeMarkup(note) + "</div>";
  // The page data: the model (scene_), then the frames as base64 arrays (base64.hpp).
  std::string data = "{" + scene_ + ",\"frameCount\":" + std::to_string(times_.size()) + ",\"times\":\"";
  appendBase64(data, std::span<const double>(times_));
  data += "\",\"poses\":\"";
  appendBase64(data, std::span<const float>(poses_));
  data += "\",\"values\":\"";
  appendBase64(data, std::span<const double>(values_));
  data += "\"}";
  const std::string page = fillTemplate(viewer_assets::kPageTemplate, title, banner, data);

  const std::string tmp = path_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write the animation '" + path_ + "': " + std::strerror(errno));
    out.write(page.data(), static_cast<std::streamsize>(page.size()));
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      throw Error("cannot write the animation '" + path_ + "'");
    }
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw Error("cannot write the animation '" + path_ + "' (rename failed: " + why + ")");
  }
}

}  // namespace articula
