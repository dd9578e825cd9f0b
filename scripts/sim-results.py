#!/usr/bin/env python3
"""The TOFA seed's section 5 in SimGrid (tofa-sim), every strategy side by side,
on real runs recorded on this machine and replayed.

First records, with tofa-profile --trace (scripts/lib/sim_recordings.py), NPB
3.3's DT (BH and WH class C, 85 ranks; SH class B, 192) and LAMMPS (32,064
atoms with PPPM at 32, 64, 128 and 256 ranks), then replays them on the
placements each strategy makes:
  fig3a   DT on an empty 8x8x8 torus, simulated time per strategy, under the
          four network models (links shared or split-duplex, cross-traffic on
          or off): the sensitivity table;
  fig3b   LAMMPS at 32-256 ranks, steps per second;
  table1  LAMMPS at 256 ranks on five 512-node 3D torus arrangements;
  fig4    DT BH class C batches (10 x 100 instances), 16 failing nodes at
          0.02, under the four network models;
  fig5    LAMMPS 64 ranks batches, 8 and 16 failing nodes at 0.02;
  share   jobs sharing the torus: a mix of DT and LAMMPS jobs placed in
          arrival order on the nodes still free, run at once; per-job slowdown
          against each alone on its nodes; and the mix under failures.
Writes out/sim-results.json, docs/sim-results.md, docs/sim-*.svg and .png, and
the section of docs/results.md between <!-- sim:begin --> and <!-- sim:end -->.

Ranks keep each application's own order: LAMMPS's MPI_Cart_create grid (z
fastest), DT's graph node v on rank v; default-slurm puts rank i on the i-th
node. --full is the seed's sizes (LAMMPS replays STEPS time steps);
--quick only checks the pipeline. Independent simulations run in parallel,
--jobs (default: the core count); recordings run one at a time, and are
kept in --recordings-cache for later runs of the same sources, binaries and
MPI, which replay them instead of recording again.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from readme_block import replace_readme_block  # noqa: E402
import sim_recordings  # noqa: E402
from svg_bars import grouped_bars  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The built tree's tools; TOFA_MAP and TOFA_SIM choose others (e.g. a copy
# that a rebuild cannot pull from under a long run).
TOFA_MAP = os.environ.get("TOFA_MAP", os.path.join(ROOT, "tools", "tofa-map"))
TOFA_SIM = os.environ.get("TOFA_SIM", os.path.join(ROOT, "tools", "sim", "tofa-sim"))

STRATEGIES = ["default-slurm", "random", "greedy", "torus3d", "tofa", "auto"]
BATCH_STRATEGIES = ["default-slurm", "torus3d", "tofa", "auto"]
TABLE1_STRATEGIES = ["default-slurm", "tofa", "auto"]
# torus3d and random need the whole machine's shapes or draw blindly: not a
# choice among the nodes other jobs left. Under failures, the ones the seed
# compares and the default.
SHARE_STRATEGIES = ["default-slurm", "greedy", "tofa", "auto"]
SHARE_BATCH_STRATEGIES = ["default-slurm", "tofa", "auto"]
ARRANGEMENTS = ["8x8x8", "4x8x16", "8x4x16", "4x4x32", "4x32x4"]
# The network models: (link sharing, cross-traffic); the first is SimGrid's
# defaults, the one every other figure uses.
MODELS = [("shared", "on"), ("shared", "off"), ("split-duplex", "on"), ("split-duplex", "off")]
DEFAULT_MODEL = MODELS[0]
# SimGrid's defaults with the recorded computation left out (--cpu-speed
# 1e-3: a recorded second becomes a thousandth of a flop): DT's network
# time alone, all a placement can change.
NETWORK_ONLY = ("shared", "on", "network only")
# The floor: a link of its own between every two nodes, a lane each way, no
# acknowledgement traffic (tofa-sim --routing direct). Every message of any
# placement on the torus crosses at least one such link and shares it at
# least as much, so a job's time on it bounds every placement's from below.
DIRECT_NETWORK = ("split-duplex", "off", "direct links")
SIZES = {
    "full": {"dt": [("bh", "C"), ("wh", "C"), ("sh", "B")], "lammps": [32, 64, 128, 256],
             "steps": 5, "arrangements": ARRANGEMENTS, "batch_args": [], "batch_lammps": 64,
             "mix": [("dt", "bh", "C"), ("lammps", 64), ("dt", "wh", "C"), ("lammps", 32),
                     ("lammps", 64)],
             "share_batches": 3},
    "quick": {"dt": [("bh", "S"), ("sh", "S")], "lammps": [8], "steps": 2,
              "arrangements": ["8x8x8", "4x8x16"], "batch_args": ["--quick"], "batch_lammps": 8,
              "mix": [("dt", "bh", "S"), ("lammps", 8), ("dt", "sh", "S")], "share_batches": 2},
}
OUTAGE = 0.02
RECORDINGS_CACHE = "/var/cache/tofa/sim-recordings"
SHARE_FAILING = 16
DEFAULT_STRATEGY = "?"  # set in main from tofa-map --help

# The seed's own numbers (section 5), quoted beside ours.
SEED = {
    "fig3a": "Scotch (tofa) 22%, 3% and 11% lower DT time than default-slurm, greedy and random",
    "fig3a_change": -22.0,
    "fig3b": "Scotch best at 32, 64 and 128 ranks; default-slurm best at 256",
    "table1": {"8x8x8": (247.5, 217.2), "4x8x16": (188.9, 210.1), "8x4x16": (232.3, 240.9),
               "4x4x32": (212.8, 242.3), "4x32x4": (159.0, 207.4)},
    "batches": {"dt-16": (-31.0, 2.0, 7.4), "lammps-8": (-17.5, 0.0, None),
                "lammps-16": (-18.9, 1.1, 4.0)},
    "platform": ("\"A node is characterized through a fixed computing capability [...] 6 Gflops. "
                 "Links are characterized by the bandwidth and latency, which are fixed to 10 Gbps "
                 "and one usec [...] The platform description that is fed to SimGrid also lists "
                 "the route for each pair of nodes.\" (section 5.1)"),
}
SHARE_GOAL = -15.0  # mean job time vs default-slurm's layout, the goal


# ------------------------------------------------------------------ running

class Progress:
    def __init__(self, total):
        self.total, self.done, self.start = total, 0, time.time()
        self.lock = threading.Lock()
        self.tty = sys.stderr.isatty()

    def finished(self, what):
        with self.lock:
            self.done += 1
            elapsed = time.time() - self.start
            eta = elapsed / self.done * (self.total - self.done)
            line = (f"[{self.done}/{self.total}] {elapsed:5.0f} s elapsed, ~{eta:4.0f} s left: "
                    f"{what}")
            if self.tty:
                sys.stderr.write("\r\033[K" + line[:150])
                if self.done == self.total:
                    sys.stderr.write("\n")
            else:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()


def run(args):
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        # SimGrid lists every blocked actor when it stops: keep the rest.
        said = "\n".join(line for line in done.stdout.splitlines() if "simcall" not in line)
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}:\n{said[-3000:]}")
    return done.stdout


def torus3d_shapes(dims):
    """The shapes an administrator would configure: boxes of 2^k nodes, each
    doubling its shortest axis that still fits, from 2 nodes to the torus."""
    shape, shapes = [1, 1, 1], []
    while True:
        axes = sorted((a for a in range(3) if shape[a] * 2 <= dims[a] and dims[a] % (shape[a] * 2) == 0),
                      key=lambda a: (shape[a], a))
        if not axes:
            return shapes
        shape[axes[0]] *= 2
        shapes.append(list(shape))


def strategy_params(strategy, dims, tasks):
    if strategy != "torus3d":
        return []
    shapes = torus3d_shapes(dims)
    nodes = min(s[0] * s[1] * s[2] for s in shapes if s[0] * s[1] * s[2] >= tasks)
    return ["shapes=" + ",".join("x".join(map(str, s)) for s in shapes), f"nodes={nodes}"]


def app_key(app):
    return json.dumps(app, sort_keys=True)


def app_name(app):
    if app["app"] == "dt":
        return f"DT {app['kind'].upper()} class {app['class']}"
    return f"LAMMPS {app['ranks']} ranks"


def model_args(model):
    extra = {NETWORK_ONLY: ["--cpu-speed", "1e-3"],
             DIRECT_NETWORK: ["--routing", "direct"]}
    return ["--link-sharing", model[0], "--crosstraffic", model[1]] + extra.get(tuple(model), [])


def model_name(model):
    return f"{model[0]} links, cross-traffic {model[1]}" + {
        NETWORK_ONLY: ", computation not replayed",
        DIRECT_NETWORK: ", a link between every two nodes"}.get(tuple(model), "")


def values_of(out):
    line = re.search(r"^tofa-sim-trace: (.*)$", out, re.M)
    if not line:
        raise RuntimeError(f"no result line in tofa-sim's output:\n{out[-2000:]}")
    return dict(kv.split("=", 1) for kv in line.group(1).split())


class Work:
    def __init__(self, tmp, size, recordings_cache):
        self.tmp = tmp
        self.size = size
        self.recordings_cache = recordings_cache  # None: record every run afresh
        self.recordings = {}  # app key -> sim_recordings.record()'s result
        self.placements = {}  # (arrangement, app key, strategy) -> (hostfile, metrics)
        self.mix_times = {}  # the mix's placements -> its jobs' times run at once
        self.lock = threading.Lock()

    def record_all(self, apps, progress):
        dt_binary = sim_recordings.npb_dt_binary()
        out = os.path.join(self.tmp, "recordings")
        for app in apps:
            info = sim_recordings.record(app, out, TOFA_SIM, dt_binary, self.recordings_cache)
            self.recordings[app_key(app)] = info
            progress.finished(f"{'cached recording of' if info['cached'] else 'recorded'} "
                              f"{app_name(app)}")

    def trace_args(self, app):
        info = self.recordings[app_key(app)]
        return ["--app", "trace", "--trace", info["trace"]] + (
            ["--trace-window", info["window"]] if info["window"] else [])

    def graph(self, app):
        info = self.recordings[app_key(app)]
        return info["trace"] + ".mat", info["ranks"]

    def place(self, arrangement, app, strategy):
        key = (arrangement, app_key(app), strategy)
        with self.lock:
            if key in self.placements:
                return self.placements[key]
        dims = [int(x) for x in arrangement.split("x")]
        stem = tempfile.mktemp(dir=self.tmp)
        graph, tasks = self.graph(app)
        args = [TOFA_MAP, "--topology", "torus:" + arrangement, "--graph", graph, "--strategy",
                strategy, "--seed", "1", "--hostfile", stem + ".hosts", "--json", stem + ".json"]
        for param in strategy_params(strategy, dims, tasks):
            args += ["--param", param]
        run(args)
        metrics = json.load(open(stem + ".json"))["results"][0]["metrics"]
        with self.lock:
            self.placements[key] = (stem + ".hosts", metrics)
        return self.placements[key]

    def time_of(self, app, seconds):
        """LAMMPS: steps per second (its own metric); DT: seconds."""
        return seconds if app["app"] == "dt" else app["steps"] / seconds

    def single(self, arrangement, app, strategy, model=DEFAULT_MODEL):
        """One fault-free placement and its simulation."""
        hosts, metrics = self.place(arrangement, app, strategy)
        out = run([TOFA_SIM, "run", "--topology", "torus:" + arrangement, *self.trace_args(app),
                   *model_args(model), "--hostfile", hosts])
        seconds = float(values_of(out)["time"])
        return {"arrangement": arrangement, "app": app, "strategy": strategy,
                "model": list(model), "tasks": self.graph(app)[1], "time": seconds,
                "steps_per_second": app["steps"] / seconds if app["app"] == "lammps" else None,
                "hop_bytes": metrics["hop_bytes"], "nodes_used": metrics["nodes_used"]}

    def batch(self, app, strategy, failing, model=DEFAULT_MODEL):
        stem = tempfile.mktemp(dir=self.tmp)
        args = [TOFA_SIM, "batch", "--topology", "torus:8x8x8", *self.trace_args(app),
                *model_args(model), "--strategy", strategy, "--failing-nodes", str(failing),
                "--outage", str(OUTAGE), "--jobs", "1", "--json", stem + ".json", "--tofa-map",
                TOFA_MAP, *self.size["batch_args"]]
        for param in strategy_params(strategy, [8, 8, 8], self.graph(app)[1]):
            args += ["--map-arg=--param", "--map-arg=" + param]
        run(args)
        doc = json.load(open(stem + ".json"))
        return {"app": app, "strategy": strategy, "failing_nodes": failing, "outage": OUTAGE,
                "model": list(model), "master_seed": doc["master_seed"],
                "mean_completion_time": doc["mean_completion_time"],
                "abort_ratio": doc["abort_ratio"], "aborted_instances": doc["aborted_instances"],
                "instances": doc["batch_count"] * doc["instances_per_batch"],
                "batches": [{"seed": b["seed"], "completion_time": b["completion_time"],
                             "abort_ratio": b["abort_ratio"],
                             "fault_free_time": b["fault_free_time"]} for b in doc["batches"]],
                "distinct_placements": len(doc["placements"])}

    # ---- jobs sharing the torus

    def place_mix(self, strategy, faults=None):
        """The mix in arrival order, each job on the nodes the earlier left."""
        free = [f"n{i}" for i in range(512)]
        placed = []
        for j, app in enumerate(mix_apps(self.size)):
            graph, tasks = self.graph(app)
            stem = tempfile.mktemp(dir=self.tmp)
            args = [TOFA_MAP, "--topology", "torus:8x8x8", "--graph", graph, "--strategy",
                    strategy, "--seed", str(j + 1), "--nodes", ",".join(free), "--hostfile",
                    stem + ".hosts"]
            if faults:
                args += ["--faults", faults]
            run(args)
            nodes = open(stem + ".hosts").read().split()
            taken = set(nodes)
            free = [n for n in free if n not in taken]
            placed.append((app, stem + ".hosts"))
        return placed

    def run_mix(self, placed):
        key = tuple(open(hosts).read() for _, hosts in placed)
        with self.lock:
            cached = self.mix_times.get(key)
        if cached:
            return cached
        jobs = []
        for app, hosts in placed:
            info = self.recordings[app_key(app)]
            window = "@" + info["window"] if info["window"] else ""
            jobs += ["--job", f"{info['trace']}{window}={hosts}"]
        values = values_of(run([TOFA_SIM, "share", "--topology", "torus:8x8x8", *jobs]))
        times = [float(values[f"job{j}"]) for j in range(len(placed))]
        with self.lock:
            self.mix_times[key] = times
        return times

    def share(self, strategy):
        """The mix at once, and each job alone on the same nodes."""
        placed = self.place_mix(strategy)
        shared = self.run_mix(placed)
        alone = []
        for app, hosts in placed:
            out = run([TOFA_SIM, "run", "--topology", "torus:8x8x8", *self.trace_args(app),
                       "--hostfile", hosts])
            alone.append(float(values_of(out)["time"]))
        return {"strategy": strategy, "jobs": [
            {"app": app, "shared_time": s, "alone_time": a, "slowdown": s / a}
            for (app, _), s, a in zip(placed, shared, alone)]}

    def share_batch(self, strategy, batch, seed, outage_nodes):
        """One batch of the mix under failures: placed knowing N_f at p_f, run
        at once for each job's fault-free time; each job's instances then
        fail as tofa-sim batch draws them, the same draws for every job."""
        faults = os.path.join(self.tmp, f"faults.{batch}")
        with open(faults, "w") as f:
            f.writelines(f"{n} {OUTAGE}\n" for n in outage_nodes)
        placed = self.place_mix(strategy, faults)
        times = self.run_mix(placed)
        jobs = []
        for (app, hosts), t in zip(placed, times):
            stem = tempfile.mktemp(dir=self.tmp)
            run([TOFA_SIM, "batch", "--topology", "torus:8x8x8", *self.trace_args(app),
                 "--hostfile", hosts, "--outage-nodes", ",".join(outage_nodes), "--outage",
                 str(OUTAGE), "--batches", "1", "--instances",
                 "20" if self.size["batch_args"] else "100", "--seed", str(seed),
                 "--fault-free-time", repr(t), "--json", stem + ".json"])
            doc = json.load(open(stem + ".json"))
            jobs.append({"app": app, "fault_free_time": t,
                         "completion_time": doc["mean_completion_time"],
                         "aborted_instances": doc["aborted_instances"],
                         "instances": doc["batch_count"] * doc["instances_per_batch"]})
        return {"strategy": strategy, "batch": batch, "seed": seed, "outage_nodes": outage_nodes,
                "jobs": jobs}


def dt_apps(size):
    return [{"app": "dt", "kind": k, "class": c} for k, c in size["dt"]]


def lammps_apps(size):
    return [{"app": "lammps", "ranks": r, "steps": size["steps"]} for r in size["lammps"]]


def mix_apps(size):
    return [{"app": "dt", "kind": m[1], "class": m[2]} if m[0] == "dt"
            else {"app": "lammps", "ranks": m[1], "steps": size["steps"]} for m in size["mix"]]


def batch_lammps(size):
    return {"app": "lammps", "ranks": size["batch_lammps"], "steps": size["steps"]}


def share_outage_nodes(size, work):
    """N_f of each shared batch: tofa-sim failures' draws (any placement)."""
    graph, tasks = work.graph(dt_apps(size)[0])
    hosts = os.path.join(work.tmp, "any.hosts")
    with open(hosts, "w") as f:
        f.writelines(f"n{i}\n" for i in range(tasks))
    out = run([TOFA_SIM, "failures", "--topology", "torus:8x8x8", "--graph", graph, "--hostfile",
               hosts, "--failing-nodes", str(SHARE_FAILING), "--outage", str(OUTAGE),
               "--batches", str(size["share_batches"]), "--instances", "1", "--seed", "1"])
    return [(int(m.group(1)), m.group(2).split())
            for m in re.finditer(r"^batch seed (\d+):.*N_f:(.*)$", out, re.M)]


