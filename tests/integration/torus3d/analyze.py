#!/usr/bin/env python3
"""Analysis of tests/integration/torus3d_compare.sh: reads what the two runs of
the job stream recorded (BASE/{torus3d,tofa}/data/jobs), computes hop-bytes
and P(abort) of every layout on the same torus with the same outage vector
with `tofa-map --evaluate` (the project's own metrics; nothing is computed
here but the checks and the summary), checks the layouts, and writes the JSON
report and the Markdown table. Prints "ok: ..." / "FAIL: ..." lines.

Per job and configuration the run leaves in jobs/:
  NAME.before       `sinfo -N -o '%N %T'` just before the submission
  NAME.sbatch.rc/.err, NAME.jobid
  NAME.layout       `srun -l printenv SLURMD_NODENAME` of the batch job
  NAME.nodes        the allocation (scontrol show hostnames of NodeList)
  NAME.pending      state and reason of a job cancelled after the timeout
  NAME.tofactl      `tofactl job JOBID` (tofa only)
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts" / "lib"))
from readme_block import replace_readme_block  # noqa: E402

CONFIGS = ("torus3d", "tofa")
REFUSED_MESSAGE = "Requested topology configuration is not available"

results = []  # (ok, text)


def check(condition, text):
    results.append((bool(condition), text))
    print(("ok: " if condition else "FAIL: ") + text, flush=True)
    return bool(condition)


# --- the torus ---------------------------------------------------------------
class Torus:
    def __init__(self, dims, nodes):
        self.X, self.Y, self.Z = dims
        self.names = [f"t{i + 1}" for i in range(nodes)]
        self.index = {n: i for i, n in enumerate(self.names)}

    def coords(self, name):
        i = self.index[name]
        return (i % self.X, (i // self.X) % self.Y, i // (self.X * self.Y))

    def box(self, corner, dims):
        """Node names of the (wrapping) box, x fastest."""
        out = []
        for dz in range(dims[2]):
            for dy in range(dims[1]):
                for dx in range(dims[0]):
                    x = (corner[0] + dx) % self.X
                    y = (corner[1] + dy) % self.Y
                    z = (corner[2] + dz) % self.Z
                    out.append(self.names[x + self.X * (y + self.Y * z)])
        return out

    def anchors(self, dims):
        """torus3d's anchors of a shape with the default spacing (= dims) and
        seed (0,0,0): seed + k*spacing modulo the axis until it returns."""
        def axis(length, step):
            pos, out = 0, []
            while True:
                out.append(pos)
                pos = (pos + step) % length
                if pos == 0:
                    return out
        return [(x, y, z) for x in axis(self.X, dims[0]) for y in axis(self.Y, dims[1])
                for z in axis(self.Z, dims[2])]

    def which_box(self, nodes, shapes):
        """(shape, anchor) whose box is exactly this node set, or None."""
        want = set(nodes)
        for shape in shapes:
            if shape[0] * shape[1] * shape[2] != len(want):
                continue
            for anchor in self.anchors(shape):
                if set(self.box(anchor, shape)) == want:
                    return shape, anchor
        return None

    def is_any_box(self, nodes):
        """Is the node set a contiguous, possibly wrapping box (any corner)?"""
        want = set(nodes)
        for a in range(1, self.X + 1):
            for b in range(1, self.Y + 1):
                for c in range(1, self.Z + 1):
                    if a * b * c != len(want):
                        continue
                    for x in range(self.X):
                        for y in range(self.Y):
                            for z in range(self.Z):
                                if set(self.box((x, y, z), (a, b, c))) == want:
                                    return (a, b, c), (x, y, z)
        return None


def hostlist(names):
    """t[1-2,5] style, in the torus's index order."""
    nums = sorted(int(n[1:]) for n in set(names))
    parts, i = [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return "t" + parts[0] if len(parts) == 1 and "-" not in parts[0] else "t[" + ",".join(parts) + "]"


def layout_text(layout):
    """Rank -> node as runs: 0-1:t1 2-3:t2 ..."""
    runs, start = [], 0
    for r in range(1, len(layout) + 1):
        if r == len(layout) or layout[r] != layout[start]:
            ranks = str(start) if r - 1 == start else f"{start}-{r - 1}"
            runs.append(f"{ranks}:{layout[start]}")
            start = r
    return " ".join(runs)


# --- what a run recorded --------------------------------------------------------
def read(path):
    try:
        return Path(path).read_text()
    except OSError:
        return None


def parse_layout(text, tasks):
    layout = {}
    for line in (text or "").splitlines():
        m = re.match(r"^\s*(\d+):\s*(\S+)\s*$", line)
        if m:
            layout[int(m.group(1))] = m.group(2)
    if sorted(layout) != list(range(tasks)):
        return None
    return [layout[r] for r in range(tasks)]


def parse_tofactl(text):
    if not text:
        return None
    fields, placement = {}, {}
    in_table = False
    for line in text.splitlines():
        if line.startswith("TASK"):
            in_table = True
            continue
        if in_table:
            parts = line.split()
            if len(parts) == 2 and parts[0].isdigit():
                placement[int(parts[0])] = parts[1]
        elif ": " in line:
            key, value = line.split(": ", 1)
            fields[key.strip()] = value.strip()
    fields["placement"] = [placement[r] for r in sorted(placement)] if placement else []
    return fields


def free_nodes(before_text):
    free = []
    for line in (before_text or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lower() == "idle":
            free.append(parts[0])
    return free


def read_job(base, config, job):
    d = Path(base) / config / "data" / "jobs"
    name = job["name"]
    rec = {"config": config}
    rc = read(d / f"{name}.sbatch.rc")
    rec["free_before"] = free_nodes(read(d / f"{name}.before"))
    if rc is None:
        rec["status"] = "not run"
        return rec
    if rc.strip() != "0":
        rec["status"] = "refused"
        rec["message"] = " ".join((read(d / f"{name}.sbatch.err") or "").split())
        return rec
    rec["jobid"] = (read(d / f"{name}.jobid") or "").strip()
    pending = read(d / f"{name}.pending")
    layout_raw = read(d / f"{name}.layout")
    if layout_raw is None:
        if pending is not None:
            rec["status"] = "pending"
            rec["message"] = " ".join(pending.splitlines()[0].split()) if pending.strip() else ""
            rec["log"] = pending.splitlines()[1:]
        else:
            rec["status"] = "lost"
        return rec
    layout = parse_layout(layout_raw, job["tasks"])
    rec["srun_rc"] = (read(d / f"{name}.srun.rc") or "").strip()
    if layout is None:
        rec["status"] = "bad layout"
        rec["raw_layout"] = layout_raw.splitlines()[:40]
        return rec
    rec["status"] = "placed"
    rec["layout"] = layout
    rec["allocation"] = (read(d / f"{name}.nodes") or "").split()
    rec["nodes"] = hostlist(layout)
    if config == "tofa":
        rec["tofactl"] = parse_tofactl(read(d / f"{name}.tofactl"))
    return rec


def read_stream(path):
    stream = []
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if parts[0] == "job":
            stream.append({"kind": "job", "name": parts[1], "nodes": int(parts[2]),
                           "tasks": int(parts[3]), "graph": parts[4], "hold": parts[5]})
        elif parts[0] == "release":
            stream.append({"kind": "release", "name": parts[1]})
    return stream


# --- tofa-map ------------------------------------------------------------------
def tofa_map_env():
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)  # the checkout's libtofa, as its libtool wrapper says
    return env


def evaluate(args, graph, layouts):
    """{label: metrics} from one `tofa-map --evaluate` call per job."""
    if not layouts:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.tofa_map, "--topology", args.topology, "--graph", graph, "--faults", args.faults]
        # Labels that are no strategy name (tofa-map stars the default strategy's).
        for label, layout in layouts.items():
            Path(tmp, "layout-" + label).write_text("\n".join(layout) + "\n")
            cmd += ["--evaluate", "layout-" + label]
        p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, env=tofa_map_env())
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {p.stderr.strip()}")
    out = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts and parts[0].startswith("layout-") and parts[0][7:] in layouts and len(parts) == 11:
            out[parts[0][7:]] = {"hop_bytes": float(parts[1]), "average_hops": float(parts[2]),
                             "max_hops": int(parts[3]), "dilation": float(parts[4]),
                             "max_link_load": float(parts[5]), "links_used": int(parts[6]),
                             "nodes_used": int(parts[7]), "mims": float(parts[8]),
                             "abort_probability": float(parts[9])}
    missing = set(layouts) - set(out)
    if missing:
        raise RuntimeError(f"tofa-map --evaluate printed no row for {sorted(missing)}: {p.stdout}")
    return out


