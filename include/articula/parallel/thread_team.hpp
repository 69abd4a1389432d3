// A fixed team of threads for the fine-grained sweeps of the divide-and-conquer algorithms
// (dynamics/tree_schedule.hpp): one evaluation of a 256-body chain is 40 us of work, split into
// a handful of phases separated by barriers. An OpenMP region costs about 4 us to open and close
// and an OpenMP barrier about 1.7 us on the 2-core virtual machines we measure on (libgomp wakes
// its threads with futex system calls, which a virtual machine makes slow), so OpenMP spent more
// on synchronisation than the second thread saved. The team's threads live as long as the team
// and wait for work and at barriers by spinning on a shared counter (about 0.5 us a barrier),
// then by yielding the core (so that a team on an oversubscribed machine does not starve the
// thread it waits for); an idle thread finally sleeps until the next run.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace articula::parallel {

class ThreadTeam {
 public:
  /// Starts threads - 1 threads (none for 1); the caller of run() is the team's first member.
  /// Throws articula::Error for threads < 1.
  explicit ThreadTeam(int threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// Calls work() once on every member, the calling thread being member 0, and returns when all
  /// have returned. Inside, member() names the calling thread's seat. `work` must not throw (an
  /// exception would leave the others at a barrier: it terminates the program, as in OpenMP).
  /// Runs do not nest.
  template <class Work>
  void run(const Work& work) {
    if (workers_.empty()) {
      work();
      return;
    }
    job_ = &work;
    call_ = [](const void* w) noexcept { (*static_cast<const Work*>(w))(); };
    dispatch();
  }

  /// Every member waits here until all have arrived; memory written before it by any member is
  /// visible after it to all.
  void barrier();
  /// barrier() of the calling thread's team, inside a run; nothing outside of one.
  static void synchronize() {
    if (seat_.team != nullptr) seat_.team->barrier();
  }

  /// The calling thread's seat in the team whose run() it is inside; team == nullptr outside of
  /// one (and in a team of one, which runs its work without seats).
  struct Seat {
    ThreadTeam* team = nullptr;
    int member = 0;
  };
  static Seat member() { return seat_; }

 private:
  void dispatch();
  void serve(int member);

  using Call = void (*)(const void*) noexcept;
  const void* job_ = nullptr;
  Call call_ = nullptr;
  // Each counter on its own cache line: the members spin on them.
  alignas(64) std::atomic<std::uint32_t> epoch_{0};  ///< bumped by each run; workers wait on it
  alignas(64) std::atomic<int> finished_{0};        ///< workers done with the current run
  alignas(64) std::atomic<int> arrived_{0};         ///< members at the current barrier
  alignas(64) std::atomic<std::uint32_t> generation_{0};  ///< barriers passed
  alignas(64) std::atomic<int> sleepers_{0};        ///< workers asleep on epoch_
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
  static thread_local Seat seat_;
};

}  // namespace articula::parallel
