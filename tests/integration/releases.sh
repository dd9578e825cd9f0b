#!/bin/bash
# The integration tests on Slurm 24.11 and 26.05 (issue 14), each release in
# turn on a real cluster (munged + slurmctld + 8 slurmd of that release, with
# tofa's plugins built for it):
#   tofa_cluster.sh       checks a-g, TOFA_SLURM_RELEASE=RELEASE
#   tofa_distribution.sh  --distribution=TOFA: the stock clients of the
#                         release (no patch for it), so the unpatched spelling
#                         --tofa-matrix; the patched-client checks are "skip:"
#   release_cluster.sh    4 nodes of 2 CPUs: several tasks per node, the
#                         placement fitted to the CPUs granted (26.05),
#                         --ntasks-per-node=1, tofactl set-outage, a
#                         placement cons_tres refuses (--contiguous; not covered
#                         by the two above, whose nodes have 1 CPU)
#   shared_cluster.sh     TOFA jobs beside plain ones on 16 nodes of 8 CPUs
#                         (-N, --ntasks-per-node, -c, arrays, direct sruns)
# The releases run at the same time; every test's output is printed; the last
# line sums them: "N passed, N failed".
#
#   bash tests/integration/releases.sh [RELEASE...]     (default: 24.11 26.05)
#
# Slurm comes from scripts/slurm-release.sh RELEASE, the plugins from
# scripts/build-slurm-release.sh RELEASE (both cached; the first build of a
# release takes 20-40 minutes on 2 cores). Needs root. Working directories
# and ports: lib_tofa_cluster.sh's defaults for a release
# (/tmp/tofa-plugins-cluster-RELEASE, /tmp/tofa-distribution-cluster-RELEASE;
# ports 20400-20508 / 20800-20908 on 24.11, 20600-20708 / 21000-21108 on
# 26.05), release_cluster.sh on TOFA_RELEASE_PORT_BASE (default here 21200:
# 21200-21204, 21290, 21301-21304; directory /tmp/tofa-releases-cluster-RELEASE
# unless TOFA_RELEASE_CLUSTER_DIR is set; 26.05 1000 ports higher). Logs: TOFA_RELEASES_LOG_DIR (default a
# new directory under /tmp).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRCDIR=${top_srcdir:-$(cd "$HERE/../.." && pwd)}
BUILDDIR=${top_builddir:-$SRCDIR}
export top_srcdir=$SRCDIR top_builddir=$BUILDDIR
releases=("$@")
[ ${#releases[@]} -gt 0 ] || releases=(24.11 26.05)
for rel in "${releases[@]}"; do
    case $rel in 24.11|26.05) ;; *) echo "releases.sh: 24.11 or 26.05, not '$rel'" >&2; exit 2 ;; esac
done
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: needs root (starts munged, slurmctld, slurmd)"
    exit 77
fi
LOGS=${TOFA_RELEASES_LOG_DIR:-$(mktemp -d /tmp/tofa-releases.XXXXXX)}
mkdir -p "$LOGS"

# tofa_query (a libtofa client, the same for every release) from the
# checkout's build; lib_tofa_cluster.sh runs it with the release's libtofa.
if [ -f "$BUILDDIR/Makefile" ]; then
    make -s -C "$BUILDDIR" tests/integration/tofa_query >/dev/null 2>"$LOGS/make-tofa_query.log" ||
        echo "warning: make tests/integration/tofa_query failed (see $LOGS/make-tofa_query.log)"
fi

