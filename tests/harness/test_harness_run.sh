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

top_srcdir="$top_srcdir" python3 - "$WORK/a.json" "$WORK/b.json" "$WORK/a-charts" >"$WORK/checks.out" 2>&1 <<'PY'
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
timing = {"seconds", "mapping_drain_seconds", "placement_latency_ms", "placement_latency_by_size",
          "jobs_csv"}
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
# The charts (scripts/harness-charts.py): each SVG parsed, its bars' values
# (or the accuracy curves' points) those of the report, and its PNG decoded
# here: signature, chunk CRCs, IHDR size = the SVG's, IDAT inflating to
# height x (1 + width x bytes per pixel), every bar or point drawn in its colour.
import math
import xml.etree.ElementTree as ET
sys.path.insert(0, os.path.join(os.environ["top_srcdir"], "tests", "lib"))
from png_decode import read_png
SVG = "{http://www.w3.org/2000/svg}"
rgb = lambda hex_color: tuple(bytes.fromhex(hex_color[1:])) + (255,)
def chart_problem(name, expected=None, groups=0, series=0):
    """None if NAME.svg draws `expected` ("series, group" -> value) as bars
    (or the accuracy samples as two curves) and NAME.png shows them, else why not."""
    try:
        root = ET.parse(os.path.join(charts, name + ".svg")).getroot()
        w, h, pixels = read_png(os.path.join(charts, name + ".png"))
        assert (str(w), str(h)) == (root.get("width"), root.get("height")), (w, h, root.attrib)
        assert pixels[0][0] == pixels[h - 1][w - 1] == (255, 255, 255, 255), "background not white"
        if expected is None:  # scripts/lib/svg_lines.py: 680 x 440, a polyline and a dot per sample
            assert (w, h) == (680, 440), (w, h)
            samples = [s for s in a["heartbeat"]["accuracy"] if s["round"] > 0]
            lines = list(root.iter(SVG + "polyline"))
            assert [len(l.get("points").split()) for l in lines] == [len(samples)] * 2 and samples, len(samples)
            dots = list(root.iter(SVG + "circle"))
            assert len(dots) == 2 * len(samples), len(dots)
            last = [d for d in dots if d.get("fill") == lines[-1].get("stroke")]
            at = lambda d: pixels[int(float(d.get("cy")))][int(float(d.get("cx")))]
            assert all(at(d) == rgb(d.get("fill")) for d in last), "the last curve's dots not drawn"
            assert sum(at(d) == rgb(d.get("fill")) for d in dots) >= 0.9 * len(dots), "dots not drawn"
            return None
        # scripts/lib/svg_bars.py's size for these groups and series.
        assert (w, h) == (max(640, 90 + groups * (24 + 14 * series)), 420), (w, h)
        bars = {}
        for rect in root.iter(SVG + "rect"):
            title = rect.find(SVG + "title")
            if title is not None:
                label, shown = title.text.rsplit(": ", 1)
                bars[label] = (float(shown), rect)
        assert sorted(bars) == sorted(expected), sorted(set(bars) ^ set(expected))
        for label, (shown, rect) in bars.items():
            assert math.isclose(shown, expected[label], rel_tol=5e-4), (label, shown, expected[label])
            x, y, bw, bh = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
            if bh >= 4:
                assert pixels[int(y + bh / 2)][int(x + bw / 2)] == rgb(rect.get("fill")), (label, "not drawn")
            assert pixels[int(y) - 3][int(x + bw / 2)] != rgb(rect.get("fill")), (label, "drawn taller")
        return None
    except (AssertionError, OSError, ET.ParseError, KeyError, ValueError) as e:
        return f"{type(e).__name__}: {e}"
def named(expected, what):
    problem = chart_problem(*expected)
    check(problem is None, what + (f" ({problem})" if problem else ""))
names = [s["strategy"] for s in a["strategies"]]
named(("harness-accuracy",), "harness-accuracy.svg/.png: both error curves, a dot per sample")
served = [s for s in a["strategies"] if s["placement_latency_ms"]["calls"] > 0]
named(("harness-latency", {f"{k}, {s['strategy']}": s["placement_latency_ms"][k]
                           for s in served for k in ("p50", "p95", "p99")}, len(served), 3),
      f"harness-latency.svg/.png: p50, p95, p99 of the {len(served)} served strategies")
metrics = {"hop-bytes": "mean_hop_bytes", "P(abort)": "mean_abort_probability",
           "completion proxy": "completion_proxy_ratio", "mean wait": "mean_wait"}
base = a["strategies"][0]
named(("harness-strategies", {f"{m}, {s['strategy']}": s[k] / base[k] for s in a["strategies"]
                              for m, k in metrics.items() if base[k]}, len(names), 4),
      f"harness-strategies.svg/.png: 4 metrics of {len(names)} strategies relative to {base['strategy']}")
composed = [s for s in a["strategies"] if "mappers" in s.get("bunde", {})]
short = {"stencil-colmajor": "colmaj.", "stencil-rowmajor": "rowmaj.", "stencil-allcorners": "allcorn.",
         "stencil-twowayoverlay": "2-way ov.", "stencil-incimprove": "incimpr."}
named(("harness-bunde", {f"{s['strategy']} ({s['bunde']['mappers']['jobs']} jobs), "
                         f"{short.get(m, m.replace('stencil-', ''))}": v
                         for s in composed for m, v in s["bunde"]["mappers"]["average_hops"].items()},
       10, len(composed)),
      f"harness-bunde.svg/.png: 10 mappers' average hops for {len(composed)} allocators")
sys.exit(1 if failures else 0)
PY
rc=$?
cat "$WORK/checks.out"
count_lines "$WORK/checks.out"
[ "$rc" -eq 0 ] || grep -q '^FAIL: ' "$WORK/checks.out" || fail "the checks of the report exited with status $rc"
checks_done
