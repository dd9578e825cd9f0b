#!/usr/bin/env bash
# The counts the test command prints are only what was seen: each hole of
# issue 34 as a small scenario, run against the real counting code
# (tests/lib/checks.sh, lib_tofa_cluster.sh, scripts/lib/tally.py,
# tests/slurm_testsuite/results.py, tests/profile/run_tests.sh). Every
# scenario here was reported as a pass by the scripts at a91dca4.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_srcdir=$(cd "$top_srcdir" && pwd)
work=$(mktemp -d)
# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"
at_exit rm -rf "$work"

# scenario NAME BODY: a test script sourcing LIB (checks.sh by default), then
# BODY; its exit status in $rc, its output in $work/NAME.out.
scenario() {
    local name=$1 body=$2 lib=${3:-$top_srcdir/tests/lib/checks.sh}
    printf '#!/usr/bin/env bash\nset -uo pipefail\ntop_srcdir=%q\n. %q\n%s\n' \
        "$top_srcdir" "$lib" "$body" >"$work/$name.sh"
    (cd "$work" && bash "$work/$name.sh") >"$work/$name.out" 2>&1
    rc=$?
}
last_line() { tail -n 1 "$work/$1.out"; }
failed_run() {  # NAME EXPECTED-LAST-LINE: non-zero exit and that count
    [ "$rc" -ne 0 ] && [ "$(last_line "$1")" = "$2" ] ||
        { echo "  exit $rc, output:"; sed 's/^/  | /' "$work/$1.out"; return 1; }
}

scenario unset_variable 'pass "first"; set -u; echo "$not_set"; pass "second"; checks_done'
check "checks.sh: an unset variable after a pass fails the script" failed_run unset_variable "1 passed, 1 failed"

scenario cd_exit 'pass "first"; cd /nonexistent/data || exit 1; pass "second"; checks_done'
check "checks.sh: 'cd DIR || exit 1' after a pass fails the script" failed_run cd_exit "1 passed, 1 failed"

scenario early_exit0 'pass "first"; exit 0; pass "second"; checks_done'
check "checks.sh: an 'exit 0' before checks_done fails the script" failed_run early_exit0 "1 passed, 1 failed"

scenario set_e 'set -e; pass "first"; false; pass "second"; checks_done'
check "checks.sh: set -e stopping the script after a pass fails it" failed_run set_e "1 passed, 1 failed"

scenario missing_file 'set -e; pass "first"; head -n 2 "$PWD/no-such-output" >/dev/null; checks_done'
check "checks.sh: a missing job output file under set -e (smoke_cluster.sh) fails" \
    failed_run missing_file "1 passed, 1 failed"

scenario nothing 'checks_done'
check "checks.sh: a script that checked nothing does not pass" failed_run nothing "0 passed, 0 failed"

scenario complete 'pass "a"; check "true succeeds" true; skip_check "n/a here"; checks_done'
check "checks.sh: a complete script passes with its count" \
    test "$rc/$(last_line complete)" = "0/2 passed, 0 failed, 1 skipped"

scenario skipped 'skip "needs something"; pass "never"'
check "checks.sh: skip exits 77 and counts nothing" \
    test "$rc/$(grep -c passed "$work/skipped.out")" = "77/0"

# A timeout's SIGTERM while the script waits for a command.
printf '#!/usr/bin/env bash\n. %q\npass first\nsleep 30 & at_exit kill $!\nwait $!\npass second\nchecks_done\n' \
    "$top_srcdir/tests/lib/checks.sh" >"$work/term.sh"
timeout 2 bash "$work/term.sh" >"$work/term.out" 2>&1
rc=$?
check "checks.sh: a stage killed by timeout after a pass fails" failed_run term "1 passed, 1 failed"

# lib_tofa_cluster.sh: its exit handler used to exit 0 whenever nothing had
# failed yet, so tofa_cluster.sh's 'cd "$DATA" || exit 1' after a pass passed.
scenario cluster_lib 'pass "minicluster up"; cd /nonexistent/data || exit 1; checks_done' \
    "$top_srcdir/tests/integration/lib_tofa_cluster.sh"
check "lib_tofa_cluster.sh: an exit after a pass fails the test" failed_run cluster_lib "1 passed, 1 failed"
scenario cluster_lib_unset 'pass "minicluster up"; echo "$undefined_here"; checks_done' \
    "$top_srcdir/tests/integration/lib_tofa_cluster.sh"
check "lib_tofa_cluster.sh: an unset variable after a pass fails the test" \
    failed_run cluster_lib_unset "1 passed, 1 failed"

