#!/usr/bin/python3
"""Helper of run.sh: test lists, per-test outcomes, per-mode JSON, comparison.

  results.py list-all --src TESTSUITE --skip FILE...   all tests minus skip lists
  results.py expect-outcome --log F --rc N --start T --end T --note S --jsonl F
                                      classify one expect test, append a JSON line
  results.py write-mode --mode M --out DIR ...       write DIR/M.json
  results.py compare --out DIR --allow FILE          write DIR/compare.json, print
                                                     the table and "N passed, N failed"
  results.py summary --out DIR MODE...               table of single-mode results
  results.py merge --out DIR PARTDIR...              DIR/M.json from the parts' M.json
Outcomes: pass, skip, fail, timeout, error (could not run).
"""
import argparse
import json
import os
import re
import sys
import time
import xml.etree.ElementTree as ET

OUTCOMES = ("pass", "skip", "fail", "timeout", "error")


def read_list(path):
    """Entries of a list file: {name: reason}; '#' starts a comment."""
    entries = {}
    if not path or not os.path.exists(path):
        return entries
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 1)
            entries[parts[0]] = parts[1].strip() if len(parts) > 1 else ""
    return entries


def version_key(name):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def cmd_list_all(a):
    skip = {}
    for s in a.skip:
        skip.update(read_list(s))
    out = []
    exp = os.path.join(a.src, "expect")
    for name in sorted(os.listdir(exp), key=version_key):
        if re.fullmatch(r"test\d+\.\d+", name) and f"expect/{name}" not in skip:
            out.append(f"expect/{name}")
    py = os.path.join(a.src, "python")
    files = []
    for root, _dirs, names in os.walk(os.path.join(py, "tests")):
        for n in names:
            if n.startswith("test_") and n.endswith(".py"):
                files.append(os.path.relpath(os.path.join(root, n), py))
    for f in sorted(files):
        if f"python/{f}" not in skip:
            out.append(f"python/{f}")
    print("\n".join(out))


# ------------------------------------------------------------------ expect
def strip_ansi(s):
    return re.sub(r"\x1b\[[0-9;]*m", "", s)


def strip_backtrace(msg):
    """Drops the "(proc@file:line,...)" tail of an expect log message."""
    return re.sub(r"\s*\((?:[^()]*@[^()]*)\)?\s*$", "", msg.strip()) if "@" in msg else msg.strip()


def expect_reason(text, outcome):
    """A one-line reason from an expect test's log."""
    return strip_backtrace(_expect_reason(text, outcome))


def _expect_reason(text, outcome):
    m = re.findall(r"INCOMPLETE: (.*)", text)
    if m and m[-1].strip():
        return m[-1].strip()
    # log lines: [time] LEVEL  message (backtrace)
    levels = {"skip": ("WARNING",), "fail": ("FATAL", "ERROR"), "timeout": ("FATAL", "ERROR", "WARNING")}
    wanted = levels.get(outcome, ())
    for line in text.splitlines():
        # Subtest details: "    Subtest N failed/skipped: message"
        sm = re.search(r"Subtest\s+\d+\s+(failed|skipped)\s*:?\s*(.*)", line, re.I)
        if sm and ((outcome == "skip") == (sm.group(1).lower() == "skipped")):
            return sm.group(2).strip()
    hits = []
    for line in text.splitlines():
        lm = re.match(r"\[[^\]]*\]\s+(FATAL|ERROR|WARNING)\s+(.*?)(\s+\([^()]*\))?$", line, re.I)
        if lm and lm.group(1).upper() in wanted:
            hits.append((lm.group(1).upper(), lm.group(2).strip()))
    for level in wanted:
        for lv, msg in hits:
            if lv == level:
                return msg
    return ""


def cmd_expect_outcome(a):
    with open(a.log, errors="replace") as f:
        text = strip_ansi(f.read())
    rc = a.rc
    headers = re.findall(r"^(SUCCESS|SKIPPED|FAILURE)\s+:\s+(\S+)", text, re.M)
    header = headers[-1][0] if headers else ""
    if rc in (124, 137) or (rc > 128 and not header):
        outcome = "timeout" if rc in (124, 137) else "fail"
    elif rc == 0:
        outcome = "pass" if header == "SUCCESS" else "fail"
    elif rc == 255 or header == "SKIPPED":
        outcome = "skip"
    else:
        outcome = "fail"
    reason = expect_reason(text, outcome)
    if outcome == "timeout":
        reason = f"killed after the per-test limit; {reason}".rstrip("; ")
    elif rc == 0 and outcome == "fail":
        reason = "exit 0 without SUCCESS"
    rec = {"test": a.test, "outcome": outcome, "rc": rc,
           "seconds": round(a.end - a.start, 1), "reason": reason[:300]}
    if a.note:
        rec["note"] = a.note
    with open(a.jsonl, "a") as f:
        f.write(json.dumps(rec) + "\n")
    extra = f"  ({reason[:100]})" if reason and outcome != "pass" else ""
    note = f"  [{a.note}]" if a.note else ""
    print(f"{outcome:7s} {rec['seconds']:6.1f}s{extra}{note}", flush=True)


