#!/bin/bash
# Issue 11: a seeded random job stream on the real mini-cluster of the
# issue's shape (16 nodes, 4x2x2 torus, 8 CPUs per node, CR_Core): TOFA and
# plain jobs of random shapes (-n, -N, --ntasks-per-node, -c, arrays, one
# heterogeneous job, sbatch and direct srun) submitted concurrently, one
# slurmd killed and one frozen mid-stream. Asserts: slurmctld alive; every
# TOFA step started, its ranks on the nodes its recorded placement names;
# no TOFA rank on a failed node once the service saw it fail; the share of
# TOFA jobs placed by TOFA; every plain step in Slurm's block layout.
# Jobs that were running on a node when it failed are left out (Slurm
# fails them, not tofa), and so are direct sruns with -c that cons_tres
# granted fewer CPUs than tasks x -c (Slurm refuses their step with or
# without TOFA; shared_cluster.sh checks that case). Needs root.
# Environment as lib_tofa_cluster.sh, plus TOFA_STREAM_SEED (default 1)
# and TOFA_STREAM_JOBS (jobs per phase, default 14).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOFA_LIB_DEFAULT_DIR=/tmp/tofa-stream-cluster
TOFA_LIB_DEFAULT_PORT_BASE=18900
TOFA_LIB_NODES=16
TOFA_LIB_DIMS=4x2x2
TOFA_LIB_CPUS=8
. "$HERE/lib_tofa_cluster.sh"
SEED=${TOFA_STREAM_SEED:-1}
PER_PHASE=${TOFA_STREAM_JOBS:-14}
KILLED=t5 FROZEN=t12
frozen_pid=
thaw() { [ -z "$frozen_pid" ] || kill -CONT "$frozen_pid" 2>/dev/null; }
at_exit thaw
tofa_lib_require_root_and_plugins
tofa_lib_write_config

for shape in "4 1" "8 1" "16 1"; do
    set -- $shape
    python3 - "$1" <<'PY' > "$DATA/st$1.mat"
import sys
n = int(sys.argv[1]); x = 4 if n >= 4 else n; y = n // x
m = [[0] * n for _ in range(n)]
for t in range(n):
    i, j = t % x, t // x
    for u in ([t + 1] if i + 1 < x else []) + ([t + x] if j + 1 < y else []):
        m[t][u] = m[u][t] = 1000000
print(n)
for row in m: print(" ".join(map(str, row)))
PY
done
chmod 0644 "$DATA"/*.mat

# The stream: one line per job, "PHASE KIND NAME OPTIONS..." (KIND tofa, plain,
# array, het, srun-tofa, srun-plain), from the seed.
python3 - "$SEED" "$PER_PHASE" > "$DATA/stream" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1])); per_phase = int(sys.argv[2])
for phase in (1, 2):
    jobs = []
    for k in range(per_phase):
        kind = rng.choice(["tofa", "tofa", "tofa", "plain", "plain", "array", "srun-tofa", "srun-plain"])
        t = rng.choice([4, 8, 16])
        name = f"p{phase}-{k:02d}"
        if kind in ("tofa", "array", "srun-tofa"):
            shape = rng.choice(["", "", f"-N {rng.choice([2, t // 4 + 1])}",
                                f"--ntasks-per-node={rng.choice([2, 4])}", "-c 2"])
            extra = "--array=1-2 " if kind == "array" else ""
            jobs.append(f"{kind} {name} {extra}-n {t} {shape} --tofa-matrix=st{t}.mat")
        else:
            p = rng.choice([1, 2, 3, 5, 8])
            shape = rng.choice(["", "", f"-N 2"]) if p >= 2 else ""
            jobs.append(f"{kind} {name} -n {p} {shape}")
    if phase == 1:
        jobs.append("het p1-het -n 8 --tofa-matrix=st8.mat : -n 2")
    for job in jobs:
        print(phase, job)
PY

recorded() { query "PLACEMENT job=$1" 2>/dev/null | sed -n 's/.* nodes=\([^ ]*\).*/\1/p'; }
above_half() { local p; p=$(outage "$1"); [ -n "$p" ] && awk -v p="$p" 'BEGIN { exit !(p > 0.5) }'; }
SCRIPT='echo "job $SLURM_JOB_ID nodes $SLURM_JOB_NODELIST"; srun -l printenv SLURMD_NODENAME; echo "srun exit $?"; sleep 2'
# A direct srun's ranks: the node, and from rank 0 the job's id and nodes.
RANK='echo $SLURMD_NODENAME; [ $SLURM_PROCID = 0 ] && echo "job $SLURM_JOB_ID nodes $SLURM_JOB_NODELIST"; true'

