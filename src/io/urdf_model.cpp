#include "articula/io/urdf_model.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "urdf_document.hpp"
#include "urdf_visuals.hpp"

namespace articula {

using urdf_io::Pose;

namespace {

struct BodyParts {
  std::string name;
  SourceLocation where;
  std::string movedBy;  ///< the joint that moves the body
  SpatialInertia inertia;  ///< about the body origin, summed over the links lumped into the body
  std::vector<Shape> shapes;
};

class UrdfMapper {
 public:
  explicit UrdfMapper(const urdf_io::UrdfDocument& doc) : doc_(doc), visuals_(doc.file, builder_.warnings) {
    bodies_.push_back({"ground", {}, "", {}, {}});
  }

  ModelBuilder build() {
    builder_.name = doc_.robot->getName().empty() ? "robot" : doc_.robot->getName();
    builder_.gravity = Vec3(0.0, 0.0, -9.81);
    builder_.where = {doc_.file, 0, 0};
    // The root link is the ground: a fixed base (a link named "world" is the usual explicit form).
    visit(*doc_.robot->getRoot(), 0, Pose{});
    for (std::size_t b = 1; b < bodies_.size(); ++b) builder_.addBody(bodySpec(bodies_[b]));
    for (auto& j : joints_) builder_.addJoint(std::move(j));
    builder_.groundShapes = bodies_[0].shapes;
    return std::move(builder_);
  }

 private:
  void visit(const urdf::Link& link, int body, const Pose& linkInBody) {
    addInertial(link, body, linkInBody);
    for (const auto& visual : link.visual_array)
      if (visual)
        bodies_[static_cast<std::size_t>(body)].shapes.push_back(visuals_.shape(*visual, link, linkInBody, doc_.link(link.name)));
    for (const auto& joint : link.child_joints) {
      const urdf::LinkConstSharedPtr child = doc_.robot->getLink(joint->child_link_name);
      if (!child) throw ModelError(doc_.joint(joint->name), "joint '" + joint->name + "'", "child link '" + joint->child_link_name + "' is not defined");
      if (joint->mimic)
        throw ModelError(doc_.joint(joint->name), "joint '" + joint->name + "'",
                         "mimic joints cannot be mapped yet (Articula has no coupled-coordinate constraint); remove the "
                         "<mimic> element to simulate the joint as an independent one");
      const Pose jointInBody = linkInBody * urdf_io::toPose(joint->parent_to_joint_origin_transform);
      if (joint->type == urdf::Joint::FIXED) {
        // Lumped into this body; the link's origin stays reachable as a marker.
        builder_.addMarker({child->name, bodyName(body), jointInBody.p, doc_.link(child->name)});
        visit(*child, body, jointInBody);
      } else {
        visit(*child, addMovingJoint(*joint, *child, body, jointInBody), childFrame(*joint));
      }
    }
  }

  // The child link's frame in its body frame: the same frame, except under a planar joint, whose
  // Articula joint frame turns the URDF plane normal onto z.
  static Pose childFrame(const urdf::Joint& joint) {
    if (joint.type != urdf::Joint::PLANAR) return Pose{};
    return Pose{Vec3::Zero(), frameWithZ(urdf_io::toVec3(joint.axis).normalized()).transpose()};
  }

