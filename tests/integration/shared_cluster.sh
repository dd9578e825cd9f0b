#!/bin/bash
# Issue 11 (1)-(3) on a busy cluster of the issue's shape (16 nodes, 4x2x2
# torus, 8 CPUs per node, CR_Core): TOFA jobs beside plain jobs that hold
# part of the nodes' CPUs, with -N, --ntasks-per-node and plain -n shapes.
# At 5516619, 0 of these 12 TOFA steps started ("More processors requested
# than permitted", "Requested node configuration is not available"): the
# placement assumed whole free nodes. Now every step must start, every rank
# must run where the job's recorded placement says, -N and
# --ntasks-per-node must hold, and every TOFA job must get a TOFA placement.
# Needs root. Environment as lib_tofa_cluster.sh.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOFA_LIB_DEFAULT_DIR=/tmp/tofa-shared-cluster
TOFA_LIB_DEFAULT_PORT_BASE=18500
TOFA_LIB_NODES=16
TOFA_LIB_DIMS=4x2x2
TOFA_LIB_CPUS=8
. "$HERE/lib_tofa_cluster.sh"

tofa_lib_require_root_and_plugins
tofa_lib_write_config

stencil() {   # stencil X Y Z -> matrix of a 3D 6-point stencil, 1 MB per edge
    python3 - "$@" <<'PY'
import sys
x, y, z = map(int, sys.argv[1:])
n = x * y * z
m = [[0] * n for _ in range(n)]
at = lambda i, j, k: i + x * (j + y * k)
for k in range(z):
    for j in range(y):
        for i in range(x):
            for a, b, c in ((i + 1, j, k), (i, j + 1, k), (i, j, k + 1)):
                if a < x and b < y and c < z:
                    m[at(i, j, k)][at(a, b, c)] = m[at(a, b, c)][at(i, j, k)] = 1000000
print(n)
for row in m:
    print(" ".join(map(str, row)))
PY
}
stencil 4 4 1 > "$DATA/st16.mat"
stencil 4 4 3 > "$DATA/st48.mat"
stencil 4 2 1 > "$DATA/st8.mat"
stencil 2 2 1 > "$DATA/st4.mat"
stencil 5 2 1 > "$DATA/st10.mat"
chmod 0644 "$DATA"/*

job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
finished() { case "$(job_state "$1")" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|"") return 0 ;; esac; return 1; }
all_finished() { local j; for j in "$@"; do finished "$j" || return 1; done; }
recorded() { query "PLACEMENT job=$1" 2>/dev/null | sed -n 's/.* nodes=\([^ ]*\).*/\1/p'; }
# Rank -> node lines of a job's output, compared with the recorded placement.
ranks_as_recorded() {   # ranks_as_recorded JOB OUTFILE TASKS
    local placement got want
    placement=$(recorded "$1")
    [ -n "$placement" ] || { echo "no placement recorded"; return 1; }
    want=$(tr ',' '\n' <<<"$placement" | awk '{ print NR - 1, $1 }')
    got=$(layout < "$2")
    [ "$(wc -l <<<"$got")" -eq "$3" ] || { echo "$(wc -l <<<"$got") of $3 ranks ran"; return 1; }
    [ "$got" = "$want" ] || { echo "ranks ran elsewhere than recorded ($placement)"; return 1; }
}
nodes_used() { layout < "$1" | awk '{ print $2 }' | sort -u | wc -l; }
max_per_node() { layout < "$1" | awk '{ print $2 }' | sort | uniq -c | awk '$1 > m { m = $1 } END { print m + 0 }'; }
min_per_node() { layout < "$1" | awk '{ print $2 }' | sort | uniq -c | awk 'NR == 1 || $1 < m { m = $1 } END { print m + 0 }'; }

tofa_lib_start
cd "$DATA" || exit 1
wait_until 30 all_answered || fail "precondition: not every responder answered yet"

