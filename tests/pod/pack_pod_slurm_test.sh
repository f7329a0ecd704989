#!/usr/bin/env bash
# The pod pack as a real Slurm array job (ctest "pack_pod_slurm"): a private single-node Slurm
# (tests/pod/local-slurm.sh: Debian's slurm-wlm, started here, stopped at the end) runs
# deploy/slurm/submit-pack.sh on a generated 4-rank pod: an array job of 4 tasks, then the merge
# job after them. Every bundle the array wrote equals the one scripts/pack-pod writes on this
# machine for the same file, and pod.json lists the same hosts with the same summaries.
# Exits 77 (ctest's skip) when Slurm is not installed or its daemons cannot start here.
#   tests/pod/pack_pod_slurm_test.sh STRATA_PACK STRATA_MAKE_DEMO
set -euo pipefail
pack=$1 demo=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
SKIP=77
JOB_SECONDS=300
tmp=$(mktemp -d)
slurm="$tmp/slurm"
cleanup() {
  bash "$root/tests/pod/local-slurm.sh" stop "$slurm" || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  for f in "$slurm"/log/*.log "$tmp"/out/*.out; do [[ -f "$f" ]] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
  exit 1
}
command -v sbatch >/dev/null || { echo "SKIP: no sbatch (scripts/setup.sh installs slurm-wlm)"; exit $SKIP; }
export SLURM_CONF
SLURM_CONF=$(bash "$root/tests/pod/local-slurm.sh" start "$slurm") || {
  echo "SKIP: the local Slurm did not start (logs above)"
  exit $SKIP
}

mkdir -p "$tmp/in"
for r in 0 1 2 3; do "$demo" "$tmp/in/rank$r.json" 1 "$r/4" >/dev/null; done
gzip "$tmp/in/rank3.json"

# On Slurm: the array job and its merge.
submitted=$(STRATA_PACK=$pack bash "$root/deploy/slurm/submit-pack.sh" "$tmp/in" "$tmp/out" \
  --output="$tmp/out/task-%A_%a.out") || fail "submit-pack.sh"
echo "$submitted"
merge=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<<"$submitted")
[[ -n "$merge" ]] || fail "no merge job id in: $submitted"
for _ in $(seq 1 $((JOB_SECONDS * 2))); do
  [[ -z "$(squeue -h -o %i 2>/dev/null)" ]] && break
  sleep 0.5
done
[[ -z "$(squeue -h -o %i)" ]] || fail "jobs still queued after ${JOB_SECONDS} s: $(squeue)"
[[ -f "$tmp/out/pod.json" ]] || fail "the merge job wrote no pod.json"

# On this machine: the same pod with pack-pod, for reference.
STRATA_PACK=$pack "$root/scripts/pack-pod" "$tmp/in" "$tmp/local" -j 2 || fail "pack-pod failed"
for r in 0 1 2 3; do
  b=rank$r.strata
  [[ -f "$tmp/out/$b" ]] || fail "the array job wrote no $b"
  cmp -s "$tmp/out/$b" "$tmp/local/$b" || fail "$b from Slurm differs from pack-pod's"
done
node -e '
  const fs = require("fs");
  const [a, b] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  const fail = (m) => { console.error("FAIL: " + m); process.exit(1); };
  if (a.hosts.length !== 4) fail("hosts: " + a.hosts.length);
  // The summaries, not the paths (each pod lists its own directory).
  const summary = (h) => JSON.stringify({ ...h, bundle: undefined, sources: undefined, path: undefined });
  a.hosts.forEach((h, i) => {
    if (summary(h) !== summary(b.hosts[i])) fail(`host ${i}: ${summary(h)} vs ${summary(b.hosts[i])}`);
  });
  if (a.errors.length) fail("errors: " + a.errors);
' "$tmp/out/pod.json" "$tmp/local/pod.json" || fail "pod.json from Slurm differs from pack-pod's"
echo "pack_pod_slurm: ok ($submitted)"
