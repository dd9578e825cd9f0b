#!/usr/bin/env python3
"""tofa-harness at 512, 4,096 and 65,536 nodes (issue 15's targets).

Runs tools/harness/tofa-harness (root: private munged, the real plugin
objects) on synthetic tori with generated job streams, keeps each run's JSON
in out/harness-NODES.json and its charts in docs/harness-NODES-*.svg/png,
and writes docs/harness.md and the table of targets into docs/admin-guide.md. The
anchor for placement latency is bench/bench_service (85 tasks on 512 nodes,
in process, no network), run in the same invocation.

    python3 bench/harness.py [--quick]     # --quick: 512 nodes only, fewer rounds
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from bench_service import service_results  # noqa: E402
from readme_block import replace_readme_block  # noqa: E402

# nodes -> (topology, extra arguments)
RUNS = {
    512: ("torus:8x8x8", ["--rounds", "1000", "--interval", "0.02", "--timeout", "0.1",
                          "--jobs", "1000", "--strategies", "default-slurm,tofa,auto,mc1x1,snake"]),
    4096: ("torus:16x16x16", ["--rounds", "200", "--interval", "0.1", "--timeout", "0.2",
                              "--jobs", "2000", "--strategies", "default-slurm,tofa,auto,snake"]),
    65536: ("torus:64x32x32", ["--rounds", "10", "--interval", "2", "--timeout", "0.5",
                               "--jobs", "10000", "--strategies", "default-slurm,auto"]),
}
# The seed's `tofa` at 65,536 nodes: a sample of the same generator (its
# Scotch mappings take their full time whatever the queue: the whole
# 10,000-job stream would take hours).
SCALE_SAMPLE = ("torus:64x32x32", ["--rounds", "3", "--interval", "2", "--timeout", "0.5",
                                   "--jobs", "60", "--strategies", "default-slurm,tofa"])
# Fugaku's Tofu shape (issue 38, item 5): a sample stream, both bounds
# scaled by the node count; long enough that the last jobs' mappings after
# it do not outweigh the stream itself.
FUGAKU_SAMPLE = ("torus:24x23x24x2x3x2", ["--rounds", "3", "--interval", "2", "--timeout", "0.5",
                                          "--jobs", "300", "--strategies", "default-slurm,auto"])
SCHEDULER_BOUND_MS_AT_65536 = 10
QUICK = {512: ("torus:8x8x8", ["--rounds", "200", "--interval", "0.02", "--timeout", "0.1",
                               "--jobs", "300", "--strategies", "default-slurm,tofa,auto,mc1x1,snake"])}


def run(nodes, topology, extra, charts=True):
    """nodes: the node count, or a label such as "65536-sample" (file names)."""
    out = os.path.join(ROOT, "out", f"harness-{nodes}.json")
    chart_dir = os.path.join(ROOT, "out", f"harness-{nodes}-charts")
    command = [os.path.join(ROOT, "tools", "harness", "tofa-harness"), "run", "--topology", topology,
               "--json", out] + (["--charts", chart_dir] if charts else []) + extra
    print(f"== {nodes} nodes: {' '.join(command[2:])}", file=sys.stderr, flush=True)
    started = time.time()
    subprocess.run(command, check=True)
    report = json.load(open(out))
    report["wall_seconds"] = time.time() - started
    for name in os.listdir(chart_dir) if charts else []:
        os.replace(os.path.join(chart_dir, name), os.path.join(ROOT, "docs", name.replace("harness-", f"harness-{nodes}-")))
    return report


def latency_near(strategy_report, tasks_from):
    for row in strategy_report.get("placement_latency_by_size", []):
        if row["tasks_from"] == tasks_from:
            return row
    return None


def verdict(ok):
    return "met" if ok else "missed"


def scale_sample_lines(sample, big):
    """Targets-table rows: TOFA strategies at 65,536 nodes, from the sample."""
    jobs = sample["stream"]["jobs"]
    full = big["stream"]["jobs"] if big else 10000
    lines = []
    for s in sample["strategies"]:
        if s["strategy"] == "default-slurm":
            continue
        estimate = s["seconds"] / max(1, jobs) * full
        lat = s["placement_latency_ms"]
        slow = [r for r in s["placement_latency_by_size"] if r["tasks_from"] >= 256]
        slow_text = (f"; {slow[0]['tasks_from']}-{2 * slow[0]['tasks_from'] - 1} tasks p50 "
                     f"{slow[0]['p50']:.1f} ms, {slow[-1]['tasks_from']}+ tasks p50 "
                     f"{slow[-1]['p50']:.1f} ms" if slow else "")
        drain = s.get("mapping_drain_seconds", 0)
        lines.append(f"| 65,536 nodes, {full}-job stream with `{s['strategy']}` (estimated from a {jobs}-job "
                     f"sample of the same generator) | <= 600 s | {s['seconds']:.0f} s for {jobs} jobs, about "
                     f"{estimate:.0f} s for {full}: node choice in the scheduler p50 {lat['p50']:.1f} ms, p95 "
                     f"{lat['p95']:.1f} ms{slow_text}; the strategies' mappings, on the service's threads, "
                     f"ended {drain:.0f} s after the stream; {s.get('slurm_layout_fallbacks', 0)} jobs got "
                     f"Slurm's layout | {verdict(estimate <= 600)} |")
    return lines


def stream_seconds(strategy_report):
    """A stream's whole time: its scheduling, then the mappings still running after it."""
    return strategy_report["seconds"] + strategy_report.get("mapping_drain_seconds", 0)


