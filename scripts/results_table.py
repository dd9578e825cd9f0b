#!/usr/bin/env python3
"""Turns bench_mappers (and bench_service) JSON into the README's summary
tables, the full table docs/bench-results.md and an SVG bar chart.

usage: results_table.py BENCH.json README.md CHART.svg [SERVICE.json]
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from readme_block import replace_readme_block  # noqa: E402

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


def table(doc):
    lines = ["| case | strategy | median ms | first ms | hop-bytes vs default | F/F_min | avg hops | max link load (MiB) | MIMS (MiB) | P(abort) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for case in doc["cases"]:
        for r in case["results"]:
            lines.append(
                f"| {case['case']} | {r['strategy']} | {r['median_ms']:.2f} | {r['first_ms']:.2f} | "
                f"{r['hop_bytes_vs_default']:.3f} | {r['f_over_fmin']:.3f} | {r['average_hops']:.2f} | "
                f"{r['max_link_load'] / 2**20:.1f} | {r['mims'] / 2**20:.2f} | {r['abort_probability']:.4f} |")
    return "\n".join(lines)


# The default first (auto, as jobs get it: within PlacementBudget), the seed's
# Listing 1.1, Slurm's layout (the baseline) and the others.
DEFAULT = "auto"
KEY_STRATEGIES = ["auto", "tofa", "default-slurm", "tofa-compact", "greedy", "embed", "anneal", "mims",
                  "stencil-rcb"]


def summary_table(doc):
    """Hop-bytes relative to default-slurm (and P(abort)) of the main strategies."""
    head = "| case | " + " | ".join(
        f"**{n}** (default)" if n == DEFAULT else n for n in KEY_STRATEGIES) + " |"
    lines = ["Hop-bytes relative to `default-slurm` (lower is better), expected abort "
             "probability in parentheses; `-` = not applicable to the case:", "", head,
             "|---|" + "---:|" * len(KEY_STRATEGIES)]
    for case in doc["cases"]:
        by_name = {r["strategy"]: r for r in case["results"]}
        cells = []
        for name in KEY_STRATEGIES:
            r = by_name.get(name)
            cells.append("-" if r is None else
                         f"{r['hop_bytes_vs_default']:.2f} ({r['abort_probability']:.3f})")
        lines.append(f"| {case['case']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def service_table(doc):
    lines = [f"Placement latency on the select/tofa path ({doc['tasks']} tasks, "
             f"{doc['nodes']} nodes, {doc['faulty_nodes']} faulty; target 10 ms):", "",
             "| strategy | median ms (worker process) | in process ms | worker overhead ms | first ms |",
             "|---|---:|---:|---:|---:|"]
    for r in doc["results"]:
        lines.append(f"| {r['strategy']} | {r['median_ms']:.2f} | {r['in_process_ms']:.2f} | "
                     f"{r['worker_overhead_ms']:.2f} | {r['first_ms']:.2f} |")
    return "\n".join(lines)


def chart(doc):
    """Grouped bars of the main strategies: hop-bytes relative to default-slurm."""
    cases = doc["cases"]
    names = KEY_STRATEGIES
    colours = ["#202020", "#888888", "#3070c0", "#60a8e0", "#50a050", "#c04040", "#a050a0", "#e6a040", "#40a0a0"]
    bar, gap, height, top = 16, 30, 220, 40
    width = 80 + len(cases) * (len(names) * bar + gap)
    values = [r["hop_bytes_vs_default"] for c in cases for r in c["results"] if r["strategy"] in names]
    peak = max(values) or 1
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height + 150}' "
           "font-family='sans-serif' font-size='11'>",
           "<rect width='100%' height='100%' fill='white'/>",
           "<text x='10' y='20' font-size='14'>hop-bytes relative to default-slurm "
           "(lower is better; missing bar = not applicable)</text>"]
    for ci, case in enumerate(cases):
        left = 60 + ci * (len(names) * bar + gap)
        by_name = {r["strategy"]: r for r in case["results"]}
        for si, name in enumerate(names):
            r = by_name.get(name)
            if r is None:
                continue
            h = height * r["hop_bytes_vs_default"] / peak
            x = left + si * bar
            out.append(f"<rect x='{x}' y='{top + height - h:.1f}' width='{bar - 2}' height='{h:.1f}' "
                       f"fill='{colours[si]}'><title>{name}: {r['hop_bytes_vs_default']:.3f}</title></rect>")
        out.append(f"<text x='{left}' y='{top + height + 14}' font-size='9' "
                   f"transform='rotate(20 {left} {top + height + 14})'>{case['case']}</text>")
    for si, name in enumerate(names):
        out.append(f"<rect x='{60 + si * 120}' y='{top + height + 88}' width='12' height='12' "
                   f"fill='{colours[si]}'/><text x='{76 + si * 120}' y='{top + height + 98}'>{name}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    bench_json, readme, svg = sys.argv[1:4]
    doc = json.load(open(bench_json))
    body = summary_table(doc)
    body += ("\n\nEvery strategy, with times, F/F_min, link load and MIMS: "
             "[docs/bench-results.md](docs/bench-results.md); chart: "
             "[docs/bench-mappers.svg](docs/bench-mappers.svg).")
    with open("docs/bench-results.md", "w") as full:
        full.write("# Mapper benchmark (bench/bench_mappers, regenerated by "
                   "scripts/update-results.sh)\n\n" + table(doc) + "\n")
    if len(sys.argv) > 4:
        body += "\n\n" + service_table(json.load(open(sys.argv[4])))
    if not replace_readme_block(readme, "results", body):
        sys.exit(f"results_table.py: {readme} has no {BEGIN} ... {END} block")
    open(svg, "w").write(chart(doc))


if __name__ == "__main__":
    main()
