// The HTML animation page: self-contained (the three.js viewer inline, once), holds the model,
// the meshes' triangles, the recorded poses and signals; shows the note of a failed run; is
// written atomically and thins long runs. (tests/browser/ plays pages in a real browser.)
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "articula/io/animation.hpp"
#include "articula/io/sample_signals.hpp"
#include "articula/kinematics/kinematics.hpp"
#include "articula/model/builder.hpp"
#include "articula/model/generators.hpp"
#include "mesh_test_files.hpp"

using namespace articula;

namespace ARTICULA_TEST_FILE {  // this file's own names in a unity build: tests/CMakeLists.txt
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

std::size_t countOf(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Warnings collected instead of printed.
struct Warnings {
  std::vector<std::string> lines;
  AnimationWriter::Warn sink() {
    return [this](const std::string& w) { lines.push_back(w); };
  }
};

Model chainWithMarker(int links) {
  ModelBuilder b = chainBuilder(links, false);
  b.name = "test-chain";
  b.addMarker({"tip", "link" + std::to_string(links), Vec3(0.5, 0, 0), {}});
  return b.build();
}

/// Records `count` samples of a smooth swing, t = 0, 0.01, ...: q = 0.5 sin(2t) in every
/// coordinate, kinetic energy t, potential energy -2.
void recordSwing(const Model& model, AnimationWriter& writer, int count) {
  Workspace ws(model);
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv);
  for (int k = 0; k < count; ++k) {
    const double t = 0.01 * k;
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 0.5 * std::sin(2.0 * t));
    updatePositions(model, ws, q);
    writer.addFrame(Sample{t, q, v, t, -2.0, 1e-9, 2e-9, ws});
  }
}

/// The text of the page data's string member `key` (the base64 arrays).
std::string member(const std::string& page, const std::string& key) {
  const std::string open = "\"" + key + "\":\"";
  const std::size_t at = page.find(open);
  if (at == std::string::npos) return "";
  const std::size_t begin = at + open.size();
  return page.substr(begin, page.find('"', begin) - begin);
}

/// Decodes base64 into little-endian numbers of type T.
template <class T>
std::vector<T> decode(const std::string& text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<unsigned char> bytes;
  std::uint32_t group = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    group = group << 6 | static_cast<std::uint32_t>(alphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<unsigned char>(group >> bits & 0xFF));
    }
  }
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;
  std::vector<T> out(bytes.size() / sizeof(T));
  for (std::size_t i = 0; i < out.size(); ++i) {
    Bits u = 0;
    for (std::size_t k = 0; k < sizeof(T); ++k) u |= static_cast<Bits>(bytes[i * sizeof(T) + k]) << (8 * k);
    out[i] = std::bit_cast<T>(u);
  }
  return out;
}

/// The last <script> element's content: the viewer bundle.
std::string bundleOf(const std::string& page) {
  const std::size_t open = page.rfind("<script>") + 8;
  return page.substr(open, page.rfind("</script>") - open);
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
  // No reference to anything outside the page. three.js names the XHTML namespace (an XML name,
  // never fetched; the browser test blocks and counts every request).
  const std::regex url(R"(https?://[^"'\s)]*)");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), url); it != std::sregex_iterator(); ++it)
    EXPECT_EQ(it->str(), "http://www.w3.org/1999/xhtml");
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link rel=\"stylesheet\""), std::string::npos);
  EXPECT_EQ(page.find("@@"), std::string::npos) << "a placeholder was left in the page";
  // Two script elements: the data, then the viewer, three.js included, once.
  EXPECT_EQ(countOf(page, "<script"), 2u);
  EXPECT_EQ(countOf(page, "<script type=\"application/json\" id=\"data\">{"), 1u);
  EXPECT_EQ(countOf(page, "Articula viewer, three.js"), 1u);
  EXPECT_EQ(countOf(page, "Three.js Authors"), 1u);
  EXPECT_GT(bundleOf(page).size(), 200'000u);
  EXPECT_NE(bundleOf(page).find("window.articula"), std::string::npos);

  EXPECT_NE(page.find("<title>test-chain"), std::string::npos);
  EXPECT_NE(page.find("<h1>test-chain</h1>"), std::string::npos);
  EXPECT_NE(page.find("\"frameCount\":7"), std::string::npos);
  EXPECT_NE(page.find("\"name\":\"tip\""), std::string::npos);
  EXPECT_NE(page.find("\"type\":\"box\""), std::string::npos);
  EXPECT_EQ(page.find("id=\"note\""), std::string::npos) << "no banner without a note";
  EXPECT_EQ(decode<double>(member(page, "times")).size(), 7u);
}

