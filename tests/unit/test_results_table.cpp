// Reading results.csv back: values, non-finite values, malformed lines named by line number,
// where the files of a run are; and the column vocabulary (aliases, prefixes, units, drift).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "articula/core/error.hpp"
#include "articula/io/results_columns.hpp"
#include "articula/io/results_table.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
namespace fs = std::filesystem;

namespace {

ResultsTable parse(const std::string& text) {
  std::istringstream in(text);
  return ResultsTable::parse(in, "run/results.csv");
}

/// The message of the articula::Error that parsing `text` throws ("" when it throws none).
std::string parseError(const std::string& text) {
  try {
    parse(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* kFourBarLike =
    "time,crank.q,crank.v,ball.q0,ball.q3,tip.x,tip.y,tip.z,kinetic_energy,potential_energy,total_energy,"
    "constraint_position_error,constraint_velocity_error,crankshaft.q\n"
    "0,1,0,1,0,0.5,0.25,0,0,10,10,0,0,3\n"
    "0.01,1.1,2,1,0,0.5,0.25,0,2,7,9,1e-15,2e-16,3\n";

}  // namespace

TEST(ResultsTable, ReadsNamedColumnsExactly) {
  const ResultsTable t = parse("time,a.q,b\n0,1.0471975511965976,-2.5e-300\n0.01,2,3\n");
  ASSERT_EQ(t.columnNames(), (std::vector<std::string>{"time", "a.q", "b"}));
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.column(1)[0], 1.0471975511965976);  // the writer's shortest round-trip digits read back bit for bit
  EXPECT_EQ(t.column(2)[0], -2.5e-300);
  EXPECT_EQ(t.column(0)[1], 0.01);
  EXPECT_EQ(t.find("b"), 2u);
  EXPECT_FALSE(t.find("c"));
  EXPECT_EQ(t.name(), "run/results.csv");
}

TEST(ResultsTable, HeaderOnlyHasNoRows) {
  const ResultsTable t = parse("time,x\n");
  EXPECT_EQ(t.rows(), 0u);
  EXPECT_EQ(t.columnNames().size(), 2u);
}

TEST(ResultsTable, AcceptsCrLfLineEnds) {
  const ResultsTable t = parse("time,x\r\n0,1\r\n1,2\r\n");
  EXPECT_EQ(t.columnNames().back(), "x");
  EXPECT_EQ(t.column(1)[1], 2.0);
}

TEST(ResultsTable, NonFiniteValuesAreReadAndReportedByLine) {
  const ResultsTable t = parse("time,x,y\n0,1,2\n1,nan,3\n2,inf,4\n3,-inf,-nan\n4,1e999,1e-999\n");
  EXPECT_TRUE(std::isnan(t.column(1)[1]));
  EXPECT_EQ(t.column(1)[2], HUGE_VAL);
  EXPECT_EQ(t.column(1)[3], -HUGE_VAL);
  EXPECT_TRUE(std::isnan(t.column(2)[3]));
  EXPECT_EQ(t.column(1)[4], HUGE_VAL);  // out of range rounds to inf, as strtod does
  EXPECT_EQ(t.column(2)[4], 0.0);
  EXPECT_EQ(t.nonFiniteWarning(0), "");
  EXPECT_EQ(t.nonFiniteWarning(1), "run/results.csv: column 'x' has 4 non-finite values, the first on line 3");
  EXPECT_EQ(t.nonFiniteWarning(2), "run/results.csv: column 'y' has 1 non-finite value, the first on line 5");
}

TEST(ResultsTable, MalformedLinesNameFileLineAndField) {
  EXPECT_EQ(parseError(""), "run/results.csv: empty file (no header line)");
  EXPECT_EQ(parseError("time,x,x\n"), "run/results.csv:1: duplicate column name 'x'");
  EXPECT_EQ(parseError("time,,x\n"), "run/results.csv:1: empty column name (column 2)");
  EXPECT_EQ(parseError("time,x\n0,1\n1\n"), "run/results.csv:3: expected 2 values, found 1");
  EXPECT_EQ(parseError("time,x\n0,1\n1,2,3\n"), "run/results.csv:3: expected 2 values, found 3");
  EXPECT_EQ(parseError("time,x\n0,1\n\n1,2\n"), "run/results.csv:3: expected 2 values, found 1 (empty line)");
  EXPECT_EQ(parseError("time,x\n0,1\n1,2\n2,abc\n"), "run/results.csv:4: column 'x': 'abc' is not a number");
  EXPECT_EQ(parseError("time,x\n0,1.5.2\n"), "run/results.csv:2: column 'x': '1.5.2' is not a number");
  EXPECT_EQ(parseError("time,x\n0, 1\n"), "run/results.csv:2: column 'x': ' 1' is not a number");
  EXPECT_EQ(parseError("time,x\n0,\n"), "run/results.csv:2: column 'x': '' is not a number");
  // A line cut short by a killed writer is one more malformed line.
  EXPECT_EQ(parseError("time,x,y\n0,1,2\n0.01,1"), "run/results.csv:3: expected 3 values, found 2");
  // Garbage is quoted, but not at any length.
  EXPECT_EQ(parseError("time,x\n0," + std::string(100, 'z') + "\n"),
            "run/results.csv:2: column 'x': '" + std::string(40, 'z') + "...' is not a number");
}

TEST(ResultsTable, AddedColumnsMustFit) {
  ResultsTable t = parse("time,x\n0,1\n1,2\n");
  t.addColumn("y", {3, 4});
  EXPECT_EQ(t.column(*t.find("y"))[1], 4.0);
  EXPECT_THROW(t.addColumn("z", {1}), Error);
  EXPECT_THROW(t.addColumn("x", {1, 2}), Error);
}

TEST(ResultsTable, LocatesTheFilesOfARun) {
  const fs::path dir = fs::temp_directory_path() / ("articula-results-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "empty");
  std::ofstream(dir / "results.csv") << "time\n0\n";
  const ResultsFiles fromDir = locateResults(dir.string());
  EXPECT_EQ(fromDir.csv, (dir / "results.csv").string());
  EXPECT_EQ(fromDir.summary, (dir / "summary.json").string());
  const ResultsFiles fromFile = locateResults((dir / "results.csv").string());
  EXPECT_EQ(fromFile.csv, (dir / "results.csv").string());
  EXPECT_EQ(fromFile.summary, (dir / "summary.json").string());
  EXPECT_EQ(ResultsTable::read(fromDir.csv).rows(), 1u);
  try {
    locateResults((dir / "empty").string());
    ADD_FAILURE() << "a directory without results.csv was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds no results.csv"), std::string::npos) << e.what();
  }
  try {
    locateResults((dir / "missing").string());
    ADD_FAILURE() << "a missing path was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no such results directory or file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ResultsTable::read((dir / "missing.csv").string()), Error);
  fs::remove_all(dir);
}

TEST(ResultsColumns, SelectsNamesAliasesAndPrefixes) {
  const ResultsTable t = parse(kFourBarLike);
  auto names = [&](const std::vector<std::string>& items) {
    std::vector<std::string> out;
    for (std::size_t c : selectColumns(t, items)) out.push_back(t.columnNames()[c]);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(names({"crank.v"}), V{"crank.v"});
  EXPECT_EQ(names({"energy"}), (V{"kinetic_energy", "potential_energy", "total_energy"}));
  EXPECT_EQ(names({"constraint_error"}), (V{"constraint_position_error", "constraint_velocity_error"}));
  EXPECT_EQ(names({"q"}), (V{"crank.q", "ball.q0", "ball.q3", "crankshaft.q"}));
  EXPECT_EQ(names({"v"}), V{"crank.v"});
  EXPECT_EQ(names({"markers"}), (V{"tip.x", "tip.y", "tip.z"}));
  // A prefix ends at a '.' or '_' of the column name: crank is not crankshaft.
  EXPECT_EQ(names({"crank"}), (V{"crank.q", "crank.v"}));
  EXPECT_EQ(names({"kinetic"}), V{"kinetic_energy"});
  // Items in the order given, each column once.
  EXPECT_EQ(names({"total_energy", "energy", "crank.q"}), (V{"total_energy", "kinetic_energy", "potential_energy", "crank.q"}));
}

TEST(ResultsColumns, AnUnknownItemListsTheColumns) {
  const ResultsTable t = parse("time,a.q,total_energy\n0,1,2\n");
  try {
    selectColumns(t, std::vector<std::string>{"a.q", "energie"});
    ADD_FAILURE() << "an unknown column was accepted";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("run/results.csv: no column 'energie'; the columns are time, a.q, total_energy; aliases: energy,"), std::string::npos) << msg;
  }
  EXPECT_THROW(selectColumns(t, "a."), Error);    // a prefix is followed by '.' or '_' in the column
  EXPECT_THROW(selectColumns(t, "tot"), Error);   // not a prefix up to a separator
  EXPECT_EQ(selectColumns(t, "energy"), std::vector<std::size_t>{2});  // the energy columns the file has
  EXPECT_EQ(selectColumns(t, "a"), std::vector<std::size_t>{1});       // a joint's columns
}

TEST(ResultsColumns, UnitsAndAxisLabels) {
  EXPECT_EQ(columnUnit("time"), "s");
  EXPECT_EQ(columnUnit("total_energy"), "J");
  EXPECT_EQ(columnUnit("tip.y"), "m");
  EXPECT_EQ(columnUnit("crank.q"), "");  // an angle or a length, depending on the joint
  EXPECT_EQ(columnUnit("constraint_position_error"), "");
  EXPECT_EQ(axisLabel({"time"}), "time (s)");
  EXPECT_EQ(axisLabel({"kinetic_energy", "total_energy"}), "energy (J)");
  EXPECT_EQ(axisLabel({"kinetic_energy", "total_energy"}, true), "|energy| (J)");
  EXPECT_EQ(axisLabel({"tip.x", "tip.z"}), "marker position (m)");
  EXPECT_EQ(axisLabel({"crank.q", "ball.q3"}), "joint coordinate");
  EXPECT_EQ(axisLabel({"constraint_position_error", "constraint_velocity_error"}, true), "|value|");
  EXPECT_EQ(axisLabel({"total_energy", "tip.x"}), "value");
  EXPECT_EQ(axisLabel({std::string(kRelativeEnergyDrift)}), "relative energy drift");
}

TEST(ResultsColumns, RelativeEnergyDrift) {
  ResultsTable t = parse("time,total_energy\n0,-4\n1,-4.5\n2,-3\n");
  const auto drift = relativeEnergyDrift(t);
  ASSERT_TRUE(drift);
  EXPECT_EQ(*drift, (std::vector<double>{0.0, -0.125, 0.25}));  // (E - E0) / |E0|, E0 = -4
  addDerivedColumns(t);
  ASSERT_TRUE(t.find(kRelativeEnergyDrift));
  EXPECT_EQ(t.column(*t.find(kRelativeEnergyDrift))[2], 0.25);
  addDerivedColumns(t);  // once only
  EXPECT_EQ(t.columnNames().size(), 3u);
  EXPECT_FALSE(relativeEnergyDrift(parse("time,total_energy\n0,0\n1,1\n")));    // E0 = 0: no relative drift
  EXPECT_FALSE(relativeEnergyDrift(parse("time,total_energy\n0,nan\n1,1\n")));
  EXPECT_FALSE(relativeEnergyDrift(parse("time,total_energy\n")));
  EXPECT_FALSE(relativeEnergyDrift(parse("time,x\n0,1\n")));
}

}  // namespace ARTICULA_TEST_FILE
