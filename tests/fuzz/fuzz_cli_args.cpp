// libFuzzer driver for the command-line parser (`make fuzz`).
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  articula::fuzz::cliArgs(data, size);
  return 0;
}
