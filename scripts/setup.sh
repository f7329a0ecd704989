#!/usr/bin/env bash
# Installs everything Strata needs on a fresh Debian 12 (bookworm) machine, as root.
# Idempotent: when everything is already present it only checks, in about a second.
#   - Debian packages: emscripten, protoc + protobuf, GoogleTest, Chromium, zstd, build tools.
#   - Third-party sources for the wasm build (Dear ImGui, zstd, protobuf, zlib, SQLite) from Debian
#     source packages, pinned by upstream version and verified by SHA-256, unpacked into
#     third_party/src/ (git-ignored).
#   - npm test tools from package-lock.json: playwright-core drives Debian's Chromium;
#     puppeteer-core drives Firefox ESR (WebDriver BiDi) under Xvfb for the Firefox check.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TP="$ROOT/third_party/src"
log() { printf '[setup] %s\n' "$*"; }

need_root() { [ "$(id -u)" = 0 ] || { echo "setup.sh: run as root (it installs Debian packages)" >&2; exit 1; }; }

# ---- Debian packages --------------------------------------------------------------------
PKGS=(emscripten protobuf-compiler libprotobuf-dev libgtest-dev cmake ninja-build g++ clang-format ccache
      clang libclang-rt-14-dev
      chromium firefox-esr xvfb zstd dpkg-dev xz-utils bzip2 ca-certificates tcl)
# The pod pack's real-Slurm test (tests/pod/slurm_pack_test.sh) starts a single-node Slurm of
# its own from these binaries; it does not use the package's services.
PKGS+=(slurm-wlm)
command -v node >/dev/null 2>&1 || PKGS+=(nodejs)
command -v npm >/dev/null 2>&1 || PKGS+=(npm)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
APT_UPDATED=0
if [ ${#missing[@]} -gt 0 ]; then
  need_root
  log "installing Debian packages: ${missing[*]}"
  apt-get update -q && APT_UPDATED=1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ---- third-party sources (Debian source packages, pinned + checksummed) -----------------
# name | Debian source package | upstream version | orig tarball SHA-256
SOURCES=(
  "imgui|imgui|1.86+ds|0dace0e8e57d298eb6e93af12dc19420cb96330832f6495c733b90aeeef11f64"
  "zstd|libzstd|1.5.4+dfsg2|8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953"
  "protobuf|protobuf|3.21.12|930c2c3b5ecc6c9c12615cf5ad93f1cd6e12d0aba862b572e076259970ac3a53"
  "zlib|zlib|1.2.13.dfsg|71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1"
  "sqlite|sqlite3|3.40.1|aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655"
)
mkdir -p "$TP"
for entry in "${SOURCES[@]}"; do
  IFS='|' read -r name pkg ver sha <<<"$entry"
  stamp="$TP/$name/.strata-$ver-$sha"
  [ -f "$stamp" ] && continue
  need_root
  if ! compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null \
     || ! grep -qs "deb-src" /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null; then
    log "adding a deb-src entry for bookworm"
    cat > /etc/apt/sources.list.d/strata-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    APT_UPDATED=0
  fi
  if [ "$APT_UPDATED" = 0 ]; then apt-get update -q; APT_UPDATED=1; fi
  dl=$(mktemp -d)
  log "fetching $pkg source ($ver)"
  # apt checks the files against the signed Sources index; we also pin the upstream tarball.
  (cd "$dl" && apt-get source --download-only -q "$pkg" >/dev/null 2>&1) \
    || { echo "setup.sh: apt-get source $pkg failed" >&2; exit 1; }
  orig=$(ls "$dl"/"${pkg}_${ver}".orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n1 || true)
  [ -n "$orig" ] || { echo "setup.sh: $pkg: no upstream tarball for version $ver (got: $(ls "$dl"))" >&2; exit 1; }
  got=$(sha256sum "$orig" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || { echo "setup.sh: $pkg: checksum mismatch ($got != $sha)" >&2; exit 1; }
  rm -rf "${TP:?}/$name" && mkdir -p "$TP/$name"
  tar -xf "$orig" -C "$TP/$name" --strip-components=1
  touch "$stamp"
  rm -rf "$dl"
  log "$name $ver ready in third_party/src/$name"
done

# ---- SQLite amalgamation -------------------------------------------------------------------
# Debian's orig tarball is SQLite's full source tree, without the one-file amalgamation the build
# compiles. Make it as upstream's Makefile (and Debian's rules) do: configure, `make sqlite3.c`
# (tclsh runs the generators). Done once; the stamp names the version.
SQLITE_AMALG="$TP/sqlite/amalgamation"
if [ ! -f "$SQLITE_AMALG/.strata-3.40.1" ]; then
  log "building the SQLite amalgamation (about 40 s)"
  bld=$(mktemp -d)
  (cd "$bld" && "$TP/sqlite/configure" --disable-tcl -q >/dev/null && make -s sqlite3.c >/dev/null) \
    || { echo "setup.sh: building sqlite3.c failed (in $bld)" >&2; exit 1; }
  mkdir -p "$SQLITE_AMALG"
  cp "$bld/sqlite3.c" "$bld/sqlite3.h" "$SQLITE_AMALG/"
  rm -rf "$bld"
  touch "$SQLITE_AMALG/.strata-3.40.1"
fi

# ---- npm test tools ------------------------------------------------------------------------
if [ ! -f "$ROOT/node_modules/.package-lock.json" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
  log "installing npm test tools (npm ci)"
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
fi
log "ok"
