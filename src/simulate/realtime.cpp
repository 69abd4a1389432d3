#include "articula/simulate/realtime.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace articula {

StepPacer::StepPacer(double speed) { stats_.speed = speed; }

void StepPacer::start(double t0) {
  t0_ = t0;
  start_ = resumed_ = Clock::now();
}

void StepPacer::stepDone(double t) {
  const Clock::time_point now = Clock::now();
  const double compute = std::chrono::duration<double>(now - resumed_).count();
  ++stats_.steps;
  totalCompute_ += compute;
  stats_.worstStep = std::max(stats_.worstStep, compute);
  stats_.meanStep = totalCompute_ / static_cast<double>(stats_.steps);
  const auto due = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>((t - t0_) / stats_.speed));
  if (now > due) {
    ++stats_.deadlineMisses;
    stats_.worstLateness = std::max(stats_.worstLateness, std::chrono::duration<double>(now - due).count());
  } else {
    std::this_thread::sleep_until(due);
  }
  resumed_ = Clock::now();
}

long sampleQueueCapacity(long samples, Eigen::Index stateSize, double memoryBytes) {
  const double slotBytes = static_cast<double>(stateSize + 2) * sizeof(double);
  const long fitting = static_cast<long>(std::floor(memoryBytes / slotBytes));
  return std::max(64L, std::min(samples, fitting));
}

SampleWriter::SampleWriter(Eigen::Index stateSize, long capacity, Write write)
    : capacity_(capacity),
      states_(stateSize, capacity),
      times_(capacity),
      interpolated_(static_cast<std::size_t>(capacity)),
      write_(std::move(write)),
      thread_([this] { run(); }) {}

SampleWriter::~SampleWriter() {
  try {
    finish();
  } catch (...) {
    // The error was the run's to report; a writer destroyed without finish() has none to give.
  }
}

void SampleWriter::signal(std::atomic<long>& events) {
  events.fetch_add(1, std::memory_order_release);
  events.notify_one();
}

bool SampleWriter::push(double t, const Eigen::VectorXd& state, bool interpolated) {
  const long n = pushed_.load(std::memory_order_relaxed);
  // Full: wait until the writer frees a slot (or fails).
  for (;;) {
    const long seen = toStepper_.load(std::memory_order_acquire);
    if (failed_.load(std::memory_order_acquire)) return false;
    if (n - written_.load(std::memory_order_acquire) < capacity_) break;
    ++stalls_;
    toStepper_.wait(seen);
  }
  const long slot = n % capacity_;
  states_.col(slot) = state;
  times_[slot] = t;
  interpolated_[static_cast<std::size_t>(slot)] = interpolated ? 1 : 0;
  pushed_.store(n + 1, std::memory_order_release);
  signal(toWriter_);
  return true;
}

void SampleWriter::run() {
  Eigen::VectorXd state(states_.rows());
  long n = 0;
  try {
    for (;;) {
      const long seen = toWriter_.load(std::memory_order_acquire);
      if (pushed_.load(std::memory_order_acquire) == n) {
        if (closed_.load(std::memory_order_acquire)) return;  // finish() comes after the last push
        toWriter_.wait(seen);
        continue;
      }
      const long slot = n % capacity_;
      state = states_.col(slot);
      write_(times_[slot], state, interpolated_[static_cast<std::size_t>(slot)] != 0);
      written_.store(++n, std::memory_order_release);
      signal(toStepper_);
    }
  } catch (...) {
    error_ = std::current_exception();
    failed_.store(true, std::memory_order_release);
    signal(toStepper_);
  }
}

void SampleWriter::finish() {
  if (thread_.joinable()) {
    closed_.store(true, std::memory_order_release);
    signal(toWriter_);
    thread_.join();
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace articula
