#!/usr/bin/env bash
# Runs every test: sets up and builds, then the native GoogleTest suites (debug build with
# AddressSanitizer + UBSan) under ctest, then the end-to-end tests in headless Chromium against
# the built dist/. Tests that need ../shared/data skip when it is absent.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
bash scripts/setup.sh
bash scripts/lint.sh
bash scripts/build.sh
echo "[test] native: ctest"
ctest --test-dir build/native --output-on-failure -j "$(nproc)"
echo "[test] end-to-end: node --test tests/e2e/"
node --test --test-concurrency=1 tests/e2e/
