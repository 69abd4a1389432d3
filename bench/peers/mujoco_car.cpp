// The car of car.hpp in MuJoCo 2.2.2, as MJCF generated in memory: nested bodies whose frames are
// Articula's joint frames, each on a freejoint, hinge, ball or slide joint at its origin, with its
// mass, COM and full central inertia. Loops are equality constraints solved by MuJoCo's soft
// constraint solver: a ball loop is a `connect`, a tie rod a spatial tendon between two sites
// with a `tendon` equality holding its length. The steering rack's locked travel is not a
// constraint: the rack is a body without a joint, fixed to the chassis at the locked travel
// (carLockedFrame), which holds it exactly. The struts and tyres are applied by the passive-force
// callback mjcb_passive (carLoads: Articula's tyre element through Car::tyre), which mj_step calls
// in every evaluation of the dynamics, i.e. at each of RK4's four stages. MuJoCo's own passive
// forces are zero (no joint or tendon stiffness or damping, no fluid), and contacts, limits,
// friction loss, actuation and sensors are off. The initial state is Articula's assembled one,
// converted to joint coordinates (carJointMotion), so the soft constraints start satisfied to
// Articula's assembly tolerance.
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "car.hpp"
#include "mujoco_load.hpp"

namespace peers {

// Named, not anonymous: a unity build puts this file next to mujoco_linkage.cpp.
namespace mujoco_car {

std::string numbers(const Vec3d& v) { return mjcfNumbers(v.data(), v.size()); }
std::string numbers(const std::array<double, 4>& v) { return mjcfNumbers(v.data(), v.size()); }

struct Setting {
  const char* integrator;  ///< MJCF: "RK4" or "Euler" (semi-implicit)
  double dt;
  MujocoSoftness softness;  ///< of every loop equality
};

std::string siteName(const CarLoop& l, char end) { return l.name + '_' + end; }

std::string mjcf(const Car& car, const Setting& s) {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model=\"car\"><compiler angle=\"radian\" inertiafromgeom=\"false\"/>"
    << "<option gravity=\"" << numbers(car.gravity) << "\" timestep=\"" << s.dt << "\" integrator=\"" << s.integrator
    << "\"><flag contact=\"disable\" limit=\"disable\" frictionloss=\"disable\" actuation=\"disable\""
       " sensor=\"disable\"/></option><worldbody>";
  std::function<void(int)> children = [&](int parent) {
    for (std::size_t i = 0; i < car.bodies.size(); ++i) {
      const CarBody& b = car.bodies[i];
      if (b.parent != parent) continue;
      const CarLock* lock = carLockOf(car, static_cast<int>(i));
      const CarPose frame = lock ? carLockedFrame(b, lock->position) : CarPose{b.jointRotation, b.jointOrigin, {}, {}};
      x << "<body name=\"" << b.name << "\" pos=\"" << numbers(frame.origin) << "\" quat=\""
        << numbers(carQuaternion(frame.rotation)) << "\">";
      if (!lock) {
        switch (b.joint) {
          case CarJoint::Free: x << "<freejoint name=\"" << b.jointName << "\"/>"; break;
          case CarJoint::Spherical: x << "<joint name=\"" << b.jointName << "\" type=\"ball\" pos=\"0 0 0\"/>"; break;
          case CarJoint::Revolute:
          case CarJoint::Prismatic:
            x << "<joint name=\"" << b.jointName << "\" type=\"" << (b.joint == CarJoint::Revolute ? "hinge" : "slide")
              << "\" pos=\"0 0 0\" axis=\"" << numbers(b.axis) << "\"/>";
            break;
        }
      }
      const Mat3d& I = b.inertia;  // fullinertia: I11 I22 I33 I12 I13 I23 about the COM, body axes
      x << "<inertial pos=\"" << numbers(b.com) << "\" mass=\"" << b.mass << "\" fullinertia=\"" << I[0] << ' '
        << I[4] << ' ' << I[8] << ' ' << I[1] << ' ' << I[2] << ' ' << I[5] << "\"/>";
      for (const CarLoop& l : car.loops) {
        if (!l.distance) continue;
        if (l.bodyA == static_cast<int>(i)) x << "<site name=\"" << siteName(l, 'a') << "\" pos=\"" << numbers(l.pointA) << "\"/>";
        if (l.bodyB == static_cast<int>(i)) x << "<site name=\"" << siteName(l, 'b') << "\" pos=\"" << numbers(l.pointB) << "\"/>";
      }
      children(static_cast<int>(i));
      x << "</body>";
    }
  };
  children(-1);
  x << "</worldbody><tendon>";
  for (const CarLoop& l : car.loops)
    if (l.distance)
      x << "<spatial name=\"" << l.name << "\"><site site=\"" << siteName(l, 'a') << "\"/><site site=\""
        << siteName(l, 'b') << "\"/></spatial>";
  x << "</tendon><equality>";  // in the order of Car::loops: equality k is loop k
  for (const CarLoop& l : car.loops) {
    if (l.distance)
      x << "<tendon name=\"" << l.name << "\" tendon1=\"" << l.name << '"';
    else
      x << "<connect name=\"" << l.name << "\" body1=\"" << car.bodies[static_cast<std::size_t>(l.bodyA)].name
        << "\" body2=\"" << car.bodies[static_cast<std::size_t>(l.bodyB)].name << "\" anchor=\"" << numbers(l.pointA) << '"';
    x << mjcfSoftness(s.softness) << "/>";
  }
  x << "</equality></mujoco>";
  return x.str();
}

class MujocoCar;
MujocoCar* current = nullptr;  // the run whose loads mjcb_passive applies (a global callback)

class MujocoCar final : public CarRun {
 public:
  MujocoCar(const Car& car, const Setting& s)
      : car_(car), setting_(s), model_(loadMjcf({{"car.xml", mjcf(car, s)}})), data_(mj_makeData(model_)) {
    int nv = 0;
    for (std::size_t i = 0; i < car.bodies.size(); ++i) {
      const CarBody& b = car.bodies[i];
      body_.push_back(mj_name2id(model_, mjOBJ_BODY, b.name.c_str()));
      const int j = carLockOf(car, static_cast<int>(i)) ? -1 : mj_name2id(model_, mjOBJ_JOINT, b.jointName.c_str());
      joint_.push_back(j);
      if (j >= 0) nv += b.joint == CarJoint::Free ? 6 : b.joint == CarJoint::Spherical ? 3 : 1;
      if (b.joint == CarJoint::Free && b.parent >= 0) fail("a free joint below the ground (" + b.jointName + ")");
    }
    if (model_->nv != nv || model_->neq != static_cast<int>(car.loops.size())) fail("compiled car differs from the description");
    for (std::size_t k = 0; k < car.loops.size(); ++k) {
      mjtNum* data = model_->eq_data + mjNEQDATA * k;
      const CarLoop& l = car.loops[k];
      if (l.distance) {
        // The tendon equality holds ten_length - tendon_length0 = data[0], tendon_length0 being the
        // length at qpos0 (all joints at zero, where the loop is open): aim it at the rod's length.
        data[0] = l.length - model_->tendon_length0[mj_name2id(model_, mjOBJ_TENDON, l.name.c_str())];
      } else {
        // 2.2.2 takes connect's second point (data[3..5], in body2's frame) from qpos0, where the
        // loop is open: set it to the loop's point on body B (as mujoco_linkage.cpp).
        for (std::size_t i = 0; i < 3; ++i) data[3 + i] = l.pointB[i];
      }
    }
  }
  ~MujocoCar() override {
    mj_deleteData(data_);
    mj_deleteModel(model_);
  }
  MujocoCar(const MujocoCar&) = delete;
  MujocoCar& operator=(const MujocoCar&) = delete;

