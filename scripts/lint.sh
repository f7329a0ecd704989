#!/usr/bin/env bash
# Style checks CI enforces (run by scripts/test.sh before the build): clang-format (the checked-in
# .clang-format) on every C++ file, Prettier (formatting) and ESLint (lint) on our JavaScript,
# both pinned in package-lock.json, and the include rules between layers (check-layers.sh).
# `scripts/lint.sh --fix` rewrites what the formatters can.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
fix=0
[[ "${1:-}" == "--fix" ]] && fix=1

mapfile -t cxx < <(git ls-files --cached --others --exclude-standard '*.cc' '*.h' '*.cpp' | grep -v '^third_party/')
# Our JavaScript: the page and workers, the scripts (node scripts without an ending too), e2e tests.
mapfile -t js < <(git ls-files --cached --others --exclude-standard 'web/*.js' 'web/**/*.js' 'scripts/*.mjs' \
  'scripts/**/*.mjs' 'tests/e2e/*.mjs' 'eslint.config.mjs'; grep -l '^#!/usr/bin/env node' scripts/bench-* 2>/dev/null)
mapfile -t js < <(printf '%s\n' "${js[@]}" | sort -u | while read -r f; do [[ -f "$f" ]] && echo "$f"; done)

status=0
if ((fix)); then
  clang-format -i "${cxx[@]}"
  npx --no-install prettier --log-level warn --write "${js[@]}"
else
  echo "[lint] clang-format: ${#cxx[@]} files"
  clang-format --dry-run --Werror "${cxx[@]}" || status=1
  echo "[lint] prettier: ${#js[@]} files"
  npx --no-install prettier --log-level warn --check "${js[@]}" || status=1
fi
echo "[lint] eslint"
npx --no-install eslint "${js[@]}" || status=1
# Which layer may include which (src/core, src/platform, src/ui, src/engine): nothing to fix.
bash scripts/check-layers.sh || status=1
if ((status)); then
  echo "[lint] FAILED: run scripts/lint.sh --fix for formatting; fix lint errors by hand" >&2
fi
exit $status
