#!/usr/bin/env python3
"""Placement that sees the other jobs' traffic, measured in SimGrid (issue 37, item 4).

A busy 8x8x8 torus: half of its nodes, drawn at random per scenario, run
jobs placed by Slurm's block layout, so the free nodes are scattered and
routes between them pass the running jobs' links. Into these gaps a mix of
network-heavy jobs arrives, each
placed on the nodes the earlier ones left (tofa-map --nodes, Slurm's node
order) by `auto`, once blind to the other jobs and once seeing the running and earlier
mix jobs' traffic (--background, --interference-weight W, as the service's
InterferenceWeight does); then the whole mix runs at once (tofa-sim share,
the recorded computation left out: the network is what placement changes).
The jobs are the patterns of tests/profile/patterns.c, recorded with
tofa-profile --trace; their graphs are the recorded matrices.

Writes out/interference.json, docs/interference.md, docs/interference.svg/png
and its block in docs/results.md.

    python3 bench/interference.py [--quick]   # --quick: 2 scenarios
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from readme_block import replace_readme_block  # noqa: E402
from svg_bars import grouped_bars  # noqa: E402

TOFA_MAP = os.path.join(ROOT, "tools", "tofa-map")
TOFA_SIM = os.path.join(ROOT, "tools", "sim", "tofa-sim")
TOFA_PROFILE = os.path.join(ROOT, "tools", "profile", "tofa-profile")
TORUS = "torus:8x8x8"
NODES = 512
BACKGROUND_JOBS = 4  # running before the mix arrives, BACKGROUND_RANKS each
BACKGROUND_RANKS = 64
WEIGHTS = [0.25, 1.0, 4.0]
MEASURED_WEIGHT = 1.0  # the weight docs/at-scale.md times at 65,536 nodes, one of WEIGHTS
BUDGET_MS = 1000  # the service's PlacementBudget default, scaled to each job
# (name, ranks, patterns.c arguments)
MIX = [
    ("halo 4x4x4, 128^3 cells", 64, ["halo", "3", "4", "4", "4", "128", "128", "128", "1", "1", "8"]),
    ("ring allreduce, 64 MB", 64, ["ring", str(64 << 20)]),
    ("alltoall, 256 KB a pair", 32, ["alltoall", str(256 << 10)]),
    ("halo 8x4, 4096^2 cells", 32, ["halo", "2", "8", "4", "4096", "4096", "1", "1", "8"]),
]
# The network the mix runs on: (tofa-sim --link-sharing, --crosstraffic).
# SimGrid's defaults first, the goal's: a link's bandwidth shared by both
# directions, and TCP's acknowledgements, which load a flow's reverse route
# too. Then a torus interconnect as built (Tofu, Blue Gene): a lane each
# way and RDMA without acknowledgement traffic, what the service's
# per-direction link loads model.
NETWORKS = {"shared": ("shared", "on"), "interconnect": ("split-duplex", "off")}
GOAL = -10.0  # % mean job time against the blind default


def run(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def record_mix(work):
    """Each job of the mix recorded once: {name: trace path}."""
    program = os.path.join(work, "patterns")
    run(["mpicc.openmpi", "-O2", "-o", program, os.path.join(ROOT, "tests", "profile", "patterns.c")])
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    traces = {}
    for i, (name, ranks, args) in enumerate(MIX):
        run([TOFA_PROFILE, "--trace", "-o", os.path.join(work, "rec"), "--name", f"job{i}", "--",
             "mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks), program, *args], env=env)
        traces[name] = os.path.join(work, "rec", f"job{i}")
    return traces


def place_mix(traces, free, weight, sharing, work, tag, running):
    """The mix in arrival order on the free nodes, seeing the running jobs
    and the earlier mix jobs (weight None: blind) on links shared as
    `sharing` says (tofa-map --link-sharing). Returns [(name, hostfile)]."""
    placed = []
    for i, (name, _, _) in enumerate(MIX):
        hosts = os.path.join(work, f"{tag}.{i}.hosts")
        cmd = [TOFA_MAP, "--topology", TORUS, "--graph", traces[name] + ".mat", "--strategy", "auto",
               "--placement-budget", str(BUDGET_MS), "--seed", str(i + 1), "--nodes", ",".join(free),
               "--hostfile", hosts]
        if weight is not None:
            cmd += ["--interference-weight", str(weight), "--link-sharing", sharing]
            for earlier_name, earlier_hosts in running + placed:
                cmd += ["--background", f"{earlier_hosts}={traces[earlier_name]}.mat"]
        run(cmd)
        taken = set(open(hosts).read().split())
        free = [n for n in free if n not in taken]
        placed.append((name, hosts))
    return placed


def shared_fractions(traces, placed):
    """Each job's share of link traffic on links the others use (all at once)."""
    out = []
    for i, (name, hosts) in enumerate(placed):
        cmd = [TOFA_MAP, "--topology", TORUS, "--graph", traces[name] + ".mat", "--evaluate", hosts]
        for j, (other, other_hosts) in enumerate(placed):
            if j != i:
                cmd += ["--background", f"{other_hosts}={traces[other]}.mat"]
        text = run(cmd)
        out.append(float(text.split("% of its link traffic")[0].rsplit(": ", 1)[1]))
    return out


