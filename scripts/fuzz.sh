#!/usr/bin/env bash
# Builds a libFuzzer target with clang (ASan + UBSan) and runs it.
#   scripts/fuzz.sh [target=chrome_json] [seconds=600] [extra libFuzzer flags...]
#   scripts/fuzz.sh all [seconds=600] [flags...]   every target in turn, `seconds` each
#   scripts/fuzz.sh [seconds] [flags...]            the Chrome JSON target (the older form)
# Targets: tests/fuzz/<target>_fuzz.cc, listed in tests/fuzz/CMakeLists.txt.
# Per target: corpus build/fuzz/corpus/<target> (grows), seeds build/fuzz/seeds/<target>
# (written by tests/fuzz/make_seeds.sh from the project's own generators), dictionary
# tests/fuzz/<target>.dict when there is one, and the kept regression inputs
# tests/fuzz/corpus_regressions/<target>/. Crashes land in build/fuzz/artifacts/<target>/: copy
# each into tests/fuzz/corpus_regressions/<target>/, where tests/core/fuzz_regressions_test.cc
# replays it in the normal test build.
# The run's output is kept in build/fuzz/logs/<target>.log.
# Environment: FUZZ_BUILD_JOBS (default 2), FUZZ_MAX_LEN (default per target below).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD="$ROOT/build/fuzz"

TARGET=chrome_json
if [[ $# -gt 0 && ! $1 =~ ^[0-9]+$ && $1 != -* ]]; then
  TARGET=$1
  shift
fi
SECS=${1:-600}
shift || true

command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is missing (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$ROOT")}" CCACHE_NOHASHDIR=1
fi
CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSTRATA_FUZZ=ON >/dev/null

all_targets() { sed -n 's/^strata_fuzz_target(\([a-z0-9_]*\))$/\1/p' "$ROOT/tests/fuzz/CMakeLists.txt"; }

# Longest input a target is given: records split across chunks need a few KB; an XSpace, an
# HloProto or a compressed trace a little more to hold several planes, computations or blocks.
max_len() {
  case "$1" in
    xplane | compressed | hlo_proto) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

run_one() {
  local t=$1
  shift
  cmake --build "$BUILD" --target "strata_${t}_fuzz" strata_make_demo strata_make_tpu_xplane \
    strata_make_loss_log strata_make_perfetto -j"${FUZZ_BUILD_JOBS:-2}"
  local seeds="$BUILD/seeds/$t" corpus="$BUILD/corpus/$t" artifacts="$BUILD/artifacts/$t"
  local regressions="$ROOT/tests/fuzz/corpus_regressions/$t"
  rm -rf "$seeds"
  bash "$ROOT/tests/fuzz/make_seeds.sh" "$t" "$seeds" "$BUILD"
  mkdir -p "$corpus" "$artifacts" "$regressions" "$BUILD/logs"
  local dict=()
  [[ -f $ROOT/tests/fuzz/$t.dict ]] && dict=(-dict="$ROOT/tests/fuzz/$t.dict")
  echo "fuzz.sh: $t for ${SECS}s (corpus $corpus)"
  # -rss_limit_mb bounds a run (an OOM is a finding); -timeout makes a slow input a hang.
  (cd "$artifacts" && "$BUILD/tests/fuzz/strata_${t}_fuzz" "$corpus" "$seeds" "$regressions" \
    "${dict[@]}" -max_total_time="$SECS" -max_len="${FUZZ_MAX_LEN:-$(max_len "$t")}" \
    -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$artifacts/" -print_final_stats=1 "$@") 2>&1 |
    tee "$BUILD/logs/$t.log"
}

if [[ $TARGET == all ]]; then
  for t in $(all_targets); do run_one "$t" "$@"; done
else
  [[ -f $ROOT/tests/fuzz/${TARGET}_fuzz.cc ]] || { echo "fuzz.sh: no target '$TARGET' (tests/fuzz/${TARGET}_fuzz.cc); targets: $(all_targets | tr '\n' ' ')" >&2; exit 2; }
  run_one "$TARGET" "$@"
fi
