#include "articula/io/animation.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "animation_page.hpp"
#include "articula/io/markup.hpp"
#include "articula/io/summary_json.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

// At most this many frames are kept (plus the latest one): the page stays light, and
// the CSV has every sample. Thinning halves the frames, so a long run keeps 2500-5000.
constexpr std::size_t kMaxFrames = 5000;
constexpr std::size_t kPoseSize = 7;  // position (3) + quaternion (x, y, z, w)

/// Compact JSON number with `digits` significant digits; "0" for tiny or non-finite values.
void appendNumber(std::string& out, double x, int digits = 5) {
  if (!std::isfinite(x) || std::abs(x) < 1e-9) {
    out += '0';
    return;
  }
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::general, digits);
  out.append(buf.data(), r.ptr);
}

void appendVec(std::string& out, const Vec3& v) {
  out += '[';
  for (int k = 0; k < 3; ++k) {
    if (k) out += ',';
    appendNumber(out, v[k]);
  }
  out += ']';
}

/// JSON string literal that is also safe inside a <script> element ("</script>" cannot end it).
std::string scriptString(const std::string& s) {
  std::string out;
  for (char c : jsonString(s)) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string_view shapeType(Shape::Kind kind) {
  switch (kind) {
    case Shape::Kind::Box: return "box";
    case Shape::Kind::Cylinder: return "cylinder";
    case Shape::Kind::Sphere: return "sphere";
    case Shape::Kind::Capsule: return "capsule";
    case Shape::Kind::Mesh: return "mesh";
    case Shape::Kind::None: break;
  }
  return "none";
}

/// {"type", "size" (box edges; cylinder/capsule: [2r, 2r, length]; sphere: [2r, 2r, 2r]),
///  "pos", "rot" (row-major, shape axes in the body frame), "color"} or null.
void appendShape(std::string& out, const Shape& s) {
  if (s.kind == Shape::Kind::None) {
    out += "null";
    return;
  }
  Vec3 size = s.size;
  if (s.kind == Shape::Kind::Sphere) size.setConstant(2.0 * s.radius);
  if (s.kind == Shape::Kind::Cylinder || s.kind == Shape::Kind::Capsule) size = Vec3(2.0 * s.radius, 2.0 * s.radius, s.length);
  out += "{\"type\":\"";
  out += shapeType(s.kind);
  out += "\",\"size\":";
  appendVec(out, size);
  out += ",\"pos\":";
  appendVec(out, s.position);
  out += ",\"rot\":[";
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      if (r || c) out += ',';
      appendNumber(out, s.rotation(r, c));
    }
  out += "],\"color\":";
  out += s.color.empty() ? "null" : scriptString(s.color);
  out += '}';
}

/// The page data: a JSON object, 0-based body indices (body i of the model is i - 1; -1 is the ground).
std::string pageData(const Model& model, const std::vector<double>& times, const std::vector<float>& poses) {
  const int n = model.bodyCount();
  std::string d;
  d.reserve(64 + poses.size() * 9 + times.size() * 10);
  d += "{\"name\":" + scriptString(model.name) + ",\"gravity\":";
  appendVec(d, model.gravity);
  d += ",\"frameCount\":" + std::to_string(times.size()) + ",\"bodies\":[";
  for (int i = 1; i <= n; ++i) {
    const Body& b = model.bodies[static_cast<std::size_t>(i)];
    if (i > 1) d += ',';
    d += "{\"name\":" + scriptString(b.name) + ",\"com\":";
    appendVec(d, b.com);
    d += ",\"shapes\":[";
    for (std::size_t k = 0; k < b.shapes.size(); ++k) {
      if (k) d += ',';
      appendShape(d, b.shapes[k]);
    }
    d += "]}";
  }
  d += "],\"markers\":[";
  for (std::size_t m = 0; m < model.markers.size(); ++m) {
    const Marker& mk = model.markers[m];
    if (m) d += ',';
    d += "{\"name\":" + scriptString(mk.name) + ",\"body\":" + std::to_string(mk.body - 1) + ",\"pos\":";
    appendVec(d, mk.position);
    d += '}';
  }
  d += "],\"loops\":[";  // loop-closure points, drawn as pins
  for (std::size_t l = 0; l < model.loops.size(); ++l) {
    const LoopConstraint& c = model.loops[l];
    if (l) d += ',';
    d += "{\"name\":" + scriptString(c.name) + ",\"bodyA\":" + std::to_string(c.bodyA - 1) +
         ",\"bodyB\":" + std::to_string(c.bodyB - 1) + ",\"pointA\":";
    appendVec(d, c.pointA);
    d += ",\"pointB\":";
    appendVec(d, c.pointB);
    d += '}';
  }
  d += "],\"times\":[";
  for (std::size_t f = 0; f < times.size(); ++f) {
    if (f) d += ',';
    appendNumber(d, times[f], 7);
  }
  d += "],\"poses\":[";
  for (std::size_t k = 0; k < poses.size(); ++k) {
    if (k) d += ',';
    appendNumber(d, poses[k]);
  }
  d += "]}";
  return d;
}

