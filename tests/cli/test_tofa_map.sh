#!/usr/bin/env bash
# tofa-map end to end on the bundled examples. Prints "N passed, N failed".
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
map="$top_builddir/tools/tofa-map"
examples="$top_srcdir/examples"
work=$(mktemp -d)
# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"
at_exit rm -rf "$work"

strategies=$("$map" --list-strategies | awk '{print $1}' | tr '\n' ' ')
check "lists the four base strategies" \
  test "$(echo "$strategies" | tr ' ' '\n' | grep -cxE 'default-slurm|random|greedy|tofa')" -eq 4

"$map" --topology "$examples/torus8x8x8.conf" --graph "$examples/dt85.mat" \
  --faults "$examples/faults16.txt" --compare --strategy tofa \
  --hostfile "$work/hosts" --json "$work/out.json" --svg "$work/out.svg" >"$work/table" 2>&1
check "compare run succeeds" test $? -eq 0
# Every strategy has a row (the default's name marked "*"), or is named as
# not applicable to this graph.
rows=$(grep -cE "^($("$map" --list-strategies | awk '{print $1}' | paste -sd'|'))\*? " "$work/table")
check "the default strategy's row is marked" grep -qE '^auto\* ' "$work/table"
not_applicable=$(sed -n 's/^not applicable to this job: //p' "$work/table" | tr ',' '\n' | grep -c .)
check "table has a row per applicable strategy" \
  test $((rows + not_applicable)) -eq "$("$map" --list-strategies | wc -l)" -a "$rows" -ge 6
check "hostfile has one line per task" test "$(wc -l <"$work/hosts")" -eq 85
check "hostfile names 85 distinct nodes" test "$(sort -u "$work/hosts" | wc -l)" -eq 85
# faults16.txt leaves n011..n226 fault-free: tofa must use none of the faulty nodes.
check "tofa avoids every faulty node" \
  test -z "$(grep -Fxf <(awk '/^n/{print $1}' "$examples/faults16.txt") "$work/hosts")"
check "json lists every strategy; tofa has zero abort probability" python3 - "$work/out.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
names = [r["strategy"] for r in doc["results"]]
assert names[:4] == ["default-slurm", "random", "greedy", "tofa"], names
tofa = doc["results"][3]
assert tofa["metrics"]["abort_probability"] == 0.0, tofa["metrics"]
assert len(tofa["placement"]) == 85
PY
# tools/placement_svg.cpp: a panel of 8x8 cells per plane z, 6 panels a line
# (1200 px / (8 * 22 + 18)), so 1182 x 478 px; one <rect> with a <title>
# "NAME: N task(s)" per node, a number drawn on each used cell, a red border
# on each faulty node.
check "svg draws the 512 nodes, the 85 tasks of the hostfile and the 16 faulty nodes" \
  python3 - "$work/out.svg" "$work/hosts" "$examples/faults16.txt" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
assert (root.get("width"), root.get("height")) == ("1182", "478"), root.attrib
cells = {}
red = set()
for rect in root.iter(ns + "rect"):
    title = rect.find(ns + "title")
    if title is None:
        continue
    m = re.fullmatch(r"(n\d{3}): (\d+) task\(s\)(, outage > 0)?", title.text)
    assert m, title.text
    assert m.group(1) not in cells, m.group(1)
    cells[m.group(1)] = int(m.group(2))
    assert (rect.get("stroke") == "red") == bool(m.group(3)), (title.text, rect.attrib)
    if m.group(3):
        red.add(m.group(1))
assert sorted(cells) == ["n%03d" % i for i in range(512)], len(cells)
hosts = open(sys.argv[2]).read().split()
used = {name: hosts.count(name) for name in set(hosts)}
assert {n: c for n, c in cells.items() if c} == used, "cells' task counts differ from the hostfile"
assert sum(cells.values()) == 85
faulty = {line.split()[0] for line in open(sys.argv[3]) if line.startswith("n")}
assert red == faulty, sorted(red ^ faulty)
numbers = [int(t.text) for t in root.iter(ns + "text") if t.text.isdigit()]
assert len(numbers) == 85 and sum(numbers) == 85, numbers
planes = [t.text for t in root.iter(ns + "text") if t.text.startswith("plane ")]
assert planes == ["plane %d" % z for z in range(8)], planes
PY

