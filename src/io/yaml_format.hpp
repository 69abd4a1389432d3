// Facts about the YAML model format shared by its reader and its writer.
#pragma once

#include "articula/model/joint.hpp"

namespace articula::yaml {

/// Joint types that take an `axis` key (universal joints also take `axis2`).
inline bool jointUsesAxis(JointType t) {
  return t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Cylindrical || t == JointType::Universal;
}

}  // namespace articula::yaml