/// Fills the template's @@KEY@@ placeholders in one pass (values are never rescanned).
std::string fillTemplate(std::string_view tpl, const std::string& title, const std::string& note, const std::string& data) {
  std::string out;
  out.reserve(tpl.size() + data.size() + 256);
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
    else throw std::logic_error("animation page template: unknown placeholder " + std::string(key));
    at = close + 2;
  }
  out.append(tpl.substr(at));
  return out;
}

}  // namespace

AnimationWriter::AnimationWriter(const Model& model, std::string path) : model_(model), path_(std::move(path)) {}

void AnimationWriter::addFrame(double t, const Workspace& ws) {
  const std::size_t n = static_cast<std::size_t>(model_.bodyCount());
  std::vector<float> pose;
  pose.reserve(kPoseSize * n);
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Vec3 p = bodyPosition(ws, i);
    const Quat q(bodyRotation(ws, i));
    for (double x : {p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w()}) {
      if (!std::isfinite(x)) return;  // a diverged state cannot be drawn: skip the frame
      pose.push_back(static_cast<float>(x));
    }
  }
  if (!std::isfinite(t)) return;

  if (lastIsTail_) {  // the previous latest frame was off-stride: the new one replaces it
    times_.pop_back();
    poses_.resize(poses_.size() - kPoseSize * n);
    lastIsTail_ = false;
  }
  if (times_.size() >= kMaxFrames && offered_ % stride_ == 0) halveFrames();
  times_.push_back(t);
  poses_.insert(poses_.end(), pose.begin(), pose.end());
  lastIsTail_ = offered_ % stride_ != 0;
  ++offered_;
}

void AnimationWriter::halveFrames() {
  // Called with no tail stored: frame k holds the frame offered as k * stride_.
  const std::size_t n = kPoseSize * static_cast<std::size_t>(model_.bodyCount());
  std::size_t kept = 0;
  for (std::size_t k = 0; k < times_.size(); k += 2, ++kept) {
    times_[kept] = times_[k];
    std::copy_n(poses_.begin() + static_cast<std::ptrdiff_t>(k * n), n, poses_.begin() + static_cast<std::ptrdiff_t>(kept * n));
  }
  times_.resize(kept);
  poses_.resize(kept * n);
  stride_ *= 2;
}

void AnimationWriter::saveFrames(ArchiveWriter& out) const {
  out.put(times_);
  out.put(poses_);
  out.put(static_cast<std::int64_t>(stride_));
  out.put(static_cast<std::int64_t>(offered_));
  out.put(static_cast<std::int64_t>(lastIsTail_ ? 1 : 0));
}

void AnimationWriter::restoreFrames(ArchiveReader& in) {
  times_ = in.getDoubles();
  poses_ = in.getFloats();
  const std::int64_t stride = in.getInt(), offered = in.getInt(), tail = in.getInt();
  if (poses_.size() != times_.size() * kPoseSize * static_cast<std::size_t>(model_.bodyCount()) || stride < 1 || offered < 0)
    throw Error(in.label() + ": the animation frames do not fit this model");
  stride_ = static_cast<std::size_t>(stride);
  offered_ = static_cast<std::size_t>(offered);
  lastIsTail_ = tail != 0;
}

void AnimationWriter::write(const std::string& note) const {
  const std::string title = escapeMarkup(model_.name.empty() ? "untitled model" : model_.name);
  const std::string banner = note.empty() ? "" : "<div id=\"note\" role=\"alert\">" + escapeMarkup(note) + "</div>";
  const std::string page = fillTemplate(animation_page::kTemplate, title, banner, pageData(model_, times_, poses_));

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
