#!/bin/bash
# A real mini-cluster of a Slurm release built from source (24.11 or 26.05)
# with tofa's plugins for that release: munged + slurmctld + 4 slurmd on this
# host (scripts/minicluster.sh with the release first in PATH), one
# "srun --tofa-matrix" job, its layout checked against the placement the TOFA
# service recorded, then everything is stopped again.
#
#   bash tests/integration/release_cluster.sh 26.05 [--keep]
#
# Slurm comes from scripts/slurm-release.sh VERSION, the plugins from
# scripts/build-slurm-release.sh VERSION (both cached). --keep leaves the
# cluster running (stop it with scripts/minicluster.sh down --dir DIR).
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
VERSION=${1:?usage: release_cluster.sh 24.11|26.05 [--keep]}
KEEP=${2:-}
DIR=${TOFA_RELEASE_CLUSTER_DIR:-/tmp/tofa-release-cluster-$VERSION}
PORT_BASE=${TOFA_RELEASE_PORT_BASE:-17600}
SERVICE_PORT=$((PORT_BASE + 90))
NODES=4
CPUS=2

PREFIX=$(bash "$SRC_ROOT/scripts/slurm-release.sh" "$VERSION" | tail -n 1)
PLUGINS=$(bash "$SRC_ROOT/scripts/build-slurm-release.sh" "$VERSION" | tail -n 1)
BUILDDIR=$(dirname "$PLUGINS")
export PATH=$PREFIX/bin:$PREFIX/sbin:$PATH
export LD_LIBRARY_PATH=$BUILDDIR/common/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
MINICLUSTER=$SRC_ROOT/scripts/minicluster.sh

# shellcheck source=../lib/checks.sh
. "$SRC_ROOT/tests/lib/checks.sh"
ok() { pass "$@"; }

