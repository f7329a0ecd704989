#!/usr/bin/env bash
# A private single-node Slurm for tests: Debian's slurm-wlm (scripts/setup.sh installs it), its
# controller and node daemon started on this machine with their own config, ports, state and
# logs under DIR, so a test can submit real array jobs (sbatch) and stop it again. Munge is not
# needed: the cluster is one machine and one user, so auth/none and cred/none are enough.
#   tests/pod/local-slurm.sh start DIR   # prints the SLURM_CONF to export; waits until idle
#   tests/pod/local-slurm.sh stop DIR
set -euo pipefail
cmd=${1:-}
dir=${2:-}
[[ -n "$cmd" && -n "$dir" ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
conf="$dir/slurm.conf"
# Ports away from Slurm's defaults (6817/6818), so a real installation is not disturbed.
CTLD_PORT=${STRATA_SLURMCTLD_PORT:-16817}
SLURMD_PORT=${STRATA_SLURMD_PORT:-16818}
READY_SECONDS=30
STOP_SECONDS=20

stop() {
  # Every process started with this config (the daemons fork, and their pid files go when they
  # exit), then wait until they are gone.
  local pids
  pids=$(pgrep -f -- "-f $conf" || true)
  [[ -n "$pids" ]] || return 0
  kill $pids 2>/dev/null || true
  for _ in $(seq 1 $((STOP_SECONDS * 10))); do
    pgrep -f -- "-f $conf" >/dev/null || return 0
    sleep 0.1
  done
  kill -9 $(pgrep -f -- "-f $conf") 2>/dev/null || true
}

case "$cmd" in
  start)
    for b in slurmctld slurmd sbatch sinfo; do
      command -v "$b" >/dev/null || { echo "local-slurm: $b not found (apt-get install slurm-wlm)" >&2; exit 3; }
    done
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    host=$(hostname -s)
    cpus=$(nproc)
    mem_mb=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024))
    cat >"$conf" <<EOF
ClusterName=strata-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    stop
    SLURM_CONF="$conf" slurmctld -f "$conf"
    SLURM_CONF="$conf" slurmd -f "$conf"
    for _ in $(seq 1 $((READY_SECONDS * 10))); do
      if SLURM_CONF="$conf" sinfo -h -o '%t' 2>/dev/null | grep -q '^idle'; then
        echo "$conf"
        exit 0
      fi
      sleep 0.1
    done
    echo "local-slurm: the node did not become idle in ${READY_SECONDS} s; logs in $dir/log" >&2
    stop
    exit 1
    ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
