// The model's part of the animation page data (all but the recorded frames): bodies and their
// shapes, the triangles of mesh files, markers, loop-closure points and the plotted signals.
#pragma once

#include <functional>
#include <string>

#include "articula/model/model.hpp"

namespace articula {

/// The members of the page's JSON data object that describe the model, comma-separated,
/// without the braces (web/viewer/data.js reads them). Mesh files are read here: one that cannot
/// be read is reported once through `warn`, naming the bodies and the file, and each of its
/// shapes becomes a box of its body's inertia (a placeholder the page marks as such).
std::string sceneJson(const Model& model, const std::function<void(const std::string&)>& warn);

}  // namespace articula
