#!/usr/bin/env bash
# scripts/sim-results.py --quick end to end (tiny recordings; the real run is
# `make results`): every strategy x case x network model is simulated and
# reported, and the two paths agree: a fault-unaware strategy's batch reuses
# the placement of its fault-free run, so its fault-free batch time equals
# that run's time, and a batch without aborts takes exactly instances x that
# time. Jobs sharing the torus are not faster than alone (beyond 5%). A
# second run replays the first one's recordings from the cache.
# Prints "N passed, N failed".
set -u
. "$(dirname "$0")/lib.sh"

python3 "$top_srcdir/scripts/sim-results.py" --quick --jobs 2 --json "$work/r.json" \
  --docs "$work/docs" --readme "" --recordings-cache "$work/cache" >"$work/log" 2>&1 || cat "$work/log"
check "the JSON holds one run per planned case (72 singles, 24 batches), none empty" \
  python3 - "$work/r.json" <<'PY'
import json, math, sys
doc = json.load(open(sys.argv[1]))
assert doc["size_name"] == "quick", doc["size_name"]
S = ["default-slurm", "random", "greedy", "torus3d", "tofa", "auto"]
T = ["default-slurm", "torus3d", "tofa", "auto"]
T1 = ["default-slurm", "tofa", "auto"]
M = [["shared", "on"], ["shared", "off"], ["split-duplex", "on"], ["split-duplex", "off"]]
NET = ["shared", "on", "network only"]
DIRECT = ["split-duplex", "off", "direct links"]
size = doc["size"]
dt = [{"app": "dt", "kind": k, "class": c} for k, c in size["dt"]]
lm = [{"app": "lammps", "ranks": r, "steps": size["steps"]} for r in size["lammps"]]
key = lambda arr, app, s, m: (arr, json.dumps(app, sort_keys=True), s, tuple(m))
want = [key("8x8x8", a, s, m) for a in dt for s in S for m in M + [NET]]
want += [key("8x8x8", a, s, M[0]) for a in lm for s in S]
want += [key(arr, lm[-1], s, M[0]) for arr in size["arrangements"][1:] for s in T1]
mix_apps = [{"app": "dt", "kind": m[1], "class": m[2]} if m[0] == "dt"
            else {"app": "lammps", "ranks": m[1], "steps": size["steps"]} for m in size["mix"]]
floors = [dt[0], {"app": "lammps", "ranks": size["batch_lammps"], "steps": size["steps"]}] + mix_apps
want += [key("8x8x8", a, "default-slurm", DIRECT) for a in {json.dumps(a, sort_keys=True): a
                                                            for a in floors}.values()]
got = [key(r["arrangement"], r["app"], r["strategy"], r["model"]) for r in doc["singles"]]
assert len(want) == 72 and sorted(got) == sorted(want), set(got) ^ set(want)
direct = {json.dumps(r["app"], sort_keys=True): r["time"] for r in doc["singles"] if r["model"] == DIRECT}
for r in doc["singles"]:  # direct links are a floor for every placement on the torus
    # ("network only" leaves the computation out: no floor there)
    floor = direct.get(json.dumps(r["app"], sort_keys=True))
    if floor and r["arrangement"] == "8x8x8" and r["model"] not in (DIRECT, NET):
        assert r["time"] >= floor * (1 - 1e-9), (r, floor)
for r in doc["singles"]:
    assert r["nodes_used"] == r["tasks"] > 0 and r["hop_bytes"] > 0 and 0 < r["time"] < 10, r
    assert (r["app"]["app"] == "lammps") == (r["steps_per_second"] is not None), r
    if r["app"]["app"] == "lammps":
        assert r["tasks"] == r["app"]["ranks"] and r["steps_per_second"] > 0, r
got = sorted((r["app"]["app"], r["failing_nodes"], r["strategy"], tuple(r["model"])) for r in doc["batches"])
assert got == sorted([("dt", 16, s, tuple(m)) for m in M for s in T]
                     + [("lammps", f, s, tuple(M[0])) for f in (8, 16) for s in T]), got
