#include "articula/parallel/thread_team.hpp"

#include "articula/core/error.hpp"

namespace articula::parallel {

namespace {
// Busy polls before yielding the core: about 20-50 us, longer than a barrier's wait when both
// members have a core, far shorter than a scheduler time slice.
constexpr int kSpins = 1 << 12;
// Yields before an idle worker goes to sleep: about a millisecond, so that the serial work
// between two evaluations of an integration step does not put the team to sleep.
constexpr int kYields = 1 << 12;

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Waits until done() holds: spins, then yields; returns false if it still does not hold after
// `yields` yields (never when yields < 0).
template <class Done>
bool await(const Done& done, int yields) {
  for (int k = 0; k < kSpins; ++k) {
    if (done()) return true;
    pause();
  }
  for (int k = 0; yields < 0 || k < yields; ++k) {
    if (done()) return true;
    std::this_thread::yield();
  }
  return done();
}
}  // namespace

thread_local ThreadTeam::Seat ThreadTeam::seat_;

ThreadTeam::ThreadTeam(int threads) {
  if (threads < 1) throw Error("the thread count must be at least 1");
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int m = 1; m < threads; ++m) workers_.emplace_back([this, m] { serve(m); });
}

ThreadTeam::~ThreadTeam() {
  stop_.store(true);
  epoch_.fetch_add(1);
  epoch_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadTeam::dispatch() {
  finished_.store(0, std::memory_order_relaxed);
  epoch_.fetch_add(1);  // sequentially consistent, as is the sleepers' count (see serve)
  if (sleepers_.load() > 0) epoch_.notify_all();
  seat_ = Seat{this, 0};
  call_(job_);
  seat_ = Seat{};
  const int workers = static_cast<int>(workers_.size());
  await([&] { return finished_.load(std::memory_order_acquire) == workers; }, -1);
}

void ThreadTeam::serve(int member) {
  std::uint32_t seen = 0;
  for (;;) {
    const auto started = [&] { return epoch_.load(std::memory_order_acquire) != seen; };
    if (!await(started, kYields)) {
      // Asleep: the dispatcher, having bumped epoch_, sees sleepers_ > 0 and wakes us, or we
      // see its bump here (both sequentially consistent), so no run is missed.
      sleepers_.fetch_add(1);
      while (epoch_.load() == seen) epoch_.wait(seen);
      sleepers_.fetch_sub(1);
    }
    seen = epoch_.load(std::memory_order_acquire);
    if (stop_.load()) return;
    seat_ = Seat{this, member};
    call_(job_);
    seat_ = Seat{};
    finished_.fetch_add(1, std::memory_order_release);
  }
}

void ThreadTeam::barrier() {
  const std::uint32_t generation = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) == size() - 1) {
    arrived_.store(0, std::memory_order_relaxed);
    generation_.store(generation + 1, std::memory_order_release);
    return;
  }
  await([&] { return generation_.load(std::memory_order_acquire) != generation; }, -1);
}

}  // namespace articula::parallel
