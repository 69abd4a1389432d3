// Forward-dynamics values published in RBDL's test suite (rbdl/rbdl, tests/DynamicsTests.cc;
// ../shared/reference/README.md section 2), for every tree formulation: forwardDynamics
// (which picks the planar kernel for planar models), the 6D kernel called directly, and
// CRBA with a Cholesky solve. Tolerance 1e-13 absolute, the one RBDL itself checks with;
// the expected values are exact fractions of g (printed to 15 digits) or computed to that
// precision, and our rounding on 1 to 5 bodies is ~1e-15.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <string>
#include <vector>

#include "articula/dynamics/recursive.hpp"
#include "articula/model/builder.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

namespace {

// One RBDL body: parent, joint position in the parent frame (no rotation), revolute
// axis, mass, centre of mass, diagonal inertia about the centre of mass.
struct RbdlBody {
  std::string name, parent;
  Vec3 jointPosition, axis;
  double mass;
  Vec3 com, inertia;
};

struct RbdlCase {
  std::string name;
  std::vector<RbdlBody> bodies;
  std::vector<double> expected;  // joint accelerations in the order of `bodies`
};

const Vec3 X = Vec3::UnitX(), Y = Vec3::UnitY(), Z = Vec3::UnitZ(), O = Vec3::Zero(), ONES = Vec3::Ones();

std::vector<RbdlCase> cases() {
  const RbdlBody a{"a", "ground", O, Z, 1.0, X, ONES};
  const RbdlBody b{"b", "a", X, Z, 1.0, X, ONES};
  const RbdlBody c{"c", "b", X, Z, 1.0, X, ONES};
  return {
      {"single chain", {a}, {-4.905}},
      {"single chain, spatial inertia", {{"a", "ground", O, Z, 1.0, Vec3(1.5, 1, 1), Vec3(1, 2, 3)}}, {-2.3544}},
      {"double chain", {a, b}, {-5.886, 3.924}},
      {"triple chain", {a, b, c}, {-6.03692307692308, 3.77307692307692, 1.50923076923077}},
      {"3D double chain", {a, {"b", "a", X, Y, 1.0, Y, ONES}}, {-3.924, 0.0}},
      {"3D tree",
       {a,
        {"b1", "a", X, Y, 1.0, Y, ONES},
        {"c1", "b1", Y, X, 1.0, Z, ONES},
        {"b2", "a", Vec3(-0.5, 0, 0), Y, 1.0, Y, ONES},
        {"c2", "b2", Vec3(0, -0.5, 0), X, 1.0, Z, ONES}},
       {-1.60319066147860, -0.534396887159533, 4.10340466926070, 0.267198443579767, 5.30579766536965}},
  };
}

Model build(const RbdlCase& rc) {
  ModelBuilder builder;
  builder.gravity = Vec3(0, -9.81, 0);
  for (const RbdlBody& rb : rc.bodies) {
    BodySpec body;
    body.name = rb.name;
    body.mass = rb.mass;
    body.com = rb.com;
    body.inertia = rb.inertia.asDiagonal();
    builder.addBody(body);
    JointSpec joint;
    joint.name = "j_" + rb.name;
    joint.parent = rb.parent;
    joint.child = rb.name;
    joint.position = rb.jointPosition;
    joint.axis = rb.axis;
    builder.addJoint(joint);
  }
  return builder.build();
}

// The accelerations in the order of the case's bodies (the model orders its own).
std::vector<double> inCaseOrder(const Model& model, const RbdlCase& rc, const Eigen::VectorXd& vdot) {
  std::vector<double> out;
  for (const RbdlBody& rb : rc.bodies) out.push_back(vdot[model.joints[*model.findJoint("j_" + rb.name)].iv]);
  return out;
}

constexpr double kRbdlTolerance = 1e-13;

}  // namespace

TEST(RbdlReference, ForwardDynamicsOfEveryTreeFormulation) {
  for (const RbdlCase& rc : cases()) {
    const Model model = build(rc);
    Workspace ws(model);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    Eigen::VectorXd aba(model.nv), kernel6d(model.nv), C(model.nv);
    forwardDynamics(model, ws, model.q0, zero, zero, nullptr, aba);
    spatialForwardDynamics(model, ws, model.q0, zero, zero, nullptr, kernel6d);
    Eigen::MatrixXd H(model.nv, model.nv);
    massMatrix(model, ws, model.q0, H);
    biasForces(model, ws, model.q0, zero, nullptr, C);
    const Eigen::VectorXd crba = H.llt().solve(-C);
    const std::pair<const char*, const Eigen::VectorXd*> results[] = {
        {"forwardDynamics", &aba}, {"6D ABA kernel", &kernel6d}, {"CRBA", &crba}};
    for (const auto& [formulation, vdot] : results) {
      const std::vector<double> got = inCaseOrder(model, rc, *vdot);
      for (std::size_t k = 0; k < got.size(); ++k)
        EXPECT_NEAR(got[k], rc.expected[k], kRbdlTolerance)
            << rc.name << ", " << formulation << ", body " << rc.bodies[k].name;
    }
  }
}

}  // namespace ARTICULA_TEST_FILE