# scripts/lib/tally.py: the stages of the test command.
t=$work/tally
mkdir -p "$t"
printf '[==========] 12 tests ran.\n' >"$t/unit.log"          # crashed: no XML
printf 'ok\n' >"$t/harness.log"                                # no count line
printf 'SKIP: needs root\n' >"$t/skip.log"
printf 'PASS: one\nPASS: two\nPASS: three\n' >"$t/cut.log"    # killed before its count
printf '5 passed, 0 failed\n' >"$t/timed.log"
printf '7 passed, 0 failed, 2 skipped\n' >"$t/releases.log"
printf '4 passed, 1 failed\n' >"$t/red.log"
cat >"$t/good.xml" <<'XML'
<testsuites tests="10" failures="0" disabled="1" errors="0"><testsuite name="s"/></testsuites>
XML
tally_of() {  # STAGE-LINES...: tally.py on those stages; output in $t/out, status in $rc
    printf '%s\n' "$@" >"$t/stages.tsv"
    python3 "$top_srcdir/scripts/lib/tally.py" "$t/stages.tsv" >"$t/out" 2>&1
    rc=$?
}
tally_says() {  # EXPECTED-LAST-LINE EXPECTED-STATUS
    [ "$(tail -n 1 "$t/out")" = "$1" ] && [ "$rc" = "$2" ] ||
        { echo "  exit $rc:"; sed 's/^/  | /' "$t/out"; return 1; }
}
tab=$'\t'
tally_of "unit${tab}139${tab}$t/unit.log${tab}xml:$t/missing.xml" "ok${tab}0${tab}$t/releases.log"
check "tally: a crashed GoogleTest binary (no XML) is a failure" tally_says "7 passed, 1 failed, 2 skipped" 1
tally_of "harness${tab}0${tab}$t/harness.log" "ok${tab}0${tab}$t/releases.log"
check "tally: a log without 'N passed, N failed' is a failure" tally_says "7 passed, 1 failed, 2 skipped" 1
tally_of "cut${tab}124${tab}$t/cut.log" "timed${tab}124${tab}$t/timed.log" "ok${tab}0${tab}$t/releases.log"
check "tally: a stage killed by timeout counts as failed, with or without its count" \
    tally_says "12 passed, 2 failed, 2 skipped" 1
tally_of "skip${tab}77${tab}$t/skip.log" "gtest${tab}0${tab}$t/unit.log${tab}xml:$t/good.xml"
check "tally: an automake skip (77) is summed, a report's disabled tests too" \
    tally_says "9 passed, 0 failed, 2 skipped" 0
check "tally: the skipped stage is named with its reason" grep -q "skip: SKIP: needs root" "$t/out"
tally_of "red${tab}0${tab}$t/red.log" "build${tab}2${tab}$t/red.log${tab}status"
check "tally: a failed count and a failed step add up" tally_says "4 passed, 2 failed, 0 skipped" 1
table_sums() {  # the 'total' row equals the sum of the stage rows
    awk '$1 == "stage" { on = 1; next } $1 == "total" { exit !(p == $2 && f == $3 && s == $4) }
         on { n = NF; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/ && $(i+1) ~ /^[0-9]+$/ && $(i+2) ~ /^[0-9]+$/) { p += $i; f += $(i+1); s += $(i+2); break } }' "$t/out"
}
tally_of "cut${tab}124${tab}$t/cut.log" "ok${tab}0${tab}$t/releases.log" "gtest${tab}0${tab}$t/unit.log${tab}xml:$t/good.xml"
check "tally: the total row is the sum of the stage rows" table_sums

# tests/slurm_testsuite/results.py: a test run in one mode only is not a pass.
r=$work/suite
mkdir -p "$r"
mode_json() {  # MODE TESTS-JSON
    printf '{"mode": "%s", "duration_s": 60, "counts": {"expect": {"pass": 1, "skip": 0, "fail": 0, "timeout": 0, "error": 0}, "python": {"pass": 0, "skip": 0, "fail": 0, "timeout": 0, "error": 0}}, "tests": %s}\n' "$1" "$2" >"$r/$1.json"
}
mode_json plain '{"test1.1": {"outcome": "pass"}, "test1.2": {"outcome": "pass"}}'
mode_json tofa '{"test1.1": {"outcome": "pass"}}'
python3 "$top_srcdir/tests/slurm_testsuite/results.py" compare --out "$r" >"$r/out" 2>&1
rc=$?
check "results.py: a test missing from one mode counts as failed" \
    test "$rc/$(tail -n 1 "$r/out")" = "1/1 passed, 1 failed"

# tests/profile/run_tests.sh without an MPI compiler: a skip, not "0 passed".
bin=$work/bin
mkdir -p "$bin"
for tool in bash python3 mktemp rm dirname cat sed grep awk tail head; do
    ln -s "$(command -v "$tool")" "$bin/$tool"
done
printf '#!/bin/sh\nexit 1\n' >"$bin/mpirun.openmpi" && chmod +x "$bin/mpirun.openmpi"
PATH=$bin top_builddir=/nonexistent TOFAPROF_LIB_DIR="" \
    "$bin/bash" "$top_srcdir/tests/profile/run_tests.sh" >"$work/profile.out" 2>&1
rc=$?
check "profile tests without mpicc: skipped (77), not passed" \
    test "$rc/$(grep -cE '^[0-9]+ passed' "$work/profile.out")" = "77/0"

checks_done
