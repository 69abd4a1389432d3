// Whole-run timings of trajectory gradients (docs/benchmarks.md, "Gradients"): the cost of one
// gradient divided by the cost of one forward run, by the discrete adjoint, direct
// differentiation and finite differences, on the cart + (N-1)-link pendulum of seed 002 chapter 6
// (Table 5.3 values: cart 0.8 kg, links 1 m, 0.5 kg, 0.043 kg m^2, viscous joint friction).
//  1. N = 3 (the double pendulum on a cart), a force on the cart on P = 2 ... 2000 knots;
//  2. N = 4 ... 512 with P = 20, and the adjoint's memory with and without checkpointing: the
//     stored state vectors, and the peak resident memory that one adjoint gradient adds (each
//     measured in a forked child, which starts at the parent's resident size, so that one
//     measurement's peak does not hide the next one's).
//  3. (`--hadca`) seed 002 chapter 6's benchmark: one gradient with N = 4 ... 512 on 1 and 2
//     threads by the divide-and-conquer formulation and adjoint (HADCA), next to the
//     articulated-body one.
//  4. (`--absolute`) the same problem in absolute coordinates (formulation absolute, seed 002
//     section 4.2): forward run and adjoint gradient next to the articulated-body ones.
// Medians of 5 runs, all in one process; `make bench-gradient` builds and runs it.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "articula/optimize/trajectory_gradient.hpp"

using namespace articula;

namespace {

OptimalControlProblem problem(int links, int knots, double tf, double dt) {
  std::vector<double> t(static_cast<std::size_t>(knots));
  for (int k = 0; k < knots; ++k) t[static_cast<std::size_t>(k)] = tf * k / std::max(1, knots - 1);
  return cartPendulumProblem(links, ControlBasis(ControlBasis::Kind::PiecewiseLinear, t), 0.5, tf, dt);
}

template <class F>
double median(F f, int repeats = 5) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The process's peak resident set (VmHWM) in KiB.
long peakResidentKiB() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long value = 0;
  while (status >> key) {
    if (key == "VmHWM:") return status >> value ? value : 0;
    status.ignore(1 << 16, '\n');
  }
  return 0;
}

