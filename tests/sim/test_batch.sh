#!/usr/bin/env bash
# tofa-sim batch end to end on a 4x4x4 torus with a 16-rank replay of a ring
# (rank i sends 1 MB to rank i + 1 mod 16), ranks on x = 0 and 2 of two
# planes: R(n0, n2) and R(n2, n0) pass n1, which runs no rank. Checked
# against hand-computed results, T being the time of one `tofa-sim run`:
#  - no failing node: every batch takes instances x T;
#  - N_f = {n40}, off the job, p_f = 1: no abort;
#  - N_f = {n1}, on a route only, p_f = 0.5: an instance aborts until a draw
#    spares n1. Master seed 1 gives batch seeds 2469588189546311528 and
#    2516265689700432462; their first 5 instances' streams start
#      batch 1: 0.3039 0.7980 | 0.9506 | 0.8931 | 0.4881 0.7925 | 0.3674 0.8919
#      batch 2: 0.5735 | 0.1112 0.1989 0.6194 | 0.1545 0.5147 |
#               0.0308 0.3227 0.7975 | 0.3364 0.8080
#    (one draw per run, < 0.5 fails n1): batch 1 has 3 aborted instances
#    and 8 runs, batch 2 4 and 11, so completion times 8T and 11T;
#  - N_f = {n1} at p_f = 1: every run aborts, the batch gives up;
#  - --strategy: tofa-map per batch, each batch's time = its runs x the
#    fault-free time of its placement.
# Prints "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

awk 'BEGIN { n = 16; print n
  for (i = 0; i < n; i++) { row = ""
    for (j = 0; j < n; j++) row = row (j ? " " : "") (j == (i + 1) % n ? 1000000 : 0)
    print row } }' >"$work/ring.mat"
awk 'BEGIN { for (i = 0; i < 16; i++) print "n" (2 * (i % 2) + 4 * (int(i / 2) % 4) + 16 * int(i / 8)) }' \
  >"$work/hosts"

"$sim" run --topology torus:4x4x4 --graph "$work/ring.mat" --hostfile "$work/hosts" \
  >"$work/run.out" 2>&1 || cat "$work/run.out"
T=$(sed -n 's/^simulated time: \([0-9.]*\) s.*/\1/p' "$work/run.out")
check "one run gives a time" test -n "$T"

batch() {  # batch NAME ARGS...: tofa-sim batch on the ring, output in $work/NAME
  "$sim" batch --topology torus:4x4x4 --graph "$work/ring.mat" "$@" >"$work/$1.out" 2>&1
}

# batch_line OUT B: "runs aborted completion fault-free" of batch B
batch_line() {
  awk -v b="$2" '$1 == b && NF == 8 { print $6, $7, $5, $4 }' "$1"
}

# expect OUT B RUNS ABORTED: batch B's runs and aborted instances, and its
# completion time = RUNS x T (T printed with 9 decimals: tolerance 1e-8).
expect() {
  local line; line=$(batch_line "$1" "$2")
  echo "$line" | awk -v runs="$3" -v aborted="$4" -v t="$T" '
    { d = $3 - runs * t; if (d < 0) d = -d
      ok = $1 == runs && $2 == aborted && d < 1e-8 && $4 == t
      if (!ok) printf "batch line: %s; expected runs %d, aborted %d, completion %.9f\n",
                      $0, runs, aborted, runs * t
      exit !ok }' || { cat "$1"; return 1; }
}

"$sim" batch --topology torus:4x4x4 --graph "$work/ring.mat" --hostfile "$work/hosts" \
  --failing-nodes 0 --batches 2 --instances 7 --json "$work/none.json" >"$work/none.out" 2>&1
check "no failing node: 7 runs, 7 T" expect "$work/none.out" 1 7 0
check "no failing node, batch 2: 7 T" expect "$work/none.out" 2 7 0
check "the JSON records the master and batch seeds" \
  grep -q '"seed": 2516265689700432462' "$work/none.json"

"$sim" batch --topology torus:4x4x4 --graph "$work/ring.mat" --hostfile "$work/hosts" \
  --outage-nodes n40 --outage 1 --batches 2 --instances 5 >"$work/off.out" 2>&1
check "a certain failure off the job aborts nothing" expect "$work/off.out" 1 5 0

"$sim" batch --topology torus:4x4x4 --graph "$work/ring.mat" --hostfile "$work/hosts" \
  --outage-nodes n1 --outage 0.5 --batches 2 --instances 5 --json "$work/route.json" \
  >"$work/route.out" 2>&1
check "n1 on a route at 0.5, batch 1: 8 runs, 3 aborted, 8 T" expect "$work/route.out" 1 8 3
check "n1 on a route at 0.5, batch 2: 11 runs, 4 aborted, 11 T" expect "$work/route.out" 2 11 4
check "the summary's abort ratio is 7 of 10" \
  grep -q "abort ratio 0.7000 (7 of 10 instances aborted, 9 aborted runs)" "$work/route.out"
check "the JSON names n1 as the cause" grep -q '"n1"' "$work/route.json"

"$sim" batch --topology torus:4x4x4 --graph "$work/ring.mat" --hostfile "$work/hosts" \
  --outage-nodes n1 --outage 1 --batches 1 --instances 2 --max-aborts 3 >"$work/never.out" 2>&1
check "a certain failure on a route never completes" test $? -eq 1
check "... and says so" grep -q "4 runs in a row aborted" "$work/never.out"

# Every batch's time is its runs x its placement's fault-free time.
consistent() {
  awk 'NF == 8 && $1 ~ /^[0-9]+$/ { n++; d = $5 - $6 * $4; if (d < 0) d = -d
         if (d > 1e-8 * $6) { print "inconsistent: " $0; bad = 1 } }
       END { exit bad || n != 3 }' "$1" || { cat "$1"; return 1; }
}
"$sim" batch --topology torus:4x4x4 --graph "$work/ring.mat" --strategy tofa \
  --failing-nodes 8 --outage 0.3 --batches 3 --instances 10 --jobs 2 >"$work/tofa.out" 2>&1
check "--strategy tofa: one placement per batch's outage nodes" consistent "$work/tofa.out"
"$sim" batch --topology torus:4x4x4 --graph "$work/ring.mat" --strategy default-slurm \
  --failing-nodes 8 --outage 0.3 --batches 3 --instances 10 >"$work/block.out" 2>&1
check "--strategy default-slurm: consistent" consistent "$work/block.out"
check "--strategy default-slurm ignores outages: one placement simulated once" \
  test "$(grep -c '^placement [0-9]*:' "$work/block.out")" -eq 1

summary