TEST_F(AnimationTest, PosesMatchTheKinematics) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("anim.html"));
  Workspace ws(model);
  Eigen::VectorXd q(2), v = Eigen::VectorXd::Zero(2);
  q << 0.7, -1.1;
  updatePositions(model, ws, q);
  writer.addFrame(Sample{0.0, q, v, 0, 0, 0, 0, ws});
  writer.write();

  const std::vector<float> poses = decode<float>(member(readFile(writer.path()), "poses"));
  ASSERT_EQ(poses.size(), 14u);  // 2 bodies x (position, quaternion x y z w)
  for (int b = 1; b <= 2; ++b) {
    const float* p = &poses[static_cast<std::size_t>(7 * (b - 1))];
    EXPECT_LT((Vec3(p[0], p[1], p[2]) - bodyPosition(ws, b)).norm(), 1e-6) << "body " << b;
    const Quat stored(p[6], p[3], p[4], p[5]);
    EXPECT_LT((stored.normalized().toRotationMatrix() - bodyRotation(ws, b)).norm(), 1e-6) << "body " << b;
  }
}

TEST_F(AnimationTest, SignalsAreTheSampleValuesOfTheCsv) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("anim.html"));
  recordSwing(model, writer, 5);
  writer.write();
  const std::string page = readFile(writer.path());

  const std::vector<SignalColumn> signals = sampleSignals(model);
  ASSERT_EQ(signals.size(), 2u + 2u + 3u + 3u + 2u);
  EXPECT_NE(page.find(R"("signals":[{"name":"joint1.q","group":"q"},{"name":"joint2.q","group":"q"},{"name":"joint1.v","group":"v"})"),
            std::string::npos);
  EXPECT_NE(page.find(R"({"name":"total_energy","group":"energy"},{"name":"constraint_position_error","group":"constraint"})"),
            std::string::npos);
  EXPECT_NE(page.find("\"constraints\":0"), std::string::npos);

  const std::vector<double> values = decode<double>(member(page, "values"));
  ASSERT_EQ(values.size(), 5 * signals.size());
  Workspace ws(model);
  for (std::size_t f = 0; f < 5; ++f) {
    const double t = 0.01 * static_cast<double>(f);
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(2, 0.5 * std::sin(2.0 * t)), v = Eigen::VectorXd::Zero(2);
    updatePositions(model, ws, q);
    std::vector<double> expected(signals.size());
    sampleValues(model, Sample{t, q, v, t, -2.0, 1e-9, 2e-9, ws}, expected);
    EXPECT_EQ(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(f * signals.size()),
                                  values.begin() + static_cast<std::ptrdiff_t>((f + 1) * signals.size())),
              expected)
        << "frame " << f;
    EXPECT_EQ(expected[signals.size() - 3], t - 2.0) << "total energy";
  }
}

