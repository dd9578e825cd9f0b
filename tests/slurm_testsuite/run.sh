#!/bin/bash
# Runs Slurm's own regression tests (testsuite/expect and testsuite/python of
# the Slurm source tree that matches the installed Slurm) against a one-host
# mini-cluster twice: "plain" (select/cons_tres, no tofa plugin at all) and
# "tofa" (every tofa plugin, configured by tests/integration/lib_tofa_cluster.sh),
# then compares: a test that passes plain and does not pass with tofa is a
# loss. A skip with tofa counts as a loss too, unless the test is in
# lists/topology-skips.txt and its skip message names topology.
# See README.md in this directory. Needs root.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TOFA_PROG=slurm_testsuite/run.sh
# shellcheck source=../../scripts/lib/common.sh
. "$ROOT/scripts/lib/common.sh"

PY=/usr/bin/python3          # Debian's python (pytest-3 lives there), not a pyenv shim
HELPER=$HERE/results.py

usage() {
    cat <<EOF
Usage: $TOFA_PROG [--list FILE | --all] [--mode plain|tofa|both] [--out DIR]
                  [--jobs-timeout SEC] [options]

  --list FILE         tests to run, one a line (default lists/bounded.txt; a
                      bare name is looked up in $HERE/lists)
  --all               every expect and python test, minus lists/expect-skip.txt
                      and lists/python-skip.txt
  --mode M            plain, tofa or both (default both)
  --out DIR           results go to DIR/slurm-testsuite (default $ROOT/out)
  --jobs-timeout SEC  time limit of one test (default 300; an expect test
                      killed at the limit counts as "timeout")
  --nodes N           nodes of the mini-cluster (default 8)
  --cpus N            CPUs per node (default 4)
  --dims D            tofa torus (default 2x2x2; product must be --nodes)
  --part K/N          run the K-th of N contiguous slices of the expect tests
                      (the python tests go with the last one) on clusters of
                      their own (ports and directories shifted by K), so that
                      N runs can go at once; results in
                      DIR/slurm-testsuite/part-K-of-N/
  --merge PARTDIR...  run nothing; merge the parts' plain.json and tofa.json
                      into --out (for a test in several, the last directory's
                      outcome counts: e.g. a --list re-run of some tests), then
                      compare
  --compare-only      run nothing; compare the plain.json and tofa.json in --out
  -h, --help          this message

Writes DIR/slurm-testsuite/{plain,tofa}.json (per test: outcome, seconds,
reason), compare.json and logs/<mode>/..., prints a summary table and
"N passed, N failed" (failed = tests that pass plain and not with tofa).
Exit 0 only when no test is lost (or, for a single mode, when it ran).
EOF
}

LIST=bounded.txt
ALL=no
MODE=both
OUT=$ROOT/out
TEST_TIMEOUT=300
NODES=8
CPUS=4
DIMS=2x2x2
COMPARE_ONLY=no
PART=
MERGE=()
WORK=/tmp/tofa-slurm-testsuite-work
PLAIN_DIR=/tmp/tofa-slurm-testsuite-plain
PLAIN_PORT=23500
TOFA_DIR=/tmp/tofa-slurm-testsuite-tofa
TOFA_PORT=23600

while [ $# -gt 0 ]; do
    case "$1" in
        --list) LIST=${2:?--list needs a value}; ALL=no; shift ;;
        --all) ALL=yes ;;
        --mode) MODE=${2:?--mode needs a value}; shift ;;
        --out) OUT=${2:?--out needs a value}; shift ;;
        --jobs-timeout) TEST_TIMEOUT=${2:?--jobs-timeout needs a value}; shift ;;
        --nodes) NODES=${2:?--nodes needs a value}; shift ;;
        --cpus) CPUS=${2:?--cpus needs a value}; shift ;;
        --dims) DIMS=${2:?--dims needs a value}; shift ;;
        --compare-only) COMPARE_ONLY=yes ;;
        --part) PART=${2:?--part needs K/N}; shift ;;
        --merge) shift; while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do MERGE+=("$1"); shift; done
                 [ ${#MERGE[@]} -gt 0 ] || die "--merge needs part directories"; continue ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done
case "$MODE" in
    plain) MODES=(plain) ;;
    tofa) MODES=(tofa) ;;
    both) MODES=(plain tofa) ;;
    *) die "--mode must be plain, tofa or both, not '$MODE'" ;;
