// Readers for the vehicle parts of a model file: the road and tyre force elements
// (docs/model-format.md, docs/vehicles.md).
#pragma once

#include "articula/model/builder.hpp"
#include "yaml_reader.hpp"

namespace articula::yaml {

/// The top-level `road` map: flat, profile (points and/or features) or height map.
Road readRoad(const Reader& road);

/// A `type: tyre` force element named `name` (the keys are checked by the caller).
TyreSpec readTyre(const Reader& r, const std::string& name);

/// The keys a tyre force element accepts besides `name` and `type`.
const Keys& tyreKeys();

}  // namespace articula::yaml
