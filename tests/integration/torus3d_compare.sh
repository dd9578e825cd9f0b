#!/bin/bash
# Issue 14, item 3: Slurm 26.05's topology/torus3d and tofa side by side.
#
# One 26.05 cluster of 32 slurmd (t1..t32 on a 4x4x2 torus, 2 CPUs each,
# first dimension fastest) runs the job stream of torus3d/stream.txt twice:
# first with topology.yaml = torus3d (the shapes of topology.yaml(5)'s
# example, 2x2x1, 2x2x2, 4x4x2), then with TopologyPlugin=topology/tofa (as
# release_cluster.sh), same node names, same torus. Node t6 is failing
# (outage probability 0.02: tofactl set-outage for tofa; torus3d does not
# know). Every job records the nodes and the task -> node layout Slurm gave
# (srun -l printenv SLURMD_NODENAME in the batch job); torus3d/analyze.py
# then computes hop-bytes and P(abort) of every layout on the same torus with
# the same outage vector with tofa-map --evaluate, checks them, and writes
# out/torus3d-compare.json and docs/torus3d-compare.md.
#
#   bash tests/integration/torus3d_compare.sh [--keep] [--no-doc]
#
# --keep leaves the tofa cluster running (scripts/minicluster.sh down --dir
# DIR/tofa stops it); --no-doc leaves docs/torus3d-compare.md alone.
# Environment: TOFA_T3C_DIR (default /tmp/tofa-torus3d-compare),
# TOFA_T3C_PORT_BASE (default 19600: slurmctld 19600, slurmd 19601-19632,
# service 19690, heartbeat responders 19701-19732), TOFA_MAP (default the
# checkout's tools/tofa-map, which must be built).
# Slurm and the plugins come from scripts/slurm-release.sh 26.05 and
# scripts/build-slurm-release.sh 26.05 (cached); nothing else is built.
set -uo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
HELPERS=$SCRIPT_DIR/torus3d
KEEP=no WRITE_DOC=yes
for arg in "$@"; do
    case "$arg" in
        --keep) KEEP=yes ;;
        --no-doc) WRITE_DOC=no ;;
        -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "torus3d_compare.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

VERSION=26.05
BASE=${TOFA_T3C_DIR:-/tmp/tofa-torus3d-compare}
PORT_BASE=${TOFA_T3C_PORT_BASE:-19600}
SERVICE_PORT=$((PORT_BASE + 90))
HB_OFFSET=100
DIMS=4x4x2
NODES=32
CPUS=2
FAILING=t6
FAILING_P=0.02
SHAPES="2x2x1 2x2x2 4x4x2"
PENDING_TIMEOUT=${TOFA_T3C_PENDING_TIMEOUT:-20}
STREAM=$HELPERS/stream.txt
TOFA_MAP=${TOFA_MAP:-$SRC_ROOT/tools/tofa-map}

started=$(date +%s)
CHECKS=${TOFA_T3C_DIR:-/tmp/tofa-torus3d-compare}/cluster-checks.txt
mkdir -p "$(dirname "$CHECKS")" && : > "$CHECKS"
# shellcheck source=../lib/checks.sh
. "$SRC_ROOT/tests/lib/checks.sh"
ok() { pass "$*"; echo "ok: $*" >> "$CHECKS"; }
fail_check() { fail "$*"; echo "FAIL: $*" >> "$CHECKS"; }
note() { echo "torus3d_compare: $*" >&2; }

[ "$(id -u)" -eq 0 ] || { echo "torus3d_compare.sh: must run as root" >&2; exit 1; }
[ -x "$TOFA_MAP" ] || { echo "torus3d_compare.sh: no $TOFA_MAP (build the checkout: make tools/tofa-map, or set TOFA_MAP)" >&2; exit 1; }

PREFIX=$(bash "$SRC_ROOT/scripts/slurm-release.sh" "$VERSION" | tail -n 1)
PLUGINS=$(bash "$SRC_ROOT/scripts/build-slurm-release.sh" "$VERSION" | tail -n 1)
build_seconds=$(( $(date +%s) - started ))
BUILDDIR=$(dirname "$PLUGINS")
if [ ! -x "$PREFIX/sbin/slurmctld" ] || [ ! -f "$PLUGINS/.libs/tofa_loadmatrix.so" ]; then
    echo "torus3d_compare.sh: Slurm $VERSION or its tofa plugins missing" >&2; exit 1
