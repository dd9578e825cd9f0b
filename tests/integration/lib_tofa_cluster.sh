# shellcheck shell=bash
# Shared setup of the integration tests that run the tofa plugins on a native
# mini-cluster (scripts/minicluster.sh: munged, slurmctld, 8 slurmd on
# loopback). Sourced, not executed. The same configuration as
# tofa_cluster.sh: t1..t8 on a 2x2x2 torus, 1 CPU per node, the service on
# PORT_BASE + 50, heartbeat responders on the slurmd port + 100.
#
# Before sourcing, a test may set
#   TOFA_LIB_DEFAULT_DIR        default of TOFA_CLUSTER_DIR
#   TOFA_LIB_DEFAULT_PORT_BASE  default of TOFA_CLUSTER_PORT_BASE
#   TOFA_LIB_EXTRA_CONF         more tofa.conf lines
#   TOFA_LIB_NODES, TOFA_LIB_DIMS, TOFA_LIB_CPUS
#                               node count (8), torus (2x2x2) and CPUs per
#                               node (1), in slurm.conf and tofa.conf alike
#   TOFA_LIB_MAP_WORKER         tofa.conf MapWorker (default: the build's)
#   TOFA_LIB_CONTROLLER_CPUS, TOFA_LIB_NODE_CPUS
#                               host CPUs of munged + slurmctld and of the
#                               slurmd (minicluster.sh --controller-cpus ...)
# It then calls, in this order:
#   tofa_lib_require_root_and_plugins   (exit 77 when not possible)
#   tofa_lib_write_config               (tofa.conf, conf-extra, plugstack, graphs)
#   cluster_up                          (returns non-zero on failure), or
#   tofa_lib_start                      (cluster_up, or FAIL and exit; SLURM_CONF exported)
# and uses pass/fail/note/skip_check/at_exit (tests/lib/checks.sh), matrix, hops,
# layout, check_pairs, wait_until, all_idle, query, outage, and ends with
# checks_done. The EXIT trap stops the cluster and prints "N passed, N failed"
# (", N skipped" when skip_check was called); a test that exits before
# checks_done counts as failed.
# Environment: TOFA_PLUGIN_DIR, TOFA_LIB_DIR, TOFA_QUERY, TOFA_CLUSTER_DIR,
# TOFA_CLUSTER_PORT_BASE, TOFA_KEEP_CLUSTER=1 (see tofa_cluster.sh), and
#   TOFA_SLURM_RELEASE=24.11|26.05
#                     run on that Slurm release instead of Debian 12's 22.05
#                     (unset or 22.05: 22.05, everything as before): Slurm from
#                     scripts/slurm-release.sh RELEASE (or TOFA_SLURM_PREFIX)
#                     first in PATH, the plugins, libtofa, tofa-map-worker from
#                     scripts/build-slurm-release.sh RELEASE (or TOFA_PLUGIN_DIR
#                     = its plugins/.libs); slurm.conf as release_cluster.sh's
#                     (PluginDir=<tofa's>:<Slurm's>, topology/tofa chooses TOFA
#                     jobs' nodes and runs the service, Slurm's own
#                     select/cons_tres, no SlurmctldPlugstack); default working
#                     directory <default>-RELEASE, default port base + 3000
#                     (24.11) or + 3200 (26.05), clear of the 22.05 tests'
#                     17000-19108.
# Release-dependent values for the tests: TOFA_RELEASE ("" on 22.05),
# SLURM_PREFIX, RANKING_FUNC, tofa_chose_pattern JOBID, RELEASE_DESC.

LIB_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRCDIR=${top_srcdir:-$LIB_HERE/../..}
BUILDDIR=${top_builddir:-$SRCDIR}
MINICLUSTER=$SRCDIR/scripts/minicluster.sh
PLUGIN_DIR=${TOFA_PLUGIN_DIR:-$BUILDDIR/plugins/.libs}
# The select shim (select_cons_tres.so): first on PluginDir switches TOFA
# node choice on (installed: PLUGIN_DIR/select).
if [ -n "${TOFA_PLUGIN_DIR:-}" ]; then
    SELECT_PLUGIN_DIR=$TOFA_PLUGIN_DIR/select
