// The HTML animation page: self-contained, holds the model and the recorded poses,
// shows the note of a failed run, is written atomically and thins long runs.
// (tests/browser/check_animation.mjs plays a page in a real browser.)
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "articula/io/animation.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/generators.hpp"

using namespace articula;
namespace fs = std::filesystem;

namespace {

/// A fresh directory per test, removed afterwards.
class AnimationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("articula-animation-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Model chainWithMarker(int links) {
  ModelBuilder b = chainBuilder(links, false);
  b.name = "test-chain";
  b.addMarker({"tip", "link" + std::to_string(links), Vec3(0.5, 0, 0), {}});
  return b.build();
}

/// Records `count` frames of a smooth swing, t = 0, 0.01, ...
void recordSwing(const Model& model, AnimationWriter& writer, int count) {
  Workspace ws(model);
  for (int k = 0; k < count; ++k) {
    const double t = 0.01 * k;
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 0.5 * std::sin(2.0 * t));
    updatePositions(model, ws, q);
    writer.addFrame(t, ws);
  }
}

/// The numbers of the JSON array that follows `key` in the page, e.g. "\"times\":[".
std::vector<double> jsonArray(const std::string& page, const std::string& key) {
  std::vector<double> out;
  std::size_t at = page.find(key);
  if (at == std::string::npos) return out;
  at += key.size();
  const std::size_t end = page.find(']', at);
  std::istringstream in(page.substr(at, end - at));
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stod(item));
  return out;
}

std::size_t countOf(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_F(AnimationTest, WritesASelfContainedPage) {
  const Model model = chainWithMarker(3);
  AnimationWriter writer(model, file("anim.html"));
  recordSwing(model, writer, 7);
  EXPECT_EQ(writer.frames(), 7u);
  writer.write();

  ASSERT_TRUE(fs::exists(writer.path()));
  EXPECT_FALSE(fs::exists(writer.path() + ".tmp"));
  const std::string page = readFile(writer.path());
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link rel=\"stylesheet\""), std::string::npos);
  EXPECT_EQ(page.find("@@"), std::string::npos) << "a placeholder was left in the page";
  EXPECT_NE(page.find("<title>test-chain"), std::string::npos);
  EXPECT_NE(page.find("<h1>test-chain</h1>"), std::string::npos);
  EXPECT_NE(page.find("\"frameCount\":7"), std::string::npos);
  EXPECT_NE(page.find("\"name\":\"tip\""), std::string::npos);
  EXPECT_NE(page.find("\"type\":\"box\""), std::string::npos);
  EXPECT_NE(page.find("window.articula"), std::string::npos);
  EXPECT_EQ(page.find("id=\"note\""), std::string::npos) << "no banner without a note";
  EXPECT_EQ(jsonArray(page, "\"times\":[").size(), 7u);
}

TEST_F(AnimationTest, PosesMatchTheKinematics) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("anim.html"));
  Workspace ws(model);
  Eigen::VectorXd q(2);
  q << 0.7, -1.1;
  updatePositions(model, ws, q);
  writer.addFrame(0.0, ws);
  writer.write();

  const std::vector<double> poses = jsonArray(readFile(writer.path()), "\"poses\":[");
  ASSERT_EQ(poses.size(), 14u);  // 2 bodies x (position, quaternion x y z w)
  for (int b = 1; b <= 2; ++b) {
    const double* p = &poses[static_cast<std::size_t>(7 * (b - 1))];
    EXPECT_LT((Vec3(p[0], p[1], p[2]) - bodyPosition(ws, b)).norm(), 1e-4) << "body " << b;
    const Quat stored(p[6], p[3], p[4], p[5]);
    EXPECT_LT((stored.normalized().toRotationMatrix() - bodyRotation(ws, b)).norm(), 1e-4) << "body " << b;
  }
}

TEST_F(AnimationTest, NoteIsShownInABanner) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("failed.html"));
  recordSwing(model, writer, 3);
  writer.write("run failed at t = 3.2 s: matrix <singular> & no progress");
  const std::string page = readFile(writer.path());
  EXPECT_NE(page.find("id=\"note\""), std::string::npos);
  EXPECT_NE(page.find("run failed at t = 3.2 s: matrix &lt;singular&gt; &amp; no progress"), std::string::npos);
}

