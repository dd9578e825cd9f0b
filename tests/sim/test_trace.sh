#!/usr/bin/env bash
# Recorded runs replayed (issue 35 item 1): a real Open MPI run recorded by
# tofa-profile --trace, made replayable by tofa-sim trace and replayed by
# tofa-sim-trace under SMPI sends exactly the graph the profiler recorded,
# rank pair by rank pair: tests/sim/trace_patterns.c (any-source receives,
# Waitany, Testsome, Sendrecv, collectives on world and on a split
# communicator), NPB DT class S (tools/sim/record/npb-dt.sh) and LAMMPS on 8
# ranks. Also: LAMMPS's window replays its time steps only; jobs sharing the
# machine run not faster than alone; batch --fault-free-time; errors that name
# the file and line. Prints "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
profile="$top_srcdir/tools/profile/tofa-profile"
export TOFAPROF_LIB="$top_builddir/tools/profile/libtofaprof.so"
mpirun=(mpirun --oversubscribe --bind-to none)

# exact PREFIX: the replay's bytes per rank pair equal the recorded NAME.mat,
# both as tofa-sim trace counts them and as tofa-sim-trace sends them.
exact() {
  local prefix=$1 ranks
  ranks=$(grep -v '^#' "$prefix.mat" | head -1)
  seq 0 $((ranks - 1)) | sed 's/^/n/' >"$prefix.hosts"
  "$sim" trace --trace "$prefix" --matrix "$prefix.resolved" >"$prefix.trace.out" &&
    "$sim" run --topology torus:8x8x8 --app trace --trace "$prefix" --hostfile "$prefix.hosts" \
      --sent-matrix "$prefix.sent" >"$prefix.run.out" 2>&1 &&
    grep -v '^#' "$prefix.mat" >"$prefix.recorded" &&
    cmp "$prefix.recorded" "$prefix.resolved" && cmp "$prefix.recorded" "$prefix.sent" &&
    [ "$(awk 'NR > 1 { for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }' "$prefix.sent")" -gt 0 ] ||
    { cat "$prefix.trace.out" "$prefix.run.out"; return 1; }
}

record_patterns() {
  mpicc.openmpi -O1 -o "$work/trace_patterns" "$top_srcdir/tests/sim/trace_patterns.c" &&
    "$profile" --trace -o "$work" --name patterns -- "${mpirun[@]}" -np 6 "$work/trace_patterns" \
      >"$work/patterns.out" 2>&1 && [ -f "$work/patterns.trace/5.trace" ] ||
    { cat "$work/patterns.out"; return 1; }
}
check "tofa-profile --trace records trace_patterns on 6 ranks" record_patterns
check "trace_patterns: the replay sends exactly the recorded graph" exact "$work/patterns"

record_dt() {
  local dt
  dt=$(bash "$top_srcdir/tools/sim/record/npb-dt.sh" 2>"$work/npb.err") &&
    "$profile" --trace -o "$work" --name dt --preload \
      "$top_builddir/tools/sim/record/libtofa-shared-arrays.so" -- "${mpirun[@]}" -np 5 \
      -x TOFA_SHARED_FILE="$work/shared-arrays" "$dt" 5 S BH >"$work/dt.out" 2>&1
  grep -q " Verification" "$work/dt.out" || { cat "$work/npb.err" "$work/dt.out"; return 1; }
}
check "NPB DT class S BH (NPB 3.3's own program) recorded on shared arrays" record_dt
check "NPB DT: the replay sends exactly the recorded graph" exact "$work/dt"

if command -v lmp >/dev/null && [ -f /usr/share/lammps/examples/peptide/data.peptide ]; then
  record_lammps() {
    "$profile" --trace -o "$work" --name lammps -- "${mpirun[@]}" -np 8 lmp \
      -in "$top_srcdir/tools/sim/record/in.peptide-32k" -var steps 2 -log none -screen none \
      >"$work/lammps.out" 2>&1 || { cat "$work/lammps.out"; return 1; }
  }
  check "LAMMPS (32,064 atoms, PPPM) on 8 ranks recorded" record_lammps
  check "LAMMPS: the replay sends exactly the recorded graph" exact "$work/lammps"
  # Its run's steps lie between its third- and second-to-last barriers.
  window() {
    local gaps barriers
    gaps=$(sed -n 's/.*replays gap B): //p' "$work/lammps.trace.out")
    barriers=$(($(wc -w <<<"$gaps") - 1))
    echo "$((barriers - 2)):$((barriers - 1))"
  }
  windowed() {
    "$sim" run --topology torus:8x8x8 --app trace --trace "$work/lammps" \
      --trace-window "$(window)" --hostfile "$work/lammps.hosts" >"$work/window.out" 2>&1 &&
      awk -v whole="$(sed -n 's/.*bytes=//p' "$work/lammps.run.out")" \
        '/^tofa-sim-trace:/ { sub(/.*bytes=/, ""); exit !($1 > 0 && $1 < whole) }' "$work/window.out" ||
      { cat "$work/window.out"; return 1; }
  }
  check "LAMMPS's window replays fewer bytes than the whole run, more than none" windowed
