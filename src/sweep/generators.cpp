#include "articula/sweep/generators.hpp"

#include <charconv>
#include <cmath>
#include <numbers>
#include <random>

#include "articula/core/error.hpp"
#include "articula/sweep/cases.hpp"

namespace articula::sweep {

namespace {

double number(const std::string& s, const std::string& spec) {
  double x = 0.0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(x))
    throw Error("'" + spec + "': '" + s + "' is not a finite number");
  return x;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = s.find(sep, start)) != std::string::npos; start = at + 1) parts.push_back(s.substr(start, at - start));
  parts.push_back(s.substr(start));
  return parts;
}

// COLUMN=REST, both parts non-empty.
std::pair<std::string, std::string> columnAndRest(const std::string& spec, const std::string& form) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) throw Error("'" + spec + "': expected " + form);
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

// Ids with a prefix and the case number zero-padded to the width of the count, so that they
// sort in case order.
std::string caseId(const std::string& prefix, std::size_t k, std::size_t count) {
  std::string number = std::to_string(k), width = std::to_string(count);
  return prefix + std::string(width.size() - number.size(), '0') + number;
}

std::string headerLine(const std::vector<std::string>& columns) {
  std::string line = "id";
  for (const std::string& c : columns) (line += ',') += c;
  return line + "\n";
}

}  // namespace

GridAxis parseGridAxis(const std::string& spec) {
  const std::string form = "COLUMN=LO:HI:N or COLUMN=V1,V2,...";
  const auto [column, rest] = columnAndRest(spec, form);
  GridAxis axis{column, {}};
  if (rest.find(',') != std::string::npos || rest.find(':') == std::string::npos) {
    for (const std::string& v : split(rest, ',')) axis.values.push_back(number(v, spec));
    return axis;
  }
  const std::vector<std::string> range = split(rest, ':');
  if (range.size() != 3) throw Error("'" + spec + "': expected " + form);
  const double lo = number(range[0], spec), hi = number(range[1], spec), n = number(range[2], spec);
  if (n < 1 || n > 1e6 || n != std::floor(n)) throw Error("'" + spec + "': N must be a whole number from 1 to 1000000");
  if (n == 1 && lo != hi) throw Error("'" + spec + "': one value needs LO = HI");
  const int count = static_cast<int>(n);
  for (int i = 0; i < count; ++i)
    axis.values.push_back(i + 1 == count ? hi : lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(count - 1));
  return axis;
}

std::string fullFactorial(const std::vector<GridAxis>& axes) {
  std::vector<std::string> columns;
  double total = 1.0;
  for (const GridAxis& a : axes) {
    columns.push_back(a.column);
    total *= static_cast<double>(a.values.size());
  }
  if (total > 1e6) throw Error("the grid has " + formatNumber(total) + " cases (at most 1000000)");
  const auto n = static_cast<std::size_t>(total);
  std::string text = headerLine(columns);
  for (std::size_t k = 0; k < n; ++k) {
    std::string row = caseId("g", k + 1, n);
    std::vector<std::string> values(axes.size());
    std::size_t rest = k;
    for (std::size_t i = axes.size(); i-- > 0;) {
      values[i] = formatNumber(axes[i].values[rest % axes[i].values.size()]);
      rest /= axes[i].values.size();
    }
    for (const std::string& v : values) (row += ',') += v;
    text += row + "\n";
  }
  return text;
}

Distribution parseDistribution(const std::string& spec) {
  const std::string form = "COLUMN=uniform(LO,HI) or COLUMN=normal(MEAN,SD)";
  const auto [column, rest] = columnAndRest(spec, form);
  Distribution d{column, false, 0.0, 0.0};
  const std::size_t open = rest.find('(');
  if (open == std::string::npos || rest.back() != ')') throw Error("'" + spec + "': expected " + form);
  const std::string kind = rest.substr(0, open);
  if (kind != "uniform" && kind != "normal") throw Error("'" + spec + "': unknown distribution '" + kind + "' (uniform, normal)");
  d.normal = kind == "normal";
  const std::vector<std::string> args = split(rest.substr(open + 1, rest.size() - open - 2), ',');
  if (args.size() != 2) throw Error("'" + spec + "': expected " + form);
  d.a = number(args[0], spec);
  d.b = number(args[1], spec);
  if (!d.normal && !(d.a <= d.b)) throw Error("'" + spec + "': uniform needs LO <= HI");
  if (d.normal && !(d.b >= 0.0)) throw Error("'" + spec + "': normal needs SD >= 0");
  return d;
}

std::string monteCarlo(const std::vector<Distribution>& inputs, int n, std::uint64_t seed) {
  std::vector<std::string> columns;
  for (const Distribution& d : inputs) columns.push_back(d.column);
  std::string text = headerLine(columns);
  std::mt19937_64 engine(seed);  // its output sequence is fixed by the standard
  auto uniform01 = [&] { return static_cast<double>(engine() >> 11) * 0x1.0p-53; };  // [0, 1)
  for (int k = 0; k < n; ++k) {
    std::string row = caseId("mc", static_cast<std::size_t>(k) + 1, static_cast<std::size_t>(n));
    for (const Distribution& d : inputs) {
      double x = 0.0;
      if (d.normal) {
        const double u1 = 1.0 - uniform01(), u2 = uniform01();  // u1 in (0, 1]
        x = d.a + d.b * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
      } else {
        x = d.a + (d.b - d.a) * uniform01();
      }
      (row += ',') += formatNumber(x);
    }
    text += row + "\n";
  }
  return text;
}

}  // namespace articula::sweep