TEST_F(AnimationTest, StoredTrajectoriesGiveTheSamePage) {
  const Model model = chainWithMarker(2);
  AnimationWriter fromSamples(model, file("samples.html")), fromStates(model, file("states.html"));
  recordSwing(model, fromSamples, 4);
  const std::size_t n = sampleSignals(model).size();
  Workspace ws(model);
  for (int k = 0; k < 4; ++k) {
    const double t = 0.01 * k;
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 0.5 * std::sin(2.0 * t)), v = Eigen::VectorXd::Zero(model.nv);
    updatePositions(model, ws, q);
    std::vector<double> row(n);
    sampleValues(model, Sample{t, q, v, t, -2.0, 1e-9, 2e-9, ws}, row);
    fromStates.addFrame(t, q, row);  // as a later `articula view` would, from results.csv
  }
  fromSamples.write();
  fromStates.write();
  EXPECT_EQ(readFile(fromSamples.path()), readFile(fromStates.path()));

  const std::vector<double> tooShort(n - 1);
  EXPECT_THROW(fromStates.addFrame(1.0, Eigen::VectorXd::Zero(model.nq), tooShort), Error);
  const std::vector<double> right(n);
  EXPECT_THROW(fromStates.addFrame(1.0, Eigen::VectorXd::Zero(model.nq + 1), right), Error);
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
  b.addMarker({"</SCRIPT><b>marker", "link1", Vec3::Zero(), {}});
  const Model model = b.build();
  AnimationWriter writer(model, file("evil.html"));
  recordSwing(model, writer, 2);
  writer.write("</div><script>alert(2)</script>");
  std::string page = readFile(writer.path());
  EXPECT_NE(page.find("\"name\":\"evil\\u003c/script>"), std::string::npos);
  EXPECT_NE(page.find("\"name\":\"\\u003c/SCRIPT>\\u003cb>marker\""), std::string::npos);
  std::transform(page.begin(), page.end(), page.begin(), [](unsigned char c) { return std::tolower(c); });
  EXPECT_EQ(countOf(page, "<script"), 2u);  // the data and the viewer, nothing else
  EXPECT_EQ(countOf(page, "</script"), 2u);
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
  const std::vector<double> times = decode<double>(member(page, "times"));
  ASSERT_EQ(times.size(), writer.frames());
  EXPECT_NE(page.find("\"frameCount\":" + std::to_string(writer.frames())), std::string::npos);
  EXPECT_DOUBLE_EQ(times.front(), 0.0);
  EXPECT_NEAR(times.back(), 0.01 * (count - 1), 1e-9);
  for (std::size_t k = 1; k < times.size(); ++k) ASSERT_GT(times[k], times[k - 1]) << k;
  // evenly spaced but for the last frame
  const double step = times[1] - times[0];
  for (std::size_t k = 2; k + 1 < times.size(); ++k) ASSERT_NEAR(times[k] - times[k - 1], step, 1e-9) << k;
  EXPECT_EQ(decode<float>(member(page, "poses")).size(), 14 * times.size());
  // the signals were thinned with the frames: kinetic energy was set to the time
  const std::size_t n = sampleSignals(model).size();
  const std::vector<double> values = decode<double>(member(page, "values"));
  ASSERT_EQ(values.size(), n * times.size());
  for (std::size_t k = 0; k < times.size(); ++k) ASSERT_EQ(values[k * n + n - 5], times[k]) << k;
  EXPECT_LT(page.size(), 3'000'000u);
}

TEST_F(AnimationTest, RestartKeepsFramesAndSignals) {
  const Model model = chainWithMarker(2);
  AnimationWriter first(model, file("first.html"));
  recordSwing(model, first, 9);
  ArchiveWriter archive;
  first.saveFrames(archive);
  AnimationWriter resumed(model, file("resumed.html"));
  ArchiveReader in(archive.bytes(), "restart");
  resumed.restoreFrames(in);
  first.write();
  resumed.write();
  EXPECT_EQ(readFile(first.path()), readFile(resumed.path()));

  ArchiveReader again(archive.bytes(), "restart");
  AnimationWriter otherModel(makeChain(3, false), file("other.html"));
  EXPECT_THROW(otherModel.restoreFrames(again), Error);
}

TEST_F(AnimationTest, NonFiniteFramesAreSkipped) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("nan.html"));
  recordSwing(model, writer, 3);
  Workspace ws(model);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, std::nan("")), v = Eigen::VectorXd::Zero(model.nv);
  updatePositions(model, ws, q);
  writer.addFrame(Sample{0.5, q, v, 0, 0, 0, 0, ws});
  EXPECT_EQ(writer.frames(), 3u);
  writer.write();
  const std::string page = readFile(writer.path());
  EXPECT_EQ(decode<double>(member(page, "times")).size(), 3u);
  const std::vector<float> poses = decode<float>(member(page, "poses"));
  EXPECT_EQ(poses.size(), 3u * 14u);
  for (float x : poses) EXPECT_TRUE(std::isfinite(x));
}

