#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace articula::cli {

ProgressBar::ProgressBar(double tStart, double tEnd, bool enabled)
    : tStart_(tStart), tEnd_(tEnd), enabled_(enabled && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()), last_(start_) {}

void ProgressBar::update(double t) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1.0 || std::chrono::duration<double>(now - last_).count() < 0.2) return;
  last_ = now;
  shown_ = true;
  const double frac = (t - tStart_) / (tEnd_ - tStart_);
  const int width = 30, filled = static_cast<int>(frac * width);
  char bar[width + 1];
  for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
  bar[width] = '\0';
  const double eta = frac > 0.0 ? elapsed * (1.0 - frac) / frac : 0.0;
  std::fprintf(stderr, "\r[%s] %5.1f%%  t = %.3f s  elapsed %.1f s  remaining %.1f s ", bar, 100.0 * frac, t, elapsed, eta);
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (shown_) std::fprintf(stderr, "\n");
}

}  // namespace articula::cli
