#include "articula/io/animation.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "animation_page.hpp"
#include "articula/io/summary_json.hpp"
#include "articula/kinematics/kinematics.hpp"

namespace articula {

namespace {

constexpr std::size_t kMaxFrames = 5000;  // keeps the page light; the CSV has every sample

// JSON string that is also safe inside a <script> element.
std::string scriptString(const std::string& s) {
  std::string j = jsonString(s), out;
  for (char c : j) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string htmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

void replaceAll(std::string& text, const std::string& key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
}

std::string shapeJson(const Shape& s) {
  if (s.kind == Shape::Kind::None) return "null";
  std::ostringstream j;
  j.precision(6);
  const char* type = s.kind == Shape::Kind::Box ? "box" : s.kind == Shape::Kind::Cylinder ? "cylinder"
                     : s.kind == Shape::Kind::Capsule ? "capsule" : "sphere";
  j << "{\"type\":\"" << type << "\",\"size\":[" << s.size.x() << ',' << s.size.y() << ',' << s.size.z()
    << "],\"radius\":" << s.radius << ",\"length\":" << s.length << ",\"xyz\":[" << s.position.x() << ','
    << s.position.y() << ',' << s.position.z() << "],\"rot\":[";
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) j << (r + c ? "," : "") << s.rotation(r, c);
  j << "],\"color\":" << (s.color.empty() ? "null" : scriptString(s.color)) << '}';
  return j.str();
}

}  // namespace

AnimationWriter::AnimationWriter(const Model& model, std::string path) : model_(model), path_(std::move(path)) {}

void AnimationWriter::addFrame(double t, const Workspace& ws) {
  times_.push_back(t);
  for (int i = 1; i <= model_.bodyCount(); ++i) {
    const Vec3 p = bodyPosition(ws, i);
    const Quat q(bodyRotation(ws, i));
    for (double x : {p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w()}) poses_.push_back(static_cast<float>(x));
  }
}

void AnimationWriter::write(const std::string& note) const {
  const std::size_t n = static_cast<std::size_t>(model_.bodyCount());
  const std::size_t stride = times_.size() > kMaxFrames ? (times_.size() + kMaxFrames - 1) / kMaxFrames : 1;
  std::ostringstream d;
  d.precision(5);
  d << "{\"gravity\":[" << model_.gravity.x() << ',' << model_.gravity.y() << ',' << model_.gravity.z()
    << "],\"note\":" << (note.empty() ? "false" : "true") << ",\"bodies\":[";
  for (std::size_t i = 1; i <= n; ++i) {
    const Body& b = model_.bodies[i];
    d << (i > 1 ? "," : "") << "{\"index\":" << i - 1 << ",\"name\":" << scriptString(b.name) << ",\"com\":["
      << b.com.x() << ',' << b.com.y() << ',' << b.com.z() << "],\"shape\":" << shapeJson(b.shape) << '}';
  }
  d << "],\"markers\":[";
  bool first = true;
  for (const auto& m : model_.markers) {
    if (m.body == 0) continue;  // fixed points leave no trace
    d << (first ? "" : ",") << "{\"name\":" << scriptString(m.name) << ",\"body\":" << m.body - 1 << ",\"pos\":["
      << m.position.x() << ',' << m.position.y() << ',' << m.position.z() << "]}";
    first = false;
  }
  d << "],\"times\":[";
  d.precision(9);
  for (std::size_t f = 0, k = 0; f < times_.size(); f += stride, ++k) d << (k ? "," : "") << times_[f];
  d << "],\"poses\":[";
  d.precision(6);
  for (std::size_t f = 0, k = 0; f < times_.size(); f += stride)
    for (std::size_t j = 0; j < 7 * n; ++j, ++k) d << (k ? "," : "") << poses_[f * 7 * n + j];
  d << "]}";

  std::string page = animation_page::kTemplate;
  replaceAll(page, "__TITLE__", htmlEscape(model_.name));
  replaceAll(page, "__NOTE__", htmlEscape(note));
  replaceAll(page, "__DATA__", d.str());
  const std::string tmp = path_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << page;
    out.flush();
    if (!out) throw Error("cannot write the animation '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) throw Error("cannot rename '" + tmp + "' to '" + path_ + "'");
}

}  // namespace articula