mix = len(size["mix"])
for r in doc["share"]:
    assert len(r["jobs"]) == mix, r
    for j in r["jobs"]:
        # max-min sharing is not monotone: another job's flows can reorder a
        # job's own and relieve its own contention a little
        assert j["shared_time"] >= j["alone_time"] * 0.95 > 0, j
assert sorted(r["strategy"] for r in doc["share"]) == sorted(["default-slurm", "greedy", "tofa", "auto"])
assert len(doc["share_batches"]) == 3 * size["share_batches"], len(doc["share_batches"])
for b in doc["share_batches"]:
    assert len(b["jobs"]) == mix and len(b["outage_nodes"]) == 16, b
    for j in b["jobs"]:
        assert j["completion_time"] >= j["instances"] * j["fault_free_time"] * (1 - 1e-9) > 0, j
for b in doc["batches"]:
    assert b["instances"] > 0 and len(b["batches"]) > 1 and b["instances"] % len(b["batches"]) == 0, b
    assert b["aborted_instances"] == round(b["abort_ratio"] * b["instances"]), b
    mean = sum(x["completion_time"] for x in b["batches"]) / len(b["batches"])
    assert math.isclose(b["mean_completion_time"], mean, rel_tol=1e-9), (b["mean_completion_time"], mean)
PY
check "docs/sim-results.md: each table row gives the JSON's numbers, every chart is shown" \
  python3 - "$work/r.json" "$work/docs/sim-results.md" <<'PY'
import json, math, re, sys
doc = json.load(open(sys.argv[1]))
md = open(sys.argv[2]).read()
S = ["default-slurm", "random", "greedy", "torus3d", "tofa", "auto"]
T = ["default-slurm", "torus3d", "tofa", "auto"]
T1 = ["default-slurm", "tofa", "auto"]
def rows(prefix):  # the cells of the table rows whose first cell starts with prefix
    return [[c.strip() for c in line.strip("|").split("|")] for line in md.splitlines()
            if line.startswith("| " + prefix)]
def number(cell):
    return float(re.match(r"[-+\d.e]+", cell).group(0))
def same(cell, value, digits):  # the cell shows value to `digits` significant digits
    return math.isclose(number(cell), value, rel_tol=0.6 * 10 ** (1 - digits), abs_tol=0.5 if digits == 0 else 0)
single = {(r["arrangement"], json.dumps(r["app"], sort_keys=True), r["strategy"]): r
          for r in doc["singles"] if r["model"] == ["shared", "on"]}
get = lambda arr, app, s: single[(arr, json.dumps(app, sort_keys=True), s)]
size = doc["size"]
for kind, cls in size["dt"]:
    app = {"app": "dt", "kind": kind, "class": cls}
    base = get("8x8x8", app, "default-slurm")
    found = rows(f"DT {kind.upper()} class {cls}, {base['tasks']} ranks |")
    assert len(found) == 1, (kind, found)
    for s, cell in zip(S, found[0][1:], strict=True):
        r = get("8x8x8", app, s)
        assert same(cell, r["time"], 4), (s, cell, r["time"])
        if s != "default-slurm":
            change = 100 * (r["time"] / base["time"] - 1)
            assert f"({change:+.1f}%)" in cell, (s, cell, change)
for ranks in size["lammps"]:
    app = {"app": "lammps", "ranks": ranks, "steps": size["steps"]}
    found = rows(f"{ranks} |")
    assert len(found) == 1, found
    for s, cell in zip(S, found[0][1:], strict=True):
        assert same(cell, get("8x8x8", app, s)["steps_per_second"], 0), (s, cell)
largest = {"app": "lammps", "ranks": size["lammps"][-1], "steps": size["steps"]}
for arr in size["arrangements"]:
    found = rows(f"{arr} |")
    assert len(found) == 1, found
    for s, cell in zip(T1, found[0][1:4], strict=True):
        assert same(cell, get(arr, largest, s)["steps_per_second"], 0), (arr, s, cell)