TEST_F(AnimationTest, EmptyRunStillWritesAPage) {
  const Model model = chainWithMarker(2);
  AnimationWriter writer(model, file("empty.html"));
  writer.write("run failed before the first sample");
  const std::string page = readFile(writer.path());
  EXPECT_NE(page.find("\"frameCount\":0"), std::string::npos);
  EXPECT_NE(page.find("\"times\":\"\""), std::string::npos);
  EXPECT_NE(page.find("run failed before the first sample"), std::string::npos);
}

TEST_F(AnimationTest, PageDataGrowsByTheBytesOfEachFrame) {
  const Model model = chainWithMarker(3);
  auto pageSize = [&](int frames) {
    AnimationWriter writer(model, file("size.html"));
    recordSwing(model, writer, frames);
    writer.write();
    return static_cast<double>(fs::file_size(writer.path()));
  };
  // per frame: the time (8 bytes), 3 poses (7 floats), the signals (doubles), in base64 (4/3)
  const double perFrame = 4.0 / 3.0 * (8 + 3 * 7 * 4 + 8 * static_cast<double>(sampleSignals(model).size()));
  EXPECT_NEAR(pageSize(300) - pageSize(100), 200 * perFrame, 12.0);
}

namespace {

/// A revolute joint from the ground.
JointSpec hinge(const std::string& name, const std::string& child) {
  JointSpec j;
  j.name = name;
  j.parent = "ground";
  j.child = child;
  return j;
}

/// One body per mesh file plus a body using the binary STL twice and scaled.
Model meshModel(const std::vector<std::string>& meshFiles) {
  ModelBuilder b;
  b.name = "meshes";
  for (std::size_t k = 0; k < meshFiles.size(); ++k) {
    Shape mesh;
    mesh.kind = Shape::Kind::Mesh;
    mesh.mesh = meshFiles[k];
    const std::string name = "part" + std::to_string(k);
    b.addBody({name, 2.0, Vec3::Zero(), boxInertia(2.0, Vec3(0.4, 0.2, 0.1)), {mesh}, {}});
    b.addJoint(hinge("j" + std::to_string(k), name));
  }
  return b.build();
}

}  // namespace

TEST_F(AnimationTest, MeshTrianglesAreEmbeddedOncePerFile) {
  const auto tetra = mesh_test_files::tetrahedron();
  const std::string binary = file("tetra.stl"), ascii = file("tetra-ascii.stl"), obj = file("square.obj");
  std::ofstream(binary, std::ios::binary) << mesh_test_files::binaryStl(tetra, "solid binary");
  std::ofstream(ascii) << mesh_test_files::asciiStl(tetra);
  std::ofstream(obj) << "v 0 0 0\nv 2 0 0\nv 2 2 0\nv 0 2 0\nf 1 2 3 4\n";
  const Model model = meshModel({binary, ascii, obj, binary});
  Warnings warnings;
  AnimationWriter writer(model, file("meshes.html"), warnings.sink());
  recordSwing(model, writer, 2);
  writer.write();
  EXPECT_TRUE(warnings.lines.empty());

  const std::string page = readFile(writer.path());
  EXPECT_EQ(countOf(page, "\"type\":\"mesh\""), 4u);
  EXPECT_NE(page.find("\"type\":\"mesh\",\"mesh\":0,\"scale\":[1,1,1]"), std::string::npos);
  EXPECT_NE(page.find("\"type\":\"mesh\",\"mesh\":2,"), std::string::npos);
  EXPECT_EQ(page.find("\"mesh\":3"), std::string::npos) << "the binary STL is embedded once";
  EXPECT_EQ(countOf(page, "\"indexBytes\":2"), 3u);
  EXPECT_NE(page.find("\"file\":\"square.obj\""), std::string::npos);

  // The meshes in order: binary STL, ASCII STL (the same tetrahedron), OBJ (two triangles).
  std::vector<std::vector<float>> vertices;
  std::vector<std::vector<std::uint16_t>> indices;
  for (std::size_t at = page.find("\"vertices\":\""); at != std::string::npos; at = page.find("\"vertices\":\"", at + 1)) {
    const std::string rest = page.substr(at - 1);
    vertices.push_back(decode<float>(member(rest, "vertices")));
    indices.push_back(decode<std::uint16_t>(member(rest, "indices")));
  }
  ASSERT_EQ(vertices.size(), 3u);
  EXPECT_EQ(vertices[0].size(), 12u);
  EXPECT_EQ(indices[0], (std::vector<std::uint16_t>{0, 1, 2, 0, 2, 3, 0, 3, 1, 2, 1, 3}));
  EXPECT_EQ(vertices[1], vertices[0]);
  EXPECT_EQ(indices[1], indices[0]);
  EXPECT_EQ(vertices[2], (std::vector<float>{0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0}));
  EXPECT_EQ(indices[2], (std::vector<std::uint16_t>{0, 1, 2, 0, 2, 3}));
}

