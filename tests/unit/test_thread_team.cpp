// ThreadTeam (parallel/thread_team.hpp): every member runs the work once per run, a barrier
// orders the members' writes, runs after a long idle (the workers asleep) still reach every
// member, and a team of one runs on the calling thread.
#include "articula/parallel/thread_team.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "articula/core/error.hpp"

using namespace articula;
using parallel::ThreadTeam;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt

TEST(ThreadTeam, EveryMemberRunsOncePerRunOnItsOwnThread) {
  for (int threads : {1, 2, 3}) {
    ThreadTeam team(threads);
    EXPECT_EQ(team.size(), threads);
    for (int run = 0; run < 200; ++run) {
      std::vector<int> calls(static_cast<std::size_t>(threads), 0);
      std::vector<std::thread::id> ids(static_cast<std::size_t>(threads));
      team.run([&] {
        const ThreadTeam::Seat seat = ThreadTeam::member();
        const int m = threads == 1 ? 0 : seat.member;
        ASSERT_EQ(seat.team, threads == 1 ? nullptr : &team);
        ++calls[static_cast<std::size_t>(m)];
        ids[static_cast<std::size_t>(m)] = std::this_thread::get_id();
      });
      for (int m = 0; m < threads; ++m) ASSERT_EQ(calls[static_cast<std::size_t>(m)], 1) << "run " << run << " member " << m;
      EXPECT_EQ(ids[0], std::this_thread::get_id());
      for (int m = 1; m < threads; ++m) EXPECT_NE(ids[static_cast<std::size_t>(m)], ids[0]);
      EXPECT_EQ(ThreadTeam::member().team, nullptr);
    }
  }
}

// Each member writes its slot, passes the barrier and reads the others' slots (plain memory):
// without the barrier's ordering a member would read a stale round.
TEST(ThreadTeam, TheBarrierOrdersTheMembersWrites) {
  constexpr int threads = 3, rounds = 2000;
  ThreadTeam team(threads);
  std::vector<int> slot(threads, -1);
  std::atomic<int> stale{0};
  team.run([&] {
    const int m = ThreadTeam::member().member;
    for (int r = 0; r < rounds; ++r) {
      slot[static_cast<std::size_t>(m)] = r;
      team.barrier();
      for (int other = 0; other < threads; ++other)
        if (slot[static_cast<std::size_t>(other)] != r) stale.fetch_add(1);
      team.barrier();
    }
  });
  EXPECT_EQ(stale.load(), 0);
}

// After an idle far longer than the workers' spinning and yielding they sleep; the next run must
// wake them (a missed wake-up would hang here).
TEST(ThreadTeam, WakesSleepingWorkers) {
  ThreadTeam team(2);
  for (int run = 0; run < 3; ++run) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::atomic<int> calls{0};
    team.run([&] { calls.fetch_add(1); });
    EXPECT_EQ(calls.load(), 2);
  }
}

TEST(ThreadTeam, RejectsFewerThanOneThread) { EXPECT_THROW(ThreadTeam(0), Error); }

}  // namespace ARTICULA_TEST_FILE
