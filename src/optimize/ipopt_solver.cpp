// The IPOPT back end of optimize() (Debian coinor-libipopt-dev): the primal-dual interior-point
// method of Wachter and Biegler with a limited-memory quasi-Newton Hessian (only gradients are
// available), on the problem's bounds and its constraints G_k(b) - upper_k <= 0 (dense Jacobian,
// one adjoint gradient per constraint).
#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

#include <cmath>
#include <limits>

#include "evaluation_log.hpp"

namespace articula::detail {

namespace {

using Ipopt::Index;
using Ipopt::Number;

// IPOPT's infinite bound (its nlp_lower/upper_bound_inf default to -/+1e19).
double ipoptBound(double b) { return std::isfinite(b) ? b : std::copysign(2e19, b); }

class Problem final : public Ipopt::TNLP {
 public:
  Problem(EvaluationLog& log, const Eigen::VectorXd& start, const OptimizerOptions& options)
      : log_(log), start_(start), options_(options), x_(start.size()), g_(start.size()) {}

  bool get_nlp_info(Index& n, Index& m, Index& nnzJac, Index& nnzHess, IndexStyleEnum& style) override {
    n = static_cast<Index>(start_.size());
    m = static_cast<Index>(log_.constraintCount());
    nnzJac = n * m;
    nnzHess = 0;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    for (Index k = 0; k < n; ++k) {
      xl[k] = ipoptBound(log_.lower()[k]);
      xu[k] = ipoptBound(log_.upper()[k]);
    }
    for (Index k = 0; k < m; ++k) {
      gl[k] = ipoptBound(-std::numeric_limits<double>::infinity());
      gu[k] = 0.0;
    }
    return true;
  }
  bool get_starting_point(Index n, bool initX, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    if (initX)
      for (Index k = 0; k < n; ++k) x[k] = start_[k];
    return true;
  }
  bool eval_f(Index n, const Number* x, bool, Number& f) override {
    x_ = Eigen::Map<const Eigen::VectorXd>(x, n);
    f = options_.costScale * log_.evaluate(x_, nullptr);
    return std::isfinite(f);
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* grad) override {
    x_ = Eigen::Map<const Eigen::VectorXd>(x, n);
    log_.evaluate(x_, &g_);
    Eigen::Map<Eigen::VectorXd>(grad, n) = options_.costScale * g_;
    return g_.allFinite();
  }
  bool eval_g(Index n, const Number* x, bool, Index m, Number* g) override {
    x_ = Eigen::Map<const Eigen::VectorXd>(x, n);
    for (Index k = 0; k < m; ++k) g[k] = log_.constraint(static_cast<int>(k), x_, nullptr);
    return Eigen::Map<Eigen::VectorXd>(g, m).allFinite();
  }
  bool eval_jac_g(Index n, const Number* x, bool, Index m, Index, Index* rows, Index* cols, Number* values) override {
    if (!values) {  // the structure: dense, row by row
      for (Index k = 0; k < m; ++k)
        for (Index j = 0; j < n; ++j) {
          rows[k * n + j] = k;
          cols[k * n + j] = j;
        }
      return true;
    }
    x_ = Eigen::Map<const Eigen::VectorXd>(x, n);
    for (Index k = 0; k < m; ++k) {
      log_.constraint(static_cast<int>(k), x_, &g_);
      Eigen::Map<Eigen::VectorXd>(values + k * n, n) = g_;
    }
    return Eigen::Map<Eigen::VectorXd>(values, n * m).allFinite();
  }
  // The evaluation budget counts cost and gradient evaluations, as for the NLopt back end.
  bool intermediate_callback(Ipopt::AlgorithmMode, Index, Number, Number, Number, Number, Number, Number, Number,
                             Number, Index, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    return log_.evaluations() < options_.maxEvaluations;
  }
  void finalize_solution(Ipopt::SolverReturn, Index, const Number*, const Number*, const Number*, Index,
                         const Number*, const Number*, Number, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {}

 private:
  EvaluationLog& log_;
  const Eigen::VectorXd& start_;
  const OptimizerOptions& options_;
  Eigen::VectorXd x_, g_;
};

std::string describe(Ipopt::ApplicationReturnStatus s) {
  switch (s) {
    case Ipopt::Solve_Succeeded: return "optimal solution found (IPOPT)";
    case Ipopt::Solved_To_Acceptable_Level: return "solved to the acceptable level (IPOPT)";
    case Ipopt::User_Requested_Stop: return "evaluation budget used up";
    case Ipopt::Maximum_Iterations_Exceeded: return "iteration limit reached (IPOPT)";
    case Ipopt::Search_Direction_Becomes_Too_Small: return "search direction too small (IPOPT)";
    case Ipopt::Restoration_Failed: return "restoration phase failed (IPOPT)";
    case Ipopt::Error_In_Step_Computation: return "error in the step computation (IPOPT)";
    case Ipopt::Invalid_Number_Detected: return "a non-finite cost or gradient (IPOPT)";
    default: return "stopped (IPOPT status " + std::to_string(static_cast<int>(s)) + ")";
  }
}

}  // namespace

OptimizationResult optimizeWithIpopt(EvaluationLog& log, const Eigen::VectorXd& start, const OptimizerOptions& options) {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");  // no banner
  app->Options()->SetStringValue("hessian_approximation", "limited-memory");
  // The cost tolerance bounds IPOPT's scaled optimality error; no iteration limit beyond the
  // evaluation budget, which intermediate_callback enforces.
  app->Options()->SetNumericValue("tol", std::max(options.costTolerance, 1e-14));
  app->Options()->SetIntegerValue("max_iter", options.maxEvaluations);
  app->Options()->SetNumericValue("constr_viol_tol", options.constraintTolerance);
  app->Options()->SetNumericValue("acceptable_constr_viol_tol", options.constraintTolerance);
  if (app->Initialize() != Ipopt::Solve_Succeeded) throw Error("IPOPT could not be initialised");
  Ipopt::SmartPtr<Ipopt::TNLP> nlp = new Problem(log, start, options);
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(nlp);
  const bool converged = status == Ipopt::Solve_Succeeded || status == Ipopt::Solved_To_Acceptable_Level;
  return log.finish(describe(status), converged);
}

}  // namespace articula::detail
