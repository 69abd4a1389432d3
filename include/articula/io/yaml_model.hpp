// The YAML model format (docs/model-format.md), read with yaml-cpp.
#pragma once

#include <ostream>
#include <string>

#include "articula/model/builder.hpp"

namespace articula {

/// Parses a model description; fileLabel names the source in error messages.
/// Throws ModelError with file, line and column for every syntactic problem.
ModelBuilder parseModelYaml(const std::string& text, const std::string& fileLabel);
/// Reads and parses a model file: the YAML format, or URDF when the extension is .urdf
/// (io/urdf_model.hpp). A missing or unreadable file is a ModelError naming it.
ModelBuilder loadModelBuilder(const std::string& path);
/// loadModelBuilder(path).build(): parsed and validated.
Model loadModel(const std::string& path);

/// Writes a model in the same format; the output loads back to an equivalent model.
void writeModelYaml(const Model& model, std::ostream& out);

}  // namespace articula
