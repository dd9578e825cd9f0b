"""Real MPI runs of the seed's applications on this machine, recorded by
tofa-profile --trace for tofa-sim to replay (scripts/sim-results.py).

- NPB DT: NPB 3.3's own DT program (tools/sim/record/npb-dt.sh builds it from
  Debian's simgrid source package), every rank's feature arrays mapped onto
  one shared buffer (tools/sim/record/shared_arrays.c): class C's 85 ranks
  would need some 40 GB. The CPU time and the messages are the program's own.
- LAMMPS: Debian's lmp on tools/sim/record/in.peptide-32k (32,064 atoms with
  PPPM, the size of the seed's rhodopsin); replayed between the two barriers
  that bracket its run command's time steps (tofa-sim trace lists the
  barriers), without the setup.

Each recording runs its ranks oversubscribed on this machine's cores: the
trace keeps each rank's CPU time between MPI calls, not its wall time.

A recording is kept in a cache directory under a key of everything it comes
from (the spec, the profiler's and the recording scripts' sources, the
application binary, the MPI library's version): a later run with the same key
replays the same recording (its figures change only with the code) and skips
the recording's time (some 17 minutes for the seed's sizes).
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORD_DIR = os.path.join(ROOT, "tools", "sim", "record")
TOFA_PROFILE = os.path.join(ROOT, "tools", "profile", "tofa-profile")
SHARED_ARRAYS = os.path.join(ROOT, "tools", "sim", "record", "libtofa-shared-arrays.so")
LAMMPS_INPUT = os.path.join(RECORD_DIR, "in.peptide-32k")
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def _run(args, env=None, check=True):
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env={**os.environ, **MPI_ENV, **(env or {})})
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout[-3000:]}")
    return done


def npb_dt_binary():
    return _run(["bash", os.path.join(RECORD_DIR, "npb-dt.sh")]).stdout.strip().splitlines()[-1]


def name(spec):
    if spec["app"] == "dt":
        return f"dt-{spec['kind']}-{spec['class']}"
    return f"lammps-{spec['ranks']}"


def ranks(spec, tofa_sim):
    if spec["app"] == "lammps":
        return spec["ranks"]
    matrix = _run([tofa_sim, "graph", "--app", "dt", "--class", spec["class"], "--graph-kind",
                   spec["kind"]]).stdout
    return int(next(line for line in matrix.splitlines() if line and line[0] != "#").split()[0])


def _file_digest(path, digest):
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)


def _copy(path, folder):
    """A file or a directory (a trace is one) into folder."""
    target = os.path.join(folder, os.path.basename(path))
    if os.path.isdir(path):
        shutil.copytree(path, target, dirs_exist_ok=True)
    else:
        shutil.copy(path, target)


def cache_key(spec, dt_binary=None):
    """What a recording comes from, hashed."""
    digest = hashlib.sha256(json.dumps(spec, sort_keys=True).encode())
    sources = []
    for folder in (os.path.join(ROOT, "tools", "profile"), RECORD_DIR):
        for base, _, files in os.walk(folder):
            sources += [os.path.join(base, f) for f in files
                        if f.endswith((".c", ".cpp", ".h", ".hpp", ".sh", ".mk", ".py"))
                        or f.startswith("in.")]
    for path in sorted(sources):
        digest.update(os.path.relpath(path, ROOT).encode())
        _file_digest(path, digest)
    binary = dt_binary if spec["app"] == "dt" else shutil.which("lmp")
    _file_digest(os.path.realpath(binary), digest)
    digest.update(_run(["mpirun", "--version"]).stdout.encode())
    return digest.hexdigest()[:24]


def record(spec, out_dir, tofa_sim, dt_binary=None, cache_dir=None):
    """Records one run, once more if the first recording is refused (a rank's
    trace cut short), or takes it from cache_dir; returns {"trace":
    DIR/NAME, "window": "A:B" or "", "record_seconds": S, "cached": bool, ...}."""
    cached = os.path.join(cache_dir, cache_key(spec, dt_binary)) if cache_dir else None
    if cached and os.path.exists(os.path.join(cached, "recording.json")):
        os.makedirs(out_dir, exist_ok=True)
        for path in glob.glob(os.path.join(cached, name(spec) + ".*")):
            _copy(path, out_dir)
        seconds = json.load(open(os.path.join(cached, "recording.json")))["record_seconds"]
        try:
            return {**_resolve(spec, out_dir, tofa_sim), "record_seconds": seconds, "cached": True}
        except RuntimeError as refused:
            print(f"recording {name(spec)} afresh, the cached one is refused: "
                  f"{str(refused)[-500:]}", file=sys.stderr)
    start = time.time()
    try:
        info = _record(spec, out_dir, tofa_sim, dt_binary)
    except RuntimeError as first:
        print(f"recording {name(spec)} again: {str(first)[-500:]}", file=sys.stderr)
        info = _record(spec, out_dir, tofa_sim, dt_binary)
    info.update(record_seconds=time.time() - start, cached=False)
    if cached:
        # The profiler's own files only: tofa-sim trace makes the replay files again.
        shutil.rmtree(cached, ignore_errors=True)
        os.makedirs(cached)
        for path in glob.glob(os.path.join(out_dir, name(spec) + ".*")):
            if ".replay" not in os.path.basename(path):
                _copy(path, cached)
        with open(os.path.join(cached, "recording.json"), "w") as f:
            json.dump({"spec": spec, "record_seconds": info["record_seconds"]}, f)
    return info


def _record(spec, out_dir, tofa_sim, dt_binary):
    n = ranks(spec, tofa_sim)
    mpirun = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(n)]
    profile = [TOFA_PROFILE, "--trace", "-o", out_dir, "--name", name(spec)]
    if spec["app"] == "dt":
        shm = f"/dev/shm/tofa-shared-arrays.{os.getpid()}.{name(spec)}"
        try:
            done = _run([*profile, "--preload", SHARED_ARRAYS, "--", *mpirun,
                         "-x", f"TOFA_SHARED_FILE={shm}", dt_binary, str(n),
                         spec["class"], spec["kind"].upper()], check=False)
        finally:
            if os.path.exists(shm):
                os.unlink(shm)
        # DT's main returns 1 whatever happened: its report says it finished.
        if " Verification" not in done.stdout:
            raise RuntimeError(f"NPB DT {name(spec)} did not finish:\n{done.stdout[-3000:]}")
    else:
        # Debian's Open MPI 4.1.4 may report a rank of a 256-rank run "exiting
        # improperly" (exit 1) after every rank has passed MPI_Finalize, also
        # without the profiler: the trace check below is what refuses a run cut short.
        done = _run([*profile, "--", *mpirun, "lmp", "-in", LAMMPS_INPUT, "-var", "steps",
                     str(spec["steps"]), "-log", "none", "-screen", "none"], check=False)
    try:
        return _resolve(spec, out_dir, tofa_sim)
    except RuntimeError as refused:
        raise RuntimeError(f"{refused}\nthe run (exit {done.returncode}) said:\n"
                           f"{done.stdout[-1500:]}") from None


def _resolve(spec, out_dir, tofa_sim):
    """tofa-sim's check of a recorded trace and its replay files; the window
    of LAMMPS's time steps."""
    n = ranks(spec, tofa_sim)
    trace = os.path.join(out_dir, name(spec))
    checked = _run([tofa_sim, "trace", "--trace", trace], check=False)
    if checked.returncode != 0:
        raise RuntimeError(f"{name(spec)}: the recorded trace is refused:\n{checked.stdout[-1500:]}")
    listing = checked.stdout
    gaps = [int(x) for x in re.search(r"replays gap B\): ([\d ]+)", listing).group(1).split()]
    window = ""
    if spec["app"] == "lammps":
        # Its last three barriers of all ranks: Timer::barrier_start before the
        # run's steps, barrier_stop after them, one more as it finishes.
        barriers = len(gaps) - 1
        window = f"{barriers - 2}:{barriers - 1}"
        _run([tofa_sim, "trace", "--trace", trace, "--window", window])
    return {"trace": trace, "window": window, "ranks": n, "barrier_gaps": gaps,
            "summary": listing.splitlines()[0]}
