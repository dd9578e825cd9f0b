#!/bin/bash
# Smoke test of the mini-cluster: 8 slurmd answer srun, every task lands on its
# own node t1..t8, and a batch job runs to completion. Needs root.
#   TOFA_CLUSTER_DIR        working directory (default /tmp/tofa-cluster)
#   TOFA_CLUSTER_PORT_BASE  first port (default 17000)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRCDIR=${top_srcdir:-$HERE/../..}
MINICLUSTER=$SRCDIR/scripts/minicluster.sh
DIR=${TOFA_CLUSTER_DIR:-/tmp/tofa-cluster}
PORT_BASE=${TOFA_CLUSTER_PORT_BASE:-17000}
NODES=8

# shellcheck source=../lib/checks.sh
. "$SRCDIR/tests/lib/checks.sh"
started=no
stop_cluster() {
    if [ $started = yes ]; then
        "$MINICLUSTER" down --dir "$DIR" || echo "warning: minicluster down failed" >&2
    fi
}
at_exit stop_cluster

[ "$(id -u)" -eq 0 ] || skip "needs root (starts munged, slurmctld, slurmd)"

# up stops what it started when it fails; a cluster that already runs in $DIR
# (someone else's) makes it fail without touching that cluster.
if ! "$MINICLUSTER" up --dir "$DIR" --nodes "$NODES" --port-base "$PORT_BASE" --timeout 60; then
    fail "minicluster up ($NODES nodes idle)"
    exit 1
fi
started=yes
pass "minicluster up ($NODES nodes idle)"
export SLURM_CONF=$DIR/etc/slurm.conf
expected_nodes=$(seq -f 't%g' 1 "$NODES")

# 1. One task per node, labelled 0..7.
if out=$(timeout 60 srun -N "$NODES" -l hostname 2>&1); then
    labels=$(sed -n 's/^ *\([0-9]*\): .*/\1/p' <<<"$out" | sort -n | tr '\n' ' ')
    if [ "$labels" = "$(seq 0 $((NODES - 1)) | tr '\n' ' ')" ]; then
        pass "srun -N $NODES -l hostname: tasks 0..$((NODES - 1))"
    else
        fail "srun -N $NODES -l hostname: labels '$labels'; output: $out"
    fi
else
    fail "srun -N $NODES -l hostname exited non-zero: $out"
fi

# 2. The tasks ran on the 8 distinct nodes t1..t8.
# srun's own notes ("job 2 queued and waiting for resources" while the
# previous job's nodes are still completing) go to stderr: keep them apart.
if out=$(timeout 60 srun -N "$NODES" printenv SLURMD_NODENAME 2>"$DIR/tmp/srun-notes"); then
    got=$(sort -V <<<"$out")
    if [ "$got" = "$expected_nodes" ]; then
        pass "srun -N $NODES printenv SLURMD_NODENAME: t1..t$NODES once each"
    else
        fail "srun -N $NODES printenv SLURMD_NODENAME gave: $(echo "$got" | tr '\n' ' ')"
    fi
else
    fail "srun -N $NODES printenv SLURMD_NODENAME exited non-zero: $out $(cat "$DIR/tmp/srun-notes")"
fi

# 3. A batch job (2 nodes, srun inside) completes; poll scontrol, no accounting needed.
batch_out=$DIR/tmp/smoke-batch.out
rm -f "$batch_out"
cat > "$DIR/tmp/smoke-batch.sh" <<'EOF'
#!/bin/bash
srun printenv SLURMD_NODENAME | sort
echo "batch done"
EOF
if jobid=$(sbatch --parsable -N 2 -o "$batch_out" "$DIR/tmp/smoke-batch.sh" 2>&1); then
    state=
    for _ in $(seq 1 300); do
        state=$(scontrol show job "$jobid" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
        case "$state" in
            COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE) break ;;
        esac
        sleep 0.2
    done
    # Expected output: two distinct node names of t1..t8, then "batch done".
    ran_on=$(head -n 2 "$batch_out" 2>/dev/null | grep -xE "t[1-$NODES]" | sort -u | wc -l)
    if [ "$state" = COMPLETED ] && [ "$ran_on" -eq 2 ] \
            && [ "$(sed -n 3p "$batch_out" 2>/dev/null)" = "batch done" ]; then
        pass "sbatch -N 2 job $jobid completed on 2 nodes"
    else
        fail "sbatch job $jobid: state '$state', output: $(cat "$batch_out" 2>/dev/null || echo none)"
    fi
else
    fail "sbatch failed: $jobid"
fi
checks_done
