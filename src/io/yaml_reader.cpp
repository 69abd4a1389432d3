#include "yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

namespace articula::yaml {

namespace {

// User text inside a message: one line, bounded length.
std::string quoteText(const std::string& s) {
  constexpr std::size_t kMax = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < kMax; ++i)
    out += static_cast<unsigned char>(s[i]) < 0x20 ? '?' : s[i];
  return out + (s.size() > kMax ? "...'" : "'");
}

std::string joinKeys(const Keys& a, const Keys& b) {
  std::string list;
  for (const Keys* keys : {&a, &b})
    for (std::string_view k : *keys) list += (list.empty() ? "" : ", ") + std::string(k);
  return list;
}

bool isOneOf(const std::string& s, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), s) != words.end();
}

// Where each document of a stream starts and whether it holds anything but null.
class DocumentScan final : public YAML::EventHandler {
 public:
  struct Document {
    YAML::Mark start;
    bool empty = true;
  };
  std::vector<Document> documents;

  void OnDocumentStart(const YAML::Mark& mark) override { documents.push_back({mark, true}); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { documents.back().empty = false; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {
    documents.back().empty = false;
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    documents.back().empty = false;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    documents.back().empty = false;
  }
  void OnMapEnd() override {}
};

}  // namespace

SourceLocation markLocation(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};
}

YAML::Node parseDocument(const std::string& text, const std::string& file) {
  // yaml-cpp 0.7 reads a stray ',' outside [] and {} as an empty document without
  // consuming it: LoadAll() then loops forever and Load() silently stops there. So the
  // documents are scanned first, and one that starts where the previous one did is stuck.
  DocumentScan scan;
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(scan)) {
      const auto& docs = scan.documents;
      if (docs.size() < 2) continue;
      if (docs.back().start.pos == docs[docs.size() - 2].start.pos)
        throw ModelError(markLocation(file, docs.back().start), "", "YAML syntax error: unexpected character");
      if (!docs.back().empty)
        throw ModelError(markLocation(file, docs.back().start), "", "a second YAML document; a model file holds one");
    }
    if (scan.documents.empty() || scan.documents.front().empty)
      throw ModelError({file, 0, 0}, "", "the file is empty; a model is a map with at least 'bodies' and 'joints'");
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ModelError(markLocation(file, e.mark), "", "YAML syntax error: " + e.msg);
  }
}

std::string describe(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a map";
  return quoteText(n.Scalar());
}

Reader::Reader(YAML::Node node, std::string file, std::string element, std::string path)
    : node_(std::move(node)), file_(std::move(file)), element_(std::move(element)), path_(std::move(path)) {
  if (!node_.IsMap()) fail("expected a map of keys and values, got " + describe(node_));
}

Reader Reader::child(const char* key) const {
  return Reader(required(key), file_, element_, path_.empty() ? key : path_ + ": " + key);
}

SourceLocation Reader::locate(const YAML::Node& n) const {
  // IsDefined() is the only query that is safe on the "zombie" node of a missing key.
  for (const YAML::Node* candidate : {&n, &node_})
    if (candidate->IsDefined() && !candidate->Mark().is_null())
      return {file_, candidate->Mark().line + 1, candidate->Mark().column + 1};
  return {file_, 0, 0};
}

void Reader::fail(const YAML::Node& at, const std::string& what) const {
  throw ModelError(locate(at), element_, path_.empty() ? what : path_ + ": " + what);
}

void Reader::allowKeys(const Keys& allowed, const Keys& more, std::string_view context) const {
  std::vector<std::string> seen;
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar()) fail(kv.first, "keys must be plain names, got " + describe(kv.first));
    const std::string& key = kv.first.Scalar();
    const auto known = [&](const Keys& keys) { return std::find(keys.begin(), keys.end(), key) != keys.end(); };
    if (!known(allowed) && !known(more))
      fail(kv.first, "unknown key " + quoteText(key) + (context.empty() ? "" : " " + std::string(context)) +
                         " (expected one of: " + joinKeys(allowed, more) + ")");
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail(kv.first, "key " + quoteText(key) + " is given twice");
    seen.push_back(key);
  }
}

