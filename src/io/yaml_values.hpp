// Readers for the compound values nested inside model elements: orientations,
// inertia tensors, shapes and functions of time (docs/model-format.md).
#pragma once

#include "articula/model/model.hpp"
#include "yaml_reader.hpp"

namespace articula::yaml {

/// Rotation from roll-pitch-yaw angles under `key`; identity when absent.
Mat3 readRotation(const Reader& r, const char* key);

/// The required `inertia`: three principal moments, a map {ixx, ..., iyz} or a 3x3 list of rows.
Mat3 readInertia(const Reader& body);

/// The optional `shape` (one) or `shapes` (a list); empty when absent. Relative mesh paths
/// are resolved against the directory of the model file.
std::vector<Shape> readShapes(const Reader& body);

/// The required function under `key`: a number (constant) or a map {type: ...}.
TimeFunction readFunction(const Reader& owner, const char* key);

}  // namespace articula::yaml