  std::string engine() const override { return "mujoco"; }
  std::string settings() const override {
    std::ostringstream s;
    s << "mj_step " << setting_.integrator << (std::string(setting_.integrator) == "Euler" ? " (semi-implicit)" : "")
      << " dt=" << setting_.dt << ", loops " << describeSoftness(setting_.softness);
    return s.str();
  }
  CarFigures run(double tEnd, double sample) override {
    const Passive passive(this);
    requireStepDividesSample("mujoco", setting_.dt, sample);  // MuJoCo's steps are fixed
    long steps = 0;
    CarFigures f = sampleCarRun(car_, tEnd, sample,
                                {[&] { reset(); },
                                 [&](double t) {
                                   while (data_->time < t - 0.5 * setting_.dt) {
                                     mj_step(model_, data_);
                                     ++steps;
                                   }
                                   for (int i = 0; i < model_->nq; ++i)
                                     if (!std::isfinite(data_->qpos[i]))
                                       throw std::runtime_error("mujoco: the state diverged by t = " +
                                                                std::to_string(data_->time));
                                 },
                                 [&] {
                                   mj_kinematics(model_, data_);  // the poses at qpos (mj_step leaves those of its last stage)
                                   return poses(false);
                                 }});
    f.steps = steps;
    return f;
  }
  Initial initial() override {
    const Passive passive(this);
    reset();
    mj_forward(model_, data_);
    mj_rnePostConstraint(model_, data_);  // the bodies' accelerations (cacc)
    Initial init;
    init.poses = poses(true);
    init.softConstraints = true;
    for (int b : body_) {
      mjtNum a[6];  // angular; linear of the body origin, classical, with MuJoCo's -gravity in it
      mj_objectAcceleration(model_, data_, mjOBJ_XBODY, b, a, 0);  // XBODY: the body frame (BODY: the COM's)
      init.accelerations.push_back({a[0], a[1], a[2], a[3] + car_.gravity[0], a[4] + car_.gravity[1], a[5] + car_.gravity[2]});
    }
    for (std::size_t k = 0; k < car_.tyreBodies.size(); ++k)
      init.tyreLoads.push_back(car_.tyre(static_cast<int>(k), poses_[static_cast<std::size_t>(car_.tyreBodies[k])]).fz);
    init.energy = mujocoEnergy(model_, data_) + carElasticEnergy(car_, poses_);
    return init;
  }