def emulate_torus3d(args, job, free):
    """tofa-map's torus3d strategy (common/map/torus3d) on the nodes that were
    free: (layout, None) or (None, error text)."""
    slots = job["tasks"] // job["nodes"]
    shapes = ",".join(args.shapes.split())
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.tofa_map, "--topology", args.topology,
               "--graph", str(Path(args.graphs) / f"{job['graph']}.mat"),
               "--strategy", "torus3d", "--param", f"shapes={shapes}",
               "--param", f"nodes={job['nodes']}", "--slots", str(slots),
               "--nodes", ",".join(free) if free else "", "--hostfile", "hf"]
        p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, env=tofa_map_env())
        if p.returncode != 0:
            return None, " ".join(p.stderr.split())
        return Path(tmp, "hf").read_text().split(), None


# --- report --------------------------------------------------------------------
def fmt_hb(value):
    return "-" if value is None else f"{value / (1 << 20):.2f}"


def fmt_p(value):
    return "-" if value is None else f"{value:.4f}"


def main():
    ap = argparse.ArgumentParser()
    for opt in ("base", "stream", "graphs", "tofa-map", "topology", "faults", "failing", "shapes",
                "dims", "json"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--doc")
    ap.add_argument("--slurm", default="")
    ap.add_argument("--commit", default="")
    ap.add_argument("--elapsed", type=float, default=0)
    ap.add_argument("--build-seconds", type=float, default=0)
    ap.add_argument("--cluster-checks", help="ok:/FAIL: lines of the script's own checks")
    args = ap.parse_args()
    for key in ("base", "stream", "graphs", "tofa_map", "topology", "faults", "json"):
        setattr(args, key, os.path.abspath(getattr(args, key)))  # tofa-map runs in a temporary directory
    t_start = time.time()

    dims = tuple(int(v) for v in args.dims.split("x"))
    torus = Torus(dims, dims[0] * dims[1] * dims[2])
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split()]
    sizes = {a * b * c for a, b, c in shapes}
    stream = read_stream(args.stream)
    jobs = [s for s in stream if s["kind"] == "job"]
    base = Path(args.base)

    rows = []
    for job in jobs:
        row = dict(job)
        row["torus3d"] = read_job(base, "torus3d", job)
        row["tofa"] = read_job(base, "tofa", job)
        graph = str(Path(args.graphs) / f"{job['graph']}.mat")
        placed = {c: row[c]["layout"] for c in CONFIGS if row[c]["status"] == "placed"}
        try:
            metrics = evaluate(args, graph, placed)
        except RuntimeError as e:
            metrics = {}
            check(False, f"{job['name']}: tofa-map --evaluate: {e}")
        for c in CONFIGS:
            row[c]["metrics"] = metrics.get(c)
        rows.append(row)

    print("--- torus3d")
    for row in rows:
        name, n, t = row["name"], row["nodes"], row["tasks"]
        r = row["torus3d"]
        what = f"torus3d {name} (-N {n} -n {t})"
        if n in sizes:
            emu, emu_err = emulate_torus3d(args, row, r["free_before"])
            r["emulation"] = {"layout": emu, "error": emu_err}
            if r["status"] == "placed":
                found = torus.which_box(r["layout"], shapes)
                r["box"] = ({"shape": "x".join(map(str, found[0])), "anchor": list(found[1])}
                            if found else None)
                check(found is not None and set(r["allocation"]) == set(r["layout"])
                      and len(set(r["layout"])) == n,
                      f"{what}: placed on {r['nodes']}, "
                      + (f"one {r['box']['shape']} box at anchor {tuple(r['box']['anchor'])} "
                         "(contiguous, a configured shape)" if found else "NOT a configured box")
                      + (", every allocated node runs tasks" if set(r["allocation"]) == set(r["layout"])
                         else f", allocation {r['allocation']} differs"))
                # srun in a batch job with tasks <= nodes asks for a cyclic
                # distribution (src/srun/launch.c, create_job_step), laid out
                # in node-index order (_task_layout_cyclic), not along
                # torus3d's node ranks; more tasks than nodes: block, by rank.
                if t > n:
                    expect, how = emu, "Z-order task layout (block distribution along torus3d's node ranks)"
                else:
                    expect = (sorted(emu, key=lambda x: torus.index[x]) if emu else None)
                    how = ("task layout in node-index order (srun in a batch job with tasks <= nodes asks for "
                           "a cyclic distribution, which ignores torus3d's node ranks)")
                r["expected_layout"] = expect
                check(expect == r["layout"],
                      f"{what}: box as tofa-map's torus3d strategy chooses on the "
                      f"{len(r['free_before'])} free nodes, {how}"
                      + ("" if expect == r["layout"] else
                         f" (expected: {layout_text(expect) if expect else emu_err}; Slurm: {layout_text(r['layout'])})"))
            elif r["status"] == "pending":
                check(emu is None and "no box" in (emu_err or ""),
                      f"{what}: a configured size, but no free box: pending ({r.get('message', '')}), "
                      f"cancelled after the timeout; tofa-map's torus3d strategy agrees: {emu_err or layout_text(emu)}")
            else:
                check(False, f"{what}: size {n} has a shape but the job was {r['status']} "
                             f"({r.get('message', '')})")
        else:
            emu, emu_err = emulate_torus3d(args, row, r["free_before"])
            r["emulation"] = {"layout": emu, "error": emu_err}
            check(r["status"] == "refused" and REFUSED_MESSAGE in r.get("message", "")
                  and emu is None and "no shape" in (emu_err or ""),
                  f"{what}: no {n}-node shape, refused at submission "
                  f"('{r.get('message', r['status'])}'; tofa-map's torus3d strategy refuses too)")

    print("--- tofa")
    for row in rows:
        name, n, t = row["name"], row["nodes"], row["tasks"]
        r = row["tofa"]
        what = f"tofa {name} (-N {n} -n {t}, {row['graph']})"
        if not check(r["status"] == "placed" and len(set(r["layout"])) == n and r.get("srun_rc") == "0",
                     f"{what}: placed, {t} tasks on {n} nodes"
                     + (f" {r['nodes']}" if r["status"] == "placed" else f": {r['status']} {r.get('message', '')}")):
            continue
        tc = r.get("tofactl") or {}
        check(tc.get("placement") == r["layout"],
              f"{what}: srun's layout equals the placement the service recorded for job {r['jobid']} "
              f"(strategy {tc.get('strategy', '?')})"
              + ("" if tc.get("placement") == r["layout"] else f": tofactl {tc.get('placement')}"))
        hb_service = float(tc["hop_bytes"]) if tc.get("hop_bytes") else None
        hb = (r["metrics"] or {}).get("hop_bytes")
        check(hb is not None and hb_service is not None
              and abs(hb - hb_service) <= 1e-5 * max(1.0, hb_service),
              f"{what}: tofa-map --evaluate hop-bytes {hb} = the service's {hb_service}")
        failing_used = args.failing in r["layout"]
        others_free = [x for x in r["free_before"] if x != args.failing]
        check(not failing_used or len(others_free) < n,
              f"{what}: "
              + (f"keeps off {args.failing} ({len(others_free)} other nodes were free)" if not failing_used
                 else f"uses {args.failing}, only {len(others_free)} other nodes were free"))

    # --- summary -----------------------------------------------------------
    both = [row for row in rows if row["torus3d"].get("metrics") and row["tofa"].get("metrics")]
    ratios = []
    for row in both:
        a, b = row["torus3d"]["metrics"]["hop_bytes"], row["tofa"]["metrics"]["hop_bytes"]
        row["ratio"] = (b / a) if a > 0 else (1.0 if b == 0 else None)
        if row["ratio"] is not None and row["ratio"] > 0:
            ratios.append(row["ratio"])
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios)) if ratios else None
    unplaced = [row["name"] for row in rows if row["torus3d"]["status"] != "placed"]

    def exposure(config, names=None):
        sel = [row for row in rows if row[config].get("metrics") and (names is None or row["name"] in names)]
        return {"jobs": len(sel),
                "jobs_with_p_abort": sum(1 for row in sel if row[config]["metrics"]["abort_probability"] > 0),
                "jobs_on_failing_node": sum(1 for row in sel if args.failing in row[config]["layout"]),
                "expected_aborts": sum(row[config]["metrics"]["abort_probability"] for row in sel)}

    both_names = {row["name"] for row in both}
    summary = {
        "jobs": len(rows),
        "placed": {c: sum(1 for row in rows if row[c]["status"] == "placed") for c in CONFIGS},
        "torus3d_not_placed": [{"job": row["name"], "nodes": row["nodes"], "status": row["torus3d"]["status"],
                                "message": row["torus3d"].get("message", "")}
                               for row in rows if row["torus3d"]["status"] != "placed"],
        "geomean_hop_bytes_tofa_over_torus3d": geo,
        "jobs_compared": len(ratios),
        "abort_exposure": {c: exposure(c) for c in CONFIGS},
        "abort_exposure_jobs_both_placed": {c: exposure(c, both_names) for c in CONFIGS},
    }
    print("--- summary")
    print(f"jobs placed: torus3d {summary['placed']['torus3d']} of {len(rows)}, "
          f"tofa {summary['placed']['tofa']} of {len(rows)}; torus3d did not place: "
          + ", ".join(f"{u['job']} ({u['nodes']} nodes, {u['status']})" for u in summary["torus3d_not_placed"]))
    if geo is not None:
        print(f"geometric mean hop-bytes tofa / torus3d over the {len(ratios)} jobs both placed: {geo:.3f}")
    for c in CONFIGS:
        e = summary["abort_exposure"][c]
        print(f"{c}: {e['jobs_with_p_abort']} of {e['jobs']} placed jobs with P(abort) > 0, "
              f"{e['jobs_on_failing_node']} on {args.failing}, expected aborts {e['expected_aborts']:.4f}")

    analysis_seconds = time.time() - t_start
    cluster_checks = []
    for line in (read(args.cluster_checks) or "").splitlines() if args.cluster_checks else []:
        if line.startswith("ok: ") or line.startswith("FAIL: "):
            cluster_checks.append({"ok": line.startswith("ok: "), "check": line.split(": ", 1)[1]})
    report = {
        "slurm": args.slurm, "commit": args.commit, "torus": args.dims, "failing": args.failing,
        "faults": Path(args.faults).read_text().strip(), "shapes": args.shapes.split(),
        "stream": stream, "jobs": rows, "summary": summary,
        "checks": cluster_checks + [{"ok": ok, "check": text} for ok, text in results],
        "seconds": {"cached_builds_checked": args.build_seconds,
                    "clusters_and_streams": args.elapsed - args.build_seconds,
                    "analysis": round(analysis_seconds, 1),
                    "total": round(args.elapsed + analysis_seconds, 1)},
        "stream_seconds": {c: (read(base / c / "data" / "stream-seconds") or "").strip() for c in CONFIGS},
        "up_ms": {c: (read(base / c / "data" / "up-ms") or "").strip() for c in CONFIGS},
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    if args.doc:
        write_doc(args, report, rows, summary, torus, shapes)
        write_readme_table(Path(args.doc).parent / "admin-guide.md", report)
    return 0


def write_readme_table(readme, report):
    """The short table between docs/admin-guide.md's torus3d markers."""
    def cell(side):
        if side["status"] != "placed":
            return side["status"]
        m = side["metrics"]
        return f"{fmt_hb(m['hop_bytes'])} ({m['abort_probability']:.2f})"
    summary, jobs = report["summary"], report["jobs"]
    not_placed = {}
    for job in jobs:
        if job["torus3d"]["status"] != "placed":
            not_placed[job["torus3d"]["status"]] = not_placed.get(job["torus3d"]["status"], 0) + 1
    both = summary["abort_exposure_jobs_both_placed"]
    line = (f"torus3d placed {summary['placed']['torus3d']} of {len(jobs)} jobs"
            + (" (" + ", ".join(f"{n} {status}" for status, n in sorted(not_placed.items())) + ")"
               if not_placed else "")
            + f", tofa {summary['placed']['tofa']} of {len(jobs)}")
    if summary["geomean_hop_bytes_tofa_over_torus3d"] is not None:
        line += (f"; over the {summary['jobs_compared']} jobs both placed, tofa's hop-bytes were "
                 f"{summary['geomean_hop_bytes_tofa_over_torus3d']:.3f} of torus3d's (geometric mean), "
                 f"{both['tofa']['jobs_on_failing_node']} of them on the failing node {report['failing']} "
                 f"against torus3d's {both['torus3d']['jobs_on_failing_node']}")
    L = [line + ".", "",
         "| job | -N / -n | graph | torus3d: hop-bytes, MiB x hops (P(abort)) | tofa | tofa / torus3d |",
         "|---|---|---|---:|---:|---:|"]
    for job in report["jobs"]:
        t3, tofa = job["torus3d"], job["tofa"]
        ratio = "-"
        if t3["status"] == "placed" and tofa["status"] == "placed":
            ratio = f"{tofa['metrics']['hop_bytes'] / t3['metrics']['hop_bytes']:.2f}"
        L.append(f"| {job['name']} | {job['nodes']} / {job['tasks']} | {job['graph']} | {cell(t3)} | "
                 f"{cell(tofa)} | {ratio} |")
    replace_readme_block(str(readme), "torus3d", "\n".join(L))


def write_doc(args, report, rows, summary, torus, shapes):
    ok = sum(1 for c in report["checks"] if c["ok"])
    bad = len(report["checks"]) - ok
    L = []
    L.append("# torus3d and tofa side by side (Slurm 26.05)")
    L.append("")
    L.append("Issue 14, item 3. Generated by `bash tests/integration/torus3d_compare.sh` "
             "(`tests/integration/torus3d/analyze.py`; raw data in `out/torus3d-compare.json`); "
             "do not edit by hand.")
    L.append("")
    L.append(f"One Slurm {report['slurm'].replace('slurm ', '')} cluster on this host: munged, slurmctld and "
             f"32 slurmd `t1`..`t32` (2 CPUs each) on a {args.dims} torus, first dimension fastest "
             f"(`t6` = (1,1,0), `t17` = (0,0,1)). The same job stream "
             "(`tests/integration/torus3d/stream.txt`) runs twice on it, one configuration after the other "
             "(an out-of-tree topology plugin cannot sit beside torus3d in topology.yaml, "
             "see [slurm-releases.md](slurm-releases.md)):")
    L.append("")
    L.append(f"- **torus3d**: `topology.yaml` with one torus3d torus `pod1`, dims {args.dims}, "
             f"`nodes: t[1-32]`, placements {', '.join(args.shapes.split())} "
             f"(the example of topology.yaml(5); anchors at multiples of the shape, "
             f"8, 4 and 1 of them). torus3d knows no graph and no failures.")
    L.append("- **tofa**: `TopologyPlugin=topology/tofa` with tofa.conf `Dims=4x4x2 Wrap=yes "
             "CoresPerNode=2`, `NodeName=t[1-32]` (the same coordinates), the default strategy, "
             f"`tofactl set-outage {args.failing} 0.02`; each job gets `--tofa-matrix=GRAPH.mat`.")
    L.append("")
    L.append("Every job is `sbatch -N NODES -n TASKS --exclusive job.sh`, whose `srun -l printenv "
             "SLURMD_NODENAME` gives the layout; a job marked *hold* keeps its nodes until a later "
             "`release` line of the stream, so later jobs see a partly busy torus. A job is submitted when "
             "the previous one runs (or was refused, or stayed pending "
             "for 20 s and was cancelled). Hop-bytes (sum over task pairs of bytes x hops, "
             "dimension-order routes) and P(abort) (1 - prod(1 - p) over the nodes a job uses or routes "
             f"through, with `{report['faults']}`) of both layouts come from `tofa-map --evaluate` on the "
             "same torus and outage vector.")
    L.append("")
    L.append("| job | -N / -n | graph | torus3d nodes | torus3d layout (ranks:node) | torus3d hop-bytes (MiB x hops) | torus3d P(abort) "
             "| tofa nodes | tofa layout (ranks:node) | tofa hop-bytes (MiB x hops) | tofa P(abort) | hop-bytes tofa / torus3d |")
    L.append("|---|---|---|---|---|---:|---:|---|---|---:|---:|---:|")
    events = []
    for s in report["stream"]:
        if s["kind"] == "release":
            events.append(s["name"])
            continue
        row = next(r for r in rows if r["name"] == s["name"])
        held = " (hold)" if row["hold"] == "hold" else ""
        before = f"after release {', '.join(events)}: " if events else ""
        events = []
        t3, tf = row["torus3d"], row["tofa"]
        if t3["status"] == "placed":
            box = t3.get("box")
            t3_nodes = f"{t3['nodes']}" + (f" ({box['shape']} at {tuple(box['anchor'])})" if box else "")
            t3_lay = layout_text(t3["layout"])
        else:
            t3_nodes = f"**not placed**: {t3['status']}"
            t3_lay = t3.get("message", "")
        tm3, tmf = t3.get("metrics"), tf.get("metrics")
        ratio = row.get("ratio")
        L.append(f"| {before}{row['name']}{held} | {row['nodes']} / {row['tasks']} | {row['graph']} | {t3_nodes} | {t3_lay} "
                 f"| {fmt_hb(tm3 and tm3['hop_bytes'])} | {fmt_p(tm3 and tm3['abort_probability'])} "
                 f"| {tf.get('nodes', tf['status'])} | {layout_text(tf['layout']) if tf.get('layout') else tf.get('message', '')} "
                 f"| {fmt_hb(tmf and tmf['hop_bytes'])} | {fmt_p(tmf and tmf['abort_probability'])} "
                 f"| {'-' if ratio is None else f'{ratio:.3f}'} |")
    L.append("")
    geo = summary["geomean_hop_bytes_tofa_over_torus3d"]
    e3, ef = summary["abort_exposure_jobs_both_placed"]["torus3d"], summary["abort_exposure_jobs_both_placed"]["tofa"]
    eall = summary["abort_exposure"]["tofa"]
    L.append("**Summary.** "
             + (f"Geometric mean hop-bytes tofa / torus3d over the {summary['jobs_compared']} jobs both placed: "
                f"**{geo:.3f}**. " if geo is not None else "")
             + f"torus3d could not place **{len(summary['torus3d_not_placed'])} of {summary['jobs']}** jobs ("
             + ", ".join(f"{u['job']}: {u['nodes']} nodes, {u['status']}" for u in summary["torus3d_not_placed"])
             + f"); tofa placed {summary['placed']['tofa']} of {summary['jobs']}. "
             + f"Abort exposure on the jobs both placed: torus3d {e3['jobs_with_p_abort']} of {e3['jobs']} jobs with "
               f"P(abort) > 0 ({e3['jobs_on_failing_node']} running on {args.failing}), expected aborts "
               f"{e3['expected_aborts']:.4f}; tofa {ef['jobs_with_p_abort']} of {ef['jobs']} "
               f"({ef['jobs_on_failing_node']} on {args.failing}), {ef['expected_aborts']:.4f}; over all "
               f"{eall['jobs']} tofa jobs: {eall['jobs_with_p_abort']} with P(abort) > 0, expected aborts "
               f"{eall['expected_aborts']:.4f}.")
    L.append("")
    # What torus3d did, per shape size, from the data.
    parts = []
    for shape in shapes:
        size = shape[0] * shape[1] * shape[2]
        sel = [r for r in rows if r["nodes"] == size]
        placed = [f"{r['name']} on {r['torus3d']['nodes']}"
                  + (f" (anchor {tuple(r['torus3d']['box']['anchor'])})" if r["torus3d"].get("box") else "")
                  for r in sel if r["torus3d"]["status"] == "placed"]
        pending = [f"{r['name']} pending ({r['torus3d'].get('message', '')}) with "
                   f"{len(r['torus3d']['free_before'])} nodes free, cancelled after 20 s"
                   for r in sel if r["torus3d"]["status"] == "pending"]
        other = [f"{r['name']} {r['torus3d']['status']}" for r in sel
                 if r["torus3d"]["status"] not in ("placed", "pending")]
        parts.append(f"{'x'.join(map(str, shape))} ({size} nodes): "
                     + ("; ".join(placed + pending + other) if sel else "no job of this size"))
    refused = sorted({r["nodes"] for r in rows if r["nodes"] not in
                      {a * b * c for a, b, c in shapes}})
    refused_jobs = [r["name"] for r in rows if r["nodes"] in refused]
    L.append("What torus3d did with each shape: " + "; ".join(parts) + ". "
             f"Sizes without a shape ({', '.join(map(str, refused))} nodes: {', '.join(refused_jobs)}) were "
             f"refused by sbatch at once (\"{REFUSED_MESSAGE}\"), whatever was free. "
             "Each box was the one `tofa-map --strategy torus3d` (common/map/torus3d) chooses from the same "
             "free nodes, unless a check below says otherwise. torus3d does not see the failing node: "
             "a box containing it is as good as any other.")
    L.append("")
    L.append("Task order under torus3d: with more tasks than nodes, srun in the batch job uses the block "
             "distribution and Slurm lays the tasks out in blocks along torus3d's Z-order node ranks "
             "(`topology_p_get_rank`, `_task_layout_topo`). With tasks <= nodes, srun inside a batch job "
             "asks for a *cyclic* distribution (`src/srun/launch.c`: the step's `task_dist` is "
             "`SLURM_DIST_CYCLIC` when `num_tasks <= min_nodes` and memory is set; slurmctld logs "
             "`task_dist=0x1`), and `_task_layout_cyclic` goes in node-index order, ignoring the ranks. "
             "For a 2x2x1 or 2x2x2 box both orders coincide; for the whole 4x4x2 torus (the last job) they "
             "differ: node-index order t1..t32 (which here is the best order for a stencil numbered like "
             "the torus). Found by hand on the same cluster: `srun -N 32 -n 32` directly, or "
             "`srun -m block` in the batch job, gives the Z-order.")
    L.append("")
    L.append(f"Checks: {ok} passed, {bad} failed:")
    L.append("")
    for c in report["checks"]:
        L.append(f"- {'ok' if c['ok'] else '**FAIL**'}: {c['check']}")
    L.append("")
    sec = report["seconds"]
    L.append(f"Run: {report['slurm']}, tofa at {report['commit']}; clusters up in "
             f"{report['up_ms']['torus3d']} ms (torus3d) and {report['up_ms']['tofa']} ms (tofa); streams "
             f"{report['stream_seconds']['torus3d']} s and {report['stream_seconds']['tofa']} s; the whole script "
             f"{sec['total']:.0f} s on this 2-core machine (shared with two low-priority fuzzers), "
             f"{sec['cached_builds_checked']:.0f} s of it in the cached `scripts/slurm-release.sh` and "
             "`scripts/build-slurm-release.sh` (the latter refreshes its symbolic-link tree and runs make "
             "every time).")
    L.append("")
    Path(args.doc).write_text("\n".join(L))


if __name__ == "__main__":
    sys.exit(main())