TEST_F(AnimationTest, NamesCannotBreakOutOfThePage) {
  ModelBuilder b = chainBuilder(1, false);
  b.name = "evil</script><script>alert(1)</script>";
  const Model model = b.build();
  AnimationWriter writer(model, file("evil.html"));
  recordSwing(model, writer, 2);
  writer.write("</div><script>alert(2)</script>");
  const std::string page = readFile(writer.path());
  EXPECT_EQ(countOf(page, "<script"), 1u);
  EXPECT_EQ(countOf(page, "</script>"), 1u);
  EXPECT_NE(page.find("\"name\":\"evil\\u003c/script>"), std::string::npos);
}

TEST_F(AnimationTest, UnwritablePathThrowsNamingIt) {
  const Model model = chainWithMarker(2);
  const std::string bad = file("missing-dir") + "/anim.html";
  AnimationWriter writer(model, bad);
  recordSwing(model, writer, 2);
  try {
    writer.write();
    FAIL() << "write() should throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }

  // The target is a directory: the page is written beside it, the rename fails, nothing is left.
  fs::create_directories(file("a-directory"));
  AnimationWriter onDirectory(model, file("a-directory"));
  recordSwing(model, onDirectory, 2);
  EXPECT_THROW(onDirectory.write(), Error);
  EXPECT_FALSE(fs::exists(file("a-directory.tmp")));
}

TEST_F(AnimationTest, RewritingReplacesThePage) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("anim.html"));
  recordSwing(model, writer, 2);
  writer.write();
  recordSwing(model, writer, 3);
  writer.write();
  EXPECT_NE(readFile(writer.path()).find("\"frameCount\":5"), std::string::npos);
}

TEST_F(AnimationTest, LongRunsAreThinnedKeepingFirstAndLastFrames) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("long.html"));
  const int count = 12345;
  recordSwing(model, writer, count);
  EXPECT_LE(writer.frames(), 5001u);
  EXPECT_GE(writer.frames(), 2500u);
  writer.write();

  const std::string page = readFile(writer.path());
  const std::vector<double> times = jsonArray(page, "\"times\":[");
  ASSERT_EQ(times.size(), writer.frames());
  EXPECT_NE(page.find("\"frameCount\":" + std::to_string(writer.frames())), std::string::npos);
  EXPECT_DOUBLE_EQ(times.front(), 0.0);
  EXPECT_NEAR(times.back(), 0.01 * (count - 1), 1e-6);
  for (std::size_t k = 1; k < times.size(); ++k) ASSERT_GT(times[k], times[k - 1]) << k;
  // evenly spaced but for the last frame
  const double step = times[1] - times[0];
  for (std::size_t k = 2; k + 1 < times.size(); ++k) ASSERT_NEAR(times[k] - times[k - 1], step, 1e-6) << k;
  EXPECT_EQ(jsonArray(page, "\"poses\":[").size(), 14 * times.size());
  EXPECT_LT(page.size(), 2'000'000u);
}

TEST_F(AnimationTest, NonFiniteFramesAreSkipped) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("nan.html"));
  recordSwing(model, writer, 3);
  Workspace ws(model);
  updatePositions(model, ws, Eigen::VectorXd::Constant(model.nq, std::nan("")));
  writer.addFrame(0.5, ws);
  EXPECT_EQ(writer.frames(), 3u);
  writer.write();
  const std::string page = readFile(writer.path());
  EXPECT_EQ(jsonArray(page, "\"times\":[").size(), 3u);
  const std::vector<double> poses = jsonArray(page, "\"poses\":[");
  EXPECT_EQ(poses.size(), 3u * 14u);
  for (double x : poses) EXPECT_TRUE(std::isfinite(x));
}

TEST_F(AnimationTest, EmptyRunStillWritesAPage) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("empty.html"));
  writer.write("run failed before the first sample");
  const std::string page = readFile(writer.path());
  EXPECT_NE(page.find("\"frameCount\":0"), std::string::npos);
  EXPECT_NE(page.find("run failed before the first sample"), std::string::npos);
}