# Plain jobs first: 10 x 5 CPUs spread by cons_tres over the nodes, held for
# a while, so that TOFA jobs meet partly used nodes.
plain=()
for i in $(seq 1 10); do
    plain+=("$(sbatch --parsable -n 5 -o /dev/null --wrap 'sleep 25')")
done
running_plain() { [ "$(squeue -h -t R -o %i | wc -l)" -eq 10 ]; }
wait_until 30 running_plain || fail "precondition: only $(squeue -h -t R -o %i | wc -l) plain jobs run"

tofa=()
tofa+=("$(sbatch --parsable -N 12 -n 48 --tofa-matrix=st48.mat -o "$DATA/out-N12" \
    --wrap 'srun -l printenv SLURMD_NODENAME')")
tofa+=("$(sbatch --parsable --ntasks-per-node=4 -n 48 --tofa-matrix=st48.mat -o "$DATA/out-npn4" \
    --wrap 'srun -l printenv SLURMD_NODENAME')")
for i in $(seq 1 10); do
    tofa+=("$(sbatch --parsable -n 16 --tofa-matrix=st16.mat -o "$DATA/out-n16-$i" \
        --wrap 'srun -l printenv SLURMD_NODENAME')")
done
# A job without a graph whose srun brings one: the step is placed on the
# allocation within SLURM_JOB_CPUS_PER_NODE (uneven on a busy cluster).
tofa+=("$(sbatch --parsable -n 16 -o "$DATA/out-step16" \
    --wrap 'srun --tofa-matrix=st16.mat -l printenv SLURMD_NODENAME')")
if wait_until 240 all_finished "${tofa[@]}" "${plain[@]}"; then
    pass "all 23 jobs finished"
else
    fail "jobs still not finished after 240 s: $(squeue -h -o '%i %T %r' | tr '\n' ';')"
fi

outputs=("$DATA/out-N12" "$DATA/out-npn4")
for i in $(seq 1 10); do outputs+=("$DATA/out-n16-$i"); done
outputs+=("$DATA/out-step16")
tasks=(48 48 16 16 16 16 16 16 16 16 16 16 16)
ok=0
for k in "${!tofa[@]}"; do
    jid=${tofa[$k]} out=${outputs[$k]}
    state=$(job_state "$jid")
    if [ "$out" = "$DATA/out-step16" ]; then   # a step placement is not recorded
        [ "$state" = COMPLETED ] && [ "$(layout < "$out" | wc -l)" -eq 16 ] && ok=$((ok + 1)) ||
            fail "job $jid without a graph, srun with one: $state; $(grep -m1 -i error "$out")"
    elif [ "$state" = COMPLETED ] && why=$(ranks_as_recorded "$jid" "$out" "${tasks[$k]}"); then
        ok=$((ok + 1))
    else
        fail "TOFA job $jid ($(basename "$out")): $state, ${why:-}; $(grep -m1 -i error "$out" 2>/dev/null)"
    fi