TEST_F(AnimationTest, AnUnreadableMeshIsABoxOfTheInertiaAndOneWarning) {
  const std::string missing = file("missing.stl");
  ModelBuilder b;
  Shape mesh;
  mesh.kind = Shape::Kind::Mesh;
  mesh.mesh = missing;
  const Mat3 R = rpyRotation(Vec3(0.3, -0.2, 1.1));
  // a 0.4 x 0.2 x 0.1 box of 2 kg, its axes turned by R; the missing mesh twice on it
  b.addBody({"bracket", 2.0, Vec3(0.1, 0, 0), R * boxInertia(2.0, Vec3(0.4, 0.2, 0.1)) * R.transpose(), {mesh, mesh}, {}});
  b.addJoint(hinge("hinge", "bracket"));
  const Model model = b.build();
  Warnings warnings;
  AnimationWriter writer(model, file("placeholder.html"), warnings.sink());
  recordSwing(model, writer, 2);
  writer.write();
  writer.write();

  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_EQ(warnings.lines[0], "body 'bracket': cannot read the mesh '" + missing +
                                   "': no such file; the animation draws a box of the body's inertia instead");
  const std::string page = readFile(writer.path());
  EXPECT_EQ(countOf(page, "\"placeholder\":true"), 2u);
  EXPECT_EQ(page.find("\"type\":\"mesh\""), std::string::npos);
  EXPECT_NE(page.find("\"meshes\":[]"), std::string::npos);

  // The box: the body's centre of mass, its edges 0.4, 0.2, 0.1 along the columns of R (any order and sign).
  const std::smatch m = [&] {
    std::smatch match;
    std::regex_search(page, match, std::regex(R"(\{"type":"box","size":\[([^\]]*)\],"pos":\[([^\]]*)\],"rot":\[([^\]]*)\])"));
    return match;
  }();
  ASSERT_EQ(m.size(), 4u);
  auto numbers = [](const std::string& text) {
    std::vector<double> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) out.push_back(std::stod(item));
    return out;
  };
  const std::vector<double> size = numbers(m[1]), pos = numbers(m[2]), rot = numbers(m[3]);
  EXPECT_NEAR(pos[0], 0.1, 1e-6);
  ASSERT_EQ(rot.size(), 9u);
  Mat3 box;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) box(r, c) = rot[static_cast<std::size_t>(3 * r + c)];
  EXPECT_NEAR(box.determinant(), 1.0, 1e-5);
  for (int k = 0; k < 3; ++k) {
    // the box edge along its axis k matches R's edge along the same direction
    const Vec3 inBody = R.transpose() * box.col(k);
    const int along = [&] { int i; inBody.cwiseAbs().maxCoeff(&i); return i; }();
    EXPECT_NEAR(std::abs(inBody[along]), 1.0, 1e-5);
    EXPECT_NEAR(size[static_cast<std::size_t>(k)], Vec3(0.4, 0.2, 0.1)[along], 1e-5);
  }
}

}  // namespace ARTICULA_TEST_FILE
