#!/bin/bash
# tofa-harness run on 512 nodes with the shipped 200-job trace, twice with the
# same seed: every job is placed exactly once and no node is oversubscribed,
# failing and frozen nodes' estimates rise above the healthy ones', the
# seeded stream reproduces exactly (auto aside: it is time-budgeted), the
# report's charts exist.
# Needs root and the plugins (exit 77 = skip otherwise).
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
HARNESS=$top_builddir/tools/harness/tofa-harness
HOST=${TOFA_HARNESS_HOST:-$top_builddir/plugins/harness/.libs/tofa_harness_host.so}

# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (private munged, SlurmUser=root)"
[ -x "$HARNESS" ] || skip "$HARNESS is not built"
[ -f "$HOST" ] || skip "$HOST is not built (configure --with-slurm-source)"
[ -x /usr/sbin/munged ] || skip "munged is not installed"

WORK=$(mktemp -d /tmp/tofa-harness-test.XXXXXX) || exit 1
chmod 0755 "$WORK"   # munged runs as the munge user below it
at_exit rm -rf "$WORK"
run() {  # NAME: one run into $WORK/NAME
    "$HARNESS" run --topology torus:8x8x8 --rounds 100 --interval 0.02 --timeout 0.1 --seed 7 \
        --swf "$top_srcdir/examples/harness/small.swf" --stream-outage truth \
        --strategies default-slurm,tofa,auto,mc1x1,snake \
        --dir "$WORK/$1" --json "$WORK/$1.json" --charts "$WORK/$1-charts" \
        > "$WORK/$1.out" 2> "$WORK/$1.err" || { cat "$WORK/$1.err"; return 1; }
}
run a || { fail "tofa-harness run"; exit 1; }
run b || { fail "tofa-harness run (again)"; exit 1; }

python3 - "$WORK/a.json" "$WORK/b.json" "$WORK/a-charts" >"$WORK/checks.out" 2>&1 <<'PY'
import json, os, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
charts = sys.argv[3]
failures = 0
def check(ok, what):
    global failures
    print(("PASS: " if ok else "FAIL: ") + what)
    failures += not ok

jobs = a["stream"]["jobs"]
for s in a["strategies"]:
    name = s["strategy"]
    check(s["jobs_started"] + s["jobs_rejected"] == jobs,
          f"{name}: every one of the {jobs} jobs started or was rejected, exactly once")
    # Only a job larger than the nodes at or below OutageThreshold may be
    # refused (TOFA strategies leave the others out, OnlyFailingNodesFit=wait).
    healthy = a["cluster"]["nodes"] - (0 if name in ("default-slurm", "mc1x1", "snake")
                                       else a["nodes_above_outage_threshold"])
    check(s["jobs_rejected"] == 0 or s["smallest_rejected_job"] > healthy * a["cluster"]["cores_per_node"],
          f"{name}: only jobs larger than the usable nodes were refused ({s['jobs_rejected']})")
    check(s["oversubscribed_starts"] == 0, f"{name}: no node ran more tasks than its CPUs")
check(a["plugins"]["graphs_uploaded"] > 0, "graphs went up through tofa_loadmatrix.so")
hb = a["heartbeat"]
check(hb["sessions"] >= a["cluster"]["nodes"] - a["failures"]["frozen_nodes"] - 5,
      f"nodes heartbeated over UDP sessions ({hb['sessions']})")
est = hb["mean_estimate"]
check(est["failing"] > 2 * est["healthy"] + 0.005,
      f"failing nodes' estimates rose ({est['failing']:.4f} vs healthy {est['healthy']:.4f})")
check(a["failures"]["frozen_nodes"] == 0 or est["frozen"] > 0.3,
      f"frozen responders' estimates rose ({est['frozen']:.3f})")
timing = {"seconds", "placement_latency_ms", "placement_latency_by_size", "jobs_csv"}
strip = lambda s: {k: v for k, v in s.items() if k not in timing}
# auto works within a time budget (PlacementBudget): its placements depend on
# the machine's speed and load, so it is left out of the comparison.
timed = {"auto"}
check([strip(s) for s in a["strategies"] if s["strategy"] not in timed] ==
      [strip(s) for s in b["strategies"] if s["strategy"] not in timed],
      "the seeded job stream reproduces exactly (every strategy but the time-budgeted auto)")
for s in a["strategies"]:
    if s["strategy"] not in timed:
        other = s["jobs_csv"].replace("/a/", "/b/")
        check(open(s["jobs_csv"]).read() == open(other).read(),
              f"{s['strategy']}: every job's start, nodes' metrics and P(abort) reproduce")
check(a["failures"]["events"]["failures"] > 0 and a["failures"]["events"]["repairs"] > 0,
      f"the failure model drew failures and repairs ({a['failures']['events']})")
# The events depend on how many rounds ran, which is real time; the drawn model does not.
drawn = lambda f: {k: v for k, v in f.items() if k != "events"}
check(drawn(a["failures"]) == drawn(b["failures"]), "the seeded failure model reproduces exactly")
# The seed Bunde's mappers on MC1x1's and snake's allocations: one task per
# node here, so no edge is shorter than a hop; INCIMPROVE starts from RCB and
# only keeps improving swaps.
for s in a["strategies"]:
    if s["strategy"] in ("mc1x1", "snake"):
        composed = s["bunde"]["mappers"]
        hops = composed["average_hops"]
        check(composed["jobs"] > 0 and composed["jobs"] + composed["uneven_allocations"] == s["bunde"]["jobs"]
              and len(hops) == 10 and min(hops.values()) >= 1.0
              and hops["stencil-incimprove"] <= hops["stencil-rcb"] + 1e-9,
              f"{s['strategy']}: the seed's 9 mappers and its baseline scored on {composed['jobs']} allocations "
              f"(rcb {hops['stencil-rcb']:.2f}, incimprove {hops['stencil-incimprove']:.2f}, "
              f"baseline {hops['stencil-baseline']:.2f})")
for chart in ("harness-accuracy", "harness-strategies", "harness-latency", "harness-bunde"):
    check(os.path.getsize(os.path.join(charts, chart + ".svg")) > 0, f"{chart}.svg written")
sys.exit(1 if failures else 0)
PY
rc=$?
cat "$WORK/checks.out"
count_lines "$WORK/checks.out"
[ "$rc" -eq 0 ] || grep -q '^FAIL: ' "$WORK/checks.out" || fail "the checks of the report exited with status $rc"
checks_done