"$map" --topology "$examples/torus8x8x8.conf" --graph "$examples/dt85.mat" \
  --evaluate "$work/hosts" >"$work/given" 2>&1
expected=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%.6g' % d['results'][3]['metrics']['hop_bytes'])" "$work/out.json")
check "--evaluate gives the hop-bytes of the written placement" \
  test "$(awk -v f="$work/hosts" '$1 == f { print $2 }' "$work/given")" = "$expected"
printf 'n0\nzz\n' >"$work/badhosts"
"$map" --topology torus:2x2x2 --graph stencil:2x1x1 --evaluate "$work/badhosts" 2>"$work/err" >/dev/null
check "--evaluate names the hostfile line of an unknown node" \
  grep -qx "tofa-map: $work/badhosts:2:1: unknown node 'zz'" "$work/err"

printf '3\n0 1 2\n1 0 x\n' >"$work/bad.mat"
"$map" --topology torus:4x4x4 --graph "$work/bad.mat" >"$work/out" 2>"$work/err"
check "bad matrix exits non-zero" test $? -ne 0
check "bad matrix error names file, line and column" \
  grep -qx "tofa-map: $work/bad.mat:3:5: expected a non-negative number, found 'x'" "$work/err"
check "error is one line" test "$(wc -l <"$work/err")" -eq 1

"$map" --topology torus:4x4x4 --graph stencil:2x2x2 --strategy nope 2>"$work/err" >/dev/null
check "unknown strategy rejected with the list" \
  grep -q "unknown strategy 'nope': expected one of default-slurm, random, greedy, tofa" "$work/err"

"$map" --topology torus:2x2x2 --graph stencil:4x4x4 2>"$work/err" >/dev/null
check "too many tasks rejected" grep -q "64 tasks do not fit on 8 nodes with 1 slots each" "$work/err"

"$map" --topology torus:4x4x4:cores=4 --graph stencil:4x4x4 --strategy default-slurm \
  --hostfile "$work/block" >/dev/null
check "default-slurm fills nodes in order" \
  test "$(uniq -c "$work/block" | awk '{print $1}' | sort -u)" = "4"

# Issue 10: these were accepted silently, or crashed (exit 139), at 5516619.
refused() {  # refused PATTERN COMMAND...: exits 1..127 and says PATTERN on stderr
  local pattern=$1 status; shift
  "$@" >/dev/null 2>"$work/err"; status=$?
  [ "$status" -ge 1 ] && [ "$status" -lt 128 ] && grep -q -- "$pattern" "$work/err"
}
for penalty in nan -1 inf; do
  check "--fault-penalty $penalty refused" refused "expected a finite number >= 0" \
    "$map" --topology torus:4x4 --graph stencil:4x4 --fault-penalty "$penalty"
done
for budget in 0 -1 nan abc; do
  check "--placement-budget $budget refused" refused "expected milliseconds > 0" \
    "$map" --topology torus:4x4 --graph stencil:4x4 --placement-budget "$budget"
done
# auto within the service's budget (5 ms for 16 tasks) still places every task.
"$map" --topology torus:8x8x8 --graph geometric:16 --placement-budget 10 --hostfile "$work/budgeted" >/dev/null
check "--placement-budget 10: auto places the 16 tasks on 16 nodes" \
  test "$(sort -u "$work/budgeted" | wc -l)" -eq 16
check "tofa-rubik --slots -3 refused" refused "slots" \
  "$top_builddir/tools/tofa-rubik" --spec "$examples/rubik/div-4x4x4.rubik" --slots -3
printf '4\n0 1 0 1\n1 0 1 0\n0 1 0 1\n1 0 1 0\n' >"$work/g4.mat"
"$map" --topology "$examples/torus8x8x8.conf" --graph "$work/g4.mat" --nodes n001 --slots 4 \
  --hostfile "$work/one" >/dev/null 2>&1