DATA=$DIR/data
mkdir -p "$DIR/etc" "$DATA"
chmod 0755 "$DIR" "$DATA"
cat > "$DATA/conf-extra" <<CONF
PluginDir=$PLUGINS/.libs:$PREFIX/lib/slurm
TopologyPlugin=topology/tofa
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
CliFilterPlugins=tofa
CONF
cat > "$DATA/plugstack.conf" <<CONF
required $PLUGINS/.libs/tofa_loadmatrix.so
optional $PLUGINS/.libs/tofa_nodestate.so
CONF
# t1..t4 on a 2x2 torus; heavy pairs (0,1) and (2,3).
cat > "$DIR/etc/tofa.conf" <<CONF
Dims=2x2 Wrap=yes CoresPerNode=$CPUS
NodeName=t[1-$NODES]
ServicePort=$SERVICE_PORT
HeartbeatInterval=1
HeartbeatTimeout=1
HeartbeatPortOffset=100
MapWorker=$BUILDDIR/tools/.libs/tofa-map-worker
CONF
cat > "$DATA/pairs2.mat" <<'MAT'
2
0 100000
100000 0
MAT
cat > "$DATA/pairs4.mat" <<'MAT'
4
0 100000 0 0
100000 0 10 0
0 10 0 100000
0 0 100000 0
MAT
chmod 0644 "$DATA"/* "$DIR/etc/tofa.conf"

echo "Slurm $(slurmctld -V) from $PREFIX; plugins from $PLUGINS"
rm -f "$DIR"/log/core "$DIR"/log/core.*  # an earlier run's
ulimit -c unlimited 2>/dev/null || true  # a crash of the daemons leaves a core in $DIR/log
if ! "$MINICLUSTER" up --dir "$DIR" --nodes "$NODES" --cpus "$CPUS" --port-base "$PORT_BASE" \
        --timeout 60 --conf-extra "$DATA/conf-extra" --plugstack "$DATA/plugstack.conf" >/dev/null; then
    fail "cluster up"
    tail -n 30 "$DIR/log/slurmctld.log" 2>/dev/null || true
    exit 1
fi
export SLURM_CONF=$DIR/etc/slurm.conf
ok "munged + slurmctld + $NODES slurmd up ($(sinfo -h -o '%D %T' | tr '\n' ' '))"
cluster_running=yes
cleanup() { [ "$KEEP" = --keep ] || [ $cluster_running = no ] || "$MINICLUSTER" down --dir "$DIR" >/dev/null 2>&1 || true; }
at_exit cleanup

if grep -q "topology/tofa" "$DIR/log/slurmctld.log"; then
    ok "topology/tofa loaded by slurmctld"
else
    fail "topology/tofa not in slurmctld.log"
fi
service_up() { grep -q "service listening on port $SERVICE_PORT" "$DIR/log/slurmctld.log"; }
if service_up || { sleep 4; service_up; }; then
    ok "TOFA service started by topology/tofa"
else
    fail "TOFA service not started"
fi

out=$(cd "$DATA" && timeout 60 srun --tofa-matrix=pairs4.mat -n 4 -l printenv SLURMD_NODENAME 2>"$DATA/srun.err") || true
echo "$out" | sort -n
cat "$DATA/srun.err" >&2
if [ "$(echo "$out" | grep -c ': t[0-9]')" -eq 4 ]; then
    ok "srun --tofa-matrix -n 4 ran 4 tasks"
else
    fail "srun --tofa-matrix -n 4 (see $DATA/srun.err)"
fi
# One task per node: the heavy pairs (0,1) and (2,3) must be neighbours on
# the 2x2 torus (t1 (0,0), t2 (1,0), t3 (0,1), t4 (1,1): t1-t4 and t2-t3
# are 2 hops apart, all other pairs 1).
hops() { local a=$((${1#t} - 1)) b=$((${2#t} - 1)) x; x=$((a ^ b)); echo $(( (x & 1) + ((x >> 1) & 1) )); }
# pairs_one_hop LAYOUT ("rank node" lines): 4 distinct nodes, ranks 0-1 and 2-3 one hop apart
pairs_one_hop() {
    local layout=$1
    node() { awk -v t="$1" '$1 == t { print $2 }' <<<"$layout"; }
    [ "$(awk '{ print $2 }' <<<"$layout" | sort -u | wc -l)" -eq 4 ] &&
        [ "$(hops "$(node 0)" "$(node 1)")" -eq 1 ] && [ "$(hops "$(node 2)" "$(node 3)")" -eq 1 ]
}
out=$(cd "$DATA" && timeout 60 srun --tofa-matrix=pairs4.mat -n 4 --ntasks-per-node=1 -l printenv SLURMD_NODENAME 2>>"$DATA/srun.err") || true
lay=$(echo "$out" | sed -n 's/^ *\([0-9]*\): *\(t[0-9]*\)$/\1 \2/p' | sort -n)
echo "$lay"
if pairs_one_hop "$lay"; then
    ok "--ntasks-per-node=1: 4 nodes, heavy pairs 1 hop apart"
else
    fail "--ntasks-per-node=1 layout: $(tr '\n' ' ' <<<"$lay")"
fi
# sbatch: placed when the job starts; the srun inside follows the placement.
cat > "$DATA/job.sh" <<'JOB'
#!/bin/bash
srun -l printenv SLURMD_NODENAME
JOB
chmod 0755 "$DATA/job.sh"
rm -f "$DATA/batch.out"
if (cd "$DATA" && timeout 90 sbatch --wait --tofa-matrix=pairs4.mat -n 4 --ntasks-per-node=1 \
        -o "$DATA/batch.out" job.sh >/dev/null 2>>"$DATA/srun.err"); then
    blay=$(sed -n 's/^ *\([0-9]*\): *\(t[0-9]*\)$/\1 \2/p' "$DATA/batch.out" | sort -n)
    echo "$blay"
    if pairs_one_hop "$blay"; then
        ok "sbatch --tofa-matrix: srun in the job follows the placement (heavy pairs 1 hop apart)"
    else
        fail "sbatch --tofa-matrix layout: $(tr '\n' ' ' <<<"$blay") ($(head -5 "$DATA/batch.out"))"
    fi
else
    fail "sbatch --wait --tofa-matrix (see $DATA/srun.err)"
fi
# A job without a graph: Slurm's own choice, untouched.
if [ "$(timeout 60 srun -N 4 -l hostname 2>/dev/null | wc -l)" -eq 4 ]; then
    ok "plain srun -N 4 (no graph)"
else
    fail "plain srun -N 4"
fi
# A failing node (outage probability above OutageThreshold=0.5): TOFA jobs
# keep off it while they fit elsewhere (2 of the 3 other nodes suffice).
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
tofactl() { "$BUILDDIR/tools/tofactl" --conf "$DIR/etc/tofa.conf" --host "127.0.0.1:$SERVICE_PORT" \
    --munge-socket "$DIR/munge/munge.socket.2" "$@"; }
if tofactl set-outage t2 0.9 >/dev/null 2>>"$DATA/srun.err"; then
    out=$(cd "$DATA" && timeout 60 srun --tofa-matrix=pairs4.mat -n 4 -l printenv SLURMD_NODENAME 2>>"$DATA/srun.err") || true
    echo "$out" | sort -n
    if [ "$(echo "$out" | grep -c ': t[0-9]')" -eq 4 ] && ! echo "$out" | grep -q ': t2$'; then
        ok "with t2 failing (p=0.9) the TOFA job keeps off t2"
    else
        fail "with t2 failing: $(tr '\n' ' ' <<<"$out")"
    fi
    # One task on each node needs t2: the job waits (22.05's select shim
    # sees the mode; eval_nodes does not, and an error there made slurmctld
    # refuse the job as never runnable), then runs once t2 is healthy.
    jid=$(cd "$DATA" && sbatch --parsable --tofa-matrix=pairs4.mat -n 4 --ntasks-per-node=1 \
        -o /dev/null --wrap 'srun true' 2>>"$DATA/srun.err") || true
    sleep 2
    state=$(job_state "$jid")
    if [ -n "$jid" ] && [ "$state" = PENDING ] && grep -q "job $jid waits: it does not fit without" "$DIR/log/slurmctld.log"; then
        ok "a TOFA job that fits only with t2 waits (job $jid PENDING, reason $(squeue -h -j "$jid" -o %r))"
    else
        fail "a TOFA job that fits only with t2: job '$jid' state '$state' ($(tail -n 2 "$DATA/srun.err" | tr '\n' ' '))"
    fi
    tofactl clear-outage t2 >/dev/null 2>&1 || true
    done_() { case "$(job_state "$jid")" in PENDING|RUNNING|CONFIGURING|COMPLETING) return 1 ;; esac; }
    for _ in $(seq 1 90); do done_ && break; sleep 1; done
    if [ -n "$jid" ] && [ "$(job_state "$jid")" = COMPLETED ]; then
        ok "once t2 is healthy the waiting job $jid runs and completes"
    else
        fail "job '$jid' after t2 recovered: '$(job_state "$jid")'"
    fi
else
    fail "tofactl set-outage t2 0.9 (see $DATA/srun.err)"
fi
# A placement cons_tres cannot allocate: with t2 and t4 failing below
# OutageThreshold, a two-task job on two nodes goes to t1 and t3 (the one
# pair whose route meets no failing node), but --contiguous wants adjacent
# entries of the node table. Slurm's generic choice then takes the nodes,
# and the job's record must not name others: 26.05 places the job anew on
# its allocation, 24.11 drops the record (the job's first srun places it).
if tofactl set-outage t2 0.3 >/dev/null 2>>"$DATA/srun.err" &&
        tofactl set-outage t4 0.3 >/dev/null 2>>"$DATA/srun.err"; then
    jid=$(cd "$DATA" && sbatch --parsable --contiguous --tofa-matrix=pairs2.mat -n 2 --ntasks-per-node=1 \
        -o /dev/null --wrap 'sleep 5' 2>>"$DATA/srun.err") || true
    for _ in $(seq 1 30); do [ "$(job_state "$jid")" = RUNNING ] && break; sleep 1; done
    granted=$(scontrol show hostnames "$(squeue -h -j "$jid" -o %N)" 2>/dev/null | sort | tr '\n' ' ') || true
    recorded=$(tofactl job "$jid" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ && $2 ~ /^t[0-9]+$/ { print $2 }' |
        sort -u | tr '\n' ' ') || true
    case "$(slurmctld -V)" in *" 24."*) expected="" ;; *) expected=$granted ;; esac
    if [ -n "$jid" ] && [ -n "$granted" ] && [ "$recorded" = "$expected" ] &&
            grep -q "JobId=$jid: cons_tres cannot allocate the placement's nodes now; Slurm chose its nodes" \
                "$DIR/log/slurmctld.log"; then
        ok "--contiguous refuses the placement's nodes t1 t3: Slurm chose ${granted}and the record names ${recorded:-no node}"
    else
        fail "--contiguous job '$jid': granted '$granted', recorded '$recorded', expected '$expected'"
    fi
    scancel "$jid" 2>/dev/null || true
fi
tofactl clear-outage t2 >/dev/null 2>&1 || true
tofactl clear-outage t4 >/dev/null 2>&1 || true
grep -E "TOFA chose|tofa" "$DIR/log/slurmctld.log" | grep -v "^\s*$" | tail -n 8 || true
# 24.11 and 26.05 exit without calling plugins' fini (and close their log
# first): the service stops from an exit handler, saving its state. Its idle
# worker pool, already destroyed there, crashed slurmctld at every shutdown.
if [ "$KEEP" != --keep ]; then
    touch "$DATA/before-shutdown"
    "$MINICLUSTER" down --dir "$DIR" >/dev/null 2>&1 || true
    cluster_running=no
    cores=$(find "$DIR/log" -maxdepth 1 -name 'core*' | tr '\n' ' ')
    saved=$(find "$DIR/state" -name placements.state -newer "$DATA/before-shutdown")
    if [ -z "$cores" ] && [ -n "$saved" ]; then
        ok "slurmctld shut down cleanly, the TOFA service saving its state on the way out"
    else
        fail "slurmctld shutdown: ${cores:+core dumped ($cores); }${saved:-placements.state not saved at shutdown}"
    fi
fi
checks_done