  // mjcb_passive: the struts' and tyres' loads at the current stage's state, into qfrc_passive.
  void addLoads() {
    carLoads(car_, poses(true), loads_);
    for (const CarLoad& l : loads_)
      mj_applyFT(model_, data_, l.force.data(), l.moment.data(), l.point.data(), body_[static_cast<std::size_t>(l.body)],
                 data_->qfrc_passive);
  }

 private:
  // The passive-force callback is global: it points at this run only while it runs, so MuJoCo's
  // chain and linkage models never see it.
  struct Passive {
    explicit Passive(MujocoCar* run) {
      current = run;
      mjcb_passive = [](const mjModel*, mjData*) { current->addLoads(); };
    }
    ~Passive() {
      mjcb_passive = nullptr;
      current = nullptr;
    }
    Passive(const Passive&) = delete;
    Passive& operator=(const Passive&) = delete;
  };

  [[noreturn]] void fail(const std::string& what) {
    mj_deleteData(data_);
    mj_deleteModel(model_);
    throw std::runtime_error("mujoco: " + what);
  }

  // Articula's assembled state in MuJoCo's joint coordinates: a freejoint's position and
  // orientation in the world with the velocity of its origin (world) and its angular velocity
  // (body axes); a ball joint's orientation relative to its joint frame and its angular velocity
  // relative to it (body axes); a hinge's angle and a slide's travel with their rates.
  void reset() {
    mj_resetData(model_, data_);
    for (std::size_t i = 0; i < car_.bodies.size(); ++i) {
      if (joint_[i] < 0) continue;  // locked: no joint
      const CarBody& b = car_.bodies[i];
      mjtNum* q = data_->qpos + model_->jnt_qposadr[joint_[i]];
      mjtNum* v = data_->qvel + model_->jnt_dofadr[joint_[i]];
      const CarPose motion = b.joint == CarJoint::Free ? b.initial : carJointMotion(car_, static_cast<int>(i));
      auto inBodyAxes = [&](const Vec3d& w, mjtNum* out) {  // R^T w
        for (std::size_t r = 0; r < 3; ++r)
          out[r] = motion.rotation[r] * w[0] + motion.rotation[3 + r] * w[1] + motion.rotation[6 + r] * w[2];
      };
      switch (b.joint) {
        case CarJoint::Free: {
          const std::array<double, 4> quat = carQuaternion(motion.rotation);
          for (std::size_t r = 0; r < 3; ++r) q[r] = motion.origin[r], v[r] = motion.velocity[r];
          for (std::size_t r = 0; r < 4; ++r) q[3 + r] = quat[r];
          inBodyAxes(motion.omega, v + 3);
          break;
        }
        case CarJoint::Spherical: {
          const std::array<double, 4> quat = carQuaternion(motion.rotation);
          for (std::size_t r = 0; r < 4; ++r) q[r] = quat[r];
          inBodyAxes(motion.omega, v);
          break;
        }
        case CarJoint::Revolute:
        case CarJoint::Prismatic: {
          const std::array<double, 2> c = carJointCoordinate(b, motion);
          q[0] = c[0];
          v[0] = c[1];
          break;
        }
      }
    }
  }