def plan(size):
    dt, lammps = dt_apps(size), lammps_apps(size)
    singles = [("8x8x8", a, s, m) for a in dt for s in STRATEGIES for m in MODELS + [NETWORK_ONLY]]
    singles += [("8x8x8", a, s, DEFAULT_MODEL) for a in lammps for s in STRATEGIES]
    # The floors: each batch's and mix job's application on direct links (any placement).
    floors = {app_key(a): a for a in [dt[0], batch_lammps(size)] + mix_apps(size)}
    singles += [("8x8x8", a, "default-slurm", DIRECT_NETWORK) for a in floors.values()]
    singles += [(arr, lammps[-1], s, DEFAULT_MODEL) for arr in size["arrangements"][1:]
                for s in TABLE1_STRATEGIES]
    batches = [(dt[0], s, 16, m) for m in MODELS for s in BATCH_STRATEGIES]
    batches += [(batch_lammps(size), s, f, DEFAULT_MODEL) for f in (8, 16)
                for s in BATCH_STRATEGIES]
    return singles, batches


def recorded_apps(size):
    apps = dt_apps(size) + lammps_apps(size) + mix_apps(size) + [batch_lammps(size)]
    unique = {}
    for a in apps:
        unique.setdefault(app_key(a), a)
    return list(unique.values())