else
  skip_check "LAMMPS (lmp and lammps-examples not installed)"
fi

# Two jobs at once: neither faster than alone on the same nodes (beyond 5%:
# max-min sharing is not monotone, another job's flows can reorder one's own).
share() {
  seq 6 10 | sed 's/^/n/' >"$work/dt.hosts2"
  "$sim" run --topology torus:8x8x8 --app trace --trace "$work/dt" --hostfile "$work/dt.hosts2" \
    >"$work/dt.alone" &&
    "$sim" share --topology torus:8x8x8 --job "$work/patterns=$work/patterns.hosts" \
      --job "$work/dt=$work/dt.hosts2" >"$work/share.out" 2>&1 &&
    awk -v a0="$(sed -n 's/^tofa-sim-trace: time=\([0-9.]*\).*/\1/p' "$work/patterns.run.out")" \
      -v a1="$(sed -n 's/^tofa-sim-trace: time=\([0-9.]*\).*/\1/p' "$work/dt.alone")" '
      /^tofa-sim-trace:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
      END { exit !(v["jobs"] == 2 && v["job0"] >= a0 * 0.95 && v["job1"] >= a1 * 0.95) }' \
      "$work/share.out" || { cat "$work/share.out" "$work/dt.alone"; return 1; }
}
check "share: two recorded jobs at once, neither faster than alone" share
overlap() {
  ! "$sim" share --topology torus:8x8x8 --job "$work/patterns=$work/patterns.hosts" \
    --job "$work/dt=$work/dt.hosts" >"$work/overlap.out" 2>&1 &&
    grep -q "another job's" "$work/overlap.out"
}
check "share refuses two jobs on one node" overlap

# batch --fault-free-time: no failures, so every instance costs the given time.
given_time() {
  "$sim" batch --topology torus:8x8x8 --app trace --trace "$work/dt" --hostfile "$work/dt.hosts" \
    --outage-nodes n100 --outage 0.5 --batches 1 --instances 10 --fault-free-time 2.5 \
    >"$work/given.out" 2>&1 &&
    grep -q "^mean completion time 25.000000000 s over 1 batches; abort ratio 0.0000" "$work/given.out" ||
    { cat "$work/given.out"; return 1; }
}
check "batch --fault-free-time: 10 instances of 2.5 s, no node of the job failing" given_time

# Errors name the file and line; requests across a window's bound are refused.
# refused NAME RANK SED-SCRIPT MESSAGE: DT's trace with SED-SCRIPT applied to
# RANK's file, which tofa-sim trace refuses, saying MESSAGE.
refused() {
  mkdir -p "$work/$1.trace" && cp "$work/dt.trace/"*.trace "$work/$1.trace/" &&
    sed -i "$3" "$work/$1.trace/$2.trace" &&
    ! "$sim" trace --trace "$work/$1" >"$work/$1.out" 2>&1 &&
    grep -q "$1.trace/$2.trace:$4" "$work/$1.out" || { cat "$work/$1.out"; return 1; }
}
check "a malformed trace line: tofa-sim names the file and line" \
  refused bad 1 '3s/.*/s 1 2/' "3:0: expected 's DST TAG BYTES'"
check "a trace with one-sided calls is refused, naming them" \
  refused rma 0 '$i u one-sided' ".*'one-sided' cannot be replayed"
check "a trace cut short (no end line) is refused, naming the rank's file" \
  refused cut 2 '$d' ".*no 'e' line"
bad_window() {
  ! "$sim" trace --trace "$work/patterns" --window 2:1 >"$work/bw.out" 2>&1 &&
    grep -q "expected A:B" "$work/bw.out" &&
    ! "$sim" trace --trace "$work/patterns" --window 0:9 >"$work/bw2.out" 2>&1 &&
    grep -q "the window ends at barrier 9, the trace has 1" "$work/bw2.out" ||
    { cat "$work/bw.out" "$work/bw2.out"; return 1; }
}
check "windows: A:B with A < B, within the trace's barriers" bad_window

summary