batch_rows = [r for r in rows("DT ") + rows("LAMMPS ") if len(r) == 7 and "failing nodes" in r[0]]
assert len(batch_rows) == 12, len(batch_rows)
for b in doc["batches"]:
    if b["model"] != ["shared", "on"]:
        continue
    label = b["strategy"] + (" (default)" if b["strategy"] == doc["default"] else "")
    found = [r for r in batch_rows if r[1] == label and f", {b['failing_nodes']} failing nodes" in r[0]
             and r[0].startswith("DT" if b["app"]["app"] == "dt" else "LAMMPS")]
    assert len(found) == 1, (b["strategy"], b["failing_nodes"], found)
    assert same(found[0][2], b["mean_completion_time"], 4), (found[0], b["mean_completion_time"])
    assert found[0][4] == f"{100 * b['abort_ratio']:.1f}% ({b['aborted_instances']} of {b['instances']})", found[0]
shown = re.findall(r"!\[\]\((sim-[\w-]+\.png)\)", md)
assert sorted(shown) == sorted(f"sim-{c}.png" for c in ("fig3a", "fig3b", "table1", "dt-16", "lammps-8", "lammps-16")), shown
PY
for f in sim-fig3a sim-fig3b sim-table1 sim-dt-16 sim-lammps-8 sim-lammps-16; do
  check "docs/$f.svg has a bar per strategy and case with the JSON's value; $f.png decodes to it" \
    env top_srcdir="$top_srcdir" python3 - "$work/r.json" "$work/docs" "$f" <<'PY'
import json, math, os, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, os.path.join(os.environ["top_srcdir"], "tests", "lib"))
from png_decode import read_png
doc = json.load(open(sys.argv[1]))
directory, chart = sys.argv[2], sys.argv[3]
S = ["default-slurm", "random", "greedy", "torus3d", "tofa", "auto"]
T = ["default-slurm", "torus3d", "tofa", "auto"]
T1 = ["default-slurm", "tofa", "auto"]
size = doc["size"]
single = {(r["arrangement"], json.dumps(r["app"], sort_keys=True), r["strategy"]): r
          for r in doc["singles"] if r["model"] == ["shared", "on"]}
get = lambda arr, app, s: single[(arr, json.dumps(app, sort_keys=True), s)]
expected = {}  # "series, group" -> the bar's value, as scripts/sim-results.py draws it
if chart in ("sim-fig3a", "sim-fig3b"):
    if chart == "sim-fig3a":
        apps = [({"app": "dt", "kind": k, "class": c}, f"DT {k.upper()} class {c}") for k, c in size["dt"]]
        value = lambda r: r["time"]
    else:
        apps = [({"app": "lammps", "ranks": n, "steps": size["steps"]}, f"{n} ranks") for n in size["lammps"]]
        value = lambda r: r["steps_per_second"]
    for app, group in apps:
        for s in S:
            expected[f"{s}, {group}"] = value(get("8x8x8", app, s)) / value(get("8x8x8", app, "default-slurm"))
    series, groups = S, [g for _, g in apps]
elif chart == "sim-table1":
    largest = {"app": "lammps", "ranks": size["lammps"][-1], "steps": size["steps"]}
    for arr in size["arrangements"]:
        for s in T1:
            expected[f"{s}, {arr}"] = get(arr, largest, s)["steps_per_second"]
    series, groups = T1, size["arrangements"]
else:
    kind, failing = chart.split("-")[1], int(chart.split("-")[2])
    for b in doc["batches"]:
        if b["app"]["app"] == kind and b["failing_nodes"] == failing and b["model"] == ["shared", "on"]:
            for i, x in enumerate(b["batches"]):
                expected[f"{b['strategy']}, {i + 1}"] = x["completion_time"]
            groups = [str(i + 1) for i in range(len(b["batches"]))]
    series = T
assert len(expected) == len(series) * len(groups) > 0, expected
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(os.path.join(directory, chart + ".svg")).getroot()
# scripts/lib/svg_bars.py's size for these groups and series.
width, height = max(640, 90 + len(groups) * (24 + 14 * len(series))), 420
assert (root.get("width"), root.get("height")) == (str(width), str(height)), root.attrib
bars = {}
for rect in root.iter(ns + "rect"):
    title = rect.find(ns + "title")
    if title is not None:
        label, shown = title.text.rsplit(": ", 1)
        bars[label] = (float(shown), rect)