def simulate(traces, placed, network):
    sharing, crosstraffic = NETWORKS[network]
    cmd = [TOFA_SIM, "share", "--topology", TORUS, "--cpu-speed", "1e-3", "--link-sharing", sharing,
           "--crosstraffic", crosstraffic]
    for name, hosts in placed:
        cmd += ["--job", f"{traces[name]}={hosts}"]
    values = dict(line.split("=", 1) for line in run(cmd).split() if "=" in line)
    return [float(values[f"job{j}"]) for j in range(len(placed))]


def running_jobs(traces, seed, work):
    """The jobs already running: BACKGROUND_JOBS jobs of the mix's first two
    kinds, in turn, on a random share of the nodes, each on the next of them
    in node order (Slurm's block layout on a fragmented machine)."""
    rng = random.Random(seed)
    busy = sorted(rng.sample(range(NODES), BACKGROUND_JOBS * BACKGROUND_RANKS))
    placed = []
    for j in range(BACKGROUND_JOBS):
        name = MIX[j % 2][0]
        hosts = os.path.join(work, f"{seed}.running.{j}.hosts")
        with open(hosts, "w") as f:
            f.writelines(f"n{node}\n" for node in busy[j * BACKGROUND_RANKS:(j + 1) * BACKGROUND_RANKS])
        placed.append((name, hosts))
    return placed, [f"n{i}" for i in range(NODES) if i not in set(busy)]


def scenario(traces, seed, work):
    """{network: the scenario's outcomes}: the mix placed for each of
    NETWORKS (the service's LinkSharing set as the network shares its
    links) and simulated there; blind placements are the same for both."""
    running, free = running_jobs(traces, seed, work)
    result = {network: {"seed": seed, "free_nodes": len(free), "variants": [],
                        "running_alone_job_times": simulate(traces, running, network)}
              for network in NETWORKS}
    variants = [("blind", None)] + [(f"aware, weight {w:g}", w) for w in WEIGHTS]
    blind = place_mix(traces, free, None, None, work, f"{seed}.blind", running)
    for network, outcome in result.items():
        sharing = NETWORKS[network][0]
        for label, weight in variants:
            placed = blind if weight is None else \
                place_mix(traces, free, weight, sharing, work, f"{seed}.{network}.{weight}", running)
            shared = shared_fractions(traces, running + placed)[len(running):]
            times = simulate(traces, running + placed, network)
            mix = times[len(running):]
            if weight is None:  # the interference there is to remove: each mix job alone on its nodes
                alone = [simulate(traces, [job], network)[0] for job in placed]
                outcome["blind_alone_mean_job_time"] = sum(alone) / len(alone)
                outcome["blind_alone_job_times"] = alone
            outcome["variants"].append({"variant": label, "weight": weight, "job_times": times,
                                        "mean_job_time": sum(mix) / len(mix),
                                        "mean_job_time_all": sum(times) / len(times),
                                        "batch_completion_time": max(times),
                                        "shared_traffic_percent": shared})
    return result