def slurm_layout_wall(big):
    """The run's wall time without the streams of the other strategies."""
    others = sum(stream_seconds(s) for s in big["strategies"] if s["strategy"] != "default-slurm")
    return big["wall_seconds"] - others


def auto_stream_line(big):
    """Issue 38's whole-stream bound for `auto` at 65,536 nodes."""
    by = {s["strategy"]: s for s in big["strategies"]}
    if "auto" not in by:
        return []
    plain, default = by["default-slurm"], by["auto"]
    ratio = stream_seconds(default) / max(stream_seconds(plain), 1e-9)
    about = big["stream"]
    budgets = about.get("auto_budget_seconds_sum", 0)
    return [f"| 65,536 nodes, {about['jobs']}-job stream with `auto` against Slurm's layout in the same run "
            f"(issue 38: <= 1.5x) | <= 1.5x | {default['seconds']:.0f} s + mappings {default['mapping_drain_seconds']:.0f} s "
            f"after it / {stream_seconds(plain):.0f} s = {ratio:.2f}x; the harness replays "
            f"{about['submit_span_seconds'] / 86400:.1f} days of submissions in minutes, so the mappings "
            f"split their budgets ({budgets:.0f} s at full length) by the queue behind them "
            f"(tofa.conf(5) PlacementBudget); {default.get('slurm_layout_fallbacks', 0)} jobs got Slurm's "
            f"layout | {verdict(ratio <= 1.5)} |"]


def fugaku_lines(fugaku):
    """Targets-table rows of the 158,976-node run."""
    nodes = fugaku["cluster"]["nodes"]
    bound = SCHEDULER_BOUND_MS_AT_65536 * nodes / 65536
    hb = fugaku["heartbeat"]
    by = {s["strategy"]: s for s in fugaku["strategies"]}
    plain, default = by["default-slurm"], by["auto"]
    lat = default["placement_latency_ms"]
    ratio = stream_seconds(default) / max(stream_seconds(plain), 1e-9)
    memory = fugaku.get("host_max_rss_mib", 0)
    return [
        f"| {nodes:,} nodes (Fugaku's 24x23x24x2x3x2 torus), {fugaku['stream']['jobs']}-job sample: the run "
        f"completes | completes | {fugaku['wall_seconds']:.0f} s: keying {hb['keying']['seconds']:.0f} s, "
        f"rounds p95 {hb['round_seconds']['p95']:.2f} s (every {fugaku['cluster']['heartbeat_interval']:g} s) | "
        f"{verdict(default['jobs_started'] == fugaku['stream']['jobs'])} |",
        f"| {nodes:,} nodes: node choice per job through the harness, `auto` (its own candidate list "
        f"included; heartbeat rounds, responders and munged share the 2 cores) | for comparison: the "
        f"scheduler's bound, 10 ms at 65,536 nodes scaled, is {bound:.0f} ms (bench/scheduler_path.py) | "
        f"p50 {lat['p50']:.1f} ms, p99 {lat['p99']:.1f} ms | |",
        f"| {nodes:,} nodes: the stream with `auto` against Slurm's layout in the same run | <= 1.5x | "
        f"{default['seconds']:.1f} s + mappings {default.get('mapping_drain_seconds', 0):.1f} s after it / "
        f"{stream_seconds(plain):.1f} s = {ratio:.2f}x | {verdict(ratio <= 1.5)} |",
        f"| {nodes:,} nodes: memory of the process holding the service and Slurm's node table | <= 1 GiB | "
        f"{memory:.0f} MiB peak RSS | {verdict(0 < memory <= 1024)} |"]


