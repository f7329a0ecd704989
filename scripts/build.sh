#!/usr/bin/env bash
# Builds everything: the native core + GoogleTest suites (debug, ASan/UBSan) in build/native,
# the wasm engine + UI in build/wasm, and the static site in dist/.
# Assumes scripts/setup.sh has run (scripts/run.sh and scripts/test.sh run it first).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JOBS=${JOBS:-$(nproc)}
log() { printf '[build] %s\n' "$*"; }

# Emscripten quirks on Debian (see docs/ARCHITECTURE.md): acorn lives in /usr/share/nodejs.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# ccache (installed by setup.sh) keeps compiled objects across builds and work trees: the debug
# ASan build is most of a clean build's time on two cores. Paths are hashed relative to the tree.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$ROOT")}" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
  # The tests' precompiled header: ccache caches sources built with it only when told these.
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
fi

log "native (debug, sanitizers) → build/native"
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTRATA_SANITIZE=ON >/dev/null
cmake --build build/native -j "$JOBS"

log "wasm (release) → build/wasm"
if [ ! -f build/wasm/build.ninja ]; then
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
fi
cmake --build build/wasm -j "$JOBS"

log "static site → dist/"
# The layout is web/'s: the page's scripts in page/ (with the UI module), the engine worker's in
# worker/ (with the engine module: Emscripten finds the .wasm beside the worker script), the
# protocol and the wasm call helpers both load in shared/.
rm -rf dist.tmp && mkdir -p dist.tmp/demo
cp web/*.html web/*.js web/*.css dist.tmp/
for dir in page worker shared; do mkdir -p "dist.tmp/$dir" && cp "web/$dir"/*.js "dist.tmp/$dir/"; done
cp build/wasm/strata_ui.js build/wasm/strata_ui.wasm dist.tmp/page/
cp build/wasm/strata_engine.js build/wasm/strata_engine.wasm dist.tmp/worker/
build/native/strata_make_demo dist.tmp/demo/demo-trace.json
# The offline service worker (web/sw.js) precaches every app file (not itself, not the embedding
# example) in a cache named after a hash of their contents: a new build is a new cache.
files=$(cd dist.tmp && find . -type f ! -name sw.js ! -name '*-example.html' | sed 's|^\./||' | LC_ALL=C sort)
hash=$(cd dist.tmp && printf '%s\n' $files | xargs sha256sum | sha256sum | cut -c1-16)
list=$(printf "'%s'," $files)
sed -i -e "s|^const BUILD = .*|const BUILD = '$hash';|" -e "s|^const FILES = .*|const FILES = [${list%,}];|" dist.tmp/sw.js
rm -rf dist && mv dist.tmp dist
log "done: $(du -sh dist | cut -f1) in dist/"