# ------------------------------------------------------------------ python
def junit_results(path, pydir):
    """{python/<file>::<name>: record} from a pytest junit xml."""
    res = {}
    if not path or not os.path.exists(path):
        return res
    root = ET.parse(path).getroot()
    for tc in root.iter("testcase"):
        cls = tc.get("classname", "")
        name = tc.get("name", "")
        collect_error = not cls   # a file that failed to import: classname "", name = module
        if collect_error:
            cls, name = name, ""
        parts = cls.split(".")
        fname, rest = None, []
        for k in range(len(parts), 0, -1):
            cand = "/".join(parts[:k]) + ".py"
            if pydir is None or os.path.exists(os.path.join(pydir, cand)):
                fname, rest = cand, parts[k:]
                break
        if fname is None:   # dots inside the file name (rare): keep it readable
            fname = "/".join(parts) + ".py"
        test_id = "python/" + fname + ("" if collect_error else "::" + "::".join(rest + [name]))
        outcome, reason = "pass", ""
        for child in tc:
            tag = child.tag
            msg = (child.get("message") or (child.text or "")).strip().splitlines()
            msg = msg[0] if msg else ""
            if tag == "skipped":
                outcome, reason = "skip", msg
            elif tag in ("failure", "error"):
                if "Timeout" in msg or "Timeout" in (child.text or "")[:2000]:
                    outcome = "timeout"
                else:
                    outcome = "fail"
                reason = msg
                if collect_error:
                    outcome = "error"
                    reason = "collection failed: " + " ".join((child.text or msg).strip().splitlines()[-1:])
                elif tag == "error":
                    reason = "error in setup/teardown: " + msg
        rec = {"test": test_id, "outcome": outcome, "seconds": round(float(tc.get("time", 0) or 0), 1),
               "reason": reason[:300]}
        # A test reported twice (call failure and teardown error): keep the worst.
        old = res.get(test_id)
        if old is None or (old["outcome"] == "pass" and outcome != "pass"):
            res[test_id] = rec
    return res


def cmd_write_mode(a):
    tests = {}
    if a.expect_raw and os.path.exists(a.expect_raw):
        with open(a.expect_raw) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    tests[rec.pop("test")] = rec
    pydir = os.path.join(os.path.dirname(os.path.abspath(a.junit or ".")))
    pyroot = a.python_dir
    for tid, rec in junit_results(a.junit, pyroot).items():
        rec.pop("test")
        tests[tid] = rec
    listed = [l.strip() for l in open(a.tests) if l.strip()]
    # Listed entries with no result (error before running, or a python file
    # whose collection failed) are errors; in a partial (interrupted) run they
    # are just not there.
    for entry in ([] if a.partial else listed):
        if entry.startswith("expect/"):
            if entry not in tests:
                tests[entry] = {"outcome": "error", "reason": a.error or "no result recorded"}
        else:
            prefix = entry if "::" in entry else entry + "::"
            if not any(t == entry or t.startswith(prefix) for t in tests):
                tests[entry] = {"outcome": "error", "reason": a.error or "no result in the junit xml"}
    counts = count_outcomes(tests)
    conf = {}
    if a.slurm_conf and os.path.exists(a.slurm_conf):
        for line in open(a.slurm_conf):
            m = re.match(r"^\s*(SelectType|SelectTypeParameters|TopologyPlugin|SlurmctldPlugstack|CliFilterPlugins|PluginDir)\s*=\s*(\S+)", line)
            if m:
                conf[m.group(1)] = m.group(2)
    doc = {"mode": a.mode, "list": a.list_name, "list_hash": a.list_hash,
           "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(a.started)),
           "duration_s": round(time.time() - a.started, 1), "slurm_conf": conf,
           "counts": counts, "tests": dict(sorted(tests.items(), key=lambda kv: version_key(kv[0])))}
    if a.error:
        doc["error"] = a.error
    if a.partial:
        doc["partial"] = True
        doc["not_run"] = len([e for e in listed if e.startswith("expect/") and e not in tests])
    path = os.path.join(a.out, f"{a.mode}.json")
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


# ------------------------------------------------------------------ compare
def failed_subtests(log):
    """Messages of an expect log's failed subtests ("Subtest N failed  : MESSAGE (...)")."""
    if not os.path.exists(log):
        return []
    found = {}  # by subtest number: the log repeats failures in its summary
    with open(log, errors="replace") as f:
        for line in f:
            m = re.search(r"Subtest +(\d+) failed +: (.*?)(?: \([^()]*\))?$", line.rstrip())
            if m:
                found[int(m.group(1))] = m.group(2).strip()
    return [found[n] for n in sorted(found)]



