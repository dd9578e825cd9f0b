#!/bin/bash
# The real tofa plugin objects (slurmctld_tofa.so, tofa_nodestate.so,
# tofa_loadmatrix.so) under tofa-harness's Slurm host
# (plugins/harness/tofa_harness_host.so), with a private munged and no Slurm
# daemon: see tests/harness/plugin_host_driver.c for the checks.
# Needs root (munged as the munge user, SlurmUser=root); exit 77 (skip) when
# not root, or the plugins or munged are not there.
# Environment: TOFA_PLUGIN_DIR (default $top_builddir/plugins/.libs),
# TOFA_HARNESS_HOST (default $top_builddir/plugins/harness/.libs/tofa_harness_host.so),
# TOFA_MAP_WORKER (default $top_builddir/tools/tofa-map-worker: MapWorker=),
# TOFA_KEEP_WORKDIR=1 keeps the work directory (logs) at the end.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
PLUGIN_DIR=${TOFA_PLUGIN_DIR:-$top_builddir/plugins/.libs}
HOST=${TOFA_HARNESS_HOST:-$top_builddir/plugins/harness/.libs/tofa_harness_host.so}
DRIVER=$top_builddir/tests/harness/plugin_host_driver
MUNGED_SCRIPT=$top_srcdir/tools/harness/start-munged.sh

# shellcheck source=../lib/checks.sh
. "$top_srcdir/tests/lib/checks.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (private munged, SlurmUser=root)"
for f in "$PLUGIN_DIR"/slurmctld_tofa.so "$PLUGIN_DIR"/tofa_nodestate.so \
         "$PLUGIN_DIR"/tofa_loadmatrix.so "$HOST"; do
    [ -f "$f" ] || skip "$f is not built"
done
[ -x "$DRIVER" ] || skip "$DRIVER is not built (make check builds it)"
[ -x /usr/sbin/munged ] || skip "munged is not installed"

WORK=$(mktemp -d /tmp/tofa-harness-host.XXXXXX) || exit 1
chmod 0755 "$WORK"   # munged runs as the munge user below it

# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    local pid
    if [ -f "$WORK/children.pid" ]; then
        while read -r pid; do
            [[ $pid =~ ^[0-9]+$ ]] && kill -9 "$pid" 2>/dev/null
        done < "$WORK/children.pid"
    fi
    if [ -f "$WORK/munge/munged.pid" ]; then
        pid=$(cat "$WORK/munge/munged.pid")
        if [[ $pid =~ ^[0-9]+$ ]] && kill "$pid" 2>/dev/null; then
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null
        fi
    fi
    if [ "${TOFA_KEEP_WORKDIR:-0}" = 1 ] || [ "${status:-1}" -ne 0 ]; then
        echo "# work directory kept: $WORK"
    else
        rm -rf "$WORK"
    fi
}
at_exit cleanup

MAP_WORKER=${TOFA_MAP_WORKER:-$top_builddir/tools/tofa-map-worker}
extra=()
[ -x "$MAP_WORKER" ] && extra=(--map-worker "$MAP_WORKER")
"$DRIVER" --host "$HOST" --plugins "$PLUGIN_DIR" --munged "$MUNGED_SCRIPT" --dir "$WORK" "${extra[@]}" \
    | tee "$WORK/driver.out"
status=${PIPESTATUS[0]}
count_lines "$WORK/driver.out"
[ "$status" -eq 0 ] || grep -q '^not ok - ' "$WORK/driver.out" || fail "plugin_host_driver exited with status $status"
if [ "$status" -ne 0 ]; then
    for f in "$WORK"/log/*.log; do
        [ -f "$f" ] || continue
        echo "# --- last lines of $f"
        tail -n 20 "$f" | sed 's/^/# /'
    done
fi
checks_done
