#!/bin/bash
# Overhead of libtofaprof on a real application: Debian's LAMMPS (lmp, Open
# MPI) running tests/profile/in.lj on $RANKS ranks for $STEPS steps (about
# 20 s with the defaults on the project's 2-core machine), $REPEAT times with
# and without the library, alternating. Prints JSON with the median wall
# times and their ratio (target: ratio <= 1.05). Library: $TOFAPROF_LIB, else
# built from tools/profile into a temporary directory.
# --write: also keeps the JSON in out/profile-overhead.json and writes the
# sentence between docs/user-guide.md's profile markers (scripts/results.sh runs it so).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
write=no
for arg in "$@"; do
  case "$arg" in
    --write) write=yes ;;
    *) echo "usage: bench/bench_profile.sh [--write]   (environment: RANKS, STEPS, REPEAT, TOFAPROF_LIB)" >&2; exit 2 ;;
  esac
done
RANKS=${RANKS:-8} STEPS=${STEPS:-300} REPEAT=${REPEAT:-3}
if ! command -v lmp >/dev/null; then
  echo '{"benchmark": "profile_overhead", "skipped": "lmp not installed"}'
  [ "$write" = no ] || { echo "bench_profile.sh: --write needs lmp (Debian's lammps)" >&2; exit 1; }
  exit 0
fi
work=$(mktemp -d /tmp/bench-profile.XXXXXX)
trap 'rm -rf "$work"' EXIT
lib=${TOFAPROF_LIB:-}
if [ -z "$lib" ]; then
  lib=$work/libtofaprof.so
  t=$src/tools/profile
  mpicc.openmpi -std=c11 -O2 -fPIC -shared -D_GNU_SOURCE -o "$lib" \
    "$t"/tofaprof_{comms,state,trace,collectives,neighbor,pmpi,output,fortran}.c "$t/heatmap.c" "$t/font5x7.c" -lpng -lm -pthread
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
python3 - "$RANKS" "$STEPS" "${plain[*]}" "${profiled[*]}" "$work/out/comm.json" "$write" "$src" <<'PY'
import json, os, statistics, sys
ranks, steps = int(sys.argv[1]), int(sys.argv[2])
write, src = sys.argv[6] == "yes", sys.argv[7]
plain = [float(x) for x in sys.argv[3].split()]
prof = [float(x) for x in sys.argv[4].split()]
summary = json.load(open(sys.argv[5]))
a, b = statistics.median(plain), statistics.median(prof)
report = {
    "benchmark": "profile_overhead", "application": "lammps in.lj", "ranks": ranks,
    "steps": steps, "seconds_without": round(a, 3), "seconds_with": round(b, 3),
    "ratio": round(b / a, 4), "runs_without": plain, "runs_with": prof,
    "profiled_bytes": summary["total_bytes"], "profiled_messages": summary["total_messages"],
    "target_ratio": 1.05}
print(json.dumps(report, indent=2))
if write:
    os.makedirs(os.path.join(src, "out"), exist_ok=True)
    with open(os.path.join(src, "out", "profile-overhead.json"), "w") as f:
        json.dump(report, f, indent=2)
    sys.path.insert(0, os.path.join(src, "scripts", "lib"))
    from readme_block import replace_readme_block
    overhead = (b / a - 1) * 100
    runs = f"{len(prof)} run{'' if len(prof) == 1 else 's'}"
    text = (f"Overhead on LAMMPS (`tests/profile/in.lj`, {ranks} ranks, {steps} steps; median wall time "
            f"of {runs} with and as many without the library, alternating): {overhead:.1f}% "
            f"({b:.2f} s against {a:.2f} s; target at most {(report['target_ratio'] - 1) * 100:.0f}%: "
            f"{'met' if b / a <= report['target_ratio'] else 'missed'}).")
    if not replace_readme_block(os.path.join(src, "docs", "user-guide.md"), "profile", text):
        sys.exit("bench_profile.sh: docs/user-guide.md has no profile markers")
PY
