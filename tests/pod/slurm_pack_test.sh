#!/usr/bin/env bash
# The pod pack on a real Slurm (ctest "pack_pod_slurm"): starts a single-node cluster of its own
# (Debian's slurm-wlm: slurmctld + slurmd in a temp dir, its own ports, no munge: auth/none),
# submits a generated 4-rank pod with deploy/slurm/submit-pack.sh (an array job, then the
# dependent merge job), waits for pod.json and checks it and the bundles against a local pack,
# then opens the result as the page does (strata-pack --open-pod: every host as one trace).
# Exits 77 (ctest: skipped) with the reason when Slurm is not installed or does not start.
#   tests/pod/slurm_pack_test.sh STRATA_PACK STRATA_MAKE_DEMO
set -euo pipefail
pack=$1 demo=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in slurmctld slurmd sbatch squeue; do
  command -v "$tool" >/dev/null 2>&1 || [[ -x "/usr/sbin/$tool" ]] || skip "$tool not installed (apt-get install slurm-wlm)"
done
[[ $(id -u) == 0 ]] || skip "starting slurmd needs root"
PATH=$PATH:/usr/sbin
tmp=$(mktemp -d)
cleanup() {
  for d in slurmd slurmctld; do
    [[ -f "$tmp/$d.pid" ]] && kill "$(cat "$tmp/$d.pid")" 2>/dev/null || true
  done
  sleep 1
  rm -rf "$tmp"
}
trap cleanup EXIT
host=$(hostname -s)
port=$((20000 + $$ % 20000))
cpus=$(nproc)
mem=$(free -m | awk '/^Mem:/ {print $2}')
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/in"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=stratatest
SlurmctldHost=$host(127.0.0.1)
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" -i 2>"$tmp/ctld.err" || skip "slurmctld does not start: $(tail -3 "$tmp/ctld.err" "$tmp/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" 2>"$tmp/d.err" || skip "slurmd does not start: $(tail -3 "$tmp/d.err" "$tmp/slurmd.log" 2>/dev/null)"
up=0
for _ in $(seq 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then up=1; break; fi
  sleep 1
done
((up)) || skip "the test cluster's node never came up: $(sinfo 2>&1 | tail -2; tail -3 "$tmp/slurmd.log" 2>/dev/null)"

for r in 0 1 2 3; do "$demo" "$tmp/in/rank$r.json" 1 "$r/4" >/dev/null; done
ids=$(STRATA_PACK=$pack "$root/deploy/slurm/submit-pack.sh" "$tmp/in" "$tmp/out") || fail "submit-pack: $ids"
echo "$ids"
for _ in $(seq 300); do
  [[ -z "$(squeue -h 2>/dev/null)" ]] && break
  sleep 1
done
[[ -z "$(squeue -h)" ]] && [[ -f "$tmp/out/pod.json" ]] ||
  fail "no pod.json after the jobs: $(squeue 2>&1; ls "$tmp/out"; cat "$tmp/out"/*.out 2>/dev/null | tail -20)"
node -e '
  const pod = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const names = pod.hosts.map((h) => h.name).join(",");
  if (names !== "rank0,rank1,rank2,rank3" || pod.errors.length) { console.error("FAIL: " + names + " " + pod.errors); process.exit(1); }
  for (const h of pod.hosts) if (!(h.steps > 0 && h.busy > 0)) { console.error("FAIL: " + h.name); process.exit(1); }
' "$tmp/out/pod.json" || fail "pod.json: $(cat "$tmp/out/pod.json")"
# Each array task packed the same bundle a local pack-one makes.
for r in 0 1 2 3; do
  STRATA_PACK=$pack "$root/scripts/pack-one" "$tmp/in" "$tmp/local" "$r" >/dev/null
done
for r in 0 1 2 3; do
  cmp -s "$tmp/out/rank$r.strata" "$tmp/local/rank$r.strata" || fail "rank$r.strata differs from a local pack"
done
# The result opens as the page opens it: the host table, then every host as one trace.
"$pack" --open-pod "$tmp/out/pod.json" >"$tmp/open.txt" 2>&1 || fail "--open-pod: $(cat "$tmp/open.txt")"
grep -q '^opened 4 of 4 hosts as one trace: ' "$tmp/open.txt" || fail "--open-pod: $(cat "$tmp/open.txt")"
cat "$tmp/open.txt"
echo "pack_pod_slurm: ok ($ids)"
