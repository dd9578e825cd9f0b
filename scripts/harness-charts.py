#!/usr/bin/env python3
"""harness-charts.py REPORT.json DIR: the charts of a tofa-harness run, as
SVG and (with rsvg-convert) PNG: outage-estimate error over the rounds,
placement latency, the per-strategy stream metrics relative to the first
strategy (Slurm's block layout by default) and, for the MC1x1 and snake
allocators, the seed Bunde's mappers by average hops (its Figures 16-17)."""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
sys.path.insert(0, HERE)
from svg_bars import grouped_bars  # noqa: E402
from svg_lines import loglog_lines  # noqa: E402


# Axis labels of the seed's mappers, short enough not to run into each other.
SHORT = {"stencil-colmajor": "colmaj.", "stencil-rowmajor": "rowmaj.", "stencil-allcorners": "allcorn.",
         "stencil-twowayoverlay": "2-way ov.",
         "stencil-incimprove": "incimpr."}


def save(svg, directory, name):
    path = os.path.join(directory, name + ".svg")
    with open(path, "w") as out:
        out.write(svg)
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", path, "-o", path[:-4] + ".png"], check=True)
    return path


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: harness-charts.py REPORT.json DIR")
    with open(sys.argv[1]) as f:
        report = json.load(f)
    directory = sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    nodes = report["cluster"]["nodes"]
    samples = [s for s in report["heartbeat"]["accuracy"] if s["round"] > 0]
    floor = 1e-4  # a log axis: an exact 0 is drawn at the floor
    if samples:
        series = [(label, [(s["round"], max(floor, s[key])) for s in samples])
                  for label, key in (("all nodes", "mae"), ("failing nodes", "mae_failing"))]
        save(loglog_lines(f"Outage estimate vs truth, {nodes} nodes", "heartbeat round",
                          "mean absolute error", series, targets=[(1000, 0.01, "target")],
                          note=f"OutageModel={report['cluster']['outage_model']}"),
             directory, "harness-accuracy")
    strategies = report["strategies"]
    names = [s["strategy"] for s in strategies]
    served = [s for s in strategies if s["placement_latency_ms"]["calls"] > 0]
    if served:
        keys = ("p50", "p95", "p99")
        save(grouped_bars(f"Placement latency through the service, {nodes} nodes", "ms",
                          [s["strategy"] for s in served], list(keys),
                          [[s["placement_latency_ms"][k] for s in served] for k in keys]),
             directory, "harness-latency")
    base = strategies[0] if strategies else None
    if base:
        metrics = (("hop-bytes", "mean_hop_bytes"), ("P(abort)", "mean_abort_probability"),
                   ("completion proxy", "completion_proxy_ratio"), ("mean wait", "mean_wait"))

        def relative(s, key):
            return s[key] / base[key] if base[key] else None
        save(grouped_bars(f"Job stream per strategy, relative to {base['strategy']} ({nodes} nodes)",
                          "ratio", names, [m[0] for m in metrics],
                          [[relative(s, key) for s in strategies] for _, key in metrics],
                          reference=1.0),
             directory, "harness-strategies")
    composed = [s for s in strategies if "mappers" in s.get("bunde", {})]
    if composed:
        mappers = list(composed[0]["bunde"]["mappers"]["average_hops"])
        save(grouped_bars(f"Seed Bunde's mappers on its allocators' choices, {nodes} nodes",
                          "average hops", [SHORT.get(m, m.replace("stencil-", "")) for m in mappers],
                          [f"{s['strategy']} ({s['bunde']['mappers']['jobs']} jobs)" for s in composed],
                          [[s["bunde"]["mappers"]["average_hops"][m] for m in mappers] for s in composed]),
             directory, "harness-bunde")
    print(f"charts in {directory}")


if __name__ == "__main__":
    main()
