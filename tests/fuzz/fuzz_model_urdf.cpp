// libFuzzer driver for the URDF importer (`make fuzz`).
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  articula::fuzz::modelUrdf(data, size);
  return 0;
}
