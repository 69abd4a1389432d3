// The structural integrators of seed 001 section 5: trapezoidal rule, Newmark with numerical
// dissipation, HHT and generalized-alpha, each fixed by one basic parameter (seed 001 Table 2).
// They are not ODE solvers: every step solves the implicit equations of an index-3 formulation
// (Index3Problem, e.g. the hybrid augmented Lagrangian) by Newton-Raphson. They plug into the
// Integrator interface, so the run loop, sampling, dense output and restart files are shared.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "articula/integrate/integrator.hpp"

namespace articula {

/// The four constants of eq. (38)-(42): deltaM and deltaF weight steps n and n+1 (inertia and
/// other forces); Newmark's gamma and beta. Index3Problem implementations apply them in the form
/// of Arnold and Bruls (Multibody Syst. Dyn. 18, 2007): equilibrium holds exactly at t_{n+1} and an
/// acceleration-like variable a_n carries the weighting, (1 - deltaM) a_{n+1} + deltaM a_n =
/// (1 - deltaF) qdd_{n+1} + deltaF qdd_n, with Newmark's formulas written in a. For a constant mass
/// matrix this is eq. (38) exactly; when M depends on q, eq. (38) as printed (mixing M_n qdd_n)
/// is only first-order accurate, while this form keeps HHT and generalized-alpha second order.
struct StructuralParameters {
  double deltaM = 0.0, deltaF = 0.0, gamma = 0.5, beta = 0.25;
};

/// Table 2 of seed 001. `family` is "trapezoidal" (no parameter), "newmark" (xi in [-1, 0]),
/// "hht" (deltaF in [0, 1/3]) or "generalized-alpha" (rhoInfinity in [0, 1]); a NaN basic
/// parameter selects the family's default (defaultBasicParameter). Throws articula::Error for
/// an unknown family or a parameter out of its range (the message names both).
StructuralParameters structuralParameters(std::string_view family, double basicParameter);
double defaultBasicParameter(std::string_view family);
bool isStructuralIntegrator(std::string_view name);
std::vector<std::string_view> structuralIntegratorNames();

/// What the Newton iteration of one step did.
struct NewtonReport {
  bool converged = false;
  int iterations = 0;
  double residual = 0.0;        ///< size of the last correction (the problem's own measure)
  double constraintError = 0.0;  ///< |g|_inf at the end
  /// Why the iteration stopped at an iterate its forces could not be evaluated at (a spring
  /// pulled to zero length, a wheel laid flat by a diverging correction); empty otherwise. The
  /// integrator retries with a smaller step, as for any failed iteration.
  std::string unevaluable;
};

/// An index-3 formulation seen by a structural integrator. State x = [q; v] as everywhere.
class Index3Problem {
 public:
  virtual ~Index3Problem() = default;
  /// Number of velocity coordinates (the tail of x and of its derivative).
  virtual int velocityCount() const = 0;
  /// Prepares a run from a consistent state x0 with accelerations a0 (J a0 = gamma).
  virtual void start(double t0, const Eigen::VectorXd& x0, Eigen::Ref<const Eigen::VectorXd> a0,
                     const StructuralParameters& parameters) = 0;
  /// One step of size h from (t, x) with accelerations a to t + h: xNew, and the end-of-step
  /// derivative fNew = [qdot; vdot]. On failure (report.converged false) the problem's own memory
  /// (multipliers, acceleration-like variables) is left as before the call, so the step can be retried.
  virtual NewtonReport step(double t, double h, const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> a,
                            Eigen::VectorXd& xNew, Eigen::VectorXd& fNew) = 0;
  /// The memory carried from step to step, for restart files.
  virtual void save(ArchiveWriter& out) const = 0;
  virtual void restore(ArchiveReader& in) = 0;
};

/// Creates a structural integrator over `problem` (which must outlive it). options.dt is the
/// step; a step whose Newton iteration fails is rejected and retried with half the step (at most
/// 10 halvings, then SimulationError); the next step tries options.dt again. The OdeSystem given
/// to initialize() supplies only the initial derivative (consistent accelerations) and afterStep.
std::unique_ptr<Integrator> makeStructuralIntegrator(std::string_view family, double basicParameter,
                                                     const IntegratorOptions& options, Index3Problem& problem);

}  // namespace articula
