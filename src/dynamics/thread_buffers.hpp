// Private to src/dynamics: inside an OpenMP parallel region, the buffers of the calling thread
// (one separately allocated object per thread, so that no two threads share a cache line).
#pragma once

#include <memory>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace articula {

template <class Buffers>
Buffers& ownBuffers(const std::vector<std::unique_ptr<Buffers>>& perThread) {
#ifdef _OPENMP
  return *perThread[static_cast<std::size_t>(omp_get_thread_num())];
#else
  return *perThread[0];
#endif
}

}  // namespace articula
