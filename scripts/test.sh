#!/usr/bin/env bash
# Runs every test: sets up and builds, then the native GoogleTest suites (debug build with
# AddressSanitizer + UBSan) under ctest, then the end-to-end tests in headless Chromium against
# the built dist/. Tests that need ../shared/data skip when it is absent.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# Each phase prints its wall time, so a slow CI run says where its time went. A test that hangs
# fails at its timeout instead of holding the run until CI gives up on it.
phase() {
  local name=$1 t0=$SECONDS
  shift
  echo "[test] $name"
  "$@"
  echo "[test] $name took $((SECONDS - t0)) s (load $(cut -d' ' -f1 /proc/loadavg))"
}
phase setup bash scripts/setup.sh
phase lint bash scripts/lint.sh
phase build bash scripts/build.sh
phase "native: ctest" ctest --test-dir build/native --output-on-failure -j "$(nproc)" --timeout 600
phase "end-to-end: node --test tests/e2e/" \
  node --test --test-concurrency=1 --test-timeout=300000 tests/e2e/
echo "[test] all passed in $SECONDS s"
