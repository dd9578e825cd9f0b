#!/usr/bin/env python3
"""How placement time and memory grow with the job (issue 12, item 4).

Each strategy maps geometric neighbour graphs (tofa-map's geometric:N: the 6
nearest of N random points in a cube, ranks shuffled) onto tori of up to
65,536 nodes, one tofa-map process per placement, so that its peak resident
size is the placement's. `auto` gets the PlacementBudget the service gives a
job of that size. The 85-task target is measured through the select path by
bench/bench_service. Writes out/scaling.json, docs/scaling.md, the log-log
charts docs/scaling-time.svg/.png and docs/scaling-memory.svg/.png, and the
table of targets into docs/results.md.

    python3 bench/scaling.py [--quick]     # --quick: up to 4096 tasks
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from bench_service import service_results  # noqa: E402
from readme_block import replace_readme_block  # noqa: E402
from svg_lines import loglog_lines  # noqa: E402

# (tasks, torus): about one task per node from 1024 tasks on.
SIZES = [(128, "8x8x8"), (1024, "16x16x16"), (4096, "16x16x16"), (16384, "32x32x16"),
         (32768, "32x32x32"), (65536, "64x32x32")]
STRATEGIES = ["default-slurm", "greedy", "tofa", "embed", "auto"]
# Issue 12's speed targets: tasks -> milliseconds (medians, in process).
TARGET_MS = {1024: 100, 32768: 2000, 65536: 5000}
TARGET_MIB_AT_65536 = 1024
PLACEMENT_BUDGET_MS = 20  # tofa.conf PlacementBudget's default (ServiceSettings)


def tool(name):
    return os.environ.get("TOFA_MAP", os.path.join(ROOT, "tools", name))


def run_placement(tasks, torus, strategy):
    """One tofa-map process: (mapping ms, peak RSS MiB, edges, hop-bytes)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [tool("tofa-map"), "--topology", "torus:" + torus, "--graph", f"geometric:{tasks}",
                   "--strategy", strategy, "--json", out.name]
        if strategy == "auto":
            command += ["--placement-budget", str(PLACEMENT_BUDGET_MS)]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        if status != 0:
            raise RuntimeError(f"{' '.join(command)}: {process.stderr.read().decode()[-400:]}")
        report = json.load(open(out.name))
    result = report["results"][0]
    return result["time_ms"], usage.ru_maxrss / 1024, report["edges"], result["metrics"]["hop_bytes"]


def slope(points):
    """Least-squares exponent b of y = a x^b."""
    if len(points) < 2:
        return None
    lx = [math.log(x) for x, _ in points]
    ly = [math.log(y) for _, y in points]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    sxx = sum((x - mx) ** 2 for x in lx)
    return sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sxx if sxx else None


def progress(text):
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()