  int addMovingJoint(const urdf::Joint& joint, const urdf::Link& child, int parentBody, const Pose& jointInBody) {
    const std::string el = "joint '" + joint.name + "'";
    const SourceLocation where = doc_.joint(joint.name);
    JointSpec j;
    j.name = joint.name;
    j.parent = bodyName(parentBody);
    j.child = child.name;
    j.where = where;
    j.position = jointInBody.p;
    j.rotation = jointInBody.R;
    const Vec3 axis = urdf_io::toVec3(joint.axis);
    if (joint.type != urdf::Joint::FLOATING && !(axis.norm() > 1e-12)) throw ModelError(where, el, "axis has zero length");
    switch (joint.type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS: j.type = JointType::Revolute; j.axis = axis.normalized(); break;
      case urdf::Joint::PRISMATIC: j.type = JointType::Prismatic; j.axis = axis.normalized(); break;
      case urdf::Joint::PLANAR: j.type = JointType::Planar; j.rotation = jointInBody.R * frameWithZ(axis.normalized()); break;
      case urdf::Joint::FLOATING: j.type = JointType::Free; break;
      default: throw ModelError(where, el, "unknown joint type");
    }
    const bool scalar = j.type == JointType::Revolute || j.type == JointType::Prismatic;
    const bool limited = scalar && joint.type != urdf::Joint::CONTINUOUS && joint.limits;
    if (limited) {
      addLimit(joint, where);
      j.q0 = {std::clamp(0.0, joint.limits->lower, std::max(joint.limits->lower, joint.limits->upper))};
    }
    if (joint.dynamics) addDynamics(joint, scalar, where);
    joints_.push_back(std::move(j));
    bodies_.push_back({child.name, doc_.link(child.name), joint.name, {}, {}});
    return static_cast<int>(bodies_.size()) - 1;
  }

  void addLimit(const urdf::Joint& joint, const SourceLocation& where) {
    const double lower = joint.limits->lower, upper = joint.limits->upper;
    if (lower < upper) {
      builder_.addJointLimit({joint.name + " limit", joint.name, 0, lower, upper, kUrdfLimitStiffness, kUrdfLimitDamping, where});
    } else {
      builder_.warnings.push_back("joint '" + joint.name + "': limit lower " + std::to_string(lower) + " is not below upper " +
                                  std::to_string(upper) + ": the joint is left without end stops");
    }
  }

  void addDynamics(const urdf::Joint& joint, bool scalar, const SourceLocation& where) {
    const double damping = joint.dynamics->damping, friction = joint.dynamics->friction;
    if (damping == 0.0 && friction == 0.0) return;
    if (!scalar) {
      builder_.warnings.push_back("joint '" + joint.name + "': <dynamics> is applied to revolute and prismatic joints only; ignored");
      return;
    }
    if (damping != 0.0) builder_.addJointSpring({joint.name + " damping", joint.name, 0, 0.0, damping, 0.0, where});
    if (friction != 0.0)
      builder_.addJointFriction({joint.name + " friction", joint.name, 0, friction, kUrdfFrictionSlipVelocity, where});
  }

  void addInertial(const urdf::Link& link, int body, const Pose& linkInBody) {
    if (!link.inertial || body == 0) return;
    const urdf::Inertial& in = *link.inertial;
    const Pose frame = linkInBody * urdf_io::toPose(in.origin);
    Mat3 I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    bodies_[static_cast<std::size_t>(body)].inertia +=
        SpatialInertia::fromMassComInertia(in.mass, frame.p, frame.R * I * frame.R.transpose());
  }

  BodySpec bodySpec(const BodyParts& b) const {
    const SpatialInertia& I = b.inertia;
    if (!(I.m > 0.0))
      throw ModelError(b.where, "link '" + b.name + "'",
                       "has no mass, but joint '" + b.movedBy + "' moves it: every moving link (with the links fixed to it) "
                       "needs an <inertial> with a positive mass");
    BodySpec s;
    s.name = b.name;
    s.where = b.where;
    s.mass = I.m;
    s.com = I.h / I.m;
    // Back to the centre of mass: less the inertia about the origin of a point mass at the com.
    s.inertia = I.Ibar - SpatialInertia::fromMassComInertia(I.m, s.com, Mat3::Zero()).Ibar;
    s.inertia = 0.5 * (s.inertia + s.inertia.transpose());
    s.shapes = b.shapes;
    return s;
  }

  std::string bodyName(int body) const { return bodies_[static_cast<std::size_t>(body)].name; }

  const urdf_io::UrdfDocument& doc_;
  ModelBuilder builder_;
  urdf_io::VisualMapper visuals_;
  std::vector<BodyParts> bodies_;
  std::vector<JointSpec> joints_;
};

}  // namespace

ModelBuilder parseUrdf(const std::string& xml, const std::string& fileLabel) {
  return UrdfMapper(urdf_io::parseUrdfDocument(xml, fileLabel)).build();
}

bool isUrdfPath(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".urdf";
}

}  // namespace articula
