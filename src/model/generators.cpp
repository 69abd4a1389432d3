#include "articula/model/generators.hpp"

#include <string>

namespace articula {

ModelBuilder chainBuilder(int links, bool spatial) {
  if (links < 1) throw Error("a chain needs at least one link (got " + std::to_string(links) + ")");
  constexpr double kLength = 0.5, kSide = 0.05, kMass = 1.0;
  ModelBuilder b;
  b.name = std::string(spatial ? "spatial" : "chain") + std::to_string(links);
  b.gravity = Vec3(0.0, -9.81, 0.0);
  const Vec3 axes[3] = {Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()};
  for (int i = 1; i <= links; ++i) {
    BodySpec body;
    body.name = "link" + std::to_string(i);
    body.mass = kMass;
    body.com = Vec3(0.5 * kLength, 0.0, 0.0);
    body.inertia = boxInertia(kMass, Vec3(kLength, kSide, kSide));
    body.shape.kind = Shape::Kind::Box;
    body.shape.size = Vec3(kLength, kSide, kSide);
    body.shape.position = body.com;
    b.addBody(body);

    JointSpec joint;
    joint.name = "joint" + std::to_string(i);
    joint.type = JointType::Revolute;
    joint.parent = i == 1 ? "ground" : "link" + std::to_string(i - 1);
    joint.child = body.name;
    joint.position = i == 1 ? Vec3::Zero() : Vec3(kLength, 0.0, 0.0);
    joint.axis = spatial ? axes[(i - 1) % 3] : Vec3::UnitZ();
    joint.q0 = {i == 1 ? 0.3 : 0.1};
    b.addJoint(joint);
  }
  return b;
}

}  // namespace articula