def markdown(reports, anchor, revision, seconds, quick, sample=None, fugaku=None):
    lines = ["# tofa-harness: the plugins outside slurmctld at scale",
             "",
             f"Generated by `python3 bench/harness.py{' --quick' if quick else ''}` at {revision} in "
             f"{seconds:.0f} s on this 2-core machine (JSON: `out/harness-NODES.json`). Each run starts "
             "a private munged, loads slurmctld_tofa.so, tofa_nodestate.so (2 nodes) and "
             "tofa_loadmatrix.so under tofa_harness_host.so, answers the other nodes from 2 responder "
             "processes with the failure model (5% of nodes failing 1-30% of rounds, 0.2% frozen from "
             "round 50, 0.1% of exchanges lost), observes the heartbeat rounds, then runs a generated "
             "job stream (EASY) per strategy as the select shim runs it (the node choice, "
             "`tofa_service_choose_nodes_from`, in the scheduler; the strategy on the chosen nodes "
             "afterwards on the service's mapping threads, `tofa_service_map_later`; the running jobs "
             "told to the service every 3 s of wall time as the slurmctld plugin tells them, so "
             "placements see their links at the default InterferenceWeight; a job's metrics "
             "on its final placement). The simulated nodes run on "
             "the same 2 cores as the service, so round times include their work.",
             "", "## Targets (issue 15)", "",
             "| target | goal | measured | |", "|---|---|---|---|"]
    big = reports.get(65536)
    if big:
        wall = slurm_layout_wall(big)
        lines.append(f"| 65,536 nodes, {big['stream']['jobs']}-job stream, whole run (Slurm's layout; the "
                     f"run's other streams left out) | <= 600 s | {wall:.0f} s | {verdict(wall <= 600)} |")
        hb = big["heartbeat"]
        interval = big["cluster"]["heartbeat_interval"]
        lines.append(f"| heartbeat round over 65,536 nodes (sessions) | <= 10 s | p95 "
                     f"{hb['round_seconds']['p95']:.2f} s (timeout {big['cluster']['heartbeat_timeout']} s) | "
                     f"{verdict(hb['round_seconds']['p95'] <= 10)} |")
        share = hb["service_cpu_per_round"] / max(interval, hb["round_seconds"]["p50"])
        lines.append(f"| service's CPU per round, 65,536 nodes | <= 1 core | {hb['service_cpu_per_round']:.2f} s "
                     f"per round, {share:.2f} of a core; munged {hb['munged_cpu_per_round']:.3f} s | "
                     f"{verdict(share <= 1)} |")
        k = hb["keying"]
        lines.append(f"| for comparison: one TCP + munge heartbeat to every node (the keying round) | | "
                     f"{k['seconds']:.1f} s, service {k['service_cpu_seconds']:.1f} s CPU, munged "
                     f"{k['munged_cpu_seconds']:.1f} s CPU | |")
    if sample:
        lines += scale_sample_lines(sample, big)
    if big:
        lines += auto_stream_line(big)
    if fugaku:
        lines += fugaku_lines(fugaku)
    small = reports.get(512)
    if small:
        last = small["heartbeat"]["accuracy"][-1]
        lines.append(f"| outage estimate error after {small['heartbeat']['rounds_observed']} rounds, "
                     f"512 nodes ({small['cluster']['outage_model']}) | <= 0.01 | mean {last['mae']:.4f} "
                     f"(failing nodes {last['mae_failing']:.4f}, worst node {last['max_error']:.3f}) | "
                     f"{verdict(last['mae'] <= 0.01)} |")
    for nodes, report in sorted(reports.items()):
        for s in report["strategies"]:
            if s["placement_latency_ms"]["calls"] == 0 or s["strategy"] not in ("tofa", "default-slurm", "auto"):
                continue
            row = latency_near(s, 64)
            anchor_ms = anchor.get(s["strategy"])
            near = f"; 64-127 tasks p50 {row['p50']:.1f} ms" if row else ""
            ref = f" (in process, 85 tasks: {anchor_ms:.1f} ms)" if anchor_ms is not None and nodes == 512 else ""
            lines.append(f"| placement latency `{s['strategy']}`, {nodes} nodes{ref} | measured | p50 "
                         f"{s['placement_latency_ms']['p50']:.1f} ms, p95 {s['placement_latency_ms']['p95']:.1f} ms{near} | |")
    if sample:
        for s in sample["strategies"]:
            if s["strategy"] == "default-slurm":
                continue
            row = latency_near(s, 64)
            near = f"; 64-127 tasks p50 {row['p50']:.1f} ms" if row else ""
            lines.append(f"| placement latency `{s['strategy']}`, 65536 nodes ({sample['stream']['jobs']}-job "
                         f"sample) | measured | p50 {s['placement_latency_ms']['p50']:.1f} ms, p95 "
                         f"{s['placement_latency_ms']['p95']:.1f} ms{near} | |")
    if sample:
        lines += ["", "At 65,536 nodes the scheduler's part of a TOFA job is the node choice alone (a compact "
                  "box of fault-free nodes, linear in the candidates; docs/scheduler-path.md); the job's "
                  "strategy orders its tasks afterwards on the service's two mapping threads, beside the "
                  "stream, and the table's last column is how long those mappings ran on after the last "
                  "job was scheduled (the jobs' metrics are on their final placements). The generated "
                  "jobs reach a quarter of the machine (16,384 tasks, log-uniform sizes); `tofa` (the "
                  "seed's Listing 1.1) builds a Scotch target of the allocation, `auto` runs within its "
                  "budget (PlacementBudget, scaled with the job's size)."]
    lines += ["", "## Which plugin objects run, and why not the others", "",
              "- `slurmctld_tofa.so` (its `init()`): starts the service and pushes the node table every 3 s. "
              "slurmctld's own `lock_slurmctld`/`unlock_slurmctld` come from the host module (five real "
              "rwlocks); the node table is libslurmfull's (`init_node_conf`, `build_all_nodeline_info` "
              "on the harness's slurm.conf); `job_list` is absent, which the plugin already handles.",
              "- `tofa_nodestate.so`: the responders of the first nodes, one process each with `-D -N NAME` "
              "on its command line (the plugin reads its node name there, as in slurmd); `spank_context` "
              "and the rest of the SPANK API come from the host module, ahead of libslurmfull's own in "
              "the global scope.",
              "- `tofa_loadmatrix.so`: every job's graph goes up through its `--tofa-matrix` callback and "
              "`slurm_spank_init_post_opt`, as in srun.",
              "- Not loaded: the select shim (it *is* select/cons_tres: job records, partitions, core "
              "bitmaps, GRES, i.e. slurmctld itself) and topology/tofa (same internals, and on 22.05 "
              "it only ranks nodes for the select path). The harness calls what they call, "
              "`tofa_service_choose_nodes_from` with the free CPUs as candidates and the nodes above "
              "OutageThreshold left out as select/tofa leaves them out, then "
              "`tofa_service_map_later`. cli_filter/tofa needs a controller to allocate from.",
              "", "## Job streams per strategy", "",
              "| nodes | strategy | jobs | utilisation | mean wait s | hop-bytes | avg hops (Bunde) | "
              "mean P(abort) | completion proxy | median | scheduler p50 ms | stream s | "
              "mappings after it s |",
              "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for nodes, report in sorted(reports.items()):
        for s in report["strategies"]:
            median = s.get("completion_proxy_median")
            lines.append(f"| {nodes} | `{s['strategy']}` | {s['jobs_started']} | {s['utilisation']:.3f} | "
                         f"{s['mean_wait']:.0f} | {s['mean_hop_bytes']:.0f} | {s['bunde']['average_hops']:.2f} | "
                         f"{s['mean_abort_probability']:.4f} | {s['completion_proxy_ratio']:.3f} | "
                         f"{'inf' if median is None else f'{median:.3f}'} | "
                         f"{s['placement_latency_ms']['p50']:.1f} | {s['seconds']:.0f} | "
                         f"{s.get('mapping_drain_seconds', 0):.0f} |")
    lines += ["", "Completion proxy: sum over jobs of runtime x (1 + 0.3 x (hop-bytes / block hop-bytes - 1)) "
              "/ (1 - P(abort)), over the sum of runtimes (the seed Bunde's 30% communication share), "
              "jobs certain to abort left out; median: of the per-job ratio, those jobs included. "
              "P(abort) is under the true outage probabilities; the strategies saw the estimates.", ""]
    lines += bunde_table(reports)
    for nodes in sorted(reports):
        for chart in ("accuracy", "strategies", "latency", "bunde"):
            if os.path.exists(os.path.join(ROOT, "docs", f"harness-{nodes}-{chart}.png")):
                lines.append(f"![{chart}, {nodes} nodes](harness-{nodes}-{chart}.png)")
                lines.append("")
    return "\n".join(lines) + "\n"


def bunde_table(reports):
    """The seed Bunde's section 5: its mappers on MC1x1's and snake's allocations."""
    rows = [(nodes, s) for nodes, report in sorted(reports.items()) for s in report["strategies"]
            if "mappers" in s.get("bunde", {})]
    if not rows:
        return []
    mappers = list(rows[0][1]["bunde"]["mappers"]["average_hops"])
    lines = ["## The seed Bunde's trace metric: average hops per mapper and allocator", "",
             "Each stencil job (x by y, x the largest divisor of its size not above its square root; "
             "serial and too-long jobs skipped, as in the seed) keeps the nodes MC1x1 or snake best fit "
             "gave it; each of the seed's mappers (registered strategies) then lays the job on those "
             "ranks, scored by average hops (the seed's Figures 16 and 17; baseline = allocation order). "
             "INCIMPROVE is bounded to 10^6 examined swaps per job.", "",
             "| nodes | allocator | jobs | " + " | ".join(m.replace("stencil-", "") for m in mappers) + " |",
             "|---:|---|---:|" + "---:|" * len(mappers)]
    for nodes, s in rows:
        hops = s["bunde"]["mappers"]["average_hops"]
        best = min(hops.values())
        cells = [f"**{hops[m]:.2f}**" if hops[m] == best else f"{hops[m]:.2f}" for m in mappers]
        lines.append(f"| {nodes} | {s['strategy']} | {s['bunde']['mappers']['jobs']} | " + " | ".join(cells) + " |")
    return lines + [""]


def readme_table(text):
    """The report's table of targets for docs/admin-guide.md's harness markers, without the
    in-process 85-task anchors: the README gives that latency once, in the
    results block (scripts/update-results.sh, the same bench_service)."""
    table = text.split("## Targets (issue 15)\n\n", 1)[1].split("\n\n", 1)[0]
    return re.sub(r" \(in process, 85 tasks: [0-9.]+ ms\)", "", table)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("bench/harness.py: needs root (tofa-harness starts a private munged)")
    os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
    started = time.time()
    anchor = {name: row["median_ms"] for name, row in service_results(ROOT).items()}
    reports = {nodes: run(nodes, topology, extra)
               for nodes, (topology, extra) in (QUICK if args.quick else RUNS).items()}
    sample = None if args.quick else run("65536-sample", *SCALE_SAMPLE, charts=False)
    fugaku = None if args.quick else run("158976-sample", *FUGAKU_SAMPLE, charts=False)
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip() or "unknown"
    text = markdown(reports, anchor, revision, time.time() - started, args.quick, sample, fugaku)
    with open(os.path.join(ROOT, "docs", "harness.md"), "w") as f:
        f.write(text)
    replace_readme_block(os.path.join(ROOT, "docs", "admin-guide.md"), "harness", readme_table(text))
    print("docs/harness.md and docs/admin-guide.md written", file=sys.stderr)


if __name__ == "__main__":
    main()