else
    SELECT_PLUGIN_DIR=$BUILDDIR/plugins/select/.libs
fi
LIB_DIR=${TOFA_LIB_DIR:-$BUILDDIR/common/.libs}
# The Slurm release: "" = Debian 12's 22.05 (the default build), else 24.11 or
# 26.05 built from source (tofa_lib_release_setup fills in the rest).
TOFA_RELEASE=${TOFA_SLURM_RELEASE:-}
case $TOFA_RELEASE in
    ''|22.05) TOFA_RELEASE= ; release_port_offset=0 ;;
    24.11) release_port_offset=3000 ;;
    26.05) release_port_offset=3200 ;;
    *) echo "TOFA_SLURM_RELEASE: 24.11, 26.05 or unset (22.05), not '$TOFA_RELEASE'" >&2; exit 2 ;;
esac
SLURM_PREFIX=
RELEASE_BUILDDIR=
if [ -z "$TOFA_RELEASE" ]; then
    RANKING_FUNC=topo_generate_node_ranking
    RELEASE_DESC="Slurm 22.05 (Debian 12)"
    DIR=${TOFA_CLUSTER_DIR:-${TOFA_LIB_DEFAULT_DIR:-/tmp/tofa-plugins-cluster}}
    PORT_BASE=${TOFA_CLUSTER_PORT_BASE:-${TOFA_LIB_DEFAULT_PORT_BASE:-17400}}
else
    RANKING_FUNC=topology_p_generate_node_ranking
    RELEASE_DESC="Slurm $TOFA_RELEASE"
    DIR=${TOFA_CLUSTER_DIR:-${TOFA_LIB_DEFAULT_DIR:-/tmp/tofa-plugins-cluster}-$TOFA_RELEASE}
    PORT_BASE=${TOFA_CLUSTER_PORT_BASE:-$(( ${TOFA_LIB_DEFAULT_PORT_BASE:-17400} + release_port_offset ))}
fi
SERVICE_PORT=$((PORT_BASE + 50))
NODES=${TOFA_LIB_NODES:-8}
DIMS=${TOFA_LIB_DIMS:-2x2x2}
CPUS=${TOFA_LIB_CPUS:-1}
CORES=$CPUS
TMO=60   # seconds any single srun/sbatch wait may take
CONF_DIR=$DIR/etc
TOFA_CONF=$CONF_DIR/tofa.conf
MUNGE_SOCKET=$DIR/munge/munge.socket.2
DATA=$DIR/data

# shellcheck source=../lib/checks.sh
. "$LIB_HERE/../lib/checks.sh"
# shellcheck source=../../scripts/lib/tofa_conf.sh
. "$SRCDIR/scripts/lib/tofa_conf.sh"
started=no
note() { echo "  $*"; }

stop_cluster() {
    if [ $started = yes ] && [ "${TOFA_KEEP_CLUSTER:-0}" != 1 ]; then
        "$MINICLUSTER" down --dir "$DIR" >/dev/null 2>&1 || echo "warning: minicluster down failed" >&2
    fi
}
at_exit stop_cluster

# The slurmctld log line of TOFA's node choice for job $1 (a grep pattern):
# the 22.05 select shim's, or topology/tofa's eval_nodes (24.11, 26.05).
tofa_chose_pattern() {
    if [ -z "$TOFA_RELEASE" ]; then
        echo "select/cons_tres+tofa: _tofa_job_test: job $1: TOFA chose its"
    else
        echo "topology/tofa: _tofa_choose: JobId=$1: TOFA chose its"
    fi
}

# The slurmctld log line of a TOFA job whose nodes Slurm chose, with the
# reason (a grep -E pattern; the reason is what precedes "; ... chose").
tofa_fallback_pattern() {
    if [ -z "$TOFA_RELEASE" ]; then
        echo "select/cons_tres\+tofa: _tofa_job_test: job $1: .*; cons_tres chose its nodes"
    else
        echo "topology/tofa: [a-z_]*: JobId=$1: .*; Slurm chose its nodes"
    fi
}