done
[ $ok -eq ${#tofa[@]} ] &&
    pass "all ${#tofa[@]} TOFA steps started, every rank on the node its recorded placement names"

n=$(nodes_used "$DATA/out-N12")
[ "$n" -eq 12 ] && pass "-N 12 -n 48: ranks on 12 nodes" || fail "-N 12 -n 48: ranks on $n nodes"
lo=$(min_per_node "$DATA/out-npn4") hi=$(max_per_node "$DATA/out-npn4")
if [ "$lo" -eq 4 ] && [ "$hi" -eq 4 ]; then
    pass "--ntasks-per-node=4 -n 48: 4 ranks on each of $(nodes_used "$DATA/out-npn4") nodes"
else
    fail "--ntasks-per-node=4 -n 48: between $lo and $hi ranks per node"
fi

# Node choice (issue 38, item 6): TOFA's, or Slurm's with the reason logged.
chose=0 reasons=() unexplained=()
# The last decision counts: the scheduler may evaluate a job several times.
last_line() { grep -n "$@" "$DIR/log/slurmctld.log" | tail -n 1; }
for jid in "${tofa[@]:0:12}"; do
    tofa_line=$(last_line "$(tofa_chose_pattern "$jid")")
    slurm_line=$(last_line -E "$(tofa_fallback_pattern "$jid")")
    slurm_at=${slurm_line%%:*}
    if [ -n "$tofa_line" ] && [ "${tofa_line%%:*}" -gt "${slurm_at:-0}" ]; then
        chose=$((chose + 1))
    elif [ -n "$slurm_line" ]; then
        reasons+=("job $jid: $(sed -E 's/.*(job |JobId=)[0-9]+: //; s/; (cons_tres|Slurm) chose its nodes.*//' <<<"$slurm_line")")
    else
        unexplained+=("$jid")
    fi
done
note "TOFA chose the nodes of $chose of 12 jobs${reasons:+; Slurm chose the rest: ${reasons[*]}} (all placed by TOFA on their allocation)"
[ ${#unexplained[@]} -eq 0 ] \
    && pass "node choice: TOFA's for $chose of 12 jobs, every other with its reason logged" \
    || fail "node choice: neither TOFA's nor a logged reason for job(s) ${unexplained[*]}"
# A placement failure on an allocation is logged as an error and leaves
# Slurm's layout: that must not happen here.
# (22.05's select shim says "mapping", topology/tofa "placement").
no_mapping="no TOFA (mapping|placement) on its allocation"
if grep -qE "$no_mapping" "$DIR/log/slurmctld.log"; then
    fail "some allocation got no TOFA mapping: $(grep -m1 -E "$no_mapping" "$DIR/log/slurmctld.log")"
else
    pass "every TOFA job got a TOFA placement on its allocation"
fi

# Direct srun with -N: the placement spans the nodes asked for.
# Issue 11 (6): its placement is recorded under its job id.
srun -N 12 -n 48 --tofa-matrix=st48.mat -l bash -c \
    'echo $SLURMD_NODENAME; [ $SLURM_PROCID = 0 ] && echo "job $SLURM_JOB_ID"; true' > "$DATA/out-srun" 2>&1
n=$(layout < "$DATA/out-srun" | awk '{ print $2 }' | sort -u | wc -l)
[ "$n" -eq 12 ] && pass "srun -N 12 -n 48: ranks on 12 nodes" ||
    fail "srun -N 12 -n 48: ranks on $n nodes: $(head -c 300 "$DATA/out-srun")"
jid=$(sed -n 's/^ *0: job \([0-9]*\)$/\1/p' "$DATA/out-srun")
if [ -n "$jid" ] && why=$(ranks_as_recorded "$jid" "$DATA/out-srun" 48); then
    pass "the direct srun's placement is recorded under its job $jid, ranks as recorded"
else
    fail "direct srun job '${jid:-?}': ${why:-no job id}"
fi

# A step of another graph inside a TOFA job is placed within the CPUs the
# job was granted (SLURM_JOB_CPUS_PER_NODE).
jid=$(sbatch --parsable -n 16 --tofa-matrix=st16.mat -o "$DATA/out-step8" \
    --wrap 'srun -n 8 --tofa-matrix=st8.mat -l printenv SLURMD_NODENAME')
wait_until $TMO finished "$jid"
if [ "$(job_state "$jid")" = COMPLETED ] && [ "$(layout < "$DATA/out-step8" | wc -l)" -eq 8 ]; then
    pass "an 8-task step of another graph inside a 16-task TOFA job ran"
else
    fail "8-task step in job $jid: $(job_state "$jid"); $(head -c 300 "$DATA/out-step8")"
fi

# Issue 11 (8): strategy parameters per job, checked before submission.
# stencil-rcb needs the job's shape, which pairs8 (not a stencil) does not
# show: without it sbatch must refuse (it used to accept the job, which then
# FAILED); with --tofa-param stencil=2x2x2 the job runs with that strategy.
out=$(sbatch --parsable --tofa-matrix=pairs8.mat --tofa-strategy=stencil-rcb -n 8 -o /dev/null --wrap true 2>&1)
if [ $? -ne 0 ] && grep -q "cannot place this job" <<<"$out"; then
    pass "sbatch --tofa-strategy=stencil-rcb without its parameter is refused before submission: $(grep -m1 "cannot place" <<<"$out")"
else
    fail "stencil-rcb without stencil=: $out"
fi
out=$(sbatch --parsable --tofa-matrix=st16.mat --tofa-param=bogus -n 16 -o /dev/null --wrap true 2>&1)
[ $? -ne 0 ] && grep -q "expected KEY=VALUE" <<<"$out" &&
    pass "--tofa-param without '=' is refused: $(tail -1 <<<"$out")" || fail "--tofa-param=bogus: $out"
jid=$(sbatch --parsable --tofa-matrix=pairs8.mat --tofa-strategy=stencil-rcb --tofa-param=stencil=2x2x2 \
    -n 8 -o "$DATA/out-rcb" --wrap 'srun -l printenv SLURMD_NODENAME' 2>&1)
wait_until $TMO finished "$jid"
if [ "$(job_state "$jid")" = COMPLETED ] && why=$(ranks_as_recorded "$jid" "$DATA/out-rcb" 8) &&
    query "JOB job=$jid" 2>/dev/null | grep -q "strategy=stencil-rcb"; then
    pass "--tofa-strategy=stencil-rcb --tofa-param=stencil=2x2x2: job $jid placed by stencil-rcb and ran as recorded"
else
    fail "stencil-rcb job $jid: $(job_state "$jid") ${why:-}; $(query "JOB job=$jid" 2>&1 | head -c 200)"
fi

# Issue 11 (6): every task of a job array is placed and recorded under its
# own job id (SLURM_JOB_ID inside the task), and its ranks run there.
array=$(sbatch --parsable --array=1-3 -n 16 --tofa-matrix=st16.mat -o "$DATA/out-array-%a" \
    --wrap 'echo "job $SLURM_JOB_ID"; srun -l printenv SLURMD_NODENAME')
array_done() { [ -z "$(squeue -h -j "$array" 2>/dev/null)" ]; }
wait_until 120 array_done
ok=0
for t in 1 2 3; do
    jid=$(sed -n 's/^job \([0-9]*\)$/\1/p' "$DATA/out-array-$t" 2>/dev/null)
    if [ -n "$jid" ] && why=$(grep -v '^job ' "$DATA/out-array-$t" > "$DATA/ranks-array-$t";
                              ranks_as_recorded "$jid" "$DATA/ranks-array-$t" 16); then
        ok=$((ok + 1))
    else
        fail "array task $t (job ${jid:-?}): ${why:-no output}"
    fi
done
[ $ok -eq 3 ] && pass "the 3 tasks of array $array each placed, recorded under their own job id, ranks as recorded"

# Issue 11 (8): a heterogeneous job with the graph on its first component is
# accepted (it used to be refused: the graph was applied to every
# component); the first component is placed and its srun follows it.
het=$(sbatch --parsable --tofa-matrix=st16.mat -n 16 -o "$DATA/out-het" : -n 2 \
    --wrap 'srun -l printenv SLURMD_NODENAME' 2>&1)
het=${het%%+*}
het_done() { [ -z "$(squeue -h -j "$het" 2>/dev/null)" ]; }
if [[ $het =~ ^[0-9]+$ ]] && wait_until 60 het_done && why=$(ranks_as_recorded "$het" "$DATA/out-het" 16); then
    pass "heterogeneous job $het: its first component placed and run as recorded"
else
    fail "heterogeneous job: '$het' ${why:-}; $(head -c 300 "$DATA/out-het" 2>/dev/null)"
fi

# Issue 11 (5): six concurrent direct sruns see the same free CPUs; each
# must get nodes of its own (they used to all pin the same idle nodes and
# queue behind each other while 10 nodes sat idle).
wait_until 60 all_idle || fail "precondition: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
for i in 1 2 3 4 5 6; do
    srun -n 16 --tofa-matrix=st16.mat -l bash -c \
        'echo $SLURMD_NODENAME; sleep 3' > "$DATA/out-concurrent-$i" 2>&1 &
done
wait
sets=$(for i in 1 2 3 4 5 6; do layout < "$DATA/out-concurrent-$i" | awk '{ print $2 }' | sort -u | tr '\n' ' '; echo; done)
all=$(tr ' ' '\n' <<<"$sets" | grep -c .)
distinct=$(tr ' ' '\n' <<<"$sets" | grep . | sort -u | wc -l)
ran=$(cat "$DATA"/out-concurrent-* | layout | wc -l)
if [ "$ran" -eq 96 ] && [ "$all" -eq "$distinct" ]; then
    pass "6 concurrent direct sruns ran on disjoint nodes: $(tr '\n' '|' <<<"$sets")"
else
    fail "6 concurrent direct sruns: $ran of 96 ranks, nodes $(tr '\n' '|' <<<"$sets")"
fi

# Issue 11: a direct srun is placed when its job starts, not when it is
# submitted. Here it is submitted (--begin=now+3) while 8 nodes are idle;
# a long plain job takes those 8 right after, and the nodes of a short
# plain job free up before the srun may begin. Pinned at submission (up to
# 7e6de2e) it waited for the long job; now it runs on the freed nodes, is
# recorded, and its job ends with the srun.
wait_until 60 all_idle || fail "precondition: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
short=$(sbatch --parsable -N 8 --exclusive -o /dev/null --wrap 'sleep 12')
running() { [ "$(job_state "$1")" = RUNNING ]; }
wait_until 30 running "$short"
timeout 60 srun --begin=now+10 -n 16 --tofa-matrix=st16.mat -J tofa-begin -l bash -c \
    'echo $SLURMD_NODENAME; [ $SLURM_PROCID = 0 ] && echo "job $SLURM_JOB_ID"; true' \
    > "$DATA/out-begin" 2>&1 &
srun_pid=$!
direct_pending() { squeue -h -t PD -o %j | grep -q tofa-begin; }
wait_until 30 direct_pending || fail "the direct srun's job did not queue: $(squeue -h -o '%i %j %T %r' | tr '\n' ';')"
long=$(sbatch --parsable -N 8 --exclusive -o /dev/null --wrap 'sleep 120')
wait_until 30 running "$long"
direct_pending || fail "the direct srun's job started before the long job: the test is void"
long_nodes=$(scontrol show hostnames "$(squeue -h -j "$long" -o %N)" | sort)
wait "$srun_pid"
srun_rc=$?
jid=$(sed -n 's/^ *0: job \([0-9]*\)$/\1/p' "$DATA/out-begin")
ran_on=$(layout < "$DATA/out-begin" | awk '{ print $2 }' | sort -u)
if [ $srun_rc -eq 0 ] && [ -n "$jid" ] && [ -n "$long_nodes" ] &&
    [ -z "$(comm -12 <(echo "$ran_on") <(echo "$long_nodes"))" ] &&
    why=$(ranks_as_recorded "$jid" "$DATA/out-begin" 16); then
    pass "a direct srun submitted while other nodes were idle ran, at its start, on nodes freed since ($(echo $ran_on)), as recorded"
else
    fail "direct srun with --begin: rc $srun_rc, job '${jid:-?}' on '$(echo $ran_on)', long job on '$(echo $long_nodes)' ${why:-}; $(head -c 300 "$DATA/out-begin")"
fi
# COMPLETING (the epilogs still running) is on the way to COMPLETED.
not_completing() { [ "$(job_state "$1")" != COMPLETING ]; }
wait_until 30 not_completing "$jid"
state=$(job_state "$jid")
[ "$state" = COMPLETED ] && pass "the direct srun's job $jid COMPLETED when srun exited" ||
    fail "the direct srun's job $jid is $state after srun exited"

# Ctrl-C while its job is pending cancels the job (the filter waits for the
# allocation, as srun would); a killed srun's running job is cancelled by
# its shepherd.
fill=$(sbatch --parsable -N 8 --exclusive -o /dev/null --wrap 'sleep 120')
wait_until 30 running "$fill"
srun -n 16 --tofa-matrix=st16.mat -J tofa-pending true > "$DATA/out-pending" 2>&1 &
srun_pid=$!
job_named() { squeue -h -n "$1" -t "$2" -o %i | head -1; }   # job_named NAME STATE
has_job_named() { [ -n "$(job_named "$1" "$2")" ]; }
wait_until 30 has_job_named tofa-pending PD
pid_of_pending=$(job_named tofa-pending PD)
kill -INT "$srun_pid"
wait "$srun_pid"
gone() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
if [ -n "$pid_of_pending" ] && wait_until 20 gone "$pid_of_pending"; then
    pass "Ctrl-C on a direct srun whose job was pending cancelled job $pid_of_pending ($(job_state "$pid_of_pending"))"
else
    fail "Ctrl-C on a pending direct srun: job '${pid_of_pending:-none}' still $(job_state "$pid_of_pending")"
fi
scancel "$long" "$fill"
wait_until 30 gone "$long"
wait_until 30 gone "$fill"
srun -n 16 --tofa-matrix=st16.mat -J tofa-killed sleep 120 > /dev/null 2>&1 &
srun_pid=$!
wait_until 30 has_job_named tofa-killed R
killed=$(job_named tofa-killed R)
kill -KILL "$srun_pid"
wait "$srun_pid" 2>/dev/null
if [ -n "$killed" ] && wait_until 30 gone "$killed"; then
    pass "srun killed with SIGKILL: its shepherd ended job $killed ($(job_state "$killed"))"
else
    fail "srun killed with SIGKILL: job '${killed:-none}' still $(job_state "$killed")"
fi

# -n 4 -c 2 where 3 nodes have 3 free CPUs each: cons_tres grants 7 CPUs
# (fewer than 4 x 2) and Slurm's step, which does not inherit -c, runs a
# task per CPU there. The placement on that allocation (1 task per node by
# CPUs / -c) failed and left Slurm's layout unrecorded (job_stream seed 1,
# an array task of -n 8 -c 2 on 15 CPUs); it now counts CPUs then.
wait_until 60 all_idle || fail "precondition: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
holders=()
for n in $(seq 4 16); do holders+=("$(sbatch --parsable -o /dev/null -w "t$n" --exclusive --wrap 'sleep 60')"); done
for n in 1 2 3; do holders+=("$(sbatch --parsable -o /dev/null -w "t$n" -n 5 --wrap 'sleep 60')"); done
all_holding() { [ "$(squeue -h -t R -o %i | wc -l)" -eq 16 ]; }
wait_until 30 all_holding || fail "precondition: $(squeue -h -t R -o %i | wc -l) of 16 holders run"
c2=$(sbatch --parsable -n 4 -c 2 --tofa-matrix=st4.mat -o "$DATA/out-c2" --wrap 'srun -l printenv SLURMD_NODENAME')
# 24.11 and 26.05 grant it no fewer than 8 CPUs: it waits for the holders.
wait_until $TMO finished "$c2"
# The same CPUs for a direct srun, whose step does carry -c 2: cons_tres
# grants the job 7 CPUs there too, no layout runs 4 tasks of 2 CPUs on them,
# and Slurm's own step says so. TOFA's srun must end as the plain one does
# (job_stream's p2-04, srun -n 16 -c 2, failed 1 run in 5 with "Requested
# node configuration is not available" where plain Slurm fails too).
step_error() { grep -o 'Unable to create step for job [0-9]*: .*' <<<"$1" | sed 's/job [0-9]*/job N/'; }
plain_out=$(srun -n 4 -c 2 true 2>&1)
plain_rc=$?
out=$(srun -n 4 -c 2 --tofa-matrix=st4.mat -l bash -c \
    'echo $SLURMD_NODENAME; [ $SLURM_PROCID = 0 ] && echo "job $SLURM_JOB_ID"; true' 2>&1)
rc=$?
echo "$out" > "$DATA/out-srun-c2"
jid=$(sed -n 's/^ *0: job \([0-9]*\)$/\1/p' "$DATA/out-srun-c2")
if [ $plain_rc -ne 0 ] && [ $rc -ne 0 ] && [ -n "$(step_error "$plain_out")" ] \
        && [ "$(step_error "$out")" = "$(step_error "$plain_out")" ] \
        && grep -q "srun lays them out as without TOFA" <<<"$out"; then
    pass "direct srun -n 4 -c 2 on the same CPUs ends as the plain one: $(step_error "$out")"
elif [ $plain_rc -eq 0 ] && [ $rc -eq 0 ] && [ -n "$jid" ] && why=$(ranks_as_recorded "$jid" "$DATA/out-srun-c2" 4); then
    pass "direct srun -n 4 -c 2 on the same CPUs ran as the plain one did: job $jid placed on its allocation, ranks as recorded"
else
    fail "direct srun -n 4 -c 2: plain rc $plain_rc '$(step_error "$plain_out")', TOFA rc $rc (job ${jid:-?}) ${why:-}: $(grep -v '^ *[0-9]*: ' "$DATA/out-srun-c2" | head -n 3)"
fi
scancel "${holders[@]}"
wait_until $TMO finished "$c2"
cpus=$(scontrol show job "$c2" | sed -n 's/.*NumCPUs=\([0-9]*\).*/\1/p')
if [ "$(job_state "$c2")" = COMPLETED ] && why=$(ranks_as_recorded "$c2" "$DATA/out-c2" 4); then
    pass "sbatch -n 4 -c 2 granted $cpus CPUs: placed on its allocation, recorded, ranks as recorded"
else
    fail "sbatch -n 4 -c 2 job $c2 ($cpus CPUs): $(job_state "$c2") ${why:-}; $(grep -m1 "job $c2: no TOFA" "$DIR/log/slurmctld.log")"
fi

# Issue 38 (7): a step with another graph of the job's task count reused
# the job's placement (computed for the job's graph). pairs8 pairs ranks
# 0-1, 2-3, 4-5, 6-7 on a node each (2 tasks per node); crossed8 pairs 0-7,
# 1-6, 2-5, 3-4: its step must put those together instead.
matrix 8 "0 7 100000" "1 6 100000" "2 5 100000" "3 4 100000" "0 1 10" "2 3 10" > "$DATA/crossed8.mat"
chmod 0644 "$DATA/crossed8.mat"
wait_until 60 all_idle || fail "precondition: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
jid=$(sbatch --parsable -N 4 -n 8 --ntasks-per-node=2 --tofa-matrix=pairs8.mat -o "$DATA/out-crossed" \
    --wrap "srun --tofa-matrix=$DATA/crossed8.mat -l printenv SLURMD_NODENAME")
wait_until $TMO finished "$jid"
node_of() { layout < "$DATA/out-crossed" | awk -v r="$1" '$1 == r { print $2 }'; }
together=0
for pair in "0 7" "1 6" "2 5" "3 4"; do
    set -- $pair
    [ -n "$(node_of "$1")" ] && [ "$(node_of "$1")" = "$(node_of "$2")" ] && together=$((together + 1))
done
if [ "$(job_state "$jid")" = COMPLETED ] && [ "$together" -eq 4 ]; then
    pass "a step with another 8-task graph in job $jid was placed for its graph: its 4 heavy pairs each on one node ($(layout < "$DATA/out-crossed" | awk '{ print $2 }' | paste -sd, -)); the job's record $(recorded "$jid")"
else
    fail "step with crossed8.mat in job $jid ($(job_state "$jid")): $together of 4 heavy pairs on one node: $(layout < "$DATA/out-crossed" | awk '{ print $2 }' | paste -sd, -), the job's record $(recorded "$jid")"
fi

# -n 10 -c 3 on idle 8-CPU nodes: cons_tres grants 28 CPUs on 4 nodes (8,
# 8, 8, 4), too few for 10 tasks at CPUs / -c, and Slurm's step puts 3, 3,
# 2, 2 there. At a91dca4 the placement then took a task per CPU and recorded
# 7 tasks (21 CPUs) on one node (issue 39 (6)); now at most CPUs / -c
# rounded up, 3.
wait_until 60 all_idle || fail "precondition: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
c3=$(sbatch --parsable -n 10 -c 3 --tofa-matrix=st10.mat -o "$DATA/out-c3" --wrap 'srun -l printenv SLURMD_NODENAME')
wait_until $TMO finished "$c3"
most=$(recorded "$c3" | tr ',' '\n' | sort | uniq -c | awk '$1 > m { m = $1 } END { print m + 0 }')
if [ "$(job_state "$c3")" = COMPLETED ] && why=$(ranks_as_recorded "$c3" "$DATA/out-c3" 10) \
        && [ "$most" -le 3 ]; then
    pass "sbatch -n 10 -c 3: at most $most tasks on a node (8 CPUs), ranks as recorded ($(recorded "$c3"))"
else
    fail "sbatch -n 10 -c 3 job $c3: $(job_state "$c3") ${why:-}, $most tasks on a node: $(recorded "$c3")"
fi

# A recorded placement naming nodes outside the job's allocation (as an
# earlier scheduling attempt of the job may leave one, or on 24.11/26.05 the
# placement made when the job was submitted) is not used: the srun inside
# places its step on the allocation, and records that, instead of failing.
wait_until 60 all_idle || fail "precondition: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
jid=$(sbatch --parsable -N 1 -n 4 --tofa-matrix=st4.mat -o "$DATA/out-stale" \
    --wrap "while [ ! -e '$DATA/go-stale' ]; do sleep 0.2; done; srun -l printenv SLURMD_NODENAME")
job_running() { [ "$(job_state "$1")" = RUNNING ]; }
wait_until 30 job_running "$jid"
own=$(squeue -h -j "$jid" -o %N)
other=t1; [ "$own" = t1 ] && other=t2
graph=$(query "JOB job=$jid" 2>/dev/null | sed -n 's/.* graph=\([^ ]*\).*/\1/p')
planted=$(query "PLACE graph=$graph job=$jid tasks=4 slots=0 candidates=$other:4" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
touch "$DATA/go-stale"
wait_until $TMO finished "$jid"
ran=$(layout < "$DATA/out-stale" | awk '{ print $2 }' | sort -u | paste -sd, -)
if [ "$(job_state "$jid")" = COMPLETED ] && [ -n "$planted" ] && [ "$ran" = "$own" ] \
        && grep -q "recorded placement is not within its allocation" "$DATA/out-stale" \
        && why=$(ranks_as_recorded "$jid" "$DATA/out-stale" 4); then
    pass "job $jid on $own with a recorded placement on $other ($planted): srun placed its step on $own instead and recorded that"
else
    fail "job $jid on '$own', placement planted on $other: '$planted'; $(job_state "$jid"), ranks on '$ran' ${why:-}; $(grep -v '^ *[0-9]*: ' "$DATA/out-stale" | head -n 3)"
fi
checks_done
