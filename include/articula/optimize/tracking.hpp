// Feed-forward plus feedback (seed 002 chapter 7, Fig. 7.1): an optimal control computed on the
// model is fed to a perturbed plant as the feed-forward input u_ff(t), next to one PD loop per
// actuated joint that tracks the joint trajectory the model predicted for u_ff,
//   u = u_ff(t) + kp (q_r(t) - q) + kd (q_r'(t) - qdot)       (each control in its own units),
// and the plant's marker path is compared with the predicted one by the integral squared error
//   ISE = integral_0^tf |r_P - r_P^ref|^2 dt                      (eq. (7.3)).
// The same loops without u_ff are the model-free reference architecture. The plant is the
// problem's model with some values scaled (masses, springs and dampers, control gains): the
// model is only an approximation of the device.
#pragma once

#include <string>
#include <vector>

#include "articula/optimize/problem.hpp"
#include "articula/simulate/simulation.hpp"

namespace articula {

/// A PD loop on the joint a control acts on: its correction adds to that control's input.
struct FeedbackLoop {
  int control = 0;         ///< index into the problem's controls (a joint control)
  double kp = 0.0, kd = 0.0;  ///< per radian (metre) and per radian (metre) per second, in the control's units
};

/// One value of the plant that differs from the model: the parameter times `factor`.
struct PlantChange {
  DesignParameter parameter;  ///< which value (its bounds are not used)
  double factor = 1.0;
};

struct TrackingStudy {
  int marker = 0;  ///< the point whose path is compared (seed 002: the end-effector P)
  std::vector<FeedbackLoop> loops;
  std::vector<PlantChange> plant;
  std::vector<double> gainFactor;  ///< per control: the plant's actuator gain over the model's (1: exact)
};

/// One architecture run on one plant.
struct TrackingRun {
  std::string name;  ///< "feedback", "feedforward+feedback"
  bool ok = true;
  std::string error;  ///< why the run stopped (ok false)
  double ise = 0.0;           ///< integral of |r_P - r_P^ref|^2 (trapezoidal over the samples)
  double maxDeviation = 0.0;  ///< max |r_P - r_P^ref|
  std::vector<double> feedbackRms, feedbackMax;  ///< per loop: the PD correction's RMS and peak
  std::vector<Vec3> marker;                      ///< r_P at the samples
  std::vector<std::vector<double>> feedback;     ///< [loop][sample] the PD correction
};

struct TrackingResult {
  std::vector<double> t;                  ///< the samples: every step of the problem's grid
  std::vector<Vec3> reference;            ///< r_P^ref: the model's path under u_ff
  std::vector<std::vector<double>> jointReference;  ///< [loop][sample] q_r
  std::vector<std::vector<double>> feedforward;     ///< [loop][sample] u_ff of the loop's control
  /// feedback only and feed-forward + feedback on the perturbed plant, then feed-forward +
  /// feedback on the unperturbed model (a check: there the loops have nothing to correct).
  std::vector<TrackingRun> runs;
};

/// The model with the design parameters b and every control applied as a load whose magnitude is
/// a table through gain * u(t) at every Runge-Kutta stage time of the problem's grid (steps and
/// half steps), so that a simulation with simulationOptions(p) sees the inputs the optimisation saw.
Model optimalModel(const OptimalControlProblem& p, const Eigen::VectorXd& b);
/// The simulation settings that integrate the problem's equations as its gradient does: its
/// formulation, fixed step and Baumgarte terms, no projection, a sample at every step.
SimulationOptions simulationOptions(const OptimalControlProblem& p);

/// Runs the study at the parameters b. Throws articula::Error when a loop's control is not a
/// joint control, or when the nominal run (the reference) fails.
TrackingResult runTrackingStudy(const OptimalControlProblem& p, const TrackingStudy& study, const Eigen::VectorXd& b);

}  // namespace articula
