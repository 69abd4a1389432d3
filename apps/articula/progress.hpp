// A one-line progress bar on stderr, shown only on a terminal and only for runs
// that last more than a second.
#pragma once

#include <chrono>

namespace articula::cli {

class ProgressBar {
 public:
  ProgressBar(double tStart, double tEnd, bool enabled);
  void update(double t);
  void finish();

 private:
  double tStart_, tEnd_;
  bool enabled_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace articula::cli