def summarize(doc):
    rows = []
    labels = [v["variant"] for v in doc["scenarios"][0]["variants"]]
    for label in labels:
        means, all_means, completions, shared, worse = [], [], [], [], 0
        for s in doc["scenarios"]:
            blind = s["variants"][0]
            v = next(x for x in s["variants"] if x["variant"] == label)
            means.append(100 * (v["mean_job_time"] / blind["mean_job_time"] - 1))
            all_means.append(100 * (v["mean_job_time_all"] / blind["mean_job_time_all"] - 1))
            completions.append(100 * (v["batch_completion_time"] / blind["batch_completion_time"] - 1))
            shared.append(sum(v["shared_traffic_percent"]) / len(v["shared_traffic_percent"]))
            worse += v["batch_completion_time"] > blind["batch_completion_time"] * (1 + 1e-9)
        mean = sum(means) / len(means)
        spread = (sum((m - mean) ** 2 for m in means) / (len(means) - 1)) ** 0.5 if len(means) > 1 else 0.0
        rows.append({"variant": label, "weight": v["weight"], "mean_job_time_change": mean,
                     "mean_job_time_change_stderr": spread / len(means) ** 0.5,
                     "per_scenario_mean_change": means, "all_jobs_mean_change": sum(all_means) / len(all_means),
                     "completion_change": sum(completions) / len(completions),
                     "scenarios_with_higher_completion": worse, "shared_traffic_percent": sum(shared) / len(shared)})
    return rows


def against_blind(rows):
    """The aware weights' means against blind's, as their standard errors
    tell them apart: "weights 0.25 and 1 within two standard errors of blind, ..."."""
    verdicts = {"better than blind by more than two standard errors": [],
                "within two standard errors of blind": [],
                "worse than blind by more than two standard errors": []}
    for r in rows:
        if r["weight"] is None:
            continue
        mean, error = r["mean_job_time_change"], 2 * r["mean_job_time_change_stderr"]
        verdict = list(verdicts)[0 if mean < -error else 2 if mean > error else 1]
        verdicts[verdict].append(f"{r['weight']:g}")
    def listed(ws):
        return ws[0] if len(ws) == 1 else f"{', '.join(ws[:-1])} and {ws[-1]}"
    return ", ".join(f"weight{'s' if len(ws) > 1 else ''} {listed(ws)} {verdict}"
                     for verdict, ws in verdicts.items() if ws)


def interference_ceiling(doc):
    """The blind mix's mean job time alone on its own nodes against at once,
    % (mean over scenarios): no placement as good as blind's for each job
    alone gains more than this by avoiding the others."""
    changes = [100 * (s["blind_alone_mean_job_time"] / s["variants"][0]["mean_job_time"] - 1)
               for s in doc["scenarios"]]
    return sum(changes) / len(changes), changes


def ring_evidence(doc, interconnect):
    """What decides the mix's mean on each network, measured: the ring
    allreduce's share of it, its time alone on blind's nodes, and how aware
    changes its time."""
    ring = BACKGROUND_JOBS + [name for name, _, _ in MIX].index("ring allreduce, 64 MB")
    def facts(d):
        share = [s["variants"][0]["job_times"][ring] / len(MIX) / s["variants"][0]["mean_job_time"]
                 for s in d["scenarios"]]
        alone = [s["blind_alone_job_times"][ring - BACKGROUND_JOBS] for s in d["scenarios"]]
        change = [100 * (v["job_times"][ring] / s["variants"][0]["job_times"][ring] - 1)
                  for s in d["scenarios"] for v in s["variants"][1:]]
        others = max(t / s["variants"][0]["job_times"][ring] for s in d["scenarios"]
                     for j, t in enumerate(s["variants"][0]["job_times"])
                     if j >= BACKGROUND_JOBS and j != ring)
        return share, alone, change, others
    (share, alone, change, others), (_, alone_i, change_i, _) = facts(doc), facts(interconnect)
    slow = [a for a in alone if a > 1.5 * min(alone)]
    return (f"The mix's mean job time is the ring allreduce's time for {100 * min(share):.0f}-"
            f"{100 * max(share):.0f}% of it (the other mix jobs take at most {100 * others:.0f}% of "
            f"its time). On "
            f"links shared both ways, blind's ring alone on its own nodes takes {min(alone):.3g}-"
            f"{max(alone):.3g} s ({len(slow)} of {len(alone)} scenarios at 1.5 times the fastest or "
            f"more: alone, only its own flows can meet, here on a link in opposite directions), on a lane each way {min(alone_i):.3g}-"
            f"{max(alone_i):.3g} s; aware changes the ring's time by {min(change):+.0f}% to "
            f"{max(change):+.0f}% per scenario and weight there, by {min(change_i):+.0f}% to "
            f"{max(change_i):+.0f}% on a lane each way.")


