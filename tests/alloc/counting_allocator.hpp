// Counts every heap allocation of the process that includes it: malloc and its relatives (Eigen's
// dynamic matrices, CHOLMOD, KLU and C libraries such as Open MPI allocate through them) and, of
// those, the calls to the global operator new. Included by exactly one source file of an
// executable (it defines malloc and operator new), and not in sanitizer builds, which bring their
// own allocator. Used by tests/alloc/test_step_allocations.cpp and tests/mpi/alloc_distributed_ranks.cpp.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

// The bounds of this executable's code (GNU ld's default linker script defines them).
extern "C" char __executable_start, etext;

namespace {
std::atomic<long> allocations{0};  ///< every heap allocation: calls to malloc and its relatives
std::atomic<long> newCalls{0};     ///< of those, the ones made by operator new
/// Of those, the calls from this executable's own code (Articula is linked in statically, Eigen is
/// inlined, and operator new below is here), not from a shared library such as Open MPI's.
std::atomic<long> executableAllocations{0};
thread_local long threadAllocations = 0;  ///< heap allocations made by this thread

void countAllocation(const void* caller) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  ++threadAllocations;
  const char* at = static_cast<const char*>(caller);
  if (at >= &__executable_start && at < &etext) executableAllocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace


// malloc itself is counted: Eigen's dynamic matrices allocate through it (not through operator
// new), and so do CHOLMOD and KLU. glibc's own entry points do the work; defining malloc in the
// executable interposes it for every library.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);

void* malloc(std::size_t n) {
  countAllocation(__builtin_return_address(0));
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  countAllocation(__builtin_return_address(0));
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  countAllocation(__builtin_return_address(0));
  return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) {
  countAllocation(__builtin_return_address(0));
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
  countAllocation(__builtin_return_address(0));
  *out = __libc_memalign(alignment, n);
  return *out ? 0 : 12;  // ENOMEM
}
}

void* operator new(std::size_t n) {
  newCalls.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  newCalls.fetch_add(1, std::memory_order_relaxed);
  const auto alignment = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(alignment, (n + alignment - 1) / alignment * alignment)) return p;
  throw std::bad_alloc();
}
// These operators pair with the operator new above, which takes its memory from malloc.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
