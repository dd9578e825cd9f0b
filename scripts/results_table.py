#!/usr/bin/env python3
"""Turns bench_mappers (and bench_service) JSON into the README tables and an
SVG bar chart.

usage: results_table.py BENCH.json README.md CHART.svg [SERVICE.json]
"""
import json
import sys

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


def service_table(doc):
    lines = [f"Placement latency on the select/tofa path ({doc['tasks']} tasks, "
             f"{doc['nodes']} nodes, {doc['faulty_nodes']} faulty; target 10 ms):", "",
             "| strategy | median ms | first ms |", "|---|---:|---:|"]
    for r in doc["results"]:
        lines.append(f"| {r['strategy']} | {r['median_ms']:.2f} | {r['first_ms']:.2f} |")
    return "\n".join(lines)


def chart(doc):
    """Grouped bars: hop-bytes relative to default-slurm, one group per case."""
    cases = doc["cases"]
    names = [r["strategy"] for r in cases[0]["results"]]
    colours = ["#888888", "#e6a040", "#50a050", "#3070c0", "#a050a0", "#c04040"]
    bar, gap, height, top = 22, 40, 220, 40
    width = 80 + len(cases) * (len(names) * bar + gap)
    peak = max(r["hop_bytes_vs_default"] for c in cases for r in c["results"]) or 1
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height + 120}' "
           "font-family='sans-serif' font-size='11'>",
           "<rect width='100%' height='100%' fill='white'/>",
           f"<text x='10' y='20' font-size='14'>hop-bytes relative to default-slurm (lower is better)</text>"]
    for ci, case in enumerate(cases):
        left = 60 + ci * (len(names) * bar + gap)
        for si, r in enumerate(case["results"]):
            h = height * r["hop_bytes_vs_default"] / peak
            x = left + si * bar
            out.append(f"<rect x='{x}' y='{top + height - h:.1f}' width='{bar - 3}' height='{h:.1f}' "
                       f"fill='{colours[si % len(colours)]}'><title>{r['strategy']}: "
                       f"{r['hop_bytes_vs_default']:.3f}</title></rect>")
            out.append(f"<text x='{x + 8}' y='{top + height - h - 3:.1f}' font-size='9' "
                       f"text-anchor='middle'>{r['hop_bytes_vs_default']:.2f}</text>")
        out.append(f"<text x='{left}' y='{top + height + 16}'>{case['case']}</text>")
    for si, name in enumerate(names):
        out.append(f"<rect x='{60 + si * 110}' y='{top + height + 40}' width='12' height='12' "
                   f"fill='{colours[si % len(colours)]}'/>"
                   f"<text x='{76 + si * 110}' y='{top + height + 50}'>{name}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    bench_json, readme, svg = sys.argv[1:4]
    doc = json.load(open(bench_json))
    text = open(readme).read()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    body = table(doc)
    if len(sys.argv) > 4:
        body += "\n\n" + service_table(json.load(open(sys.argv[4])))
    text = text[:start] + "\n" + body + "\n" + text[end:]
    open(readme, "w").write(text)
    open(svg, "w").write(chart(doc))


if __name__ == "__main__":
    main()
