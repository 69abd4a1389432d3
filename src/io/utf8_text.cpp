#include "utf8_text.hpp"

#include <cstdio>

#include "articula/core/error.hpp"

namespace articula {

namespace {

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length of the well-formed character that starts at `i`, or 0 (RFC 3629 section 4: the
// second byte's range depends on the lead byte, which rules out overlong forms, surrogates and
// code points past U+10FFFF).
std::size_t characterLength(const std::string& text, std::size_t i) {
  const auto at = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0; };
  const unsigned char lead = at(0);
  if (lead != 0 && lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else
    return 0;
  if (at(1) < low || at(1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (!continuation(at(k))) return 0;
  return length;
}

}  // namespace

void requireUtf8Text(const std::string& text, const std::string& fileLabel) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = characterLength(text, i);
    if (length == 0) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[i]));
      throw ModelError({fileLabel, line, column}, "",
                       text[i] == '\0' ? std::string("a NUL byte: the file is not text")
                                       : std::string("byte ") + byte + " is not part of a UTF-8 character: save the file as UTF-8");
    }
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else
      ++column;
    i += length;
  }
}

}  // namespace articula
