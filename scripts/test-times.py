#!/usr/bin/env python3
"""The README's test-times block: how long the test command took, on a fresh
machine and with warm caches, each row from one run's own log.

  python3 scripts/test-times.py LOG [--readme README.md]

LOG is the output of `bash scripts/test.sh` (or `.ci/run`): its lines
"test command: N s" and "test command run: commit=C caches=fresh|warm
date=D load=A-B" (scripts/test.sh prints both; the load averages at its start
and end say whether other work shared the machine) and its closing count. The row of that
run's kind of caches is replaced, the other kept; the begin marker is stamped
with the newest row's commit and date. A row older than the test command's
last change (scripts/test.sh) says so.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
from readme_block import replace_readme_block  # noqa: E402

ROW_RE = re.compile(r"^\| (?P<caches>fresh|warm) \|.*\| (?P<commit>[0-9a-f]{7,40}) \| (?P<date>\d{4}-\d{2}-\d{2}) \|")
KINDS = {"fresh": "fresh machine: every cache in /var/cache/tofa empty (Slurm sources and builds, ccache, sanitizer and fuzz trees)",
         "warm": "warm caches: /var/cache/tofa as an earlier run left it"}


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True).stdout.strip()


def run_of(log_path):
    text = open(log_path, errors="replace").read()
    seconds = re.findall(r"^test command: (\d+) s$", text, re.M)
    context = re.findall(r"^test command run: commit=([0-9a-f]+) caches=(fresh|warm) date=(\S+)(?: load=(\S+))?$",
                         text, re.M)
    count = re.findall(r"^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$", text, re.M)
    if not seconds or not context or not count:
        raise SystemExit(f"{log_path}: expected the lines 'test command: N s', 'test command run: "
                         "commit=C caches=fresh|warm date=D' and 'N passed, N failed[, N skipped]' "
                         "(scripts/test.sh prints them)")
    commit, caches, date, load = context[-1]
    passed, failed, skipped = count[-1]
    return {"seconds": int(seconds[-1]), "commit": commit[:7], "caches": caches, "date": date,
            "load": load or "?", "count": f"{passed} passed, {failed} failed, {skipped or 0} skipped"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--readme", default=os.path.join(HERE, "..", "README.md"))
    a = ap.parse_args()
    run = run_of(a.log)
    root = os.path.dirname(os.path.abspath(a.readme))
    readme = open(a.readme).read()
    block = re.search(r"<!-- test-times:begin[^>]*-->\n(.*?)<!-- test-times:end -->", readme, re.S)
    rows = {}
    if block:
        for line in block.group(1).splitlines():
            m = ROW_RE.match(line)
            if m:
                rows[m.group("caches")] = (line, m.group("commit"), m.group("date"))
    last_change = git(root, "log", "-1", "--format=%h", "--", "scripts/test.sh")
    minutes = run["seconds"] / 60
    older = ""
    if last_change and subprocess.run(["git", "-C", root, "merge-base", "--is-ancestor", last_change, run["commit"]],
                                      capture_output=True).returncode != 0:
        older = f" (before the test command's change at {last_change})"
    line = (f"| {run['caches']} | {KINDS[run['caches']]} | {run['seconds']} s ({minutes:.0f} min){older} | "
            f"{run['load']} | {run['count']} | {run['commit']} | {run['date']} |")
    rows[run["caches"]] = (line, run["commit"], run["date"])
    table = ["| run | caches | test command | load average (start-end; 2 cores) | count | commit | date |",
             "|---|---|---:|---|---|---|---|"]
    table += [rows[k][0] for k in ("fresh", "warm") if k in rows]
    newest = max(rows.values(), key=lambda r: r[2])
    if not replace_readme_block(a.readme, "test-times", "\n".join(table)):
        raise SystemExit(f"{a.readme}: no <!-- test-times:begin --> ... <!-- test-times:end --> block")
    text = open(a.readme).read().replace("<!-- test-times:begin -->",
                                         f"<!-- test-times:begin commit={newest[1]} date={newest[2]} -->", 1)
    open(a.readme, "w").write(text)
    print(f"{a.readme}: test-times row '{run['caches']}' from {a.log}", file=sys.stderr)


if __name__ == "__main__":
    main()
