# The animation page's viewer (docs/viewer.md): scripts/build-viewer.sh bundles web/viewer/*.js
# with three.js (npm packages pinned in web/package-lock.json) into one script, and
# cmake/embed_viewer.cmake puts it, with the page template web/viewer/page.html, into a generated
# source of articula_core. Every build (Release, sanitizers, fuzzing) needs Node.js and npm.
find_program(ARTICULA_NODE node)
find_program(ARTICULA_NPM npm)
if(NOT ARTICULA_NODE OR NOT ARTICULA_NPM)
  message(FATAL_ERROR "Node.js and npm are needed to build the animation viewer (three.js is bundled from npm at "
                      "build time): install Node.js 18 or newer with npm (Debian: apt-get install nodejs npm, or run "
                      "scripts/install-deps.sh), then configure again")
endif()
execute_process(COMMAND ${ARTICULA_NODE} --version OUTPUT_VARIABLE ARTICULA_NODE_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT ARTICULA_NODE_VERSION MATCHES "^v([0-9]+)\\." OR CMAKE_MATCH_1 LESS 18)
  message(FATAL_ERROR "Node.js '${ARTICULA_NODE_VERSION}' (${ARTICULA_NODE}) is too old to bundle the animation viewer: "
                      "esbuild needs 18 or newer")
endif()

file(GLOB ARTICULA_VIEWER_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/web/viewer/*)
set(ARTICULA_VIEWER_BUNDLE ${CMAKE_BINARY_DIR}/viewer/viewer.js)
set(ARTICULA_VIEWER_ASSETS ${CMAKE_BINARY_DIR}/viewer/viewer_assets.cpp)
add_custom_command(
  OUTPUT ${ARTICULA_VIEWER_ASSETS}
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/build-viewer.sh ${ARTICULA_VIEWER_BUNDLE}
  COMMAND ${CMAKE_COMMAND} -DTEMPLATE=${PROJECT_SOURCE_DIR}/web/viewer/page.html -DSCRIPT=${ARTICULA_VIEWER_BUNDLE}
          -DOUTPUT=${ARTICULA_VIEWER_ASSETS} -P ${PROJECT_SOURCE_DIR}/cmake/embed_viewer.cmake
  DEPENDS ${ARTICULA_VIEWER_SOURCES} ${PROJECT_SOURCE_DIR}/web/package.json ${PROJECT_SOURCE_DIR}/web/package-lock.json
          ${PROJECT_SOURCE_DIR}/scripts/build-viewer.sh ${PROJECT_SOURCE_DIR}/scripts/npm-ci.sh
          ${PROJECT_SOURCE_DIR}/cmake/embed_viewer.cmake
  COMMENT "Bundling the animation viewer (three.js, esbuild)"
  VERBATIM)
target_sources(articula_core PRIVATE ${ARTICULA_VIEWER_ASSETS})
# The bundle is one string literal of several hundred kilobytes (-Wpedantic's limit is 64 KiB).
set_source_files_properties(${ARTICULA_VIEWER_ASSETS} PROPERTIES
  INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/src/io COMPILE_OPTIONS -Wno-overlength-strings)