def run_all(jobs, size, recordings_cache):
    singles, batches = plan(size)
    apps = recorded_apps(size)
    progress = Progress(len(apps) + len(singles) + len(batches) + len(SHARE_STRATEGIES)
                        + len(SHARE_BATCH_STRATEGIES) * size["share_batches"])
    results = {"singles": [], "batches": [], "share": [], "share_batches": []}
    with tempfile.TemporaryDirectory(prefix="tofa-sim-results.") as tmp:
        work = Work(tmp, size, recordings_cache)
        work.record_all(apps, progress)
        results["recordings"] = [{"app": a, **{k: v for k, v in work.recordings[app_key(a)].items()
                                               if k != "trace"}} for a in apps]
        outage = share_outage_nodes(size, work)
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {}
            # The longest tasks first.
            for s in SHARE_BATCH_STRATEGIES:
                for b, (seed, nodes) in enumerate(outage):
                    futures[pool.submit(work.share_batch, s, b, seed, nodes)] = (
                        "share_batches", f"shared batch {b + 1} {s}")
            for s in SHARE_STRATEGIES:
                futures[pool.submit(work.share, s)] = ("share", f"shared mix {s}")
            for a, s, f, m in batches:
                futures[pool.submit(work.batch, a, s, f, m)] = (
                    "batches", f"batch {app_name(a)} n_f={f} {s} {model_name(m)}")
            for arr, a, s, m in sorted(singles, key=lambda x: -x[1].get("ranks", 0)):
                futures[pool.submit(work.single, arr, a, s, m)] = (
                    "singles", f"{arr} {app_name(a)} {s} {model_name(m)}")
            for future in concurrent.futures.as_completed(futures):
                kind, what = futures[future]
                results[kind].append(future.result())
                progress.finished(what)
    return results