fi
[ -f "$PREFIX/lib/slurm/topology_torus3d.so" ] ||
    { echo "torus3d_compare.sh: $PREFIX has no topology_torus3d.so" >&2; exit 1; }
export PATH=$PREFIX/bin:$PREFIX/sbin:$PATH
export LD_LIBRARY_PATH=$BUILDDIR/common/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
MINICLUSTER=$SRC_ROOT/scripts/minicluster.sh
TOFACTL=$BUILDDIR/tools/tofactl

# The graphs of the stream, shared by both configurations.
GRAPHS=$BASE/graphs
mkdir -p "$BASE"
chmod 0755 "$BASE"
# shellcheck disable=SC2046 # one name per word
python3 "$HELPERS/graphs.py" "$GRAPHS" $(awk '$1 == "job" { print $5 }' "$STREAM" | sort -u) ||
    { echo "torus3d_compare.sh: graphs.py failed" >&2; exit 1; }
chmod 0755 "$GRAPHS"
chmod 0644 "$GRAPHS"/*.mat

CURRENT_DIR=
cleanup() {
    if [ -n "$CURRENT_DIR" ] && { [ "$KEEP" = no ] || [ "$CURRENT_DIR" != "$BASE/tofa" ]; }; then
        "$MINICLUSTER" down --dir "$CURRENT_DIR" >/dev/null 2>&1 || true
    fi
}
at_exit cleanup
for c in torus3d tofa; do   # a cluster left by an earlier --keep run
    [ -f "$BASE/$c/run/slurmctld.pid" ] && "$MINICLUSTER" down --dir "$BASE/$c" >/dev/null 2>&1
done

# --- configuration -----------------------------------------------------------
write_config() {   # write_config torus3d|tofa
    local config=$1 dir=$BASE/$1
    mkdir -p "$dir/etc" "$dir/data"
    chmod 0755 "$dir" "$dir/data"
    rm -f "$dir/etc/topology.yaml" "$dir/etc/tofa.conf" "$dir/data/plugstack.conf"
    if [ "$config" = torus3d ]; then
        cat > "$dir/data/conf-extra" <<CONF
PluginDir=$PREFIX/lib/slurm
TopologyPlugin=topology/torus3d
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldDebug=debug
CONF
        {
            echo "---"
            echo "- topology: torus"
            echo "  cluster_default: true"
            echo "  torus3d:"
            echo "    toruses:"
            echo "      - name: pod1"
            echo "        dims: {x: ${DIMS%%x*}, y: $(cut -dx -f2 <<<"$DIMS"), z: ${DIMS##*x}}"
            echo "        nodes: t[1-$NODES]"
            echo "        placements:"
            local s
            for s in $SHAPES; do
                echo "          - dims: {x: ${s%%x*}, y: $(cut -dx -f2 <<<"$s"), z: ${s##*x}}"
            done
        } > "$dir/etc/topology.yaml"
        chmod 0644 "$dir/etc/topology.yaml"
    else
        cat > "$dir/data/conf-extra" <<CONF
PluginDir=$PLUGINS/.libs:$PREFIX/lib/slurm
TopologyPlugin=topology/tofa
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
CliFilterPlugins=tofa
CONF
        cat > "$dir/data/plugstack.conf" <<CONF
required $PLUGINS/.libs/tofa_loadmatrix.so
optional $PLUGINS/.libs/tofa_nodestate.so
CONF
        cat > "$dir/etc/tofa.conf" <<CONF
Dims=$DIMS Wrap=yes CoresPerNode=$CPUS
NodeName=t[1-$NODES]
ServicePort=$SERVICE_PORT
HeartbeatInterval=5
HeartbeatTimeout=2
HeartbeatPortOffset=$HB_OFFSET
MapWorker=$BUILDDIR/tools/.libs/tofa-map-worker
CONF
        chmod 0644 "$dir/etc/tofa.conf" "$dir/data/plugstack.conf"
    fi
    chmod 0644 "$dir/data/conf-extra"
    # The torus for tofa-map --evaluate (the same for both configurations).
    cat > "$BASE/torus.conf" <<CONF
Dims=$DIMS Wrap=yes CoresPerNode=$CPUS
NodeName=t[1-$NODES]
CONF
    echo "$FAILING $FAILING_P" > "$BASE/faults.txt"
    # The batch job: its layout, then (hold) keep the nodes until released.
    cat > "$dir/data/job.sh" <<'JOB'
#!/bin/bash
# job.sh DATA NAME HOLD
d=$1/jobs
srun -l printenv SLURMD_NODENAME > "$d/$2.layout.tmp" 2> "$d/$2.srun.err"
echo $? > "$d/$2.srun.rc"
mv "$d/$2.layout.tmp" "$d/$2.layout"
if [ "$3" = hold ]; then
    while [ ! -e "$1/release/$2" ] && [ ! -e "$1/release/all" ]; do sleep 1; done
fi
JOB
    chmod 0755 "$dir/data/job.sh"
}

up() {   # up torus3d|tofa
    local config=$1 dir=$BASE/$1 extra=()
    [ "$config" = tofa ] && extra=(--plugstack "$dir/data/plugstack.conf")
    CURRENT_DIR=$dir
    local t0 rc=0
    t0=$(date +%s%N)
    "$MINICLUSTER" up --dir "$dir" --nodes "$NODES" --cpus "$CPUS" --port-base "$PORT_BASE" \
        --timeout 120 --conf-extra "$dir/data/conf-extra" "${extra[@]}" > "$dir/data/up.out" 2>&1 || rc=$?
    echo $(( ($(date +%s%N) - t0) / 1000000 )) > "$dir/data/up-ms"
    export SLURM_CONF=$dir/etc/slurm.conf
    return $rc
}

down() {
    [ -n "$CURRENT_DIR" ] || return 0
    "$MINICLUSTER" down --dir "$CURRENT_DIR" >/dev/null 2>&1 || true
    CURRENT_DIR=
}

tofactl() {
    "$TOFACTL" --conf "$BASE/tofa/etc/tofa.conf" --host "127.0.0.1:$SERVICE_PORT" \
        --munge-socket "$BASE/tofa/munge/munge.socket.2" "$@"
}

# --- the stream -------------------------------------------------------------
wait_until() {   # wait_until SECONDS CMD...
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@"; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.5
    done
}
job_state() { squeue -h -j "$1" -o %T 2>/dev/null | head -n 1; }
job_gone() { [ -z "$(job_state "$1")" ]; }
no_jobs() { [ -z "$(squeue -h -o %i 2>/dev/null)" ]; }
nodes_settled() { ! sinfo -h -N -o %T | grep -qiE 'comp|alloc|mix'; }
only_held_busy() { ! sinfo -h -N -o %T | grep -qi 'comp'; }

run_stream() {   # run_stream torus3d|tofa
    local config=$1 dir=$BASE/$1
    local data=$dir/data jobs=$dir/data/jobs
    rm -rf "$jobs" "$data/release"
    mkdir -p "$jobs" "$data/release"
    chmod 0755 "$jobs" "$data/release"
    local kind name n t graph hold jid rc state deadline
    declare -A jid_of=()
    while read -r kind name n t graph hold; do
        case "$kind" in
            ''|'#'*) continue ;;
            release)
                touch "$data/release/$name"
                if [ "$name" = all ]; then
                    wait_until 60 no_jobs || note "$config: jobs still listed after release all"
                    wait_until 60 nodes_settled || note "$config: nodes not idle after release all"
                else
                    [ -n "${jid_of[$name]:-}" ] && { wait_until 60 job_gone "${jid_of[$name]}" || note "$config: $name still listed after release"; }
                    wait_until 60 only_held_busy || note "$config: nodes still completing after release $name"
                fi
                echo "release $name" >> "$jobs/events"
                continue ;;
            job) ;;
            *) note "stream.txt: unknown line '$kind'"; continue ;;
        esac
        sinfo -h -N -o '%N %T' > "$jobs/$name.before"
        local args=(--parsable -J "$name" -N "$n" -n "$t" --exclusive -t 20 -o "$jobs/$name.out")
        [ "$config" = tofa ] && args+=(--tofa-matrix="$GRAPHS/$graph.mat")
        rc=0
        jid=$(cd "$data" && sbatch "${args[@]}" "$data/job.sh" "$data" "$name" "$hold" 2> "$jobs/$name.sbatch.err") || rc=$?
        echo "$rc" > "$jobs/$name.sbatch.rc"
        echo "job $name ${jid:-none} rc=$rc" >> "$jobs/events"
        if [ "$rc" -ne 0 ] || [ -z "$jid" ]; then
            note "$config: $name (-N $n -n $t) refused: $(tr '\n' ' ' < "$jobs/$name.sbatch.err")"
            continue
        fi
        jid=${jid%%;*}
        jid_of[$name]=$jid
        echo "$jid" > "$jobs/$name.jobid"
        # Placed (running, layout written), or still pending after the timeout.
        deadline=$(( $(date +%s) + PENDING_TIMEOUT ))
        while :; do
            [ -e "$jobs/$name.layout" ] && break
            state=$(job_state "$jid")
            if [ "$state" = PENDING ] && [ "$(date +%s)" -ge "$deadline" ]; then
                squeue -h -j "$jid" -o '%T %r' > "$jobs/$name.pending"
                grep -E "JobId=$jid |JobId=$jid\b" "$dir/log/slurmctld.log" | tail -n 5 >> "$jobs/$name.pending"
                note "$config: $name (-N $n -n $t) still pending after ${PENDING_TIMEOUT}s: $(head -n 1 "$jobs/$name.pending"); cancelled"
                scancel "$jid"
                wait_until 30 job_gone "$jid"
                break
            fi
            if { [ -z "$state" ] && [ ! -e "$jobs/$name.layout" ]; } || [ "$(date +%s)" -ge $((deadline + 90)) ]; then
                note "$config: $name: job $jid ended or hung without a layout (state '$state')"
                scontrol show job "$jid" > "$jobs/$name.lost" 2>&1
                break
            fi
            sleep 0.5
        done
        [ -e "$jobs/$name.layout" ] || continue
        scontrol show job "$jid" > "$jobs/$name.scontrol" 2>&1
        scontrol show hostnames "$(sed -n 's/^ *NodeList=\([^ ]*\).*/\1/p' "$jobs/$name.scontrol" | head -n 1)" \
            > "$jobs/$name.nodes" 2>/dev/null
        [ "$config" = tofa ] && tofactl job "$jid" > "$jobs/$name.tofactl" 2>&1
        note "$config: $name (-N $n -n $t) job $jid on $(tr '\n' ' ' < "$jobs/$name.nodes")"
        if [ "$hold" != hold ]; then
            wait_until 60 job_gone "$jid" || note "$config: $name still listed"
            wait_until 60 only_held_busy || note "$config: nodes still completing after $name"
        fi
    done < "$STREAM"
    touch "$data/release/all"
    wait_until 60 no_jobs || true
}

