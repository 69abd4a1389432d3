#include "urdf_document.hpp"

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <mutex>

#include "utf8_text.hpp"

namespace articula::urdf_io {

namespace {

// Collects urdfdom's error and warning messages while it parses. console_bridge's handler is
// global, so parses are serialised.
class MessageCollector final : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_WARN && firstError.empty()) firstError = text;
  }
  std::string firstError;
};

std::mutex parserMutex;

void indexElements(const TiXmlElement* robot, UrdfDocument& doc) {
  for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const char* name = e->Attribute("name");
    if (!name) continue;
    if (e->ValueStr() == "link") doc.linkLines.emplace(name, e->Row());
    if (e->ValueStr() == "joint") doc.jointLines.emplace(name, e->Row());
  }
}

const char* linkOf(const TiXmlElement* joint, const char* role) {
  const TiXmlElement* e = joint->FirstChildElement(role);  // the first, as urdfdom reads it
  return e ? e->Attribute("link") : nullptr;
}

// urdfdom ties links to their children with shared pointers: a joint graph that is not a tree
// leaks them when urdfdom then fails (a joint from a link to itself, a link with two parents, a
// cycle). Such a graph is refused here first, at the joint's line.
void checkJointTree(const TiXmlElement* robot, const std::string& file) {
  struct Parent {
    std::string link, joint;
    int line;
  };
  std::map<std::string, Parent> parentOf;  // child link -> its parent link and joint
  for (const TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint")) {
    const char *name = e->Attribute("name"), *parent = linkOf(e, "parent"), *child = linkOf(e, "child");
    if (!name || !parent || !child) continue;  // urdfdom names what is missing
    const SourceLocation where{file, e->Row(), 0};
    const std::string element = std::string("joint '") + name + "'";
    if (std::string(parent) == child) throw ModelError(where, element, std::string("its parent and child are the same link '") + child + "'");
    const auto [it, added] = parentOf.try_emplace(child, Parent{parent, name, e->Row()});
    if (!added)
      throw ModelError(where, element, std::string("link '") + child + "' is already the child of joint '" + it->second.joint +
                                           "' (line " + std::to_string(it->second.line) + "): a URDF robot is a tree");
  }
  for (const auto& [start, first] : parentOf) {
    std::string link = first.link;
    for (std::size_t steps = 0; steps <= parentOf.size(); ++steps) {
      if (link == start)
        throw ModelError({file, first.line, 0}, "joint '" + first.joint + "'",
                         "the joints form a cycle through link '" + start + "': a URDF robot is a tree");
      const auto up = parentOf.find(link);
      if (up == parentOf.end()) break;
      link = up->second.link;
    }
  }
}

}  // namespace

SourceLocation UrdfDocument::at(const std::map<std::string, int>& lines, const std::string& name) const {
  const auto it = lines.find(name);
  return {file, it == lines.end() ? 0 : it->second, 0};
}

UrdfDocument parseUrdfDocument(const std::string& xml, const std::string& fileLabel) {
  UrdfDocument doc;
  doc.file = fileLabel;
  requireUtf8Text(xml, fileLabel);  // before TinyXML, which can read past the end of other text
  TiXmlDocument xmlDoc;
  xmlDoc.Parse(xml.c_str());
  if (xmlDoc.Error())
    throw ModelError({fileLabel, xmlDoc.ErrorRow(), xmlDoc.ErrorCol()}, "", std::string("malformed XML: ") + xmlDoc.ErrorDesc());
  const TiXmlElement* robot = xmlDoc.FirstChildElement("robot");
  if (!robot) throw ModelError({fileLabel, 0, 0}, "", "not a URDF file: no <robot> element");
  indexElements(robot, doc);
  checkJointTree(robot, fileLabel);

  std::lock_guard<std::mutex> lock(parserMutex);
  MessageCollector messages;
  console_bridge::useOutputHandler(&messages);
  try {
    doc.robot = urdf::parseURDF(xml);
  } catch (const std::exception& e) {  // urdfdom throws on some malformed numbers
    if (messages.firstError.empty()) messages.firstError = e.what();
  }
  console_bridge::restorePreviousOutputHandler();
  if (!doc.robot) {
    std::string reason = messages.firstError.empty() ? std::string("urdfdom gave no reason") : messages.firstError;
    std::replace(reason.begin(), reason.end(), '\n', ' ');  // one line, as every ModelError
    throw ModelError({fileLabel, 0, 0}, "", "not a valid URDF robot: " + reason);
  }
  return doc;
}

}  // namespace articula::urdf_io