def higher_completions(rows):
    """The aware weights' scenarios with a higher batch completion than blind's."""
    return ", ".join(f"{r['scenarios_with_higher_completion']} (weight {r['weight']:g})"
                     for r in rows if r["weight"] is not None)


def default_weight_text(shared_rows, interconnect_rows):
    """What the default InterferenceWeight (1) gives on both networks."""
    def at(rows):
        return next(r for r in rows if r["weight"] == MEASURED_WEIGHT)
    shared, lane = at(shared_rows), at(interconnect_rows)
    return (f"At weight {MEASURED_WEIGHT:g} the mean job time is {lane['mean_job_time_change']:+.1f}% "
            f"against blind with {lane['scenarios_with_higher_completion']} batches ending later on a lane "
            f"each way, {shared['mean_job_time_change']:+.1f}% with "
            f"{shared['scenarios_with_higher_completion']} on links shared both ways. `InterferenceWeight` "
            "is 1 by default (`LinkSharing` split-duplex); on a 65,536-node torus `auto` seeing the "
            "running jobs keeps to the same time bound as blind (docs/at-scale.md).")


def goals_met(rows):
    """The aware weights that meet both goals: mean job time at most GOAL, no higher completion."""
    met = [f"{r['weight']:g}" for r in rows if r["weight"] is not None
           and r["mean_job_time_change"] <= GOAL and r["scenarios_with_higher_completion"] == 0]
    return "weight" + ("s " + ", ".join(met[:-1]) + " and " + met[-1] if len(met) > 1 else
                       " " + met[0]) if met else "no weight"


def completion_evidence(d):
    """Where aware's batch completion is higher than blind's: how many of
    those (scenario, weight) cases had blind's mix end the batch before the
    running jobs alone end theirs, and by how much aware's mix slowed the
    slowest running job in the others."""
    lowered, raised = [], []
    for s in d["scenarios"]:
        blind = s["variants"][0]["batch_completion_time"]
        alone = max(s["running_alone_job_times"])
        for v in s["variants"][1:]:
            if v["batch_completion_time"] <= blind * (1 + 1e-9):
                continue
            (lowered if blind < alone * (1 - 1e-9) else raised).append(
                100 * (v["batch_completion_time"] / alone - 1))
    def span(values, spec):
        low, high = f"{min(values):{spec}}%", f"{max(values):{spec}}%"
        return low if low == high else f"{low} to {high}"
    parts = []
    if lowered:
        parts.append(f"{len(lowered)} where blind's mix ends the batch earlier than the running jobs alone do "
                     "(slowing one running job can speed up another), aware's batch there "
                     f"{span(lowered, '+.2f')} against the running jobs alone")
    if raised:
        parts.append(f"{len(raised)} where aware's mix slows the slowest running job, by "
                     f"{span(raised, '.1f')} against the running jobs alone")
    return "; ".join(parts)