tofa_lib_start
cd "$DATA" || exit 1
wait_until 30 all_answered || fail "precondition: not every responder answered yet"
note "seed $SEED, $(wc -l < "$DATA/stream") jobs"

declare -A kind_of phase_of
ids=()
submit_phase() {
    local phase=$1 p kind name opts jid
    while read -r p kind name opts; do
        [ "$p" = "$phase" ] || continue
        case $kind in
        srun-*)
            # shellcheck disable=SC2086
            ( srun -J "$name" $opts -l bash -c "$RANK" > "$DATA/out-$name.srun" 2>&1
              echo "srun exit $?" >> "$DATA/out-$name.srun" ) &
            kind_of[$name]=$kind phase_of[$name]=$phase ids+=("$name") ;;
        *)
            # -o goes with the first component of a heterogeneous job
            local first=${opts%%:*} rest=
            [ "$first" != "$opts" ] && rest=": ${opts#*:}"
            # shellcheck disable=SC2086
            jid=$(sbatch --parsable -J "$name" $first -o "$DATA/out-$name.%a" $rest --wrap "$SCRIPT" 2>&1)
            jid=${jid%%+*}
            if [[ $jid =~ ^[0-9]+$ ]]; then
                kind_of[$name]=$kind phase_of[$name]=$phase ids+=("$name")
            else
                fail "$name: sbatch $opts refused: $jid"
            fi ;;
        esac
    done < "$DATA/stream"
}
queue_empty() { [ -z "$(squeue -h 2>/dev/null)" ]; }

submit_phase 1
sleep 4
kill -9 "$(cat "$DIR/run/slurmd-$KILLED.pid")"
frozen_pid=$(cat "$DIR/run/slurmd-$FROZEN.pid")
kill -STOP "$frozen_pid"
if wait_until 30 above_half $KILLED && wait_until 30 above_half $FROZEN; then
    pass "$KILLED killed and $FROZEN frozen mid-stream: outage $(outage $KILLED), $(outage $FROZEN)"
else
    fail "outage of $KILLED '$(outage $KILLED)', of $FROZEN '$(outage $FROZEN)'"
fi
submit_phase 2
# Nothing may still be queued: direct sruns too are placed when they start
# (they used to pin the nodes free at submission and wait for failed ones).
if ! wait_until 300 queue_empty; then
    fail "still queued after 300 s: $(squeue -h -o '%j %r' | tr '\n' ';')"
    scancel --full $(squeue -h -o %i) 2>/dev/null   # so that the direct sruns end
fi
wait
scontrol ping 2>/dev/null | grep -q UP && pass "slurmctld alive" || fail "slurmctld died"