  // Every body's world pose from xpos and xmat (after the kinematics), with its velocity
  // (mj_objectVelocity: world axes, at the body origin; needs cvel) when asked. At t = 0 the
  // physics check cannot tell the body origin's velocity from the COM's (the arms do not turn
  // yet); the runs can: taking the COM's (mjOBJ_BODY) moved eq. (43) of the tightened RK4 run at
  // 1 ms from 1.7e-7 to 1.2e-4.
  const std::vector<CarPose>& poses(bool withVelocity) {
    poses_.resize(body_.size());
    for (std::size_t i = 0; i < body_.size(); ++i) {
      CarPose& p = poses_[i];
      const int b = body_[i];
      for (std::size_t r = 0; r < 9; ++r) p.rotation[r] = data_->xmat[9 * b + static_cast<int>(r)];
      for (std::size_t r = 0; r < 3; ++r) p.origin[r] = data_->xpos[3 * b + static_cast<int>(r)];
      if (!withVelocity) continue;
      mjtNum v[6];
      mj_objectVelocity(model_, data_, mjOBJ_XBODY, b, v, 0);  // XBODY: the body frame (BODY: the COM's)
      p.omega = {v[0], v[1], v[2]};
      p.velocity = {v[3], v[4], v[5]};
    }
    return poses_;
  }

  const Car& car_;
  Setting setting_;
  mjModel* model_;
  mjData* data_;
  std::vector<int> body_, joint_;  ///< per car body: MuJoCo's body id and joint id (-1: locked)
  std::vector<CarPose> poses_;
  std::vector<CarLoad> loads_;
};

}  // namespace mujoco_car

CarRuns makeMujocoCarRuns(const Car& car) {
  using mujoco_car::Setting;
  CarRuns runs;
  // MuJoCo's RK4 and its semi-implicit Euler at steps that divide the 0.01 s sampling interval, up
  // to the interval itself (both stay stable there: on 2026-11-26 Euler at 10 ms was still
  // acceptable by eq. (43)), each with MuJoCo's default softness and tightened to its limit for
  // the step (solref 2 dt), as in mujoco_linkage.cpp.
  const MujocoSoftness soft = kMujocoDefaultSoftness;
  for (const Setting& s : {Setting{"RK4", 1e-3, soft}, Setting{"RK4", 1e-3, mujocoTightened("0.002 1")},
                           Setting{"RK4", 5e-3, soft}, Setting{"RK4", 5e-3, mujocoTightened("0.01 1")},
                           Setting{"RK4", 1e-2, soft}, Setting{"RK4", 1e-2, mujocoTightened("0.02 1")},
                           Setting{"Euler", 1e-3, soft}, Setting{"Euler", 1e-3, mujocoTightened("0.002 1")},
                           Setting{"Euler", 5e-3, soft}, Setting{"Euler", 5e-3, mujocoTightened("0.01 1")},
                           Setting{"Euler", 1e-2, soft}})
    runs.push_back(std::make_unique<mujoco_car::MujocoCar>(car, s));
  return runs;
}

}  // namespace peers
