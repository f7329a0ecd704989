#!/usr/bin/env bash
# The local pod path end to end (ctest "pack_pod_local"): a generated 4-rank pod (strata_make_demo
# rank/world traces, one gzipped) packed by scripts/pack-pod with 2 jobs at once; every bundle
# verifies, pod.json lists the 4 hosts with their steps and busy time and opens (strata-pack
# --open-pod: the page's C++) as one trace of every host's events; a host whose bundle is gone
# fails alone; a host packed split opens the same; then the Slurm array task script run as array
# task 2 by hand (no Slurm needed) packs the same file as pack-one does, and the Kubernetes Jobs'
# pods, run as the kubelet runs them, pack and merge the same.
#   tests/pod/pack_pod_test.sh STRATA_PACK STRATA_MAKE_DEMO
set -euo pipefail
pack=$1 demo=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/in"
for r in 0 1 2 3; do "$demo" "$tmp/in/rank$r.json" 1 "$r/4" >/dev/null; done
gzip "$tmp/in/rank3.json"
STRATA_PACK=$pack "$root/scripts/pack-pod" "$tmp/in" "$tmp/out" -j 2 || fail "pack-pod failed"
for r in 0 1 2 3; do
  [[ -f "$tmp/out/rank$r.strata" ]] || fail "rank$r.strata missing"
  "$pack" --verify "$tmp/out/rank$r.strata" | grep -q ', 0 bad$' || fail "rank$r.strata does not verify"
done
pod=$tmp/out/pod.json
node -e '
  const pod = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const fail = (m) => { console.error("FAIL: " + m); process.exit(1); };
  if (pod.format !== "strata-pod" || pod.version !== 1) fail("not a v1 pod manifest");
  const names = pod.hosts.map((h) => h.name).join(",");
  if (names !== "rank0,rank1,rank2,rank3") fail("hosts: " + names);
  for (const h of pod.hosts) {
    if (!(h.steps > 0 && h.step > 0)) fail(h.name + ": no steps");
    if (!(h.busy > 0 && h.busy <= h.span)) fail(h.name + ": busy " + h.busy + " of " + h.span);
    if (!(h.events > 1000) || h.offset < 0) fail(h.name + ": events " + h.events + ", offset " + h.offset);
  }
  if (!pod.hosts[3].sources[0].endsWith("rank3.json.gz")) fail("rank3 source: " + pod.hosts[3].sources);
  if (pod.errors.length) fail("errors: " + pod.errors);
' "$pod" || fail "pod.json"
# Opened as the page opens it: every host, one trace holding each host's events and tracks.
"$pack" --open-pod "$pod" >"$tmp/open.txt" 2>&1 || fail "--open-pod: $(cat "$tmp/open.txt")"
grep -q '^opened 4 of 4 hosts as one trace: ' "$tmp/open.txt" || fail "--open-pod: $(cat "$tmp/open.txt")"
for r in 0 1 2 3; do grep -q "^  rank$r " "$tmp/open.txt" || fail "--open-pod lists no rank$r"; done
# A host whose bundle is missing: its error, and the others still open.
mv "$tmp/out/rank1.strata" "$tmp/rank1.moved"
if "$pack" --open-pod "$pod" >"$tmp/open1.txt" 2>&1; then fail "--open-pod with rank1 missing succeeded"; fi
grep -q '^opened 3 of 4 hosts as one trace: ' "$tmp/open1.txt" || fail "rank1 missing: $(cat "$tmp/open1.txt")"
grep -q 'rank1: rank1.strata cannot be read' "$tmp/open1.txt" || fail "rank1 missing: $(cat "$tmp/open1.txt")"
mv "$tmp/rank1.moved" "$tmp/out/rank1.strata"
# rank2 packed split (a folder: manifest.strata, tiles/): the merge lists it by its folder and
# --open-pod reads it whole from its tiles, the same events as its one-file bundle.
mv "$tmp/out/rank2.strata" "$tmp/rank2.strata"
"$pack" "$tmp/in/rank2.json" -o "$tmp/out/rank2" --split >/dev/null || fail "split pack of rank2"
"$pack" --merge-pod "$tmp/out" >/dev/null || fail "--merge-pod with a split host"
grep -q '"bundle":"rank2"' "$pod" || fail "split rank2 not listed: $(cat "$pod")"
"$pack" --open-pod "$pod" >"$tmp/open2.txt" 2>&1 || fail "--open-pod, split rank2: $(cat "$tmp/open2.txt")"
grep -q '^opened 4 of 4 hosts as one trace: ' "$tmp/open2.txt" || fail "split rank2: $(cat "$tmp/open2.txt")"
rm -rf "$tmp/out/rank2"
mv "$tmp/rank2.strata" "$tmp/out/rank2.strata"
"$pack" --merge-pod "$tmp/out" >/dev/null || fail "--merge-pod"
# The Slurm array task, as task 2 would run it.
SLURM_ARRAY_TASK_ID=2 STRATA_ROOT=$root STRATA_PACK=$pack bash "$root/deploy/slurm/pack-array.sbatch" \
  "$tmp/in" "$tmp/slurm" >/dev/null || fail "pack-array.sbatch task 2"
cmp -s "$tmp/slurm/rank2.strata" "$tmp/out/rank2.strata" || fail "task 2 did not pack rank2 as pack-pod did"
# The Kubernetes Jobs, each pod run here as the kubelet runs it (tests/pod/k8s_job_run.mjs): the
# Indexed Job's completions 0-3 over /data/in, then the merge Job; the same bundles as pack-pod's
# and a pod.json of the same hosts.
k8s() { node "$root/tests/pod/k8s_job_run.mjs" "$root/deploy/k8s/$1" "${@:2}" \
  --map "/strata/build/native=$(dirname "$pack")" --map "/strata=$root" --map "/data/in=$tmp/in" --map "/data/out=$tmp/k8s/out"; }
for r in 0 1 2 3; do k8s pack-indexed-job.yaml --index "$r" >/dev/null || fail "k8s index $r"; done
for r in 0 1 2 3; do
  cmp -s "$tmp/k8s/out/rank$r.strata" "$tmp/out/rank$r.strata" || fail "k8s index $r did not pack rank$r as pack-pod did"
done
k8s pack-merge-job.yaml >/dev/null || fail "k8s merge job"
node -e '
  const read = (f) => JSON.parse(require("fs").readFileSync(f, "utf8"));
  const [a, b] = [read(process.argv[1]), read(process.argv[2])];
  const hosts = (p) => JSON.stringify(p.hosts.map(({ name, events, steps, busy, offset }) => [name, events, steps, busy, offset]));
  if (hosts(a) !== hosts(b)) { console.error("FAIL: k8s pod.json hosts " + hosts(b) + " vs " + hosts(a)); process.exit(1); }
' "$pod" "$tmp/k8s/out/pod.json" || fail "k8s pod.json"
if k8s pack-indexed-job.yaml --index 4 2>"$tmp/err" >/dev/null; then fail "k8s index 4 packed"; fi
grep -q "has 4 trace files" "$tmp/err" || fail "k8s index 4: $(cat "$tmp/err")"
# An index past the files fails with a message, not a pack of something else.
if STRATA_PACK=$pack "$root/scripts/pack-one" "$tmp/in" "$tmp/x" 4 2>"$tmp/err"; then fail "index 4 packed"; fi
grep -q "has 4 trace files" "$tmp/err" || fail "index 4: $(cat "$tmp/err")"
echo "pack_pod_local: ok"
