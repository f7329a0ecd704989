#!/usr/bin/env bash
# Sets up (first run installs dependencies, as root), builds, and serves Strata on
# 127.0.0.1. The page opens with a demo trace that the build generates.
#   PORT=8080 scripts/run.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
bash "$ROOT/scripts/setup.sh"
bash "$ROOT/scripts/build.sh"
exec node "$ROOT/scripts/serve.mjs" --root "$ROOT/dist" --host 127.0.0.1 --port "${PORT:-8080}"
