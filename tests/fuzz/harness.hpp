// Fuzz targets: one function per input format, shared by the libFuzzer drivers
// (fuzz_*.cpp, built with clang by `make fuzz`) and by the corpus regression test
// (test_fuzz_corpus.cpp, part of the ordinary test suite).
//
// A target returns normally when the input is handled as the documented contract
// says (accepted, or rejected with the one error type of that input), and aborts
// with a message otherwise, which libFuzzer records as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace articula::fuzz {

/// The YAML model loader: parse and validate; a malformed model must give exactly one
/// ModelError with a location inside the input, and an accepted model only finite numbers.
void modelYaml(const std::uint8_t* data, std::size_t size);

/// The URDF importer (urdfdom and the mapping), under the same contract as the YAML loader.
void modelUrdf(const std::uint8_t* data, std::size_t size);

/// The optimal control problem loader (io/yaml_problem.hpp), read as if it were a file in
/// problems/ (so that `model: ../models/five_bar.yaml` resolves): a malformed problem must give
/// exactly one one-line ModelError naming a file (the problem, or the model it names).
void problemYaml(const std::uint8_t* data, std::size_t size);

/// The cases table of `articula sweep` (sweep/cases.hpp), read against models/five_bar.yaml: a
/// malformed table must give one one-line ModelError naming the file and a line inside the input;
/// an accepted one only finite values and unique ids, each case written into the model or refused
/// with an articula::Error.
void sweepCases(const std::uint8_t* data, std::size_t size);

/// The command-line parser: the input is split at newlines into arguments; a bad
/// command line must give a UsageError, a good one a command with sane options.
void cliArgs(const std::uint8_t* data, std::size_t size);

/// Newline-separated arguments, as cliArgs reads them.
std::vector<std::string> splitArguments(const std::string& text);

}  // namespace articula::fuzz