assert sorted(bars) == sorted(expected), sorted(set(bars) ^ set(expected))
for label, (shown, _) in bars.items():
    assert math.isclose(shown, expected[label], rel_tol=5e-4), (label, shown, expected[label])
# The PNG, decoded here: signature, chunks' CRCs, IHDR, IDAT inflating to
# height rows of (filter byte + width pixels), unfiltered.
w, h, pixels = read_png(os.path.join(directory, chart + ".png"))
assert (w, h) == (width, height), (w, h, width, height)
opaque = lambda rgb: rgb + (255,)
assert pixels[0][0] == pixels[h - 1][w - 1] == opaque((255, 255, 255)), "background not white"
# Each bar as drawn: its fill at its middle, not its fill 3 px above its top.
for label, (_, rect) in bars.items():
    x, y, bw, bh = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
    fill = opaque(tuple(bytes.fromhex(rect.get("fill")[1:])))
    if bh >= 4:
        assert pixels[int(y + bh / 2)][int(x + bw / 2)] == fill, (label, "not drawn")
    assert pixels[int(y) - 3][int(x + bw / 2)] != fill, (label, "drawn taller")
PY
done

python3 - "$work/r.json" >"$work/checks" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
strategies = ["default-slurm", "random", "greedy", "torus3d", "tofa", "auto"]
size = doc["size"]
singles = {(r["arrangement"], json.dumps(r["app"], sort_keys=True), r["strategy"]): r
           for r in doc["singles"] if r["model"] == ["shared", "on"]}
def ok(name, cond):
    print(("ok" if cond else "not ok") + " - " + name)
for kind, cls in size["dt"]:
    app = json.dumps({"app": "dt", "kind": kind, "class": cls}, sort_keys=True)
    ok(f"dt {kind} {cls}: every strategy ran",
       all(("8x8x8", app, s) in singles and singles[("8x8x8", app, s)]["time"] > 0
           for s in strategies))
for arr in size["arrangements"]:
    app = json.dumps({"app": "lammps", "ranks": size["lammps"][-1], "steps": size["steps"]},
                     sort_keys=True)
    ok(f"LAMMPS on {arr}: steps per second for default-slurm, tofa, auto",
       all(singles[(arr, app, s)]["steps_per_second"] > 0
           for s in ["default-slurm", "tofa", "auto"]))
batches = {(r["app"]["app"], r["failing_nodes"], r["strategy"]): r for r in doc["batches"]
           if r["model"] == ["shared", "on"]}
ok("3 batch scenarios x 4 strategies",
   len(batches) == 12 and {k[:2] for k in batches} == {("dt", 16), ("lammps", 8), ("lammps", 16)})
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

# A second run replays the first run's recordings from the cache: the same
# traces, so the same block layout takes the same simulated time.
python3 "$top_srcdir/scripts/sim-results.py" --quick --jobs 2 --json "$work/again.json" \
  --docs "$work/docs-again" --readme "" --recordings-cache "$work/cache" >"$work/log" 2>&1 ||
  cat "$work/log"
check "a second run takes every recording from the cache and replays the same traces" \
  python3 - "$work/r.json" "$work/again.json" <<'PY'
import json, sys
first, again = (json.load(open(p)) for p in sys.argv[1:])
assert not any(r["cached"] for r in first["recordings"]), first["recordings"]
assert all(r["cached"] for r in again["recordings"]), again["recordings"]
for a, b in zip(first["recordings"], again["recordings"]):
    assert a["summary"].split(": ", 1)[1] == b["summary"].split(": ", 1)[1], (a, b)
block = lambda doc: {json.dumps([r["app"], r["model"]]): r["time"] for r in doc["singles"]
                     if r["strategy"] == "default-slurm" and r["arrangement"] == "8x8x8"}
assert block(first) == block(again), (block(first), block(again))
PY
check "the report says which recordings came from the cache" \
  grep -q "recordings taken from the cache" "$work/docs-again/sim-results.md"
summary
