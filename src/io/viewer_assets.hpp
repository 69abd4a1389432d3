// The animation page's template and viewer script. Generated at build time from web/ into the
// build directory (cmake/viewer.cmake, docs/viewer.md): web/viewer/page.html, and the bundle
// esbuild makes of web/viewer/*.js with three.js.
#pragma once

#include <string_view>

namespace articula::viewer_assets {

/// The HTML page with the placeholders @@TITLE@@, @@NOTE@@, @@DATA@@ and @@SCRIPT@@.
extern const std::string_view kPageTemplate;
/// The viewer: one minified script, three.js included, free of "</script".
extern const std::string_view kScript;

}  // namespace articula::viewer_assets