# ------------------------------------------------------------------ reporting

def find(results, **want):
    for r in results:
        if all(r[k] == v for k, v in want.items()):
            return r
    return None


def pct(value, base):
    return f"{100.0 * (value / base - 1.0):+.1f}%"


def default_strategy():
    """tofa-map's default, DefaultStrategy's default in tofa.conf."""
    found = re.search(r"mapping strategy \(default ([\w-]+)\)", run([TOFA_MAP, "--help"]))
    return found.group(1) if found else "?"


def strategy_label(s):
    return s + (" (default)" if s == DEFAULT_STRATEGY else "")


def singles(doc, arrangement="8x8x8", model=DEFAULT_MODEL):
    return [r for r in doc["singles"] if r["arrangement"] == arrangement
            and r["model"] == list(model)]


def strategy_table(rows, apps, first_column, row_label, value, text):
    """Apps by STRATEGIES: each cell `text(value)` with its change against
    default-slurm's; returns the markdown lines and each cell's ratio to it."""
    lines = [f"| {first_column} | " + " | ".join(strategy_label(s) for s in STRATEGIES) + " |",
             "|---|" + "---:|" * len(STRATEGIES)]
    ratios = [[None] * len(apps) for _ in STRATEGIES]
    for g, app in enumerate(apps):
        base = value(find(rows, app=app, strategy="default-slurm"))
        cells = []
        for i, s in enumerate(STRATEGIES):
            mine = value(find(rows, app=app, strategy=s))
            ratios[i][g] = mine / base
            cells.append(text(mine) + ("" if s == "default-slurm" else f" ({pct(mine, base)})"))
        lines.append(f"| {row_label(app)} | " + " | ".join(cells) + " |")
    return lines, ratios


def figure3a(doc, model=DEFAULT_MODEL):
    dt = dt_apps(doc["size"])
    rows = singles(doc, model=model)
    lines, ratios = strategy_table(
        rows, dt, "DT graph",
        lambda app: f"{app_name(app)}, {find(rows, app=app, strategy='default-slurm')['tasks']} ranks",
        lambda r: r["time"], lambda t: f"{t:.4g} s")
    svg = grouped_bars("NPB DT on an empty 8x8x8 torus (SimGrid, recorded runs)",
                       "time / default-slurm's", [app_name(a) for a in dt], STRATEGIES, ratios,
                       note="lower is better; seed (Fig. 3a, DT class C): " + SEED["fig3a"],
                       reference=1.0)
    return "\n".join(lines), svg