# --- torus3d ----------------------------------------------------------------
echo "Slurm $(slurmctld -V) from $PREFIX; tofa plugins from $PLUGINS; tofa-map $TOFA_MAP"
write_config torus3d
write_config tofa
if up torus3d; then
    ok "torus3d configuration: munged + slurmctld + $NODES slurmd up in $(cat "$BASE/torus3d/data/up-ms") ms"
    if grep -q "topology/torus3d: init" "$BASE/torus3d/log/slurmctld.log" &&
        scontrol show topology > "$BASE/torus3d/data/topology.txt" 2>&1 &&
        [ "$(grep -c 'PlacementDims=' "$BASE/torus3d/data/topology.txt")" -eq "$(wc -w <<<"$SHAPES")" ]; then
        ok "slurmctld loaded topology/torus3d from topology.yaml: $(grep -o 'PlacementDims=[^ ]* Anchors=[0-9]*' "$BASE/torus3d/data/topology.txt" | tr '\n' ' ')"
    else
        fail_check "topology/torus3d not loaded (see $BASE/torus3d/log/slurmctld.log)"
    fi
    t0=$(date +%s)
    run_stream torus3d
    echo $(( $(date +%s) - t0 )) > "$BASE/torus3d/data/stream-seconds"
    grep -E "torus3d|eval_nodes|topology" "$BASE/torus3d/log/slurmctld.log" | grep -viE "WARNING: Expected|description: Expected" \
        > "$BASE/torus3d/data/torus3d.log" || true
    down
