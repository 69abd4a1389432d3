#include "base64.hpp"

namespace articula::base64_detail {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}

void Encoder::byte(unsigned char b) {
  group_ = group_ << 8 | b;
  if (++count_ < 3) return;
  for (int shift = 18; shift >= 0; shift -= 6) out_ += kAlphabet[(group_ >> shift) & 63];
  group_ = 0;
  count_ = 0;
}

void Encoder::finish() {
  if (count_ == 0) return;
  const std::uint32_t g = group_ << (8 * (3 - count_));
  for (int k = 0; k <= count_; ++k) out_ += kAlphabet[(g >> (18 - 6 * k)) & 63];
  out_.append(static_cast<std::size_t>(3 - count_), '=');
  group_ = 0;
  count_ = 0;
}

}  // namespace articula::base64_detail