def fmt_counts(c):
    return " ".join(f"{c[o]:4d}" for o in OUTCOMES)


def print_mode_table(docs):
    print()
    print(f"{'mode':6s} {'family':7s} {'pass':>4s} {'skip':>4s} {'fail':>4s} {'tmo':>4s} {'err':>4s} {'total':>5s}  duration")
    for d in docs:
        for fam in ("expect", "python"):
            c = d["counts"][fam]
            print(f"{d['mode']:6s} {fam:7s} {fmt_counts(c)} {sum(c.values()):5d}  "
                  f"{d['duration_s'] / 60:.1f} min (mode total)")


def cmd_summary(a):
    docs = []
    for m in a.modes:
        p = os.path.join(a.out, f"{m}.json")
        if os.path.exists(p):
            docs.append(json.load(open(p)))
    print_mode_table(docs)


def cmd_compare(a):
    plain = json.load(open(os.path.join(a.out, "plain.json")))
    tofa = json.load(open(os.path.join(a.out, "tofa.json")))
    allow = read_list(a.allow)
    # {test: "FAILURE MESSAGE | reason"}: fails that only show the node order
    # of topology/tofa's ranking (one failed subtest, with this message).
    node_order = {t: v.split(" | ", 1) for t, v in read_list(a.node_order).items()}
    if plain.get("list_hash") != tofa.get("list_hash"):
        print(f"warning: plain.json ({plain.get('list')}) and tofa.json ({tofa.get('list')}) "
              "ran different lists; comparing the tests in both", file=sys.stderr)
    rows = []
    names = sorted(set(plain["tests"]) | set(tofa["tests"]), key=version_key)
    for t in names:
        p = plain["tests"].get(t, {"outcome": "missing"})
        q = tofa["tests"].get(t, {"outcome": "missing"})
        po, qo = p["outcome"], q["outcome"]
        why = ""
        if "missing" in (po, qo):
            verdict = "not-compared"   # run in one mode only (a partial run, or other lists)
            why = "ran in one mode only: no comparison, counted as failed"
        elif po == "pass" and qo == "pass":
            verdict = "kept"
        elif po == "pass" and qo == "skip" and t in allow:
            if re.search(r"topolog", q.get("reason", ""), re.I):
                verdict = "allowed-skip"
                why = f"allow-listed: {allow[t]}"
            else:
                verdict = "loss"
                why = "allow-listed topology skip, but the skip message does not name topology"
        elif po == "pass" and qo == "fail" and t in node_order:
            message = node_order[t][0].strip()
            failed = failed_subtests(q.get("log") or os.path.join(a.out, "logs", "tofa", t + ".log"))
            if q.get("reason", "") == message and failed == [message]:
                verdict = "allowed-node-order"
                why = f"allow-listed: {node_order[t][-1].strip()}"
            else:
                verdict = "loss"
                why = f"allow-listed node-order fail, but the failed subtests are {failed}"
        elif po == "pass":
            verdict = "loss"
        elif qo == "pass":
            verdict = "gain"
        elif po == qo:
            verdict = "same"
        else:
            verdict = "changed"   # neither passes, outcomes differ (e.g. skip -> fail)
        rows.append({"test": t, "plain": po, "tofa": qo, "verdict": verdict,
                     "plain_reason": p.get("reason", ""), "tofa_reason": q.get("reason", ""),
                     "plain_s": p.get("seconds"), "tofa_s": q.get("seconds"),
                     **({"why": why} if why else {}),
                     **({"plain_note": p["note"]} if p.get("note") else {}),
                     **({"tofa_note": q["note"]} if q.get("note") else {})})
    by = {}
    for r in rows:
        by.setdefault(r["verdict"], []).append(r)
    passed = sum(len(by.get(v, [])) for v in ("kept", "allowed-skip", "allowed-node-order"))
    failed = len(by.get("loss", [])) + len(by.get("not-compared", []))
    doc = {"plain_list": plain.get("list"), "tofa_list": tofa.get("list"),
           "partial": bool(plain.get("partial") or tofa.get("partial")),
           "plain_duration_s": plain["duration_s"], "tofa_duration_s": tofa["duration_s"],
           "plain_counts": plain["counts"], "tofa_counts": tofa["counts"],
           "plain_slurm_conf": plain.get("slurm_conf", {}), "tofa_slurm_conf": tofa.get("slurm_conf", {}),
           "verdicts": {k: len(v) for k, v in sorted(by.items())},
           "passed": passed, "failed": failed,
           "losses": [r["test"] for r in by.get("loss", [])],
           "tests": rows}
    with open(os.path.join(a.out, "compare.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

    print_mode_table([plain, tofa])
    for d in (plain, tofa):
        if d.get("partial"):
            print(f"note: the {d['mode']} run was interrupted ({d.get('not_run', '?')} listed expect tests not run)")
    print()
    print("verdicts: " + ", ".join(f"{k} {len(v)}" for k, v in sorted(by.items())))
    for verdict, title in (("loss", "LOST (pass plain, not with tofa)"),
                           ("not-compared", "NOT COMPARED (ran in one mode only; counted as failed)"),
                           ("allowed-skip", "allowed topology skips"),
                           ("allowed-node-order", "allowed fails showing topology/tofa's node order"),
                           ("gain", "gained (pass only with tofa)"),
                           ("changed", "changed, passing in neither")):
        if by.get(verdict):
            print(f"\n{title}:")
            for r in by[verdict]:
                reason = r["tofa_reason"] if verdict != "gain" else r["plain_reason"]
                extra = f" -- {r['why']}" if r.get("why") else ""
                print(f"  {r['test']:60s} plain={r['plain']:7s} tofa={r['tofa']:7s} {reason[:110]}{extra}")
    print(f"\n{passed} passed, {failed} failed")
    return 1 if failed else 0


def count_outcomes(tests):
    counts = {}
    for fam in ("expect", "python"):
        c = {o: 0 for o in OUTCOMES}
        for t, r in tests.items():
            if t.startswith(fam + "/"):
                c[r["outcome"]] += 1
        counts[fam] = c
    return counts


def cmd_merge(a):
    """Per mode, the union of the parts' tests (run.sh --part K/N, or an
    interrupted whole run that covered the first part); a test in several
    parts takes the last one's outcome and keeps the others under "earlier"."""
    merged_any = False
    for mode in ("plain", "tofa"):
        parts = [d for d in a.parts if os.path.exists(os.path.join(d, f"{mode}.json"))]
        docs = [json.load(open(os.path.join(d, f"{mode}.json"))) for d in parts]
        if not docs:
            continue
        tests = {}
        for part, d in zip(parts, docs):  # a later part (e.g. a re-run) overrides
            for t, r in d["tests"].items():
                r = dict(r, log=os.path.join(os.path.abspath(part), "logs", mode, t + ".log"))
                if t in tests:
                    r["earlier"] = tests[t]
                tests[t] = r
        doc = {"mode": mode, "list": "merged", "list_hash": "merged",
               "started": min(d["started"] for d in docs),
               "duration_s": max(d["duration_s"] for d in docs),
               "slurm_conf": docs[0].get("slurm_conf", {}),
               "counts": count_outcomes(tests),
               "parts": [{"list": d.get("list"), "started": d["started"], "duration_s": d["duration_s"],
                          "tests": len(d["tests"]), "partial": d.get("partial", False)} for d in docs],
               "tests": dict(sorted(tests.items(), key=lambda kv: version_key(kv[0])))}
        path = os.path.join(a.out, f"{mode}.json")
        with open(path + ".tmp", "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(path + ".tmp", path)
        merged_any = True
    return 0 if merged_any else 1


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("list-all")
    p.add_argument("--src", required=True)
    p.add_argument("--skip", action="append", default=[])
    p = sub.add_parser("expect-outcome")
    p.add_argument("--test", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--rc", type=int, required=True)
    p.add_argument("--start", type=float, required=True)
    p.add_argument("--end", type=float, required=True)
    p.add_argument("--note", default="")
    p.add_argument("--jsonl", required=True)
    p = sub.add_parser("write-mode")
    p.add_argument("--mode", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--tests", required=True)
    p.add_argument("--list-name", default="")
    p.add_argument("--list-hash", default="")
    p.add_argument("--started", type=float, required=True)
    p.add_argument("--expect-raw")
    p.add_argument("--junit")
    p.add_argument("--python-dir")
    p.add_argument("--slurm-conf")
    p.add_argument("--error", default="")
    p.add_argument("--partial", action="store_true", help="interrupted run: no error for tests not run")
    p = sub.add_parser("compare")
    p.add_argument("--out", required=True)
    p.add_argument("--allow")
    p.add_argument("--node-order")
    p = sub.add_parser("summary")
    p.add_argument("--out", required=True)
    p.add_argument("modes", nargs="*")
    p = sub.add_parser("merge")
    p.add_argument("--out", required=True)
    p.add_argument("parts", nargs="+")
    a = ap.parse_args()
    rc = {"list-all": cmd_list_all, "expect-outcome": cmd_expect_outcome, "write-mode": cmd_write_mode,
          "compare": cmd_compare, "summary": cmd_summary,
          "merge": cmd_merge}[a.cmd](a)
    sys.exit(rc or 0)


if __name__ == "__main__":
    main()
