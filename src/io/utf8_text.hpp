// Checks that a model file's text is well-formed UTF-8 before an XML parser sees it.
//
// TinyXML (under urdfdom) steps over a multi-byte character by the length its lead byte
// announces, without looking at the bytes it skips: a character cut short by the end of the text
// walks it past the terminating NUL and off the end of the buffer. Text that is well-formed UTF-8
// cannot do that, and it is what the URDF format expects anyway.
#pragma once

#include <string>

namespace articula {

/// Throws ModelError at the line and column of the first byte that is not part of a well-formed
/// UTF-8 character (a stray continuation byte, a sequence cut short, an overlong or surrogate
/// form, a code point past U+10FFFF) or that is a NUL byte.
void requireUtf8Text(const std::string& text, const std::string& fileLabel);

}  // namespace articula
