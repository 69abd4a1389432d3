// Every input of the fuzzing corpora (tests/fuzz/*/, plus the shipped models and the
// malformed-model collection, which seed the model fuzzer) runs through the fuzz targets
// in the ordinary test suite, so an input that once broke a loader stays fixed without clang.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness.hpp"

namespace {

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <class Target>
int runAll(const std::vector<std::string>& dirs, Target target) {
  int count = 0;
  for (const auto& dir : dirs)
    for (const auto& file : filesIn(dir)) {
      SCOPED_TRACE(file);
      const std::string bytes = bytesOf(file);
      // A contract violation aborts the process with a message; name the input first.
      std::fprintf(stderr, "%s\n", file.c_str());
      target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++count;
    }
  return count;
}

const std::string kRoot = ARTICULA_SOURCE_DIR;

}  // namespace

TEST(FuzzCorpus, ModelYamlInputsKeepTheLoaderContract) {
  const int n = runAll({kRoot + "/tests/fuzz/model_yaml", kRoot + "/models", kRoot + "/tests/models/bad"},
                       articula::fuzz::modelYaml);
  EXPECT_GE(n, 40);  // the corpus is there: seeds, shipped models and malformed files
}

TEST(FuzzCorpus, ModelUrdfInputsKeepTheLoaderContract) {
  EXPECT_GE(runAll({kRoot + "/tests/fuzz/model_urdf", kRoot + "/models"}, articula::fuzz::modelUrdf), 20);
}

TEST(FuzzCorpus, ProblemYamlInputsKeepTheLoaderContract) {
  EXPECT_GE(runAll({kRoot + "/tests/fuzz/problem_yaml", kRoot + "/problems", kRoot + "/tests/problems/bad"},
                   articula::fuzz::problemYaml),
            14);
}

TEST(FuzzCorpus, SweepCasesKeepTheTableContract) {
  EXPECT_GE(runAll({kRoot + "/tests/fuzz/sweep_cases", kRoot + "/tests/sweep/bad"}, articula::fuzz::sweepCases), 19);
}

TEST(FuzzCorpus, CommandLinesKeepTheParserContract) {
  EXPECT_GE(runAll({kRoot + "/tests/fuzz/cli_args"}, articula::fuzz::cliArgs), 8);
}

TEST(FuzzCorpus, ArgumentsSplitAtNewlines) {
  EXPECT_EQ(articula::fuzz::splitArguments("a\nb c\n\nd"), (std::vector<std::string>{"a", "b c", "", "d"}));
}