check "a 4-task graph on one node other than n000 (Scotch crashed)" \
  test "$?" -eq 0 -a "$(sort -u "$work/one")" = n001
bomb="n[0-4194303$(for _ in $(seq 15); do printf ',0-4194303'; done)]"
check "a 162-byte hostlist of 67M names refused before expanding" refused "expands to more than 512 names" \
  "$map" --topology "$examples/torus8x8x8.conf" --graph "$work/g4.mat" --nodes "$bomb"
printf '2\n0 \001\033[2J\n1 0\n' >"$work/garbage.mat"
"$map" --topology torus:4x4 --graph "$work/garbage.mat" >/dev/null 2>"$work/err"
check "control characters of bad input are escaped" \
  test -z "$(tr -d '[:print:]\n\t' <"$work/err")" -a -n "$(grep -F '\x01\x1b[2J' "$work/err")"

# Scotch builds the Equation 1 target of 3,000 of 4,096 nodes by random
# bipartitions on its own threads: seeded and on one thread, every run of the
# same request gives the same placement (before, 3 of 4 runs differed).
awk 'BEGIN { for (n = 0; n < 4096; n += 4) printf "%sn%d,n%d,n%d", (n ? "," : ""), n, n + 1, n + 3 }' \
  >"$work/nodes3072"
awk 'BEGIN { for (n = 7; n < 4096; n += 37) print "n" n, 0.02 }' >"$work/faults-large"
for run in 1 2 3; do
  "$map" --topology torus:16x16x16 --graph geometric:3000 --strategy tofa \
    --nodes "$(cat "$work/nodes3072")" --faults "$work/faults-large" --hostfile "$work/large$run" >/dev/null
done
same_files() { cmp -s "$1" "$2" && cmp -s "$1" "$3"; }
check "tofa: the same large request with faults gives the same placement every run" \
  same_files "$work/large1" "$work/large2" "$work/large3"

# pattern:SPEC (issue 37): listed, written alone, placed; a bad spec names
# the column.
check "--list-patterns prints the six patterns" \
  test "$("$map" --list-patterns | cut -d: -f2 | tr '\n' ' ')" = "halo allreduce bcast alltoall fft training "
"$map" --graph pattern:halo:ranks=4x4,cells=64x64 --write-graph "$work/halo.mtx" >"$work/out" 2>&1
check "--write-graph alone writes the pattern's 16 tasks and 64 sends (32 pairs, both ways), prints nothing" \
  test "$(sed -n 2p "$work/halo.mtx")" = "16 16 64" -a ! -s "$work/out"
"$map" --topology torus:4x4 --graph pattern:halo:ranks=4x4,cells=64x64 --strategy greedy \
  --hostfile "$work/halo.hosts" >/dev/null 2>&1
check "a pattern's graph is placed like a file's: 16 tasks on 16 nodes" \
  test "$(sort -u "$work/halo.hosts" | wc -l)" -eq 16
"$map" --graph pattern:bcast:ranks=4,bytes=0 --write-graph "$work/x" >"$work/err" 2>&1
check "a bad pattern fails with its column" \
  test $? -ne 0 -a -n "$(grep 'at column 15: bytes=0: expected a size' "$work/err")"
# --background on links shared both ways (issue 37): a running pair sends
# 1 MB over the 4 hops n0 -> n4; a new pair offered a link of that route
# (n1-n2) and a quiet one (n9-n10) takes the quiet one.
printf 'n0\nn4\n' >"$work/running.hosts"
printf '0 1 1000000\n' >"$work/running.el"
printf '0 1 1000\n' >"$work/pair.el"
"$map" --topology torus:16 --graph "$work/pair.el" --strategy auto --nodes n1,n2,n9,n10 \
  --background "$work/running.hosts=$work/running.el" --link-sharing shared --interference-weight 1 \
  --hostfile "$work/pair.hosts" >"$work/out" 2>&1
check "a new job keeps off a running job's route on shared links" \
  test "$(sort "$work/pair.hosts" | tr '\n' ' ')" = "n10 n9 " -a -n "$(grep '0.0% of its link traffic' "$work/out")"
checks_done
