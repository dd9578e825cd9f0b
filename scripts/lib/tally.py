#!/usr/bin/env python3
"""The test command's count: one row per stage, and their sum as the last line.

  tally.py STAGES.tsv

Each line of STAGES.tsv names one stage: NAME<TAB>EXIT-STATUS<TAB>LOG[<TAB>KIND],
KIND being "xml:PATH", the GoogleTest report the stage must have written, or
"status", a step that runs no test of its own (only its exit status counts).
A stage counts only what it was seen to do:
  - with a report: its tests; a missing or unreadable report is a failure
    (the binary crashed before writing it, or never ran);
  - otherwise the last "N passed, N failed[, N skipped]" line of LOG; a log
    without one is a failure, unless the stage exited 77 (skipped, named);
  - any non-zero exit status (a timeout's 124, a signal, set -e) with no
    failure counted adds one failure.
Prints the table, the skipped stages by name, then "N passed, N failed, N
skipped"; exits 1 when anything failed (or nothing passed).
"""
import re
import sys
import xml.etree.ElementTree as ET

COUNT = re.compile(r"^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$")
SIGNALS = {124: "timed out", 137: "killed (SIGKILL)", 139: "segmentation fault", 134: "aborted (SIGABRT)",
           130: "interrupted", 143: "terminated (SIGTERM)"}


def gtest_counts(path):
    root = ET.parse(path).getroot()
    get = lambda k: int(root.get(k, 0))
    skipped = get("disabled") + get("skipped")
    failed = get("failures") + get("errors")
    return get("tests") - failed - skipped, failed, skipped


def count_line(path):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        m = COUNT.match(line.strip())
        if m:
            return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    return None


def skip_reason(path):
    try:
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("SKIP"):
                    return line.strip()
    except OSError:
        pass
    return "exit 77"


def tally_stage(name, rc, log, kind=None):
    """(passed, failed, skipped, note) of one stage."""
    notes = []
    xml = kind[4:] if kind and kind.startswith("xml:") else None
    if kind == "status":
        return 0, int(rc != 0), 0, f"exit {rc}" if rc else ""
    if xml:
        try:
            passed, failed, skipped = gtest_counts(xml)
        except (OSError, ET.ParseError) as e:
            passed, failed, skipped = 0, 1, 0
            notes.append(f"no readable GoogleTest report ({e.__class__.__name__}): it crashed or did not run")
    else:
        counts = count_line(log)
        if counts is None and rc == 77:
            return 0, 0, 1, skip_reason(log)
        if counts is None:
            passed, failed, skipped = 0, 1, 0
            notes.append("no 'N passed, N failed' line: nothing it did is counted")
        else:
            passed, failed, skipped = counts
    if rc != 0 and rc != 77 and failed == 0:
        failed = 1
        notes.append(f"exit {rc}" + (f" ({SIGNALS[rc]})" if rc in SIGNALS else "") + " with no failure counted")
    elif rc in SIGNALS:
        notes.append(f"exit {rc} ({SIGNALS[rc]})")
    return passed, failed, skipped, "; ".join(notes)


def read_stages(path):
    stages = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            fields = line.split("\t")
            if (len(fields) not in (3, 4) or not re.fullmatch(r"-?\d+", fields[1])
                    or (len(fields) == 4 and fields[3] != "status" and not fields[3].startswith("xml:"))):
                raise SystemExit(f"{path}:{number}: expected NAME<TAB>STATUS<TAB>LOG[<TAB>xml:PATH|status], "
                                 f"got {line!r}")
            stages.append((fields[0], int(fields[1]), fields[2], fields[3] if len(fields) == 4 else None))
    return stages


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    rows = [(name, *tally_stage(name, rc, log, kind)) for name, rc, log, kind in read_stages(argv[1])]
    width = max([len("stage")] + [len(r[0]) for r in rows])
    print(f"{'stage':<{width}}  {'passed':>6}  {'failed':>6}  {'skipped':>7}  note")
    for name, p, f, s, note in rows:
        print(f"{name:<{width}}  {p:>6}  {f:>6}  {s:>7}  {note if f or not s else ''}".rstrip())
    passed, failed, skipped = (sum(r[i] for r in rows) for i in (1, 2, 3))
    print(f"{'total':<{width}}  {passed:>6}  {failed:>6}  {skipped:>7}")
    skips = [(name, note) for name, p, f, s, note in rows if s and not f]
    if skips:
        print("skipped:")
        for name, note in skips:
            print(f"  {name}: {note or 'skipped checks inside (see its log)'}")
    if not rows:
        failed += 1
        print("no stage ran")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
