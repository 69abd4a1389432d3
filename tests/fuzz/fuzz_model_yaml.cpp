// libFuzzer driver for the YAML model loader (`make fuzz`).
#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  articula::fuzz::modelYaml(data, size);
  return 0;
}