// The peak resident memory (MiB) that building the gradient and computing one adjoint gradient
// adds: measured in a forked child, whose high-water mark starts at the parent's current
// resident size; -1 when the child fails.
double gradientPeakMiB(const OptimalControlProblem& p, const GradientOptions& options, const Eigen::VectorXd& b) {
  int fds[2];
  if (pipe(fds) != 0) return -1.0;
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    const long before = peakResidentKiB();
    TrajectoryGradient tg(p, options);
    Eigen::VectorXd g;
    tg.gradient(b, g, GradientMethod::Adjoint);
    const long added = peakResidentKiB() - before;
    const bool written = write(fds[1], &added, sizeof added) == static_cast<ssize_t>(sizeof added);
    _exit(written ? 0 : 1);
  }
  close(fds[1]);
  long added = -1024;
  if (child < 0 || read(fds[0], &added, sizeof added) != static_cast<ssize_t>(sizeof added)) added = -1024;
  close(fds[0]);
  if (child > 0) waitpid(child, nullptr, 0);
  return static_cast<double>(added) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--profile") {  // adjoints of the N-body problem, for perf
    const int N = std::atoi(argv[2]);
    TrajectoryGradient tg(problem(N - 1, 20, 1.0, 1e-3));
    const Eigen::VectorXd b = Eigen::VectorXd::Constant(20, 0.5);
    Eigen::VectorXd g;
    for (int k = 0; k < 20; ++k) tg.gradient(b, g, GradientMethod::Adjoint);
    return 0;
  }
  if (argc == 2 && std::string(argv[1]) == "--absolute") {  // seed 002 section 4.2: absolute coordinates
    std::printf("4. cart + (N-1)-link pendulum, 1 s at dt 1e-3 (rk4), P = 20: one forward run and one adjoint gradient (s)\n"
                "   with the articulated-body formulation (reverse mode) and in absolute coordinates (its own adjoint)\n");
    std::printf("%6s %11s %11s %11s %11s %13s %13s\n", "N", "aba fwd", "aba grad", "abs fwd", "abs grad", "abs grad/fwd",
                "abs/aba grad");
    for (int N : {4, 8, 16, 32}) {
      OptimalControlProblem p = problem(N - 1, 20, 1.0, 1e-3);
      const Eigen::VectorXd b = Eigen::VectorXd::Constant(20, 0.5);
      Eigen::VectorXd g;
      double t[4];
      for (int variant = 0; variant < 2; ++variant) {
        p.formulation = variant == 0 ? "aba" : "absolute";
        TrajectoryGradient tg(p);
        t[2 * variant] = median([&] { tg.cost(b); }, 3);
        t[2 * variant + 1] = median([&] { tg.gradient(b, g, GradientMethod::Adjoint); }, 3);
      }
      std::printf("%6d %11.4g %11.4g %11.4g %11.4g %13.2f %13.1f\n", N, t[0], t[1], t[2], t[3], t[3] / t[2], t[3] / t[1]);
    }
    return 0;
  }
  if (argc == 2 && std::string(argv[1]) == "--hadca") {  // seed 002 chapter 6: the divide-and-conquer adjoint
    std::printf("3. cart + (N-1)-link pendulum, 1 s at dt 1e-3 (rk4), P = 20: one gradient (s) with the articulated-body\n"
                "   formulation and reverse mode, and with the divide-and-conquer formulation (dca) whose adjoint solves\n"
                "   on the assembly tree (HADCA), on 1 and 2 threads; forward runs (s) beside them\n");
    std::printf("%6s %11s %11s %11s %11s %11s %11s %9s %9s\n", "N", "aba fwd", "aba grad", "dca1 fwd", "hadca1",
                "dca2 fwd", "hadca2", "grad x2", "fwd x2");
    for (int N : {4, 8, 16, 32, 64, 128, 256, 512}) {
      OptimalControlProblem p = problem(N - 1, 20, 1.0, 1e-3);
      const Eigen::VectorXd b = Eigen::VectorXd::Constant(20, 0.5);
      Eigen::VectorXd g;
      const int repeats = N >= 128 ? 1 : 3;
      double t[6];
      for (int variant = 0; variant < 3; ++variant) {
        p.formulation = variant == 0 ? "aba" : "dca";
        p.threads = variant == 2 ? 2 : 1;
        TrajectoryGradient tg(p);
        t[2 * variant] = median([&] { tg.cost(b); }, repeats);
        t[2 * variant + 1] = median([&] { tg.gradient(b, g, GradientMethod::Adjoint); }, repeats);
      }
      std::printf("%6d %11.4g %11.4g %11.4g %11.4g %11.4g %11.4g %9.2f %9.2f\n", N, t[0], t[1], t[2], t[3], t[4], t[5],
                  t[3] / t[5], t[2] / t[4]);
    }
    return 0;
  }
  std::printf("1. cart + 2-link pendulum, 1 s at dt 1e-3 (rk4), force on P linear knots: time of one gradient / one forward run\n");
  std::printf("%6s %12s %10s %10s %10s\n", "P", "forward (s)", "adjoint", "direct", "fd");
  for (int P : {2, 20, 200, 2000}) {
    TrajectoryGradient tg(problem(2, P, 1.0, 1e-3));
    const Eigen::VectorXd b = Eigen::VectorXd::Constant(P, 0.5);
    Eigen::VectorXd g;
    const double forward = median([&] { tg.cost(b); });
    const double adjoint = median([&] { tg.gradient(b, g, GradientMethod::Adjoint); });
    const double direct = P <= 200 ? median([&] { tg.gradient(b, g, GradientMethod::DirectDifferentiation); }, 3) : 0.0;
    const double fd = P <= 20 ? median([&] { tg.gradient(b, g, GradientMethod::FiniteDifference); }, 3) : 0.0;
    std::printf("%6d %12.4g %10.1f", P, forward, adjoint / forward);
    direct > 0 ? std::printf(" %10.1f", direct / forward) : std::printf(" %10s", "-");
    fd > 0 ? std::printf(" %10.1f\n", fd / forward) : std::printf(" %10s\n", "(2P+1)");
  }
  std::printf("\n2. cart + (N-1)-link pendulum, 1 s at dt 1e-3 (rk4), P = 20: gradient / forward, adjoint memory\n");
  std::printf("   adjoint: checkpointed (one forward run recomputed), all stored, and with its local products by\n"
              "   central differences instead of reverse mode (N <= 32)\n");
  std::printf("%6s %12s %10s %10s %10s %10s %14s %14s %11s %11s\n", "N", "forward (s)", "adjoint", "all stored",
              "central", "fd", "states (ckpt)", "states (all)", "MiB (ckpt)", "MiB (all)");
  for (int N : {4, 8, 16, 32, 64, 128, 256, 512}) {
    const OptimalControlProblem p = problem(N - 1, 20, 1.0, 1e-3);
    TrajectoryGradient tg(p);
    GradientOptions all, central;
    all.checkpointInterval = 1;
    central.reverseModeDerivatives = false;
    TrajectoryGradient stored(p, all), differences(p, central);
    const Eigen::VectorXd b = Eigen::VectorXd::Constant(20, 0.5);
    Eigen::VectorXd g;
    const int repeats = N >= 32 ? 1 : 3;
    const double forward = median([&] { tg.cost(b); });
    const double adjoint = median([&] { tg.gradient(b, g, GradientMethod::Adjoint); }, repeats);
    const double allStored = median([&] { stored.gradient(b, g, GradientMethod::Adjoint); }, repeats);
    const double slow = N <= 32 ? median([&] { differences.gradient(b, g, GradientMethod::Adjoint); }, repeats) : 0.0;
    const double fd = median([&] { tg.gradient(b, g, GradientMethod::FiniteDifference); }, repeats);
    std::printf("%6d %12.4g %10.1f %10.1f", N, forward, adjoint / forward, allStored / forward);
    slow > 0 ? std::printf(" %10.1f", slow / forward) : std::printf(" %10s", "-");
    std::printf(" %10.1f %14ld %14ld %11.2f %11.2f\n", fd / forward, tg.stats().storedStates, stored.stats().storedStates,
                gradientPeakMiB(p, {}, b), gradientPeakMiB(p, all, b));
  }
  std::printf("\nlocal derivatives of the adjoint: %s\n", TrajectoryGradient(problem(2, 2, 1.0, 1e-3)).stats().localDerivatives.c_str());
  return 0;
}
