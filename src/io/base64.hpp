// Base64 of numeric arrays for the animation page: the values' little-endian bytes, which a
// JavaScript typed array over the decoded bytes reads back on every browser engine in use (all
// little-endian), without parsing text.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>

namespace articula {

namespace base64_detail {
/// Base64 of a stream of bytes: every complete group of 3 bytes becomes 4 characters.
class Encoder {
 public:
  explicit Encoder(std::string& out) : out_(out) {}
  void byte(unsigned char b);
  void finish();  ///< the last 1 or 2 bytes, with '=' padding

 private:
  std::string& out_;
  std::uint32_t group_ = 0;
  int count_ = 0;
};
}  // namespace base64_detail

/// Appends the base64 encoding of the values' little-endian bytes.
template <class T>
  requires std::integral<T> || std::floating_point<T>
void appendBase64(std::string& out, std::span<const T> values) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;
  static_assert(sizeof(T) == sizeof(Bits));
  out.reserve(out.size() + (values.size() * sizeof(T) + 2) / 3 * 4);
  base64_detail::Encoder encoder(out);
  for (const T x : values) {
    const Bits bits = std::bit_cast<Bits>(x);
    for (std::size_t k = 0; k < sizeof(T); ++k) encoder.byte(static_cast<unsigned char>(bits >> (8 * k)));
  }
  encoder.finish();
}

}  // namespace articula
