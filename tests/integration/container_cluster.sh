#!/bin/bash
# The container cluster (docker/): brings up slurmctld + N slurmd containers
# with docker/cluster.sh, checks that `srun -N N hostname` run in the controller
# container answers from every node c1..cN, that a batch job completes, and, when
# the image holds the tofa plugins, that slurmctld runs with them; then brings
# the cluster down. Exits 77 (skip) when neither podman nor Docker is usable.
#   TOFA_CONTAINER_NODES   number of nodes (default 4)
# The first run builds the image (several minutes); later runs reuse it.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRCDIR=${top_srcdir:-$HERE/../..}
CLUSTER=$SRCDIR/docker/cluster.sh
NODES=${TOFA_CONTAINER_NODES:-4}

# shellcheck source=../lib/checks.sh
. "$SRCDIR/tests/lib/checks.sh"
started=no
bring_down() {
    [ $started = yes ] || return 0
    if bash "$CLUSTER" down; then pass "cluster.sh down"; else fail "cluster.sh down"; fi
}
at_exit bring_down

engine_usable() {
    case ${TOFA_ENGINE:-} in
        docker) timeout 20 docker info >/dev/null 2>&1 ;;
        podman) command -v podman >/dev/null && timeout 60 podman info >/dev/null 2>&1 ;;
        *) { command -v docker >/dev/null && timeout 20 docker info >/dev/null 2>&1; } \
            || { command -v podman >/dev/null && timeout 60 podman info >/dev/null 2>&1; } ;;
    esac
}

engine_usable || skip "neither podman nor a running Docker daemon is usable"

# up removes what it started when it fails.
if ! bash "$CLUSTER" up --nodes "$NODES"; then
    fail "cluster.sh up --nodes $NODES (all nodes idle)"
    exit 1
fi
started=yes
pass "cluster.sh up --nodes $NODES (all nodes idle)"
expected=$(seq -f 'c%g' 1 "$NODES")

# 1. One task on each node: every container answers with its own hostname.
if out=$(bash "$CLUSTER" exec timeout 60 srun -N "$NODES" hostname 2>&1); then
    got=$(sort -V <<<"$out")
    if [ "$got" = "$expected" ]; then
        pass "srun -N $NODES hostname: c1..c$NODES once each"
    else
        fail "srun -N $NODES hostname gave: $(echo "$got" | tr '\n' ' ')"
    fi
else
    fail "srun -N $NODES hostname exited non-zero: $out"
fi

# 2. A batch job over two nodes completes; its output is on its batch host.
if [ "$NODES" -ge 2 ]; then
    if jobid=$(bash "$CLUSTER" exec sbatch --parsable -N 2 -o /tmp/tofa-batch.out \
            --wrap 'srun hostname | sort; echo batch done' 2>&1); then
        state=
        for _ in $(seq 60); do
            state=$(bash "$CLUSTER" exec scontrol show job "$jobid" 2>/dev/null \
                | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
            case $state in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
            sleep 1
        done
        host=$(bash "$CLUSTER" exec scontrol show job "$jobid" 2>/dev/null \
            | sed -n 's/.*BatchHost=\([^ ]*\).*/\1/p')
        out=$( [ -n "$host" ] && bash "$CLUSTER" exec --node "$host" cat /tmp/tofa-batch.out 2>&1)
        if [ "$state" = COMPLETED ] && [ "$(tail -n 1 <<<"$out")" = "batch done" ] \
            && [ "$(grep -c '^c[0-9]' <<<"$out")" -eq 2 ]; then
            pass "sbatch -N 2: job $jobid COMPLETED on $host, two nodes answered"
        else
            fail "sbatch -N 2: job $jobid state '$state', batch host '$host', output: $out"
        fi
    else
        fail "sbatch failed: $jobid"
    fi
fi

# 3. With the tofa plugins in the image (and not switched off), slurmctld runs
#    with them.
if [ "${TOFA_PLUGINS:-auto}" = off ]; then
    echo "note: TOFA_PLUGINS=off: the cluster runs plain Slurm"
elif bash "$CLUSTER" exec sh -c 'ls /usr/local/lib/tofa/slurm/select_tofa*.so' >/dev/null 2>&1; then
    config=$(bash "$CLUSTER" exec scontrol show config 2>&1)
    if grep -qE '^SelectType +=  *select/tofa' <<<"$config" \
        && grep -qE '^TopologyPlugin +=  *topology/tofa' <<<"$config"; then
        pass "slurmctld runs select/tofa* and topology/tofa"
    else
        fail "tofa plugins installed but not active: $(grep -E '^(SelectType|TopologyPlugin) ' <<<"$config" | tr -s ' ')"
    fi
else
    echo "note: no tofa plugins in the image; the cluster runs plain Slurm"
fi
checks_done
