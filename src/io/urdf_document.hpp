// A URDF file read by urdfdom, with what urdfdom does not keep: the line of each <link> and
// <joint> element (for located errors), and urdfdom's own error messages (it logs them
// through console_bridge and returns nothing).
#pragma once

#include <map>
#include <string>

#include <urdf_model/model.h>
#include <urdf_world/types.h>

#include "articula/core/error.hpp"

namespace articula::urdf_io {

struct UrdfDocument {
  urdf::ModelInterfaceSharedPtr robot;
  std::string file;
  std::map<std::string, int> linkLines, jointLines;  ///< element name -> line (1-based)

  SourceLocation link(const std::string& name) const { return at(linkLines, name); }
  SourceLocation joint(const std::string& name) const { return at(jointLines, name); }

 private:
  SourceLocation at(const std::map<std::string, int>& lines, const std::string& name) const;
};

/// Parses `xml`; throws ModelError naming `fileLabel` (and the line, for malformed XML) with
/// the parser's reason when the text is not a valid URDF robot.
UrdfDocument parseUrdfDocument(const std::string& xml, const std::string& fileLabel);

}  // namespace articula::urdf_io
