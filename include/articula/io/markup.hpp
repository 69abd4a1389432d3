// Text for HTML and SVG (XML) documents.
#pragma once

#include <string>
#include <string_view>

namespace articula {

/// `s` made safe as element text or a quoted attribute value in HTML and XML: the five markup
/// characters become entities, and control characters other than tab, line feed and carriage
/// return (which XML 1.0 forbids even as references) become '?'.
std::string escapeMarkup(std::string_view s);

}  // namespace articula
