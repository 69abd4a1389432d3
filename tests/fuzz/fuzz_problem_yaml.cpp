// libFuzzer driver for the optimal control problem loader (`make fuzz`).
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  articula::fuzz::problemYaml(data, size);
  return 0;
}
