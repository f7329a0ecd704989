#!/usr/bin/env bash
# Submits a pod pack to Slurm: an array job with one task per trace file of IN_DIR
# (pack-array.sbatch), then the merge job that writes OUT_DIR/pod.json once every task has
# succeeded (--dependency=afterok). Run it from the Strata checkout; prints both job ids.
#   deploy/slurm/submit-pack.sh IN_DIR OUT_DIR [extra sbatch options...]
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 IN_DIR OUT_DIR [sbatch options...]" >&2; exit 2; }
in=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
count=$(cd "$in" && find . -maxdepth 1 -type f ! -name '*.strata' ! -name 'pod.json' ! -name '.*' | wc -l)
((count > 0)) || { echo "submit-pack: no trace files in $in" >&2; exit 1; }
pack=${STRATA_PACK:-$root/build/native/strata-pack}
array=$(cd "$root" && sbatch --parsable --array=0-$((count - 1)) --chdir="$root" \
  --output="$out/strata-pack-%A_%a.out" \
  --export=ALL,STRATA_ROOT="$root",STRATA_PACK="$pack" "$@" \
  "$root/deploy/slurm/pack-array.sbatch" "$in" "$out")
merge=$(sbatch --parsable --job-name=strata-pod-merge --dependency=afterok:"${array%%;*}" \
  --chdir="$root" --output="$out/merge-%j.out" "$@" --wrap="'$pack' --merge-pod '$out'")
echo "array job $array ($count tasks), merge job $merge"