def sensitivity(doc):
    """Figure 3a's and Figure 4's change vs default-slurm under each model."""
    dt = dt_apps(doc["size"])
    shown = ["tofa", "auto"]
    lines = ["| network model | " + " | ".join(f"{app_name(a)}: {s}" for a in dt for s in shown)
             + " | Fig. 4 batches: " + " | Fig. 4 batches: ".join(shown) + " |",
             "|---|" + "---:|" * (len(dt) * len(shown) + len(shown))]
    for model in MODELS + [NETWORK_ONLY]:
        rows = singles(doc, model=model)
        cells = []
        for a in dt:
            base = find(rows, app=a, strategy="default-slurm")
            cells += [pct(find(rows, app=a, strategy=s)["time"], base["time"]) for s in shown]
        brows = [r for r in doc["batches"] if r["app"]["app"] == "dt" and r["model"] == list(model)]
        bbase = find(brows, strategy="default-slurm")
        cells += [pct(find(brows, strategy=s)["mean_completion_time"],
                      bbase["mean_completion_time"]) if bbase else "not run" for s in shown]
        default = " (SimGrid's defaults; every other figure)" if model == DEFAULT_MODEL else ""
        lines.append(f"| {model_name(model)}{default} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def figure3b(doc):
    rows = [r for r in singles(doc) if r["app"]["app"] == "lammps"]
    apps = lammps_apps(doc["size"])
    lines, ratios = strategy_table(rows, apps, "LAMMPS ranks", lambda app: app["ranks"],
                                   lambda r: r["steps_per_second"], lambda v: f"{v:.0f}")
    svg = grouped_bars("LAMMPS on an empty 8x8x8 torus (SimGrid, recorded runs)",
                       "steps per second / default-slurm's",
                       [f"{a['ranks']} ranks" for a in apps], STRATEGIES, ratios,
                       note="higher is better; seed (Fig. 3b): " + SEED["fig3b"], reference=1.0)
    return "\n".join(lines), svg


def table1(doc):
    largest = lammps_apps(doc["size"])[-1]
    arrangements = doc["size"]["arrangements"]
    rows = [r for r in doc["singles"] if r["app"] == largest and r["model"] == list(DEFAULT_MODEL)]
    lines = ["| torus | " + " | ".join(strategy_label(s) for s in TABLE1_STRATEGIES)
             + " | seed: default-slurm | seed: TOFA |",
             "|---|" + "---:|" * (len(TABLE1_STRATEGIES) + 2)]
    values = [[None] * len(arrangements) for _ in TABLE1_STRATEGIES]
    for g, arr in enumerate(arrangements):
        cells = []
        for i, s in enumerate(TABLE1_STRATEGIES):
            r = find(rows, arrangement=arr, strategy=s)
            values[i][g] = r["steps_per_second"]
            cells.append(f"{r['steps_per_second']:.0f}")
        seed = SEED["table1"][arr]
        lines.append(f"| {arr} | " + " | ".join(cells) + f" | {seed[0]} | {seed[1]} |")
    svg = grouped_bars(f"LAMMPS, {largest['ranks']} ranks, on 512-node torus arrangements "
                       "(SimGrid)", "steps per second", arrangements, TABLE1_STRATEGIES, values,
                       note="higher is better (the seed's Table 1 is in docs/sim-results.md)")
    return "\n".join(lines), svg


BATCH_CASES = [("dt-16", "dt", 16, "Fig. 4"), ("lammps-8", "lammps", 8, "Fig. 5a"),
               ("lammps-16", "lammps", 16, "Fig. 5b")]


def batch_rows(doc, app_kind, failing):
    return [r for r in doc["batches"] if r["app"]["app"] == app_kind
            and r["failing_nodes"] == failing and r["model"] == list(DEFAULT_MODEL)]


def batch_tables(doc):
    lines = ["| scenario | strategy | mean batch completion | vs default-slurm | abort ratio "
             "| seed: TOFA vs default-slurm | seed: abort ratios (TOFA / default-slurm) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    svgs = {}
    for key, app_kind, failing, figure in BATCH_CASES:
        rows = batch_rows(doc, app_kind, failing)
        base = find(rows, strategy="default-slurm")
        title = f"{app_name(base['app'])}, {failing} failing nodes ({figure})"
        seed_change, seed_tofa, seed_default = SEED["batches"][key]
        for s in BATCH_STRATEGIES:
            r = find(rows, strategy=s)
            change = "" if s == "default-slurm" else pct(r["mean_completion_time"],
                                                        base["mean_completion_time"])
            seed_cols = (f"{seed_change:+.1f}%", f"{seed_tofa:.1f}% / " + (
                f"{seed_default:.1f}%" if seed_default is not None else "not stated")) \
                if s == "default-slurm" else ("", "")
            lines.append(f"| {title} | {strategy_label(s)} | {r['mean_completion_time']:.4g} s | "
                         f"{change} | {100 * r['abort_ratio']:.1f}% ({r['aborted_instances']} of "
                         f"{r['instances']}) | {seed_cols[0]} | {seed_cols[1]} |")
        batches = len(base["batches"])
        values = [[find(rows, strategy=s)["batches"][b]["completion_time"] for b in range(batches)]
                  for s in BATCH_STRATEGIES]
        svgs[f"sim-{key}.svg"] = grouped_bars(
            title + " at p_f = 0.02", "batch completion time (s)",
            [str(b + 1) for b in range(batches)], BATCH_STRATEGIES, values,
            note=f"{batches} batches of {base['instances'] // batches} instances; lower is better")
    return "\n".join(lines), svgs


def share_summary(doc):
    """Per strategy: mean job time at once, mean slowdown against alone, and
    the batches' mean completion and aborts per application."""
    out = {}
    for s in SHARE_STRATEGIES:
        mix = find(doc["share"], strategy=s)
        times = [j["shared_time"] for j in mix["jobs"]]
        batches = [b for b in doc["share_batches"] if b["strategy"] == s]
        per_app = {}
        for kind in ("dt", "lammps"):
            jobs = [j for b in batches for j in b["jobs"] if j["app"]["app"] == kind]
            if jobs:
                per_app[kind] = (sum(j["completion_time"] for j in jobs) / len(batches),
                                 sum(j["aborted_instances"] for j in jobs),
                                 sum(j["instances"] for j in jobs))
        out[s] = {"mean_time": sum(times) / len(times),
                  "mean_slowdown": sum(j["slowdown"] for j in mix["jobs"]) / len(mix["jobs"]),
                  "worst_slowdown": max(j["slowdown"] for j in mix["jobs"]), "apps": per_app,
                  "jobs": mix["jobs"]}
    return out


def share_tables(doc):
    summary = share_summary(doc)
    mix = ", ".join(app_name(a) for a in mix_apps(doc["size"]))
    base = summary["default-slurm"]
    lines = ["| strategy | mean job time at once | vs default-slurm | mean / worst slowdown "
             "from sharing | " + " | ".join(f"job {k + 1}: at once (alone)"
                                           for k in range(len(base["jobs"]))) + " |",
             "|---|---:|---:|---:|" + "---:|" * len(base["jobs"])]
    for s in SHARE_STRATEGIES:
        r = summary[s]
        change = "" if s == "default-slurm" else pct(r["mean_time"], base["mean_time"])
        jobs = " | ".join(f"{j['shared_time']:.4g} s ({j['alone_time']:.4g} s)" for j in r["jobs"])
        lines.append(f"| {strategy_label(s)} | {r['mean_time']:.4g} s | {change} | "
                     f"{r['mean_slowdown']:.3f}x / {r['worst_slowdown']:.3f}x | {jobs} |")
    fault = ["| strategy | " + " | ".join(
        f"{k.upper() if k == 'dt' else 'LAMMPS'} jobs: mean batch completion | vs default-slurm "
        f"| aborted instances" for k in ("dt", "lammps")) + " |", "|---|" + "---:|" * 6]
    for s in SHARE_BATCH_STRATEGIES:
        cells = []
        for k in ("dt", "lammps"):
            t, aborted, total = summary[s]["apps"][k]
            b = summary["default-slurm"]["apps"][k][0]
            cells += [f"{t:.4g} s", "" if s == "default-slurm" else pct(t, b),
                      f"{100.0 * aborted / total:.1f}% ({aborted} of {total})"]
        fault.append(f"| {strategy_label(s)} | " + " | ".join(cells) + " |")
    return mix, "\n".join(lines), "\n".join(fault)


def goal_table(doc):
    """The issue's goals: the default's batch completion at least the seed's
    reduction, its abort ratio at most the seed's TOFA; `tofa` within 5 points
    of the seed; on the shared torus the default's mean job time 15% lower."""
    lines = ["| scenario | goal | " + f"`{DEFAULT_STRATEGY}` (default) | `tofa` (the seed's) | "
             "floor: no aborts, a link between every two nodes |", "|---|---|---|---|---:|"]
    dt3a = singles(doc)
    app = dt_apps(doc["size"])[0]
    base = find(dt3a, app=app, strategy="default-slurm")["time"]
    floor = {key: f"{change:+.1f}%" for key, _, _, change in floor_changes(doc)}
    cells = []
    for s in (DEFAULT_STRATEGY, "tofa"):
        change = 100.0 * (find(dt3a, app=app, strategy=s)["time"] / base - 1.0)
        goal = SEED["fig3a_change"]
        met = change <= goal if s != "tofa" else abs(change - goal) <= 5
        cells.append(f"{change:+.1f}% ({'met' if met else 'missed'})")
    lines.append(f"| {app_name(app)}, fault-free (Fig. 3a) | seed {SEED['fig3a_change']:+.0f}%;"
                 f" `tofa` within 5 points | " + " | ".join(cells) + f" | {floor['fig3a']} |")
    for key, app_kind, failing, figure in BATCH_CASES:
        rows = batch_rows(doc, app_kind, failing)
        bbase = find(rows, strategy="default-slurm")
        seed_change, seed_tofa, _ = SEED["batches"][key]
        cells = []
        for s in (DEFAULT_STRATEGY, "tofa"):
            r = find(rows, strategy=s)
            change = 100.0 * (r["mean_completion_time"] / bbase["mean_completion_time"] - 1.0)
            ratio = 100.0 * r["abort_ratio"]
            if s == "tofa":
                met = [abs(change - seed_change) <= 5, abs(ratio - seed_tofa) <= 5]
            else:
                met = [change <= seed_change, ratio <= seed_tofa]
            cells.append(f"{change:+.1f}% ({'met' if met[0] else 'missed'}), "
                         f"{ratio:.1f}% ({'met' if met[1] else 'missed'})")
        lines.append(f"| {app_name(bbase['app'])}, {failing} failing nodes ({figure}) | "
                     f"<= {seed_change:+.1f}%, aborts <= {seed_tofa:.1f}%; `tofa` within 5 "
                     f"points | " + " | ".join(cells) + f" | {floor[key]} |")
    summary = share_summary(doc)
    cells = []
    for s in (DEFAULT_STRATEGY, "tofa"):
        change = 100.0 * (summary[s]["mean_time"] / summary["default-slurm"]["mean_time"] - 1.0)
        cells.append(f"{change:+.1f}%" + (f" ({'met' if change <= SHARE_GOAL else 'missed'})"
                                          if s == DEFAULT_STRATEGY else ""))
    lines.append(f"| jobs sharing the torus, mean job time | <= {SHARE_GOAL:+.0f}% | "
                 + " | ".join(cells) + f" | {floor['share']} |")
    return "\n".join(lines)


def floor_changes(doc):
    """Per goal (key, scenario, goal %): the floor's change against
    default-slurm, each job on direct links with no aborts."""
    direct = lambda a: find(singles(doc, model=DIRECT_NETWORK), app=a)["time"]
    app = dt_apps(doc["size"])[0]
    base = find(singles(doc), app=app, strategy="default-slurm")["time"]
    out = [("fig3a", f"{app_name(app)} fault-free (Fig. 3a)", SEED["fig3a_change"],
            100.0 * (direct(app) / base - 1.0))]
    for key, app_kind, failing, figure in BATCH_CASES:
        bbase = find(batch_rows(doc, app_kind, failing), strategy="default-slurm")
        out.append((key, f"{app_name(bbase['app'])}, {failing} failing nodes ({figure})",
                    SEED["batches"][key][0],
                    100.0 * (batch_floor(doc, bbase) / bbase["mean_completion_time"] - 1.0)))
    mix = [direct(a) for a in mix_apps(doc["size"])]
    out.append(("share", "jobs sharing the torus", SHARE_GOAL,
                100.0 * (sum(mix) / len(mix) / share_summary(doc)["default-slurm"]["mean_time"]
                         - 1.0)))
    return out


def batch_floor(doc, base):
    """The least a batch can take under any placement: every instance one
    run (no aborts) as fast as on direct links."""
    per_batch = base["instances"] // len(base["batches"])
    return per_batch * find(singles(doc, model=DIRECT_NETWORK), app=base["app"])["time"]


def block_no_aborts(doc, failing):
    """LAMMPS's batches at `failing` nodes: the block layout's fault-free
    time for every instance (no aborts) against default-slurm, and auto's."""
    rows = batch_rows(doc, "lammps", failing)
    base, auto = (find(rows, strategy=s) for s in ("default-slurm", DEFAULT_STRATEGY))
    per_batch = base["instances"] // len(base["batches"])
    block = per_batch * base["batches"][0]["fault_free_time"]
    return (f"{failing} failing nodes {pct(block, base['mean_completion_time'])} "
            f"(`{DEFAULT_STRATEGY}` {pct(auto['mean_completion_time'], base['mean_completion_time'])})")


def why_missed(doc):
    """The measured reasons, in numbers."""
    dt = dt_apps(doc["size"])[0]
    full = {s: find(singles(doc), app=dt, strategy=s)["time"] for s in ("default-slurm", "auto")}
    net = {s: find(singles(doc, model=NETWORK_ONLY), app=dt, strategy=s)["time"]
           for s in ("default-slurm", "auto")}
    lammps = batch_lammps(doc["size"])
    lrows = {r["strategy"]: r for r in singles(doc) if r["app"] == lammps}
    best = max((lrows[s] for s in STRATEGIES), key=lambda r: r["steps_per_second"])
    direct = {a["app"]: find(singles(doc, model=DIRECT_NETWORK), app=a)["time"]
              for a in (dt, lammps)}
    floors = floor_changes(doc)
    beyond = [f"{name} ({goal:+.1f}% against a floor of {change:+.1f}%)"
              for _, name, goal, change in floors if goal < change]
    within = [name for _, name, goal, change in floors if goal >= change]
    lines = [
        "- The floor column: each job on a network in which every two nodes have a link of their "
        "own (`tofa-sim --routing direct`: the torus's bandwidth and latency, a lane each way, no "
        "acknowledgement traffic), every instance run once (no aborts). Any placement on the "
        "torus sends each message over at least one link as fast, shared with at least the "
        "flows that share a direct link (the same two nodes' other messages), so no placement "
        f"does better: {app_name(dt)} {direct['dt']:.4g} s against the block layout's "
        f"{full['default-slurm']:.4g} s, {app_name(lammps)} {direct['lammps']:.4g} s against "
        f"{lrows['default-slurm']['time']:.4g} s. "
        + (f"Goals below their floor, which no placement can meet on these runs: "
           f"{'; '.join(beyond)}." if beyond else "No goal lies below its floor.")
        + (f" Within reach of a placement: {', '.join(within)}." if within else ""),
        f"- {app_name(dt)}: the block layout's run takes {full['default-slurm']:.3g} s, of which "
        f"{net['default-slurm']:.3g} s remain when the recorded computation is left out "
        f"(`--cpu-speed 1e-3`, the sensitivity table's last row): the rest is computation on the "
        f"critical path, which no placement shortens. On the network alone `auto` is "
        f"{pct(net['auto'], net['default-slurm'])} against the block layout, on the whole run "
        f"{pct(full['auto'], full['default-slurm'])}; the seed's -22% and -31% would need the "
        f"network to be most of DT's time.",
        f"- {app_name(lammps)}: LAMMPS numbers its ranks along its own processor grid, so the "
        f"block layout is already a good embedding: `{best['strategy']}` is the fastest "
        f"fault-free layout ({best['steps_per_second']:.0f} steps/s; default-slurm "
        f"{lrows['default-slurm']['steps_per_second']:.0f}, `tofa` "
        f"{lrows['tofa']['steps_per_second']:.0f}). Under failures `auto` moves it whole off "
        f"the failing nodes when a translation of the torus clears its routes; the block "
        f"layout's speed with no aborts is what that reaches: "
        + "; ".join(block_no_aborts(doc, failing) for failing in (8, 16)) + ".",
        "- `tofa` (Listing 1.1) maps onto the first run of consecutive fault-free nodes with "
        "Scotch, slower than the block layout fault-free for LAMMPS, and its routes may still "
        "cross a failing node: more aborts than the block layout in Figure 5 (the table)."]
    return "\n".join(lines)


def recording_note(doc):
    cached = [r for r in doc["recordings"] if r.get("cached")]
    if not cached:
        return ", recordings included"
    return (f", {len(cached)} of {len(doc['recordings'])} recordings taken from the cache "
            f"(recording them took {sum(r['record_seconds'] for r in cached):.0f} s)")


def recordings_table(doc):
    lines = ["| recording | ranks | replayed | recorded in | trace |", "|---|---:|---|---:|---|"]
    for r in doc["recordings"]:
        window = f"barriers {r['window']} (the time steps)" if r["window"] else "the whole run"
        lines.append(f"| {app_name(r['app'])} | {r['ranks']} | {window} | "
                     f"{r['record_seconds']:.0f} s{' (cached)' if r.get('cached') else ''} | "
                     f"{r['summary'].split(': ', 1)[1]} |")
    return "\n".join(lines)


def write_reports(doc, docs_dir, readme_path):
    os.makedirs(docs_dir, exist_ok=True)
    t3a, svg3a = figure3a(doc)
    t3b, svg3b = figure3b(doc)
    t1, svg1 = table1(doc)
    tb, svgs = batch_tables(doc)
    goal = goal_table(doc)
    sens = sensitivity(doc)
    mix, tshare, tshare_faults = share_tables(doc)
    svgs.update({"sim-fig3a.svg": svg3a, "sim-fig3b.svg": svg3b, "sim-table1.svg": svg1})
    for name, svg in svgs.items():
        path = os.path.join(docs_dir, name)
        with open(path, "w") as f:
            f.write(svg)
        subprocess.run(["rsvg-convert", path, "-o", path[:-4] + ".png"], check=True)
    size = {"full": f"the seed's sizes (--full), LAMMPS replaying {doc['size']['steps']} time "
                    f"steps",
            "quick": "--quick: a pipeline check, not a result"}[doc["size_name"]]
    head = (f"SimGrid {doc['simgrid']} SMPI replaying runs recorded on this machine, 8x8x8 torus "
            f"unless stated, 6 Gf hosts, 10 Gbps / 1 us links shared by both directions, "
            f"cross-traffic on (SimGrid's defaults); ranks in each application's own order; "
            f"{size}; `scripts/sim-results.py` took {doc['elapsed_seconds']:.0f} s on "
            f"{doc['jobs']} parallel jobs{recording_note(doc)}. `{DEFAULT_STRATEGY}` is the project's default "
            f"strategy; `tofa` is the seed's.")
    flag = ' --full' if doc['size_name'] == 'full' else ' --quick'
    md = f"""# tofa-sim results: the seed's section 5 on recorded runs

Generated by `python3 scripts/sim-results.py{flag}`; do not
edit by hand. {head}

Strategies: `default-slurm` (Slurm's block layout: rank i on the i-th node), `random`, `greedy`
(the seed's 5.1 heuristic), `torus3d` (Slurm 26.05's topology/torus3d policy: the smallest
configured 2^k box that holds the job, shapes
{', '.join('x'.join(map(str, s)) for s in torus3d_shapes([8, 8, 8]))} on 8x8x8, tasks along its
Z-order; no graph, no faults), `tofa` (the seed's Listing 1.1 on Scotch), `auto` (every applicable
strategy, lowest Equation 1 cost, routes clear of failing nodes first).

## The runs replayed

Each application ran here under Open MPI with `tofa-profile --trace` (ranks oversubscribing
the cores; the trace keeps each rank's CPU time between MPI calls), and `tofa-sim` replays the
trace on each placement: every message with its size and partner, the collectives as the
profiler's algorithms, the computation as measured (scripts/lib/sim_recordings.py says how each
is recorded). The replay sends exactly the recorded graph (tests/sim/test_trace.sh).

{recordings_table(doc)}

## Figure 3a: NPB DT, fault-free (simulated time; change vs default-slurm)

{t3a}

Seed: {SEED['fig3a']}.

![](sim-fig3a.png)

### The network model (Figure 3a and Figure 4 under each)

Change against default-slurm of `tofa` and `auto`, same placements, for each link sharing and
cross-traffic setting. The seed on its platform: {SEED['platform']}. SimGrid's `<link>` is shared
by both directions unless declared split-duplex, and `smpirun` turns cross-traffic on.

{sens}

## Figure 3b: LAMMPS, fault-free (steps per second; change vs default-slurm)

{t3b}

Seed: {SEED['fig3b']}.

![](sim-fig3b.png)

## Table 1: LAMMPS at 256 ranks on 512-node arrangements (steps per second)

{t1}

![](sim-table1.png)

## Figures 4 and 5: batches under node failures (p_f = 0.02)

The goals: the default's batch completion time down at least as much as the seed reports with
an abort ratio at most the seed's TOFA; `tofa` within 5 points of the seed's own figures; jobs
sharing the torus at least 15% faster on average than on Slurm's layout:

{goal}

Why the goals are missed, measured:
{why_missed(doc)}

{tb}

![](sim-dt-16.png)
![](sim-lammps-8.png)
![](sim-lammps-16.png)

## Jobs sharing the torus

The mix, in arrival order: {mix}. Each strategy places each job on the nodes the earlier jobs
left (tofa-map --nodes), then all run at once (`tofa-sim share`); slowdown is a job's time at
once over its time alone on the same nodes.

{tshare}

The same mix under failures: {doc['size']['share_batches']} batches, {SHARE_FAILING} failing
nodes at p_f = {OUTAGE}; per batch each strategy places the mix knowing N_f, the mix runs at once
for each job's fault-free time, and every job's instances fail by the same draws (`tofa-sim
batch --fault-free-time`).

{tshare_faults}
"""
    with open(os.path.join(docs_dir, "sim-results.md"), "w") as f:
        f.write(md)
    if not readme_path:
        return
    section = (f"{head}\n\n{goal}\n\n{tb}\n\nFault-free figures, the network-model "
               f"sensitivity and jobs sharing the torus: docs/sim-results.md.")
    if not replace_readme_block(readme_path, "sim", section):
        print(f"{readme_path} has no <!-- sim:begin --> marker: section not written",
              file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="the seed's sizes (the default)")
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes that check the pipeline (for tests)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--json", default=os.path.join(ROOT, "out", "sim-results.json"))
    parser.add_argument("--docs", default=os.path.join(ROOT, "docs"),
                        help="where sim-results.md and the charts go")
    parser.add_argument("--readme", default=os.path.join(ROOT, "docs", "results.md"),
                        help="the doc whose sim section is rewritten ('' for none)")
    parser.add_argument("--recordings-cache", default=RECORDINGS_CACHE,
                        help="where recordings are kept for later runs with the same sources, "
                        f"binaries and MPI ('' to record afresh; default {RECORDINGS_CACHE})")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite the reports from --json without simulating")
    opts = parser.parse_args()
    if opts.report_only:
        doc = json.load(open(opts.json))
    else:
        size_name = "quick" if opts.quick else "full"
        size = SIZES[size_name]
        start = time.time()
        results = run_all(opts.jobs, size, opts.recordings_cache or None)
        doc_default = default_strategy()
        simgrid = re.search(r"(\d+\.\d+(\.\d+)?)", run(["smpirun", "--version"]))
        doc = {"size_name": size_name, "size": size, "jobs": opts.jobs,
               "simgrid": simgrid.group(1) if simgrid else "?", "default": doc_default,
               "elapsed_seconds": time.time() - start, **results}
        os.makedirs(os.path.dirname(os.path.abspath(opts.json)), exist_ok=True)
        with open(opts.json, "w") as f:
            json.dump(doc, f, indent=1)
    global DEFAULT_STRATEGY
    DEFAULT_STRATEGY = doc["default"]
    write_reports(doc, opts.docs, opts.readme)
    print(f"{opts.json}, {opts.docs}/sim-results.md and charts"
          + (f", {opts.readme}" if opts.readme else "") + " written", file=sys.stderr)


if __name__ == "__main__":
    main()