# 24.11/26.05: Slurm (first in PATH) and the plugin build of that release
# (both cached; the first build takes 20-40 minutes).
tofa_lib_release_setup() {
    local plugins
    SLURM_PREFIX=${TOFA_SLURM_PREFIX:-}
    if [ -z "$SLURM_PREFIX" ]; then
        SLURM_PREFIX=$(bash "$SRCDIR/scripts/slurm-release.sh" "$TOFA_RELEASE" | tail -n 1) \
            || skip "scripts/slurm-release.sh $TOFA_RELEASE failed"
    fi
    [ -x "$SLURM_PREFIX/sbin/slurmctld" ] || skip "no slurmctld in $SLURM_PREFIX"
    if [ -n "${TOFA_PLUGIN_DIR:-}" ]; then
        plugins=$(dirname "$(realpath "$TOFA_PLUGIN_DIR")")
    else
        plugins=$(bash "$SRCDIR/scripts/build-slurm-release.sh" "$TOFA_RELEASE" | tail -n 1) \
            || skip "scripts/build-slurm-release.sh $TOFA_RELEASE failed"
    fi
    PLUGIN_DIR=$plugins/.libs
    # The release build's libtofa and tofa-map-worker (the same sources).
    RELEASE_BUILDDIR=$(dirname "$plugins")
    LIB_DIR=${TOFA_LIB_DIR:-$RELEASE_BUILDDIR/common/.libs}
    RELEASE_DESC="Slurm $("$SLURM_PREFIX/sbin/slurmctld" -V | awk '{ print $2 }') ($SLURM_PREFIX)"
    export PATH=$SLURM_PREFIX/bin:$SLURM_PREFIX/sbin:$PATH
}

tofa_lib_require_root_and_plugins() {
    local p q
    [ "$(id -u)" -eq 0 ] || skip "needs root (starts munged, slurmctld, slurmd)"
    if [ -n "$TOFA_RELEASE" ]; then
        tofa_lib_release_setup
        # Neither the select shim nor slurmctld/tofa exists on 24.11/26.05.
        for p in "$PLUGIN_DIR"/{topology_tofa,cli_filter_tofa,tofa_loadmatrix,tofa_nodestate}.so \
                 "$RELEASE_BUILDDIR/tools/.libs/tofa-map-worker"; do
            [ -f "$p" ] || skip "$p not built (scripts/build-slurm-release.sh $TOFA_RELEASE)"
        done
    else
        for p in "$PLUGIN_DIR"/{topology_tofa,slurmctld_tofa,cli_filter_tofa,tofa_loadmatrix,tofa_nodestate}.so \
                 "$SELECT_PLUGIN_DIR/select_cons_tres.so"; do
            [ -f "$p" ] || skip "$p not built (configure found no Slurm source tree?)"
        done
    fi
    QUERY=${TOFA_QUERY:-}
    # tofa_query is a client of libtofa alone: the checkout's build serves
    # every release (with the release build's libtofa, LD_LIBRARY_PATH below).
    for q in "$BUILDDIR/tests/integration/tofa_query" "$PLUGIN_DIR/tofa_query" \
             ${RELEASE_BUILDDIR:+"$RELEASE_BUILDDIR/tests/integration/tofa_query"}; do
        [ -n "$QUERY" ] || { [ -x "$q" ] && QUERY=$q; }
    done
    [ -x "$QUERY" ] || skip "tofa_query helper not built"
    # libtool's wrapper script costs 90 ms a call; the binary itself finds
    # libtofa through LD_LIBRARY_PATH below.
    q=$(dirname "$QUERY")/.libs/$(basename "$QUERY")
    [ -x "$q" ] && [ -d "$LIB_DIR" ] && QUERY=$q
    PLUGIN_DIR=$(realpath "$PLUGIN_DIR")
    [ -n "$TOFA_RELEASE" ] || SELECT_PLUGIN_DIR=$(realpath "$SELECT_PLUGIN_DIR")
    if [ -d "$LIB_DIR" ]; then
        LIB_DIR=$(realpath "$LIB_DIR")
        export LD_LIBRARY_PATH=$LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fi
}