std::size_t Reader::typeOf(const std::vector<TypeKeys>& types, const Keys& common, std::string_view kind) const {
  const YAML::Node t = required("type");
  const std::string name = toText(t, "type");
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i].name != name) continue;
    allowKeys(common, types[i].keys, "for type '" + name + "'");
    return i;
  }
  std::string valid;
  for (const auto& type : types) valid += (valid.empty() ? "" : ", ") + std::string(type.name);
  fail(t, "unknown " + std::string(kind) + " type " + quoteText(name) + " (valid: " + valid + ")");
}

bool Reader::has(const char* key) const {
  const YAML::Node v = node_[key];
  return v.IsDefined() && !v.IsNull();
}

YAML::Node Reader::keyNode(const char* key) const {
  for (const auto& kv : node_)
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.first;
  return YAML::Node();
}

YAML::Node Reader::required(const char* key) const {
  const YAML::Node v = node_[key];
  if (!v.IsDefined()) fail("missing required key '" + std::string(key) + "'");
  // An empty value's mark is wherever the next token starts, so point at the key.
  if (v.IsNull()) fail(keyNode(key), std::string(key) + ": missing value");
  return v;
}

int Reader::integer(const char* key, int fallback) const {
  if (!has(key)) return fallback;
  const YAML::Node n = required(key);
  const double x = toNumber(n, key);
  if (x != std::floor(x) || std::abs(x) > 1e9) fail(n, std::string(key) + ": expected a whole number, got " + describe(n));
  return static_cast<int>(x);
}

bool Reader::flag(const char* key, bool fallback) const {
  if (!has(key)) return fallback;
  const YAML::Node n = required(key);
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  if (isOneOf(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})) return true;
  if (isOneOf(s, {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})) return false;
  fail(n, std::string(key) + ": expected true or false, got " + describe(n));
}

std::string Reader::toText(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar()) fail(n, what + ": expected a text value, got " + describe(n));
  return n.Scalar();
}

double Reader::toNumber(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar()) fail(n, what + ": expected a number, got " + describe(n));
  const std::string& s = n.Scalar();
  const std::string shown = quoteText(s);
  if (isOneOf(s, {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"}))
    fail(n, what + ": " + shown + " is not a finite number");
  // from_chars takes no leading '+' (YAML allows one) and ignores the locale.
  const char* begin = s.data() + (s.size() > 1 && s[0] == '+' && s[1] != '-' ? 1 : 0);
  const char* end = s.data() + s.size();
  double x = 0.0;
  const auto [stop, ec] = std::from_chars(begin, end, x);
  if (ec == std::errc::result_out_of_range) fail(n, what + ": " + shown + " is out of the range of double precision");
  if (ec != std::errc() || stop != end || begin == end) fail(n, what + ": " + shown + " is not a number");
  if (!std::isfinite(x)) fail(n, what + ": " + shown + " is not a finite number");  // "nan", "inf", "infinity"
  return x;
}

std::vector<double> Reader::toList(const YAML::Node& n, const std::string& what) const {
  if (n.IsScalar()) return {toNumber(n, what)};
  if (!n.IsSequence()) fail(n, what + ": expected a number or a list of numbers, got " + describe(n));
  std::vector<double> v;
  for (const auto& item : n) v.push_back(toNumber(item, what));
  return v;
}

std::vector<double> Reader::toNumbers(const YAML::Node& n, const std::string& what, std::size_t count) const {
  const std::string expected = "expected " + std::to_string(count) + " numbers";
  if (!n.IsSequence()) fail(n, what + ": " + expected + " in a list, got " + describe(n));
  if (n.size() != count) fail(n, what + ": " + expected + ", got " + std::to_string(n.size()));
  return toList(n, what);
}

Vec3 Reader::toVec3(const YAML::Node& n, const std::string& what) const {
  const std::vector<double> v = toNumbers(n, what, 3);
  return {v[0], v[1], v[2]};
}

std::string elementLabel(const YAML::Node& item, const char* kind, const char* list, std::size_t index) {
  if (item.IsMap()) {
    const YAML::Node name = item["name"];
    if (name.IsDefined() && name.IsScalar() && !name.Scalar().empty()) return std::string(kind) + " '" + name.Scalar() + "'";
  }
  return std::string(list) + "[" + std::to_string(index) + "]";
}

}  // namespace articula::yaml