# One release's four tests; prints their output, appends "RELEASE TEST: N
# passed, ..." lines to $LOGS/summary-RELEASE and "P F S" to
# $LOGS/counts-RELEASE.
run_release() {
    local rel=$1 rel_start t0 prefix plugins test log rc secs line p f s
    local rel_passed=0 rel_failed=0 rel_skipped=0 summary=$LOGS/summary-$rel
    rel_start=$(date +%s)
    : >"$summary"
    echo "==== Slurm $rel"
    t0=$(date +%s)
    if ! prefix=$(bash "$SRCDIR/scripts/slurm-release.sh" "$rel" 2>"$LOGS/slurm-release-$rel.log" | tail -n 1) ||
            [ ! -x "$prefix/sbin/slurmctld" ]; then
        echo "FAIL: scripts/slurm-release.sh $rel: $(tail -n 5 "$LOGS/slurm-release-$rel.log")"
        echo "$rel: no Slurm build" >>"$summary"; echo "0 1 0" >"$LOGS/counts-$rel"; return
    fi
    if ! plugins=$(bash "$SRCDIR/scripts/build-slurm-release.sh" "$rel" 2>"$LOGS/build-slurm-release-$rel.log" | tail -n 1) ||
            [ ! -f "$plugins/.libs/topology_tofa.so" ]; then
        echo "FAIL: scripts/build-slurm-release.sh $rel: $(tail -n 5 "$LOGS/build-slurm-release-$rel.log")"
        echo "$rel: no plugin build" >>"$summary"; echo "0 1 0" >"$LOGS/counts-$rel"; return
    fi
    echo "Slurm $rel: $prefix, plugins $plugins ($(( $(date +%s) - t0 )) s to check both builds)"
    for test in tofa_cluster tofa_distribution release_cluster shared_cluster; do
        log=$LOGS/$test-$rel.log
        echo "== Slurm $rel: tests/integration/$test.sh"
        t0=$(date +%s)
        if [ $test = release_cluster ]; then
            TOFA_RELEASE_PORT_BASE=$(( ${TOFA_RELEASE_PORT_BASE:-21200} + ${release_port_step[$rel]} )) \
            TOFA_RELEASE_CLUSTER_DIR=${TOFA_RELEASE_CLUSTER_DIR:-/tmp/tofa-releases-cluster}-$rel \
                timeout 1200 bash "$HERE/$test.sh" "$rel" >"$log" 2>&1
        else
            TOFA_SLURM_RELEASE=$rel TOFA_SLURM_PREFIX=$prefix TOFA_PLUGIN_DIR=$plugins/.libs \
                timeout 1200 bash "$HERE/$test.sh" >"$log" 2>&1
        fi
        rc=$?
        cat "$log"
        secs=$(( $(date +%s) - t0 ))
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
        p=0 f=0 s=0
        if [ -n "$line" ]; then
            p=$(awk '{ print $1 }' <<<"$line")
            f=$(awk '{ print $3 }' <<<"$line")
            s=$(sed -n 's/.*, \([0-9]*\) skipped.*/\1/p' <<<"$line"); s=${s:-0}
        fi
        if [ $rc -eq 77 ] && [ -z "$line" ]; then
            echo "== Slurm $rel: $test.sh skipped: $(grep -m1 '^SKIP' "$log")"
            s=1
        elif [ -z "$line" ]; then
            f=1   # no count: whatever it did, no check was seen to pass
            echo "FAIL: $test.sh on $rel exited $rc without its 'N passed, N failed' line"
        elif [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
            f=1   # died, timed out (124) or failed without saying so
            echo "FAIL: $test.sh on $rel exited $rc${line:+ after '$line'}"
        fi
        rel_passed=$((rel_passed + p)); rel_failed=$((rel_failed + f)); rel_skipped=$((rel_skipped + s))
        echo "== Slurm $rel: $test.sh: $p passed, $f failed, $s skipped, $secs s"
        echo "$rel $test.sh: $p passed, $f failed, $s skipped, $secs s" >>"$summary"
    done
    echo "$rel: $rel_passed passed, $rel_failed failed, $rel_skipped skipped, $(( $(date +%s) - rel_start )) s in all" >>"$summary"
    echo "$rel_passed $rel_failed $rel_skipped" >"$LOGS/counts-$rel"
}

# The releases run at once: each has its own directories and ports
# (lib_tofa_cluster.sh's offset per release; release_cluster.sh 1000 ports
# apart), and their clusters mostly wait on jobs that sleep. Each release's
# output is printed whole when it is done.
declare -A release_port_step=([24.11]=0 [26.05]=1000)
pids=()
for rel in "${releases[@]}"; do
    rm -f "$LOGS/counts-$rel"
    run_release "$rel" >"$LOGS/release-$rel.out" 2>&1 &
    pids+=($!)
done
wait "${pids[@]}"
passed=0 failed=0 skipped=0
summary=()
for rel in "${releases[@]}"; do
    cat "$LOGS/release-$rel.out"
    read -r p f s <"$LOGS/counts-$rel" 2>/dev/null || { p=0 f=1 s=0; echo "FAIL: Slurm $rel: no counts"; }
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    mapfile -t -O "${#summary[@]}" summary <"$LOGS/summary-$rel"
done
echo "==== summary (logs in $LOGS)"
printf '%s\n' "${summary[@]}"
echo "$skipped checks skipped (not applicable to the release; see the 'skip:' lines)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
