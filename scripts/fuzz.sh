#!/usr/bin/env bash
# Builds the Chrome JSON libFuzzer target with clang (ASan + UBSan) and runs it.
#   scripts/fuzz.sh [seconds=600] [extra libFuzzer flags...]
# Corpus: build/fuzz/corpus (grows; starts from tests/fuzz/seeds and the regression inputs).
# Crashes land in build/fuzz/artifacts/: copy each into tests/fuzz/corpus_regressions/, where
# tests/core/fuzz_regressions_test.cc replays them in the normal test build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${1:-600}
shift || true
BUILD="$ROOT/build/fuzz"
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is missing (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSTRATA_FUZZ=ON >/dev/null
cmake --build "$BUILD" --target strata_chrome_json_fuzz -j"${FUZZ_BUILD_JOBS:-2}"
mkdir -p "$BUILD/corpus" "$BUILD/artifacts"
cd "$BUILD"  # with -jobs=N libFuzzer writes fuzz-N.log into the working directory
# -rss_limit_mb bounds a run; -max_len lets records split across chunks still be several KB.
"$BUILD/tests/fuzz/strata_chrome_json_fuzz" "$BUILD/corpus" "$ROOT/tests/fuzz/seeds" \
  "$ROOT/tests/fuzz/corpus_regressions" \
  -dict="$ROOT/tests/fuzz/chrome_json.dict" -max_total_time="$SECS" -max_len=8192 \
  -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$BUILD/artifacts/" -print_final_stats=1 "$@"