else
    fail_check "torus3d cluster up (see $BASE/torus3d/data/up.out, $BASE/torus3d/log)"
    tail -n 20 "$BASE/torus3d/data/up.out"
    CURRENT_DIR=$BASE/torus3d down
fi

# --- tofa -------------------------------------------------------------------
if up tofa; then
    ok "tofa configuration: munged + slurmctld + $NODES slurmd up in $(cat "$BASE/tofa/data/up-ms") ms"
    service_up() { grep -q "service listening on port $SERVICE_PORT" "$BASE/tofa/log/slurmctld.log"; }
    all_answered() { [ "$(tofactl nodes 2>/dev/null | awk 'NR > 1 && $5 > 0' | wc -l)" -eq "$NODES" ]; }
    if wait_until 20 service_up && wait_until 40 all_answered; then
        ok "topology/tofa started the TOFA service; all $NODES heartbeat responders answered"
    else
        fail_check "TOFA service or responders (see $BASE/tofa/log/slurmctld.log)"
    fi
    if tofactl set-outage "$FAILING" "$FAILING_P" >/dev/null; then
        ok "tofactl set-outage $FAILING $FAILING_P"
    else
        fail_check "tofactl set-outage $FAILING $FAILING_P"
    fi
    tofactl nodes > "$BASE/tofa/data/nodes-before.txt" 2>&1
    t0=$(date +%s)
    run_stream tofa
    echo $(( $(date +%s) - t0 )) > "$BASE/tofa/data/stream-seconds"
    tofactl nodes > "$BASE/tofa/data/nodes-after.txt" 2>&1
    [ "$KEEP" = yes ] || down