esac
[[ $TEST_TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--jobs-timeout must be a positive integer"
[[ $NODES =~ ^[1-9][0-9]*$ ]] || die "--nodes must be a positive integer"
[[ $CPUS =~ ^[1-9][0-9]*$ ]] || die "--cpus must be a positive integer"
PART_K=1 PART_N=1
if [ -n "$PART" ]; then
    [[ $PART =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] \
        || die "--part must be K/N with 1 <= K <= N, not '$PART'"
    PART_K=${BASH_REMATCH[1]} PART_N=${BASH_REMATCH[2]}
    shift_by=$(( (PART_K - 1) * 1000 ))
    WORK=$WORK-p$PART_K PLAIN_DIR=$PLAIN_DIR-p$PART_K TOFA_DIR=$TOFA_DIR-p$PART_K
    PLAIN_PORT=$((PLAIN_PORT + shift_by)) TOFA_PORT=$((TOFA_PORT + shift_by))
fi
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)/slurm-testsuite
[ -z "$PART" ] || OUT=$OUT/part-$PART_K-of-$PART_N
mkdir -p "$OUT"

compare() {
    "$PY" "$HELPER" compare --out "$OUT" --allow "$HERE/lists/topology-skips.txt" \
        --node-order "$HERE/lists/node-order-fails.txt"
}

if [ ${#MERGE[@]} -gt 0 ]; then
    "$PY" "$HELPER" merge --out "$OUT" "${MERGE[@]}" || die "cannot merge ${MERGE[*]}"
    compare
    exit $?
fi
if [ $COMPARE_ONLY = yes ]; then
    compare
    exit $?
fi

require_root
# expect and pytest for the two test families; pytest-timeout for per-test
# limits of the python tests, pexpect for 8 of their files; the cluster's
# own packages as minicluster.sh wants them.
apt_install_missing expect python3-pytest python3-pytest-timeout python3-pexpect \
    munge slurmctld slurmd slurm-client
[ -x /usr/bin/pytest-3 ] || die "pytest-3 missing after installing python3-pytest"

SRC=$(bash "$ROOT/scripts/slurm-source.sh" | tail -n 1) || die "scripts/slurm-source.sh failed"
[ -d "$SRC/testsuite/expect" ] && [ -d "$SRC/testsuite/python" ] \
    || die "no testsuite/{expect,python} in $SRC"

# ---------------------------------------------------------------- test list
# Entries: expect/testX.Y or python/<path>[::<test>]; "#" starts a comment.
TESTS_FILE=$OUT/tests-$MODE.txt   # per --mode: a plain and a tofa run may share --out
if [ $ALL = yes ]; then
    LIST_NAME=all
    "$PY" "$HELPER" list-all --src "$SRC/testsuite" \
        --skip "$HERE/lists/expect-skip.txt" --skip "$HERE/lists/python-skip.txt" > "$TESTS_FILE" \
        || die "cannot build the list of all tests"
else
    [ -f "$LIST" ] || LIST=$HERE/lists/$LIST
    [ -f "$LIST" ] || die "no list file $LIST"
    LIST_NAME=$(basename "$LIST")
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' "$LIST" | awk 'NF { print $1 }' > "$TESTS_FILE"
fi
if [ -n "$PART" ]; then   # the K-th slice of the expect tests; python with the last
    "$PY" - "$TESTS_FILE" "$PART_K" "$PART_N" <<'PY' || die "cannot slice $TESTS_FILE"
import sys
path, k, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = [l for l in open(path) if l.strip()]
expect = [l for l in lines if l.startswith("expect/")]
size = -(-len(expect) // n)
part = expect[(k - 1) * size:k * size] + ([l for l in lines if not l.startswith("expect/")] if k == n else [])
open(path, "w").writelines(part)
PY
fi
mapfile -t EXPECT_TESTS < <(grep '^expect/' "$TESTS_FILE" | sed 's|^expect/||')
mapfile -t PYTHON_TESTS < <(grep '^python/' "$TESTS_FILE" | sed 's|^python/||')
bad=$(grep -v -e '^expect/' -e '^python/' "$TESTS_FILE" || true)
[ -z "$bad" ] || die "list entries must start with expect/ or python/: $(echo $bad)"
for t in "${EXPECT_TESTS[@]}"; do
    [ -f "$SRC/testsuite/expect/$t" ] || die "no expect test $t in $SRC/testsuite/expect"
done
for t in "${PYTHON_TESTS[@]}"; do
    [ -f "$SRC/testsuite/python/${t%%::*}" ] || die "no python test file ${t%%::*} in $SRC/testsuite/python"
done
LIST_HASH=$(sha1sum < "$TESTS_FILE" | cut -c1-12)
log "list $LIST_NAME: ${#EXPECT_TESTS[@]} expect tests, ${#PYTHON_TESTS[@]} python entries; modes: ${MODES[*]}; per-test limit ${TEST_TIMEOUT}s"

# ---------------------------------------------------------------- clusters
# The conf-extra lines both modes share (the tofa mode adds the lib's tofa
# lines: TopologyPlugin, its SelectType, SlurmctldPlugstack, CliFilterPlugins).
common_conf() {
    cat <<'EOF'
SelectTypeParameters=CR_Core
EOF
}

# add_common_conf FILE: appends the common lines whose key FILE lacks (the
# lib's tofa conf-extra already sets SelectTypeParameters, for instance).
add_common_conf() {
    local line key
    echo "# slurm_testsuite/run.sh: the same in both modes" >> "$1"
    while IFS= read -r line; do
        key=${line%%=*}
        grep -qiE "^[[:space:]]*${key}[[:space:]]*=" "$1" || echo "$line" >> "$1"
    done < <(common_conf)
}

mode_dir() { if [ "$1" = plain ]; then echo "$PLAIN_DIR"; else echo "$TOFA_DIR"; fi; }

# A copy of the built plugins, library and helpers for the tofa mode, made
# once per mode: a rebuild in the checkout during a run of hours (every
# client loads the plugins anew) cannot break the run. LD_LIBRARY_PATH
# (exported by the lib, passed to every test) wins over the plugins'
# RUNPATH into the checkout.
snapshot_build() {
    local snap=$WORK/build-tofa f
    rm -rf "$snap"
    mkdir -p "$snap/plugins/.libs" "$snap/plugins/select/.libs" "$snap/common/.libs" \
        "$snap/tools/.libs" "$snap/tests/integration/.libs" || return 1
    cp -a "$ROOT"/plugins/.libs/*.so "$snap/plugins/.libs/" &&
        cp -a "$ROOT"/plugins/select/.libs/*.so "$snap/plugins/select/.libs/" &&
        cp -a "$ROOT"/common/.libs/libtofa.so* "$snap/common/.libs/" &&
        cp -a "$ROOT/tools/.libs/tofa-map-worker" "$snap/tools/.libs/" || return 1
    for f in tests/integration/tofa_query tests/integration/.libs/tofa_query; do
        [ -e "$ROOT/$f" ] && cp -a "$ROOT/$f" "$snap/$f"
    done
    BUILD_SNAPSHOT=$snap
}
BUILD_SNAPSHOT=$ROOT

# cluster_start MODE: starts the mode's cluster; writes DIR/etc/testsuite.env
# (SLURM_CONF, LD_LIBRARY_PATH). Exit status 77: the tofa plugins are not built.
cluster_start() {
    local mode=$1 dir
    dir=$(mode_dir "$mode")
    if [ "$mode" = plain ]; then
        mkdir -p "$dir/data"
        echo "SelectType=select/cons_tres" > "$dir/data/conf-extra"
        add_common_conf "$dir/data/conf-extra"
        "$ROOT/scripts/minicluster.sh" up --dir "$dir" --nodes "$NODES" --cpus "$CPUS" \
            --port-base "$PLAIN_PORT" --timeout 60 --conf-extra "$dir/data/conf-extra" >/dev/null || return 1
        printf 'SLURM_CONF=%s\nLD_LIBRARY_PATH=\n' "$dir/etc/slurm.conf" > "$dir/etc/testsuite.env"
        return 0
    fi
    # A subshell: the lib's globals (DIR, NODES, pass, fail, ...) and its
    # exits (skip -> 77) stay in there.
    (
        unset TOFA_CLUSTER_DIR TOFA_CLUSTER_PORT_BASE TOFA_KEEP_CLUSTER
        TOFA_LIB_DEFAULT_DIR=$dir
        TOFA_LIB_DEFAULT_PORT_BASE=$TOFA_PORT
        TOFA_LIB_NODES=$NODES
        TOFA_LIB_DIMS=$DIMS
        TOFA_LIB_CPUS=$CPUS
        top_srcdir=$ROOT
        top_builddir=$BUILD_SNAPSHOT
        # shellcheck source=../integration/lib_tofa_cluster.sh
        . "$ROOT/tests/integration/lib_tofa_cluster.sh"
        trap - EXIT INT TERM   # the lib's exit handler would stop the cluster and count
        tofa_lib_require_root_and_plugins
        tofa_lib_write_config
        add_common_conf "$DATA/conf-extra"
        cluster_up || exit 1
        printf 'SLURM_CONF=%s\nLD_LIBRARY_PATH=%s\n' "$DIR/etc/slurm.conf" "${LD_LIBRARY_PATH:-}" \
            > "$DIR/etc/testsuite.env"
    )
}

cluster_stop() {
    "$ROOT/scripts/minicluster.sh" down --dir "$(mode_dir "$1")" >/dev/null 2>&1 \
        || log "warning: minicluster down --dir $(mode_dir "$1") failed"
}

RUNNING_MODE=
MODE_STARTED=
# Interrupted (Ctrl-C, kill): stop the cluster and keep what ran so far in a
# partial <mode>.json (compare.json then covers the tests run in both modes).
TEST_PID=
on_exit() {
    local rc=$? mode=$RUNNING_MODE
    if [ -n "$TEST_PID" ]; then
        kill -TERM -- "-$TEST_PID" 2>/dev/null || kill -TERM "$TEST_PID" 2>/dev/null
        sleep 1
        kill -KILL -- "-$TEST_PID" 2>/dev/null
        TEST_PID=
    fi
    if [ -n "$mode" ]; then
        RUNNING_MODE=
        log "stopping the $mode cluster"
        cluster_stop "$mode"
        cp "$(mode_dir "$mode")/log/slurmctld.log" "$OUT/logs/$mode/slurmctld.log" 2>/dev/null
        write_mode "$mode" --partial --error "interrupted (exit status $rc)" \
            && log "partial results in $OUT/$mode.json"
    fi
    exit $rc
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# The environment of every test: Debian's python first (no pyenv shims),
# the cluster's SLURM_CONF, nothing else of ours.
test_env() {
    local dir
    dir=$(mode_dir "$1")
    # shellcheck disable=SC1091
    . "$dir/etc/testsuite.env"
    export SLURM_CONF
    if [ -n "$LD_LIBRARY_PATH" ]; then export LD_LIBRARY_PATH; else unset LD_LIBRARY_PATH; fi
    export PATH=/usr/sbin:/usr/bin:/sbin:/bin
    export SLURM_TESTSUITE_CONF=$WORKDIR/testsuite/testsuite.conf
    export SLURM_LOCAL_GLOBALS_FILE=$WORKDIR/testsuite/expect/globals.local
    unset SLURM_JOB_ID SLURM_JOBID PYTHONPATH
}

cluster_ok() { timeout 10 scontrol ping 2>/dev/null | grep -q 'is UP'; }
all_idle() {
    [ "$(timeout 10 sinfo -h -N -o %T 2>/dev/null | grep -c '^idle$')" -eq "$NODES" ]
}

# After each test: no job left, every node idle. Cancels leftovers and
# resumes down/drained nodes; restarts the cluster when slurmctld is gone or
# the nodes do not come back. Prints what it had to do (empty: nothing).
heal() {
    local mode=$1 jobs notes=() restored
    restored=$(restore_etc "$mode")
    [ -z "$restored" ] || notes+=("restored $restored and reconfigured")
    if ! cluster_ok; then
        notes+=("slurmctld not answering after the test: cluster restarted")
        restart_cluster "$mode"
        echo "${notes[*]}"
        return
    fi
    jobs=$(timeout 10 squeue -h -o %i 2>/dev/null | tr '\n' ' ')
    if [ -n "${jobs// /}" ]; then
        # shellcheck disable=SC2086
        timeout 10 scancel $jobs >/dev/null 2>&1
        notes+=("cancelled leftover jobs: $jobs")
    fi
    local deadline=$(( $(date +%s) + 30 )) bad
    until all_idle; do
        bad=$(timeout 10 sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2 ~ /^(down|drain|drained|draining|fail)/ { print $1 }' | sort -u | paste -sd, -)
        if [ -n "$bad" ]; then
            timeout 10 scontrol update nodename="$bad" state=resume >/dev/null 2>&1
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            notes+=("nodes not idle 30 s after the test: cluster restarted")
            restart_cluster "$mode"
            break
        fi
        sleep 1
    done
    echo "${notes[*]}"
}

# The cluster's etc/ as it was when the cluster came up: a test killed at its
# time limit (or one that fails to clean up) may leave slurm.conf changed, a
# backup slurm.conf.testX.Y or a new *.conf behind.
snapshot_etc() {
    local dir
    dir=$(mode_dir "$1")
    rm -rf "$WORKDIR/etc-pristine"
    cp -a "$dir/etc" "$WORKDIR/etc-pristine"
}

# Puts etc/ back as snapshot_etc saw it; prints the files it had to restore
# or remove (and then runs scontrol reconfigure).
restore_etc() {
    local dir f name changed=()
    dir=$(mode_dir "$1")
    [ -d "$WORKDIR/etc-pristine" ] || return 0
    for f in "$dir"/etc/*; do
        name=${f##*/}
        if [ ! -e "$WORKDIR/etc-pristine/$name" ]; then
            rm -rf "$f"; changed+=("-$name")
        fi
    done
    for f in "$WORKDIR"/etc-pristine/*; do
        name=${f##*/}
        if ! cmp -s "$f" "$dir/etc/$name"; then
            cp -a "$f" "$dir/etc/$name"; changed+=("$name")
        fi
    done
    if [ ${#changed[@]} -gt 0 ]; then
        timeout 20 scontrol reconfigure >/dev/null 2>&1
        sleep 2
        echo "etc/{${changed[*]}}"
    fi
}

restart_cluster() {
    cluster_stop "$1"
    cluster_start "$1" >&2 || { log "the $1 cluster does not come up again"; return 1; }
    test_env "$1"
}

# Fresh copy of the source tree's testsuite per mode (tests create their
# directories in it), plus testsuite.conf and globals.local.
prepare_workdir() {
    local mode=$1 dir
    dir=$(mode_dir "$mode")
    WORKDIR=$WORK/$mode
    rm -rf "$WORKDIR"
    mkdir -p "$WORKDIR"
    cp -a "$SRC/testsuite" "$WORKDIR/testsuite"
    cat > "$WORKDIR/testsuite/testsuite.conf" <<EOF
SlurmSourceDir=$SRC
SlurmBuildDir=$SRC
SlurmInstallDir=/usr
SlurmConfigDir=$dir/etc
EOF
    cat > "$WORKDIR/testsuite/expect/globals.local" <<EOF
set slurm_dir "/usr"
set build_dir "$SRC"
set src_dir "$SRC"
set bin_py3 "/usr/bin/python3"
set testsuite_colorize false
set testsuite_cleanup_on_failure true
set testsuite_log_level \$LOG_LEVEL_DEBUG
EOF
}

# ---------------------------------------------------------------- running
now() { date +%s.%N; }

# expect_once T LOG: runs expect test T once into LOG; its exit status.
expect_once() {
    # In the background and waited for, so that a signal to this script
    # is handled at once (on_exit then kills the test's process group:
    # timeout makes one of its own).
    (cd "$WORKDIR/testsuite/expect" && exec timeout -k 15 "$TEST_TIMEOUT" expect -f "./$1") \
        > "$2" 2>&1 < /dev/null &
    TEST_PID=$!
    wait "$TEST_PID"
    local rc=$?
    TEST_PID=
    return $rc
}

run_expect() {   # run_expect MODE
    local mode=$1 t i=0 n=${#EXPECT_TESTS[@]} start end rc note logdir first
    logdir=$OUT/logs/$mode/expect
    rm -rf "$logdir"
    mkdir -p "$logdir"
    : > "$RESULTS_RAW"
    for t in "${EXPECT_TESTS[@]}"; do
        i=$((i + 1))
        printf '[%s] expect %3d/%d %-12s ' "$mode" "$i" "$n" "$t"
        start=$(now)
        expect_once "$t" "$logdir/$t.log"
        rc=$?
        note=$(heal "$mode")
        # Some of Slurm's tests race on output timing (test15.4's
        # "(uid=.*\n)" takes in salloc's next line when both arrive in one
        # read): a failure, not a timeout, is tried once more; both logs
        # are kept and the outcome says so.
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 255 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] &&
           grep -q '^FAILURE' "$logdir/$t.log"; then
            first=$(sed -n 's/^\[[^]]*\] *Fatal *\(.*\) (.*/\1/p' "$logdir/$t.log" | head -n 1)
            mv "$logdir/$t.log" "$logdir/$t.first-try.log"
            expect_once "$t" "$logdir/$t.log"
            rc=$?
            note="second try; the first failed: ${first:-see $t.first-try.log}${note:+; $note}"
            note=$note$(heal "$mode" | sed 's/^./; &/')
        fi
        end=$(now)
        "$PY" "$HELPER" expect-outcome --test "expect/$t" --log "$logdir/$t.log" --rc "$rc" \
            --start "$start" --end "$end" --note "$note" --jsonl "$RESULTS_RAW"
    done
}

run_python() {   # run_python MODE
    local mode=$1 logdir rc
    [ ${#PYTHON_TESTS[@]} -gt 0 ] || return 0
    logdir=$OUT/logs/$mode/python
    rm -rf "$logdir"
    mkdir -p "$logdir"
    log "[$mode] python: pytest-3 on ${#PYTHON_TESTS[@]} entries (local-config mode)"
    : > "$logdir/pytest.raw"
    # Local-config mode (the default): tests that would rewrite slurm.conf or
    # restart daemons skip themselves (atf.require_auto_config). --color=yes:
    # conftest.py's color_log_level needs pytest's colored log formatter (it
    # fails every test's setup with a plain one); the log is stripped of colors.
    (cd "$WORKDIR/testsuite/python" && exec timeout -k 30 $(( (TEST_TIMEOUT + 30) * ${#PYTHON_TESTS[@]} + 600 )) \
        /usr/bin/pytest-3 -v -rA -p no:cacheprovider --color=yes --continue-on-collection-errors \
        --timeout="$TEST_TIMEOUT" --basetemp="$WORKDIR/pytest-tmp" \
        --junitxml="$logdir/junit.xml" "${PYTHON_TESTS[@]}") >> "$logdir/pytest.raw" 2>&1 < /dev/null &
    TEST_PID=$!
    # Progress: one line per test as pytest reports it.
    tail -n +1 -f --pid="$TEST_PID" "$logdir/pytest.raw" | sed -u 's/\x1b\[[0-9;]*m//g' \
        | grep --line-buffered -E '^tests/.*::.* (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)' \
        | sed -u "s/^/[$mode] python /" &
    wait "$TEST_PID"
    rc=$?
    TEST_PID=
    wait   # the progress pipeline ends with tail, within a second
    sed 's/\x1b\[[0-9;]*m//g' "$logdir/pytest.raw" > "$logdir/pytest.log" && rm -f "$logdir/pytest.raw"
    log "[$mode] pytest exit status $rc"
    heal "$mode" >/dev/null
}

write_mode() {   # write_mode MODE [results.py write-mode options]
    local mode=$1; shift
    "$PY" "$HELPER" write-mode --mode "$mode" --out "$OUT" --tests "$TESTS_FILE" \
        --list-name "$LIST_NAME" --list-hash "$LIST_HASH" --started "$MODE_STARTED" \
        --expect-raw "$OUT/logs/$mode/expect.jsonl" \
        --junit "$OUT/logs/$mode/python/junit.xml" --python-dir "$WORKDIR/testsuite/python" \
        --slurm-conf "$OUT/logs/$mode/slurm.conf" "$@"
}

run_mode() {
    local mode=$1 dir rc
    dir=$(mode_dir "$mode")
    prepare_workdir "$mode"
    RESULTS_RAW=$OUT/logs/$mode/expect.jsonl
    mkdir -p "$OUT/logs/$mode"
    rm -rf "$OUT/logs/$mode"
    mkdir -p "$OUT/logs/$mode"
    MODE_STARTED=$(now)
    if [ "$mode" = tofa ] && ! snapshot_build; then
        log "[$mode] cannot copy the built plugins (not built?)"
        write_mode "$mode" --error "no built plugins to copy"
        return 1
    fi
    log "[$mode] starting the cluster ($dir, $NODES nodes x $CPUS CPUs)"
    RUNNING_MODE=$mode
    cluster_start "$mode"
    rc=$?
    if [ $rc -ne 0 ]; then
        cluster_stop "$mode"
        RUNNING_MODE=
        if [ $rc -eq 77 ]; then log "[$mode] cannot run: tofa plugins or helpers not built"
        else log "[$mode] the cluster did not come up; see $dir/log"; fi
        write_mode "$mode" --error "cluster did not come up (status $rc)"
        return 1
    fi
    cp "$dir/etc/slurm.conf" "$OUT/logs/$mode/slurm.conf"
    snapshot_etc "$mode"
    test_env "$mode"
    run_expect "$mode"
    run_python "$mode"
    log "[$mode] stopping the cluster"
    cp "$dir/log/slurmctld.log" "$OUT/logs/$mode/slurmctld.log" 2>/dev/null
    RUNNING_MODE=
    cluster_stop "$mode"
    write_mode "$mode"
}

for mode in "${MODES[@]}"; do
    rm -f "$OUT/$mode.json"
done
rm -f "$OUT/compare.json"
status=0
for mode in "${MODES[@]}"; do
    run_mode "$mode" || status=1
done

if [ -f "$OUT/plain.json" ] && [ -f "$OUT/tofa.json" ]; then
    compare || status=1
else
    "$PY" "$HELPER" summary --out "$OUT" "${MODES[@]}"
fi
exit $status