# conf-extra of the tofa plugins, and which select/cons_tres cluster_up puts
# on PluginDir: "tofa" (the shim first: TOFA node choice) or "plain"
# (Slurm's own). On 24.11/26.05 TOFA node choice is topology/tofa's, so
# "tofa" is TopologyPlugin=topology/tofa and "plain" Slurm's own topology
# plugin (topology/default on 24.11, topology/flat on 26.05: the generic
# choice topology/tofa makes for jobs without a graph, on the node table in
# name order, not in the torus snake order); Slurm's select/cons_tres in both.
tofa_select_conf() {
    if [ -n "$TOFA_RELEASE" ]; then
        local topology=topology/tofa
        case $1 in
            tofa) ;;
            plain) if [ "$TOFA_RELEASE" = 24.11 ]; then topology=topology/default; else topology=topology/flat; fi ;;
            *) echo "tofa_select_conf: tofa or plain, not '$1'" >&2; return 1 ;;
        esac
        CLUSTER_PLUGIN_DIRS=()   # PluginDir below replaces minicluster.sh's
        cat > "$DATA/conf-extra" <<CONF
PluginDir=$PLUGIN_DIR:$SLURM_PREFIX/lib/slurm
TopologyPlugin=$topology
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
CliFilterPlugins=tofa
CONF
        return
    fi
    case $1 in
        tofa) CLUSTER_PLUGIN_DIRS=(--plugin-dir "$SELECT_PLUGIN_DIR" --plugin-dir "$PLUGIN_DIR") ;;
        plain) CLUSTER_PLUGIN_DIRS=(--plugin-dir "$PLUGIN_DIR") ;;
        *) echo "tofa_select_conf: tofa or plain, not '$1'" >&2; return 1 ;;
    esac
    tofa_slurm_conf_write "$DATA/conf-extra"
}

matrix() {   # matrix N "i j w" ... -> symmetric N x N matrix on stdout
    local n=$1; shift
    python3 - "$n" "$@" <<'PY'
import sys
n = int(sys.argv[1]); m = [[0] * n for _ in range(n)]
for edge in sys.argv[2:]:
    i, j, w = edge.split(); m[int(i)][int(j)] = m[int(j)][int(i)] = int(w)
print(n)
for row in m: print(" ".join(map(str, row)))
PY
}

