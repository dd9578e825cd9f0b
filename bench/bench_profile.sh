#!/bin/bash
# Overhead of libtofaprof on a real application: Debian's LAMMPS (lmp, Open
# MPI) running tests/profile/in.lj on $RANKS ranks for $STEPS steps (about
# 20 s with the defaults on the project's 2-core machine), $REPEAT times with
# and without the library, alternating. Prints JSON with the median wall
# times and their ratio (target: ratio <= 1.05). Library: $TOFAPROF_LIB, else
# built from tools/profile into a temporary directory.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
RANKS=${RANKS:-8} STEPS=${STEPS:-300} REPEAT=${REPEAT:-3}
command -v lmp >/dev/null || { echo '{"benchmark": "profile_overhead", "skipped": "lmp not installed"}'; exit 0; }
work=$(mktemp -d /tmp/bench-profile.XXXXXX)
trap 'rm -rf "$work"' EXIT
lib=${TOFAPROF_LIB:-}
if [ -z "$lib" ]; then
  lib=$work/libtofaprof.so
  t=$src/tools/profile
  mpicc.openmpi -std=c11 -O2 -fPIC -shared -D_GNU_SOURCE -o "$lib" \
    "$t"/tofaprof_{state,collectives,pmpi,output,fortran}.c "$t/heatmap.c" "$t/font5x7.c" -lpng -lm -pthread
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export OMPI_MCA_mpi_yield_when_idle=1
run() { # extra mpirun arguments...
  local start end
  start=$(date +%s.%N)
  (cd "$work" && mpirun.openmpi --oversubscribe -n "$RANKS" "$@" \
     lmp -in "$src/tests/profile/in.lj" -var t "$STEPS" -log none -screen none >/dev/null)
  end=$(date +%s.%N)
  python3 -c "print(round($end - $start, 3))"
}
plain=() profiled=()
for ((k = 0; k < REPEAT; ++k)); do
  plain+=("$(run)")
  profiled+=("$(run -x LD_PRELOAD="$lib" -x TOFAPROF_OUT="$work/out")")
done
python3 - "$RANKS" "$STEPS" "${plain[*]}" "${profiled[*]}" "$work/out/comm.json" <<'PY'
import json, statistics, sys
ranks, steps = int(sys.argv[1]), int(sys.argv[2])
plain = [float(x) for x in sys.argv[3].split()]
prof = [float(x) for x in sys.argv[4].split()]
summary = json.load(open(sys.argv[5]))
a, b = statistics.median(plain), statistics.median(prof)
print(json.dumps({
    "benchmark": "profile_overhead", "application": "lammps in.lj", "ranks": ranks,
    "steps": steps, "seconds_without": round(a, 3), "seconds_with": round(b, 3),
    "ratio": round(b / a, 4), "runs_without": plain, "runs_with": prof,
    "profiled_bytes": summary["total_bytes"], "profiled_messages": summary["total_messages"],
    "target_ratio": 1.05}, indent=2))
PY
