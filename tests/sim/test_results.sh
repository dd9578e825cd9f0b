#!/usr/bin/env bash
# scripts/sim-results.py --quick end to end (tiny sizes; the real run is
# `make results`): every strategy x case is simulated and reported, and the
# two paths agree: a fault-unaware strategy's batch reuses the placement of
# its fault-free run, so its fault-free batch time equals that run's time,
# and a batch without aborts takes exactly instances x that time.
# Prints "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

python3 "$top_srcdir/scripts/sim-results.py" --quick --jobs 2 --json "$work/r.json" \
  --docs "$work/docs" --readme "" >"$work/log" 2>&1 || cat "$work/log"
check "the quick run writes its JSON" test -s "$work/r.json"
for f in sim-results.md sim-fig3a.png sim-fig3b.png sim-table1.png sim-dt-16.png sim-md-8.png \
  sim-md-16.png; do
  check "it writes docs/$f" test -s "$work/docs/$f"
done
check "the report has every figure" grep -q "Figures 4 and 5" "$work/docs/sim-results.md"

python3 - "$work/r.json" >"$work/checks" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
strategies = ["default-slurm", "random", "greedy", "torus3d", "tofa", "auto"]
size = doc["size"]
singles = {(r["arrangement"], json.dumps(r["app"], sort_keys=True), r["strategy"]): r
           for r in doc["singles"]}
def ok(name, cond):
    print(("ok" if cond else "not ok") + " - " + name)
for kind, cls in size["dt"]:
    app = json.dumps({"app": "dt", "kind": kind, "class": cls}, sort_keys=True)
    ok(f"dt {kind} {cls}: every strategy ran",
       all(("8x8x8", app, s) in singles and singles[("8x8x8", app, s)]["time"] > 0
           for s in strategies))
for arr in size["arrangements"]:
    app = json.dumps({"app": "md", "ranks": size["md"][-1], "steps": size["steps"]},
                     sort_keys=True)
    ok(f"md on {arr}: steps per second for default-slurm, torus3d, tofa, auto",
       all(singles[(arr, app, s)]["steps_per_second"] > 0
           for s in ["default-slurm", "torus3d", "tofa", "auto"]))
batches = {(r["app"]["app"], r["failing_nodes"], r["strategy"]): r for r in doc["batches"]}
ok("3 batch scenarios x 4 strategies",
   len(batches) == 12 and {k[:2] for k in batches} == {("dt", 16), ("md", 8), ("md", 16)})
dt = json.dumps({"app": "dt", "kind": size["dt"][0][0], "class": size["dt"][0][1]},
                sort_keys=True)
for s in ["default-slurm", "torus3d"]:
    b = batches[("dt", 16, s)]
    single = singles[("8x8x8", dt, s)]["time"]
    ok(f"{s}: one placement for every batch, fault-free time = the single run's",
       b["distinct_placements"] == 1 and
       all(abs(x["fault_free_time"] - single) <= 1e-12 * single for x in b["batches"]))
    per_batch = b["instances"] // len(b["batches"])
    ok(f"{s}: a batch without aborts takes instances x the fault-free time",
       all(abs(x["completion_time"] - per_batch * x["fault_free_time"]) <= 1e-9 * x["completion_time"]
           for x in b["batches"] if x["abort_ratio"] == 0) and
       all(x["completion_time"] > per_batch * x["fault_free_time"]
           for x in b["batches"] if x["abort_ratio"] > 0))
PY
while read -r status rest; do
  case $status in
    ok) passed=$((passed + 1)); echo "ok $rest" ;;
    *) failed=$((failed + 1)); echo "$status $rest" ;;
  esac
done <"$work/checks"
grep -q "^ok - 3 batch" "$work/checks" || { failed=$((failed + 1)); cat "$work/checks"; }
summary