# t1..t8 on a 2x2x2 torus, first dimension fastest: t(k) has id k-1 and
# coordinates (bit0, bit1, bit2) of k-1; hops = number of differing bits.
# Graphs: pairs8 has heavy pairs (0,1) (2,3) (4,5) (6,7) and light links
# between them, so every optimal placement puts each heavy pair on
# neighbouring nodes; pairs4 is the same with 4 tasks.
tofa_lib_write_config() {
    rm -rf "$DATA"   # outputs of an earlier run must not count in this one
    mkdir -p "$CONF_DIR" "$DATA"
    chmod 0755 "$DIR" "$DATA"
    tofa_conf_write "$TOFA_CONF" "$DIMS" "$CORES" "$NODES" "$SERVICE_PORT" \
        "${TOFA_LIB_MAP_WORKER:-${RELEASE_BUILDDIR:-$BUILDDIR}/tools/.libs/tofa-map-worker}" \
        MaxGraphTasks=64 "${TOFA_LIB_EXTRA_CONF:-}"
    tofa_select_conf tofa
    tofa_plugstack_write "$DATA/plugstack.conf" "$PLUGIN_DIR"
    matrix 8 "0 1 100000" "2 3 100000" "4 5 100000" "6 7 100000" \
             "1 2 10" "3 4 10" "5 6 10" "7 0 10" > "$DATA/pairs8.mat"
    matrix 4 "0 1 100000" "2 3 100000" "1 2 10" > "$DATA/pairs4.mat"
    chmod 0644 "$DATA"/*
}

query() { "$QUERY" "$TOFA_CONF" 127.0.0.1 "$MUNGE_SOCKET" "$1"; }

hops() {   # hops tA tB on the 2x2x2 torus
    local a=$((${1#t} - 1)) b=$((${2#t} - 1)) x c=0
    x=$((a ^ b))
    while [ $x -gt 0 ]; do c=$((c + (x & 1))); x=$((x >> 1)); done
    echo $c
}

# Prints "task node" lines, sorted by task, from srun -l output.
layout() { sed -n 's/^ *\([0-9][0-9]*\): *\(t[0-9]*\)$/\1 \2/p' | sort -n; }

# Heavy pairs (2k, 2k+1) of a layout 1 hop apart, no node with two tasks
# (CoresPerNode=1); prints a reason and fails otherwise.
check_pairs() {
    local lay=$1 tasks=$2 k a b nodes
    nodes=$(awk '{ print $2 }' <<<"$lay")
    if [ "$(wc -l <<<"$nodes")" -ne "$tasks" ] || [ "$(sort -u <<<"$nodes" | wc -l)" -ne "$tasks" ]; then
        echo "expected $tasks tasks on $tasks distinct nodes"
        return 1
    fi
    for ((k = 0; k < tasks; k += 2)); do
        a=$(awk -v t=$k '$1 == t { print $2 }' <<<"$lay")
        b=$(awk -v t=$((k + 1)) '$1 == t { print $2 }' <<<"$lay")
        if [ "$(hops "$a" "$b")" -ne 1 ]; then
            echo "tasks $k and $((k + 1)) on $a and $b ($(hops "$a" "$b") hops, optimum 1)"
            return 1
        fi
    done
}

wait_until() {   # wait_until SECONDS CMD...
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@"; do [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 0.2; done
}

# Every node idle, and the service knows it: slurmctld tells it which jobs
# run every 3 s, and a placement meanwhile sees the links of the jobs it
# still counts (InterferenceWeight), so one job's layout may differ from the
# next's. A service that does not answer counts no links.
all_idle() {
    [ "$(sinfo -h -N -o %T | grep -c '^idle$')" -eq "$NODES" ] &&
        ! query "LINKS top=1" 2>/dev/null | grep -q '^link '
}

all_answered() {   # every responder answered at least one heartbeat
    local reply
    reply=$(query NODES 2>/dev/null) || return 1
    [ "$(grep -c 'answered=[1-9]' <<<"$reply")" -ge "$NODES" ]
}
all_fault_free() { [ "$(query NODES 2>/dev/null | grep -c ' p=0 ')" -eq "$NODES" ]; }

cluster_up() {
    "$MINICLUSTER" up --dir "$DIR" --nodes "$NODES" --cpus "$CPUS" --port-base "$PORT_BASE" --timeout 60 \
        "${CLUSTER_PLUGIN_DIRS[@]}" --conf-extra "$DATA/conf-extra" \
        --plugstack "$DATA/plugstack.conf" \
        ${TOFA_LIB_CONTROLLER_CPUS:+--controller-cpus "$TOFA_LIB_CONTROLLER_CPUS"} \
        ${TOFA_LIB_NODE_CPUS:+--node-cpus "$TOFA_LIB_NODE_CPUS"} >/dev/null
}

# slurm.conf (and plugstack.conf) as cluster_up writes them, nothing started.
cluster_conf() {
    "$MINICLUSTER" conf --dir "$DIR" --nodes "$NODES" --cpus "$CPUS" --port-base "$PORT_BASE" \
        "${CLUSTER_PLUGIN_DIRS[@]}" --conf-extra "$DATA/conf-extra" \
        --plugstack "$DATA/plugstack.conf" >/dev/null
}

tofa_lib_start() {
    if ! cluster_up; then
        fail "minicluster up with the tofa plugins"
        tail -n 20 "$DIR/log/slurmctld.log" 2>/dev/null
        exit 1
    fi
    started=yes
    export SLURM_CONF=$DIR/etc/slurm.conf
}

# A node's outage probability from the service's NODES reply ("" if absent).
outage() {
    query NODES 2>/dev/null |
        awk -v n="name=$1" '$2 == n { for (i = 3; i <= NF; i++) if ($i ~ /^p=/) { sub(/^p=/, "", $i); print $i } }'
}
