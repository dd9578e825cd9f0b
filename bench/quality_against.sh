#!/usr/bin/env bash
# bench/quality.sh's scenarios against an earlier commit, in the same run:
# builds COMMIT's bench/bench_quality in a worktree (/tmp/tofa-quality-COMMIT),
# then runs it and this tree's in turn, RUNS times each, `--quick` (without
# the two 32x32x32 cases), and compares `auto` case by case on the graphs and
# machines both have: the median hop-bytes of this tree over COMMIT's (the
# anchors of (a)-(d) changed over time, auto's hop-bytes on the same case
# did not), their geometric mean per scenario, and the cases where P(abort) > 0
# although the fault-free candidates hold the job. Budgeted searches do less on
# a loaded or slower machine, so only a comparison within one run means much.
# Writes out/quality-against-COMMIT.json.
#   bench/quality_against.sh COMMIT [RUNS]     (RUNS: 3; about 1 minute a run)
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then sed -n "12p" "$0" | sed "s/^# *//" >&2; exit 2; fi
commit=$(git rev-parse --short "$1")
runs=${2:-3}
cd "$(dirname "$0")/.."
[ -f Makefile ] || bash scripts/build.sh
make -s -j2 bench/bench_quality
other=/tmp/tofa-quality-$commit
if [ ! -x "$other/bench/bench_quality" ]; then
  rm -rf "$other"
  git worktree prune
  git worktree add -f --detach "$other" "$commit" >/dev/null
  echo "building $commit's bench_quality in $other (a few minutes)" >&2
  (cd "$other" && bash scripts/build.sh >/dev/null && make -s -j2 bench/bench_quality)
fi
mkdir -p out
results=$(mktemp -d /tmp/tofa-quality-against-XXXXXX)
trap 'rm -rf "$results"' EXIT
for run in $(seq 1 "$runs"); do
  for side in before after; do
    dir=$PWD
    [ "$side" = before ] && dir=$other
    echo "run $run of $runs: $side" >&2
    (cd "$dir" && ./bench/bench_quality --quick --strategies auto 2>/dev/null) >"$results/$side-$run.json"
  done
done
python3 - "$results" "$commit" "$runs" "out/quality-against-$commit.json" <<'PY'
import glob, json, math, os, statistics, sys
folder, commit, runs, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def cases(side):
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, side + "-*.json"))):
        for c in json.load(open(path))["cases"]:
            rows = [r for r in c.get("results", c.get("rows", [])) if r["strategy"] == "auto"]
            if not rows:
                continue
            key = (c["scenario"], c["machine"], c["graph"])
            entry = found.setdefault(key, {"hop_bytes": [], "aborts": 0,
                                           "must_not_abort": c.get("fault_free_fits", False)
                                           and c.get("failing_candidates", 0) > 0})
            entry["hop_bytes"].append(rows[0]["hop_bytes"])
            entry["aborts"] += rows[0]["abort_probability"] > 0
    return found

then, now = cases("before"), cases("after")
report = {"commit": commit, "runs": runs, "scenarios": {}}
for scenario in sorted({k[0] for k in now}):
    shared = sorted(k for k in now if k[0] == scenario and k in then)
    if not shared:
        continue
    ratios = [statistics.median(now[k]["hop_bytes"]) / statistics.median(then[k]["hop_bytes"])
              for k in shared if statistics.median(then[k]["hop_bytes"]) > 0]
    mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
    aborts = lambda side: sum(side[k]["aborts"] for k in shared if side[k]["must_not_abort"])
    report["scenarios"][scenario] = {
        "cases": len(shared), "hop_bytes_now_over_then": mean,
        "worst_case": max(ratios) if ratios else None,
        "abort_runs_now": aborts(now), "abort_runs_then": aborts(then)}
json.dump(report, open(out, "w"), indent=2)
print(f"auto at HEAD against {commit}, {runs} runs each, cases both have:")
print("| scenario | cases | hop-bytes, HEAD / " + commit + " (geometric mean of medians) | worst case | runs with P(abort) > 0 where the fault-free candidates hold the job: HEAD / " + commit + " |")
print("|---|---:|---:|---:|---|")
for scenario, r in report["scenarios"].items():
    print(f"| ({scenario}) | {r['cases']} | {r['hop_bytes_now_over_then']:.3f} | {r['worst_case']:.3f} | "
          f"{r['abort_runs_now']} / {r['abort_runs_then']} |")
print(f"written to {out}", file=sys.stderr)
PY
