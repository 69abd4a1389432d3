// Real-time mode (hardware in the loop): the run is paced to the wall clock, and the samples reach
// the sinks (files, the animation) on a writer thread, so that the stepping thread neither blocks
// on output nor allocates. simulate() uses these when SimulationOptions::realtimeSpeed > 0.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

#include <Eigen/Core>

namespace articula {

/// What the paced run measured; all times in wall-clock seconds.
struct RealtimeStats {
  double speed = 0.0;          ///< simulated seconds per wall-clock second (0: the run was not paced)
  long steps = 0;              ///< steps timed
  double worstStep = 0.0;      ///< longest compute time of one step (sample hand-off included)
  double meanStep = 0.0;       ///< mean compute time of a step
  long deadlineMisses = 0;     ///< steps that ended after the wall-clock time of their simulated end
  double worstLateness = 0.0;  ///< largest delay past a deadline
  long queueCapacity = 0;      ///< samples the writer's queue holds
  long outputStalls = 0;       ///< times the stepping thread had to wait for the writer (queue full)
};

/// Paces the steps: the step that ends at simulated time t is due at wall-clock time
/// start + (t - t0) / speed. stepDone() records how long the step took since the last return
/// (the compute time), counts a miss when the deadline has passed, and otherwise sleeps until it.
class StepPacer {
 public:
  using Clock = std::chrono::steady_clock;
  explicit StepPacer(double speed);
  /// Starts the clock at simulated time t0.
  void start(double t0);
  void stepDone(double t);
  const RealtimeStats& stats() const { return stats_; }

 private:
  RealtimeStats stats_;
  double t0_ = 0.0;
  double totalCompute_ = 0.0;
  Clock::time_point start_, resumed_;
};

/// A single-producer, single-consumer queue of samples (time and a state vector of fixed size),
/// with every slot allocated up front, and the thread that consumes it. push() copies the state
/// into a free slot; when the queue is full it waits for the writer (counted as a stall, which a
/// queue sized for the whole run never has). The writer calls `write` for each sample in order.
/// An exception thrown by `write` stops the writer; finish() rethrows it.
class SampleWriter {
 public:
  using Write = std::function<void(double t, const Eigen::VectorXd& state, bool interpolated)>;
  SampleWriter(Eigen::Index stateSize, long capacity, Write write);
  ~SampleWriter();
  SampleWriter(const SampleWriter&) = delete;
  SampleWriter& operator=(const SampleWriter&) = delete;

  /// False once the writer has failed (the run should stop; finish() tells why). Does not allocate.
  bool push(double t, const Eigen::VectorXd& state, bool interpolated);
  /// Writes what is queued, stops the thread, and rethrows the writer's exception if it had one.
  void finish();
  long capacity() const { return capacity_; }
  long stalls() const { return stalls_; }

 private:
  void run();
  static void signal(std::atomic<long>& events);

  long capacity_;
  Eigen::MatrixXd states_;  // one column per slot
  Eigen::VectorXd times_;
  std::vector<char> interpolated_;
  Write write_;
  std::atomic<long> pushed_{0}, written_{0};
  std::atomic<long> toWriter_{0}, toStepper_{0};  // event counts each side waits on
  std::atomic<bool> closed_{false}, failed_{false};
  long stalls_ = 0;
  std::exception_ptr error_;
  std::thread thread_;
};

/// Slots for a run of `samples` samples of `stateSize` values: all of them when they fit in
/// `memoryBytes` (the writer can then never hold the stepping thread back), else as many as fit
/// (at least 64).
long sampleQueueCapacity(long samples, Eigen::Index stateSize, double memoryBytes = 64.0 * 1024 * 1024);

}  // namespace articula