def write_chart(path, title, y_label, series, targets, note):
    with open(path, "w") as f:
        f.write(loglog_lines(title, "tasks", y_label, series, targets, note))
    subprocess.run(["rsvg-convert", path, "-o", path[:-4] + ".png"], check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 4096 tasks")
    args = parser.parse_args()
    sizes = [s for s in SIZES if not args.quick or s[0] <= 4096]
    started = time.time()
    rows = []
    for i, (tasks, torus) in enumerate(sizes):
        for strategy in STRATEGIES:
            progress(f"[{i + 1}/{len(sizes)}] {tasks} tasks on {torus}: {strategy}")
            ms, mib, edges, hop_bytes = run_placement(tasks, torus, strategy)
            rows.append({"tasks": tasks, "torus": torus, "edges": edges, "strategy": strategy,
                         "ms": ms, "peak_mib": mib, "hop_bytes": hop_bytes})
    progress("bench_service (85 tasks, select path)")
    service = service_results(ROOT)
    progress("")
    seconds = time.time() - started

    def series(key):
        return [(s, [(r["tasks"], r[key]) for r in rows if r["strategy"] == s]) for s in STRATEGIES]

    growth = {s: {"time_vs_tasks": slope(p), "time_vs_edges": slope(
        [(r["edges"], r["ms"]) for r in rows if r["strategy"] == s])} for s, p in series("ms")}
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
    report = {"benchmark": "scaling", "revision": revision, "seconds": seconds, "quick": args.quick,
              "placement_budget_ms": PLACEMENT_BUDGET_MS, "rows": rows, "growth": growth,
              "service_85_tasks_ms": {s: r["median_ms"] for s, r in service.items()}}
    os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
    with open(os.path.join(ROOT, "out", "scaling.json"), "w") as f:
        json.dump(report, f, indent=2)

    docs = os.path.join(ROOT, "docs")
    targets = [(t, ms, f"{ms:g} ms") for t, ms in TARGET_MS.items() if any(r["tasks"] == t for r in rows)]
    write_chart(os.path.join(docs, "scaling-time.svg"), "Placement time (tofa-map, one process each)",
                "milliseconds", series("ms"), targets, "x: issue 12's targets")
    write_chart(os.path.join(docs, "scaling-memory.svg"), "Peak resident size of the placement process",
                "MiB", series("peak_mib"),
                [(65536, TARGET_MIB_AT_65536, "1 GiB")] if any(r["tasks"] == 65536 for r in rows) else [],
                "x: issue 12's target")
    write_markdown(os.path.join(docs, "scaling.md"), report, service)
    update_readme(os.path.join(docs, "scaling.md"))
    print(f"out/scaling.json, docs/scaling.md, docs/scaling-*.svg/png and docs/results.md written ({seconds:.0f} s)")


def update_readme(report_path):
    """Copies the report's table of targets between docs/results.md's scaling markers,
    without the 85-task row: the README gives that latency once, in the
    results block (scripts/update-results.sh, the same bench_service)."""
    report = open(report_path).read()
    table = report.split("## Targets (issue 12, item 4)\n\n", 1)[1].split("\n\n", 1)[0]
    table = "\n".join(line for line in table.split("\n") if not line.startswith("| 85 tasks"))
    replace_readme_block(os.path.join(ROOT, "docs", "results.md"), "scaling", table)


def verdict(value, goal):
    return "met" if value <= goal else "missed"


def kept_scheduler_path(path):
    """The scheduler-path block of the existing report, its markers and stamp
    included: bench/scheduler_path.py writes it, this script only keeps it."""
    try:
        text = open(path).read()
    except FileNotFoundError:
        text = ""
    found = re.search(r"<!-- scheduler-path:begin[^>]*-->\n.*?<!-- scheduler-path:end -->", text, re.S)
    return found.group(0) if found else ("<!-- scheduler-path:begin -->\nNot measured yet: run "
                                         "`python3 bench/scheduler_path.py`.\n<!-- scheduler-path:end -->")


def write_markdown(path, report, service):
    rows = report["rows"]
    lines = ["# Placement time and memory against job size",
             "",
             f"Generated by `python3 bench/scaling.py{' --quick' if report['quick'] else ''}` at "
             f"{report['revision']} in {report['seconds']:.0f} s on this 2-core machine; JSON: "
             "`out/scaling.json`. Each placement is one `tofa-map` process (time: its mapping, "
             "memory: the process's peak resident size, graph included) on a geometric neighbour "
             "graph (`geometric:N`: 6 nearest of N random points in a cube, ranks shuffled); `auto` "
             f"runs within the PlacementBudget the service gives that job "
             f"({report['placement_budget_ms']:g} ms at 128 tasks, growing as tasks^0.8).",
             "",
             "## Targets (issue 12, item 4)",
             "",
             "| target | goal | " + " | ".join(f"`{s}`" for s in STRATEGIES) + " |",
             "|---|---|" + "---:|" * len(STRATEGIES)]
    lines.append("| 85 tasks on 512 nodes through the select path (bench_service, median) | <= 10 ms | " +
                 " | ".join(f"{service[s]['median_ms']:.1f} ({verdict(service[s]['median_ms'], 10)})"
                            if s in service else "n/a" for s in STRATEGIES) + " |")
    for tasks, goal in TARGET_MS.items():
        cells = []
        for s in STRATEGIES:
            r = next((r for r in rows if r["tasks"] == tasks and r["strategy"] == s), None)
            cells.append(f"{r['ms']:.0f} ({verdict(r['ms'], goal)})" if r else "not run")
        lines.append(f"| {tasks} tasks, ms | <= {goal} | " + " | ".join(cells) + " |")
    cells = []
    for s in STRATEGIES:
        r = next((r for r in rows if r["tasks"] == 65536 and r["strategy"] == s), None)
        cells.append(f"{r['peak_mib']:.0f} ({verdict(r['peak_mib'], TARGET_MIB_AT_65536)})" if r else "not run")
    lines.append(f"| peak memory at 65,536 tasks, MiB | <= {TARGET_MIB_AT_65536} | " + " | ".join(cells) + " |")
    lines += ["", "## How cost grows", "",
              "Least-squares exponent b of time = a x^b over the sizes run (1 = linear):", "",
              "| strategy | b against tasks | b against edges |", "|---|---:|---:|"]
    for s in STRATEGIES:
        g = report["growth"][s]
        fmt = lambda v: "n/a" if v is None else f"{v:.2f}"  # noqa: E731
        lines.append(f"| `{s}` | {fmt(g['time_vs_tasks'])} | {fmt(g['time_vs_edges'])} |")
    lines += ["", "![placement time](scaling-time.png)", "", "![peak memory](scaling-memory.png)", "",
              "## Time in slurmctld's scheduler", "",
              kept_scheduler_path(path), "",
              "## Every placement", "",
              "| tasks | torus | edges | strategy | ms | peak MiB | hop-bytes |",
              "|---:|---|---:|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['tasks']} | {r['torus']} | {r['edges']} | `{r['strategy']}` | "
                     f"{r['ms']:.1f} | {r['peak_mib']:.0f} | {r['hop_bytes']:.4g} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