def table(rows, n):
    lines = ["| `auto` | mix's mean job time vs blind (± standard error over scenarios) | per scenario, lowest to highest | goal | all jobs' mean (running + mix) | batch completion vs blind | scenarios with a higher completion | mix's traffic on links other jobs use |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        met = "" if r["variant"] == "blind" else (" (met)" if r["mean_job_time_change"] <= GOAL else " (missed)")
        spread = r["per_scenario_mean_change"]
        lines.append(f"| {r['variant']} | {r['mean_job_time_change']:+.1f}% ± {r['mean_job_time_change_stderr']:.1f}{met} | "
                     f"{min(spread):+.0f}% to {max(spread):+.0f}% | "
                     f"{'' if r['variant'] == 'blind' else f'<= {GOAL:+.0f}%'} | {r['all_jobs_mean_change']:+.1f}% | "
                     f"{r['completion_change']:+.1f}% | "
                     f"{r['scenarios_with_higher_completion']} of {n} | {r['shared_traffic_percent']:.1f}% |")
    return lines


def markdown(doc, rows, interconnect):
    n = len(doc["scenarios"])
    lines = [f"{n} scenarios: {BACKGROUND_JOBS} jobs of {BACKGROUND_RANKS} ranks (the mix's first two "
             "kinds in turn) already run on random nodes of the 8x8x8 torus, each on the next of them in "
             "node order (Slurm's block layout on a fragmented machine); the mix "
             f"({', '.join(f'{name} ({r} ranks)' for name, r, _ in MIX)}) arrives and is placed in arrival order "
             f"on the free nodes by `auto` (PlacementBudget {BUDGET_MS} ms, scaled to each job; aware with "
             "`--link-sharing shared`, LinkSharing=shared in tofa.conf), then run at "
             "once in SimGrid (10 Gbps / 1 us links shared by both directions, TCP's acknowledgement "
             "cross-traffic on: SimGrid's defaults; the recorded computation left "
             f"out); `bench/interference.py` took {doc['seconds']:.0f} s.", "",
             ] + table(rows, n)
    ceiling, per_scenario = interference_ceiling(doc)
    lines += ["", f"All the interference there is to remove: the blind mix's jobs each run alone on the same "
              f"nodes (no running job, no other mix job) take {ceiling:+.1f}% mean job time against at once "
              f"(per scenario {', '.join(f'{c:+.1f}%' for c in per_scenario)}). A placement that avoided "
              "every other job's traffic and were otherwise as good as blind's would gain that much; "
              + (f"the goal of {GOAL:+.0f}% lies beyond it, so it can only be met by placing the jobs "
                 "better for themselves than blind `auto` does, which is not what seeing the other jobs "
                 "adds." if ceiling > GOAL else "the goal lies within it.")]
    lines += ["", "The same placements on a torus interconnect as built (Tofu, Blue Gene): a lane each way "
              "(`tofa-sim --link-sharing split-duplex`) and RDMA without acknowledgement traffic "
              "(`--crosstraffic off`), the network the service's per-direction link loads model (aware placed "
              "with LinkSharing=split-duplex, the default); there the mix's jobs alone on the same nodes take "
              f"{interconnect['interference_ceiling_percent']:+.1f}% against at once:", ""]
    lines += table(interconnect["summary"], n)
    lines += ["", "On links shared both ways with TCP (the first table) `auto` counts each flow's bytes over "
              "its hops and its acknowledgements on the reverse route, as SimGrid shares them (a flow's share "
              f"of a link falls with its round-trip time): against blind, {against_blind(rows)}; on a lane each "
              f"way (the second table), {against_blind(interconnect['summary'])}. "
              f"{ring_evidence(doc, interconnect)} Scenarios where aware's batch completion is higher than "
              f"blind's: {higher_completions(rows)} of {n} on links shared both ways "
              f"({completion_evidence(doc) or 'none'}), {higher_completions(interconnect['summary'])} on a lane "
              f"each way ({completion_evidence(interconnect) or 'none'}). On a lane each way `auto` places each job first off "
              "the links the other jobs use (its bytes there), which is where it slows them; on links "
              "shared both ways, where keeping off every running job's links left the new jobs slower and "
              "still raised batch completions, it keeps off the links of the running flows estimated "
              "slowest (a running collective waits for its slowest flow). "
              f"Both goals (mean job time {GOAL:+.0f}% or better, no higher batch completion in any "
              f"scenario) are met by {goals_met(interconnect['summary'])} on a lane each way and by "
              f"{goals_met(rows)} on links shared both ways. {default_weight_text(rows, interconnect['summary'])} "
              "`tofactl links` and `tofactl job` report the sharing.", "",
              "![](interference.png)"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 scenarios")
    args = parser.parse_args()
    started = time.time()
    work = tempfile.mkdtemp(prefix="tofa-interference.")
    try:
        traces = record_mix(work)
        seeds = [1, 2] if args.quick else list(range(1, 13))
        outcomes = []
        for k, seed in enumerate(seeds):
            print(f"interference: scenario {k + 1} of {len(seeds)}", file=sys.stderr, flush=True)
            outcomes.append(scenario(traces, seed, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    scenarios = [o["shared"] for o in outcomes]
    interconnect = {"scenarios": [o["interconnect"] for o in outcomes]}
    interconnect["summary"] = summarize(interconnect)
    interconnect["interference_ceiling_percent"] = interference_ceiling(interconnect)[0]
    doc = {"scenarios": scenarios, "interconnect": interconnect, "networks": NETWORKS,
           "mix": [{"name": n, "ranks": r, "args": a} for n, r, a in MIX],
           "weights": WEIGHTS, "running_jobs": BACKGROUND_JOBS, "seconds": time.time() - started,
           "run": "quick" if args.quick else "full"}
    rows = summarize(doc)
    doc["summary"] = rows
    doc["interference_ceiling_percent"] = interference_ceiling(doc)[0]
    os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
    with open(os.path.join(ROOT, "out", "interference.json"), "w") as f:
        json.dump(doc, f, indent=1)
    text = markdown(doc, rows, interconnect)
    groups = [f"scenario {s['seed']}" for s in scenarios]
    series = [v["variant"] for v in scenarios[0]["variants"]]
    values = [[next(v for v in s["variants"] if v["variant"] == label)["mean_job_time"] * 1000 for s in scenarios]
              for label in series]
    svg = grouped_bars("Mean job time of the mix on a busy 8x8x8 torus (SimGrid)", "ms", groups, series, values)
    svg_path = os.path.join(ROOT, "docs", "interference.svg")
    with open(svg_path, "w") as f:
        f.write(svg)
    subprocess.run(["rsvg-convert", svg_path, "-o", svg_path[:-4] + ".png"], check=True)
    with open(os.path.join(ROOT, "docs", "interference.md"), "w") as f:
        f.write("# Placement that sees the other jobs\n\n" + DESIGN + "\n## Measured\n\n" + text + "\n")
    replace_readme_block(os.path.join(ROOT, "docs", "results.md"), "interference", text)
    print(text)


DESIGN = """Jobs on a torus share links: a job placed in the gaps between others routes
through their links. The service keeps the load of every directed link from
the placements of the jobs it placed (`tofactl links`); with
`InterferenceWeight=W` in tofa.conf (default 1; 0 is blind) a new job's
Equation 1 cost
counts each link its routes use at 1 + W x load / (the mean load of the loaded
links) hops, so the strategies `auto` runs (their objective, and the annealer's
and local descent's distances) prefer routes over quiet links. Under fair
sharing a job's time follows its busiest link, and on a link it shares, its
`own` bytes beside the others' take own + min(own, others): `auto` takes
among its placements the one whose busiest link is least in that time, and
spends what time its searches leave on a congestion descent from it (tasks
moved or swapped to lower the sum of the links' squared times). On links whose two
directions share one bandwidth (`LinkSharing=shared`: Ethernet and TCP,
SimGrid's defaults), a link's load and the job's own bytes on it count both
ways, and the sharing is TCP's: a flow's share of a link falls with its
round-trip time, so a flow of b bytes over p hops counts b / p on its links
and 5% of that on its reverse route's (its acknowledgements), and takes p
times its busiest link's time. On split-duplex links (the default) a
running job is slowed where the new job's bytes join its own: there `auto`
ranks placements first by their bytes on links the other jobs use (within
10% of the job's bytes of the fewest found, a tie), and its congestion descent
adds none there. On links shared both ways a new flow on a running flow's
link may slow it or, under TCP's sharing, speed another up; a running
collective waits for its slowest flow, so there the links of the running
flows estimated slowest (hops times their busiest link's load, those within
80% of the slowest's, weighted from 0 there to 1 at the slowest) cost up to
4 x W hops more and rank first in the same way, and the descent adds no
bytes on them.
Link loads follow who sends: a recorded
G(i,j) travels R(i,j) only. `tofa-map --background HOSTFILE=GRAPH
--interference-weight W --link-sharing S` does the same outside Slurm; `tofactl
job ID` shows how much of a job's traffic shares links with other jobs.
"""


if __name__ == "__main__":
    main()
