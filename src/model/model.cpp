#include "articula/model/model.hpp"

namespace articula {

int LoopConstraint::equations() const {
  switch (type) {
    case Type::Ball:
      return 3;
    case Type::Revolute:
      return 5;
    case Type::Weld:
      return 6;
    case Type::Distance:
      return 1;
  }
  return 0;
}

std::string_view loopTypeName(LoopConstraint::Type type) {
  switch (type) {
    case LoopConstraint::Type::Ball:
      return "ball";
    case LoopConstraint::Type::Revolute:
      return "revolute";
    case LoopConstraint::Type::Weld:
      return "weld";
    case LoopConstraint::Type::Distance:
      return "distance";
  }
  return "?";
}

int Model::constraintCount() const {
  int m = static_cast<int>(prescribed.size());
  for (const auto& l : loops) m += l.equations();
  return m;
}

std::optional<int> Model::findBody(std::string_view n) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == n) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<int> Model::findJoint(std::string_view n) const {
  for (std::size_t i = 1; i < joints.size(); ++i)
    if (joints[i].name == n) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<int> Model::findMarker(std::string_view n) const {
  for (std::size_t i = 0; i < markers.size(); ++i)
    if (markers[i].name == n) return static_cast<int>(i);
  return std::nullopt;
}

}  // namespace articula