else
    fail_check "tofa cluster up (see $BASE/tofa/data/up.out, $BASE/tofa/log)"
    tail -n 20 "$BASE/tofa/data/up.out"
    CURRENT_DIR=$BASE/tofa down
fi

# --- analysis ---------------------------------------------------------------
elapsed=$(( $(date +%s) - started ))
doc_args=()
[ "$WRITE_DOC" = yes ] && doc_args=(--doc "$SRC_ROOT/docs/torus3d-compare.md")
mkdir -p "$SRC_ROOT/out"
analysis=$(python3 "$HELPERS/analyze.py" --base "$BASE" --stream "$STREAM" --graphs "$GRAPHS" \
    --tofa-map "$TOFA_MAP" --topology "$BASE/torus.conf" --faults "$BASE/faults.txt" \
    --failing "$FAILING" --shapes "$SHAPES" --dims "$DIMS" --slurm "$(slurmctld -V)" \
    --commit "$(git -C "$SRC_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    --elapsed "$elapsed" --build-seconds "$build_seconds" --cluster-checks "$CHECKS" --json "$SRC_ROOT/out/torus3d-compare.json" "${doc_args[@]}")
arc=$?
echo "$analysis"
passed=$((passed + $(grep -c '^ok:' <<<"$analysis")))
failed=$((failed + $(grep -c '^FAIL:' <<<"$analysis")))
[ "$arc" -eq 0 ] || fail "analyze.py exited with status $arc"
echo "run time: $(( $(date +%s) - started )) s (cached builds checked in $build_seconds s; torus3d stream $(cat "$BASE/torus3d/data/stream-seconds" 2>/dev/null || echo -) s, tofa stream $(cat "$BASE/tofa/data/stream-seconds" 2>/dev/null || echo -) s)"
checks_done
