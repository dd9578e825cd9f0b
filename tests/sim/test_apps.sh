#!/usr/bin/env bash
# The SMPI applications send what their graphs say: tofa-sim-dt and
# tofa-sim-md, run under smpirun with --sent-matrix (each rank's byte count
# per destination, gathered by rank 0), against tofa-sim graph (the
# library's npb_dt_graph and halo_exchange_graph), both symmetrized as the
# strategies read them. DT exactly; md within its rounding to whole bytes
# per message (6e-4). Also: DT's checksum does not depend on the placement.
# Prints "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

# same_graph EXPECTED SENT TOLERANCE: the dense matrices agree on every
# unordered pair's bytes (i,j) + (j,i) within TOLERANCE x the larger.
same_graph() {
  awk -v tol="$3" '
    FNR == 1 { file++; next }
    { for (j = 1; j <= NF; j++) if ($j != 0 && FNR - 2 != j - 1) {
        a = FNR - 2; b = j - 1; key = (a < b) ? a " " b : b " " a
        sum[file, key] += $j; keys[key] = 1 } }
    END {
      bad = 0
      for (k in keys) {
        x = sum[1, k] + 0; y = sum[2, k] + 0; big = (x > y) ? x : y
        if ((x > y ? x - y : y - x) > tol * big) {
          if (bad++ < 5) printf "pair %s: graph %.17g, sent %.17g\n", k, x, y }
      }
      if (file != 2) { print "expected two matrices"; bad++ }
      exit bad > 0 }' "$1" "$2"
}

hosts() {  # hosts N: n0 .. n(N-1), one per line
  seq 0 $(($1 - 1)) | sed 's/^/n/'
}

# dt CLASS KIND RANKS
dt() {
  local name="dt-$1-$2"
  hosts "$3" >"$work/$name.hosts"
  "$sim" graph --app dt --class "$1" --graph-kind "$2" -o "$work/$name.graph" &&
    "$sim" run --topology torus:4x4x4 --app dt --class "$1" --graph-kind "$2" \
      --hostfile "$work/$name.hosts" --sent-matrix "$work/$name.sent" >"$work/$name.out" 2>&1 &&
    same_graph "$work/$name.graph" "$work/$name.sent" 0 || { cat "$work/$name.out"; return 1; }
}

for class in S W; do
  check "dt class $class BH sends the library's graph" dt $class bh $([ $class = S ] && echo 5 || echo 11)
  check "dt class $class WH sends the library's graph" dt $class wh $([ $class = S ] && echo 5 || echo 11)
  check "dt class $class SH sends the library's graph" dt $class sh $([ $class = S ] && echo 12 || echo 32)
done

# md RANKS EXTRA-ARGS...: halo traffic only (no allreduce: SMPI's own
# messages). Each message is rounded to whole bytes, at most 0.5 byte of the
# smallest, a corner of 2.8^3 x 0.8442 x 48 = 890 bytes: 5.6e-4.
md() {
  local ranks=$1; shift
  local name="md-$ranks"
  hosts "$ranks" >"$work/$name.hosts"
  "$sim" graph --app md --ranks "$ranks" --reduce-every 0 "$@" -o "$work/$name.graph" &&
    "$sim" run --topology torus:4x4x4 --app md --reduce-every 0 "$@" \
      --hostfile "$work/$name.hosts" --sent-matrix "$work/$name.sent" >"$work/$name.out" 2>&1 &&
    same_graph "$work/$name.graph" "$work/$name.sent" 6e-4 || { cat "$work/$name.out"; return 1; }
}

check "md 2x2x2 (neighbours reached both ways)" md 8 --steps 3 --atoms 4000
check "md 2x2x3" md 12 --steps 2 --atoms 4000
check "md 3x3x3" md 27 --steps 2 --atoms 8000
check "md 1x1x2 (dimensions of one rank wrap onto it)" md 2 --steps 2 --atoms 4000

# The same DT graph with ranks reversed on the nodes: another time, the same checksum.
checksum() { sed -n 's/.*checksum=\([^ ]*\).*/\1/p' "$1"; }
hosts 12 | tac >"$work/reversed.hosts"
"$sim" run --topology torus:4x4x4 --app dt --class S --graph-kind sh \
  --hostfile "$work/reversed.hosts" >"$work/reversed.out" 2>&1
check "dt's checksum does not depend on the placement" \
  test "$(checksum "$work/reversed.out")" = "$(checksum "$work/dt-S-sh.out")"
check "dt's checksum is there" test -n "$(checksum "$work/reversed.out")"

"$sim" run --topology torus:4x4x4 --app dt --class B --graph-kind bh \
  --hostfile "$work/dt-S-sh.hosts" >"$work/wrong.out" 2>&1
check "dt on the wrong rank count fails" grep -q "expected 43 ranks" "$work/wrong.out"

summary