# Per job: the outputs (one per array task), each "job ID nodes LIST", the
# rank lines and "srun exit N".
touched_failed() {   # the job's allocation, ranks or errors name a failed node
    local list
    grep -qwE "$KILLED|$FROZEN" "$1" && return 0
    list=$(sed -n 's/.*job [0-9]* nodes \(.*\)$/\1/p' "$1" | head -1)
    [ -n "$list" ] && scontrol show hostnames "$list" | grep -qxE "$KILLED|$FROZEN"
}
block_layout() {   # ranks grouped per node, in node order, as Slurm's block layout
    layout < "$1" | awk '{ print $2 }' | uniq | awk 'seen[$1]++ { bad = 1 } END { exit bad }'
}
tofa_jobs=0 tofa_ok=0 tofa_batch=0 tofa_placed=0 excluded=0 plain_jobs=0 plain_ok=0 slurm_refused=0
for name in "${ids[@]}"; do
    kind=${kind_of[$name]} phase=${phase_of[$name]}
    for out in "$DATA/out-$name."*; do
        [ -f "$out" ] || { fail "$name: no output"; continue; }
        jid=$(sed -n 's/^\( *0: \)\{0,1\}job \([0-9]*\) nodes.*/\2/p' "$out")
        # Running on a node when it failed: Slurm's business, not tofa's.
        if [ "$phase" = 1 ] && touched_failed "$out"; then excluded=$((excluded + 1)); continue; fi
        started=no; grep -q '^srun exit 0$' "$out" && started=yes
        case $kind in
        tofa|array|het|srun-tofa)
            # cons_tres (22.05) may grant a direct srun -c 2 fewer CPUs than
            # tasks x 2; Slurm's own step is refused then, with or without TOFA.
            if [ $started != yes ] && grep -q 'srun lays them out as without TOFA' "$out" \
                    && grep -q 'More processors requested than permitted' "$out"; then
                slurm_refused=$((slurm_refused + 1)); continue
            fi
            tofa_jobs=$((tofa_jobs + 1))
            if [ $started != yes ]; then
                fail "$name ($out): TOFA step did not run: $(grep -m1 -i error "$out")"; continue
            fi
            if [ "$phase" = 2 ] && layout < "$out" | grep -qwE "$KILLED|$FROZEN"; then
                fail "$name: TOFA ranks on a failed node"; continue
            fi
            [ "$kind" != srun-tofa ] && tofa_batch=$((tofa_batch + 1))
            placement=$(recorded "$jid")
            want=$(tr ',' '\n' <<<"$placement" | awk 'NF { print NR - 1, $1 }')
            if [ -z "$placement" ] || [ "$(layout < "$out")" != "$want" ]; then
                fail "$name (job $jid): ranks not as recorded ('$placement')"; continue
            fi
            [ "$kind" != srun-tofa ] && tofa_placed=$((tofa_placed + 1))
            tofa_ok=$((tofa_ok + 1)) ;;
        *)
            if [ "$phase" = 2 ] && touched_failed "$out"; then excluded=$((excluded + 1)); continue; fi
            plain_jobs=$((plain_jobs + 1))
            if [ $started = yes ] && block_layout "$out"; then plain_ok=$((plain_ok + 1))
            else fail "$name: plain step: started=$started, layout $(layout < "$out" | awk '{ print $2 }' | tr '\n' ' ')"; fi ;;
        esac
    done
done
note "$excluded runs left out (on a node when it failed, or plain jobs Slurm sent there)"
[ "$slurm_refused" -gt 0 ] &&
    note "$slurm_refused direct srun(s) with -c left out: cons_tres granted fewer CPUs than tasks x -c, and Slurm's own step refused them, as it does without TOFA"
[ "$tofa_jobs" -gt 0 ] && [ "$tofa_ok" -eq "$tofa_jobs" ] &&
    pass "all $tofa_jobs TOFA runs (sbatch and direct srun) started, ranks as recorded, none on a failed node once seen"
if [ "$tofa_batch" -gt 0 ] && [ $((100 * tofa_placed)) -ge $((95 * tofa_batch)) ]; then
    pass "TOFA-placed share: $tofa_placed of $tofa_batch batch TOFA runs"
else
    fail "TOFA-placed share: $tofa_placed of $tofa_batch batch TOFA runs (target 95%)"
fi
[ "$plain_jobs" -gt 0 ] && [ "$plain_ok" -eq "$plain_jobs" ] &&
    pass "all $plain_jobs plain steps ran in Slurm's block layout"
checks_done
