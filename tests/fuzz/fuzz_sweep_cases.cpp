// libFuzzer driver for the cases table of articula sweep (`make fuzz`).
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  articula::fuzz::sweepCases(data, size);
  return 0;
}
