# Emscripten targets: the engine module (Web Worker) and the UI module (main thread).
# Included from the top-level CMakeLists.txt when configured with emcmake.

# ---- Dear ImGui (from the Debian source package unpacked by scripts/setup.sh) -------------
set(IMGUI_DIR ${STRATA_THIRD_PARTY}/imgui)
if(NOT EXISTS ${IMGUI_DIR}/imgui.cpp)
  message(FATAL_ERROR "Dear ImGui sources missing in ${IMGUI_DIR}: run scripts/setup.sh")
endif()
add_library(imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp
  ${IMGUI_DIR}/imgui_widgets.cpp ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR} ${IMGUI_DIR}/backends)
# WebGL2 = GLES 3.0; imgui 1.86 would default to ES2 on Emscripten. 32-bit indices: the ES3
# backend cannot split a draw list past 65,536 vertices (no glDrawElementsBaseVertex), and a
# zoomed-in graph or a dense timeline writes more than that in one window.
target_compile_definitions(imgui PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_OBSOLETE_FUNCTIONS
                                        "ImDrawIdx=unsigned int")

# ---- shaders/ → a generated header of string constants --------------------------------------
file(GLOB STRATA_SHADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/shaders/*.vert ${CMAKE_SOURCE_DIR}/shaders/*.frag)
set(STRATA_SHADER_HEADER ${CMAKE_BINARY_DIR}/generated/shaders_embedded.h)
add_custom_command(
  OUTPUT ${STRATA_SHADER_HEADER}
  COMMAND ${CMAKE_COMMAND} -DOUT=${STRATA_SHADER_HEADER} "-DSHADERS=${STRATA_SHADERS}"
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_shaders.cmake
  DEPENDS ${STRATA_SHADERS} ${CMAKE_SOURCE_DIR}/cmake/embed_shaders.cmake
  COMMENT "Embedding GLSL shaders" VERBATIM)

set(STRATA_WASM_COMMON_LINK
  -sMODULARIZE=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sMALLOC=emmalloc
  -sEXPORTED_RUNTIME_METHODS=[UTF8ToString,stringToUTF8,lengthBytesUTF8]
  -sEXPORTED_FUNCTIONS=[_malloc,_free,_main] -sINCOMING_MODULE_JS_API=[locateFile,print,printErr,onAbort,wasmMemory]
  -sFILESYSTEM=0 -fwasm-exceptions)

# ---- engine: parse, index, answer queries; runs in a dedicated Web Worker -------------------
file(GLOB STRATA_ENGINE_WASM_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/engine/wasm/*.cc)
add_executable(strata_engine ${STRATA_ENGINE_WASM_SOURCES})
target_link_libraries(strata_engine PRIVATE strata_core)
target_compile_options(strata_engine PRIVATE ${STRATA_WARNINGS})
# The worker's memory is the engine's cost of a trace (issue 3: at most 0.3x the JSON), and wasm
# memory never shrinks: grow it 1% at a time rather than emscripten's default 20% (up to a
# fifth of the peak unused; growing is cheap, V8 reserves the address space). The stack is
# 256 KB, not emscripten's 5 MB: in the engine's call graph (wasm-dis of a --profiling-funcs
# build, frames read from the stack pointer updates) the deepest chain without recursion uses
# 3 KB, and every recursion is bounded whatever the input: HLO shapes and called computations
# 64 levels deep (~14 KB), std::regex over a search pattern of at most 1000 characters
# (engine_queries.cc), sorts O(log n); JSON and protobuf nesting are walked without recursion.
# STACK_OVERFLOW_CHECK=2 turns an overflow into an abort instead of a write over the static
# data below the stack. Memory starts at 1 MB (data, stack, first allocations).
set(STRATA_ENGINE_MEMORY_LINK -sMEMORY_GROWTH_GEOMETRIC_STEP=0.01 -sTOTAL_STACK=256KB
  -sSTACK_OVERFLOW_CHECK=2 -sINITIAL_MEMORY=1MB)
target_link_options(strata_engine PRIVATE ${STRATA_WASM_COMMON_LINK} ${STRATA_ENGINE_MEMORY_LINK}
  -sEXPORT_NAME=createStrataEngine -sENVIRONMENT=worker)
set_target_properties(strata_engine PROPERTIES SUFFIX ".js")

# ---- UI: Dear ImGui + our WebGL2 renderer on the main thread --------------------------------
file(GLOB_RECURSE STRATA_UI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/ui/*.cc ${CMAKE_SOURCE_DIR}/src/platform/*.cc)
add_executable(strata_ui ${STRATA_UI_SOURCES} ${STRATA_SHADER_HEADER})
target_include_directories(strata_ui PRIVATE ${CMAKE_BINARY_DIR}/generated)
target_link_libraries(strata_ui PRIVATE strata_core imgui)
target_compile_options(strata_ui PRIVATE ${STRATA_WARNINGS})
target_link_options(strata_ui PRIVATE ${STRATA_WASM_COMMON_LINK}
  -sEXPORT_NAME=createStrataUI -sENVIRONMENT=web
  -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sHTML5_SUPPORT_DEFERRING_USER_SENSITIVE_REQUESTS=0)
set_target_properties(strata_ui PROPERTIES SUFFIX ".js")

# ---- ingest benchmark under node (not built by default) --------------------------------------
# src/tools/bench_ingest.cc as a node program with direct file access, to measure and profile
# the engine's load path as it runs in the worker:
#   cmake --build build/wasm --target strata_bench_ingest_node
#   node --no-experimental-fetch build/wasm/strata_bench_ingest_node.cjs trace.json [chunk]
# (.cjs: package.json makes .js files ES modules, and emcc emits a CommonJS script for node)
add_executable(strata_bench_ingest_node EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/src/tools/bench_ingest.cc)
target_link_libraries(strata_bench_ingest_node PRIVATE strata_core)
target_link_options(strata_bench_ingest_node PRIVATE -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB
  -sMALLOC=emmalloc -fwasm-exceptions ${STRATA_ENGINE_MEMORY_LINK} -sNODERAWFS=1 -sENVIRONMENT=node)
set_target_properties(strata_bench_ingest_node PROPERTIES SUFFIX ".cjs")

# ---- op analyses benchmark under node (not built by default) ---------------------------------
# src/tools/bench_analysis.cc as a node program (scripts/bench-analysis runs the native one):
#   cmake --build build/wasm --target strata_bench_analysis_node
#   node --no-experimental-fetch build/wasm/strata_bench_analysis_node.cjs file.xplane.pb
add_executable(strata_bench_analysis_node EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/src/tools/bench_analysis.cc)
target_link_libraries(strata_bench_analysis_node PRIVATE strata_core)
target_link_options(strata_bench_analysis_node PRIVATE -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB
  -sMALLOC=emmalloc -fwasm-exceptions ${STRATA_ENGINE_MEMORY_LINK} -sNODERAWFS=1 -sENVIRONMENT=node)
set_target_properties(strata_bench_analysis_node PROPERTIES SUFFIX ".cjs")

# ---- compare benchmark under node (not built by default) -------------------------------------
# src/tools/bench_compare.cc as a node program: the worker's compare session, as wasm.
#   cmake --build build/wasm --target strata_bench_compare_node
#   node --no-experimental-fetch build/wasm/strata_bench_compare_node.cjs [events] [repeats]
add_executable(strata_bench_compare_node EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/src/tools/bench_compare.cc)
target_link_libraries(strata_bench_compare_node PRIVATE strata_core)
target_link_options(strata_bench_compare_node PRIVATE -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB
  -sMALLOC=emmalloc -fwasm-exceptions ${STRATA_ENGINE_MEMORY_LINK} -sNODERAWFS=1 -sENVIRONMENT=node)
set_target_properties(strata_bench_compare_node PROPERTIES SUFFIX ".cjs")

# ---- SQLite open benchmark under node (not built by default) ---------------------------------
# src/tools/bench_sqlite.cc as a node program: the worker's engine code, the file read by node.
#   cmake --build build/wasm --target strata_bench_sqlite_node
add_executable(strata_bench_sqlite_node EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/src/tools/bench_sqlite.cc)
target_link_libraries(strata_bench_sqlite_node PRIVATE strata_core)
target_link_options(strata_bench_sqlite_node PRIVATE -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB
  -sMALLOC=emmalloc -fwasm-exceptions ${STRATA_ENGINE_MEMORY_LINK} -sNODERAWFS=1 -sENVIRONMENT=node)
set_target_properties(strata_bench_sqlite_node PROPERTIES SUFFIX ".cjs")
