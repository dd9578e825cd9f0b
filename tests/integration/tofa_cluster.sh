#!/bin/bash
# Integration test of the tofa Slurm plugins on a real mini-cluster (munged,
# slurmctld, 8 slurmd on loopback; scripts/minicluster.sh): topology/tofa,
# select/cons_tres with the TOFA shim, slurmctld/tofa (the TOFA service), cli_filter/tofa,
# tofa_loadmatrix and tofa_nodestate. Needs root. Checks:
#   (a) srun --tofa-matrix: every task on a node where the placement's
#       optimality requires it (heavy pairs on neighbouring torus nodes);
#   (b) sbatch --tofa-matrix: node set chosen at scheduling time, srun inside
#       follows the recorded mapping;
#   (c) a killed slurmd: outage probability > 0, the next TOFA jobs avoid it;
#   (d) slurmctld restart: graphs, histories and recorded mappings survive;
#   (e) jobs without --tofa-matrix: same nodes and layout as plain cons_tres;
#   (f) malformed matrix, wrong task count, another user's graph id,
#       oversized graph: clear errors, nothing submitted;
#   (g) a broken tofa.conf: logged with its line on reconfigure (slurmctld
#       keeps running), fatal with its line at startup.
# Environment:
#   TOFA_PLUGIN_DIR         the built plugins (default $top_builddir/plugins/.libs)
#   TOFA_LIB_DIR            directory of libtofa.so (default $top_builddir/common/.libs)
#   TOFA_QUERY              the tofa_query helper (default: next to this script in
#                           the build tree, else TOFA_PLUGIN_DIR/tofa_query)
#   TOFA_CLUSTER_DIR        working directory (default /tmp/tofa-plugins-cluster)
#   TOFA_CLUSTER_PORT_BASE  first port (default 17400; the service uses +50,
#                           the responders slurmd port + 100)
#   TOFA_KEEP_CLUSTER=1     leave the cluster running at the end
#   TOFA_SLURM_RELEASE      24.11 or 26.05: the same checks on that release
#                           (lib_tofa_cluster.sh: its Slurm, plugin build and
#                           slurm.conf); default working directory
#                           /tmp/tofa-plugins-cluster-RELEASE, port base 20400
#                           (24.11) or 20600 (26.05). There topology/tofa
#                           chooses TOFA jobs' nodes and runs the service (no
#                           select shim, no slurmctld/tofa), so: the CoreCnt
#                           reservation is Slurm's own cons_tres's beside
#                           topology/tofa; the log lines checked are
#                           topology/tofa's (topology_p_generate_node_ranking,
#                           _tofa_choose); (e) compares with Slurm's own
#                           topology plugin (topology/default on 24.11,
#                           topology/flat on 26.05), its nodes renamed into
#                           topology/tofa's snake order; (g) reconfigure starts
#                           a new slurmctld, which stops at the broken tofa.conf
#                           (fatal, with the line) while the running one carries
#                           on; (g) at startup keeps munged up (auth/munge is
#                           set up before the topology plugin).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib_tofa_cluster.sh"

tofa_lib_require_root_and_plugins
tofa_lib_write_config
printf '3\n0 1 2\n1 x 0\n2 0 0\n' > "$DATA/bad.mat"            # line 3, column 3
for i in $(seq 0 98); do echo "$i $((i + 1)) 5"; done > "$DATA/big.edges"   # 100 tasks > 64
chmod 0644 "$DATA"/*

job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
wait_job() {   # wait_job ID -> final state
    local s
    for _ in $(seq 1 $((TMO * 5))); do
        s=$(job_state "$1")
        case "$s" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE) break ;; esac
        sleep 0.2
    done
    echo "$s"
}
job_nodes() { scontrol show job "$1" 2>/dev/null | sed -n 's/^ *NodeList=\([^ ]*\).*/\1/p' | head -n 1; }
expand() { scontrol show hostnames "$1" | sort -V | tr '\n' ' '; }


# ---- bring up ----------------------------------------------------------------
if ! cluster_up; then
    fail "minicluster up with the tofa plugins"
    tail -n 20 "$DIR/log/slurmctld.log" 2>/dev/null
    exit 1
fi
started=yes
export SLURM_CONF=$DIR/etc/slurm.conf
if [ -z "$TOFA_RELEASE" ]; then
    pass "minicluster up: $NODES nodes idle with topology/tofa, select/cons_tres (TOFA shim), slurmctld/tofa, cli_filter/tofa"
else
    pass "minicluster up ($RELEASE_DESC): $NODES nodes idle with topology/tofa (TOFA node choice, service), Slurm's select/cons_tres, cli_filter/tofa"
fi
cd "$DATA" || exit 1

# Issue 16: the select shim is select/cons_tres by name and id, so what Slurm
# keys on them works: scontrol accepts CoreCnt only for cons_tres's plugin id.
# (That the shim runs: (b) finds its "TOFA chose" line.) 24.11/26.05 have no
# shim (Slurm's own cons_tres): the reservation must work beside topology/tofa.
if [ -z "$TOFA_RELEASE" ]; then what="with the TOFA select shim"
else what="with Slurm's own select/cons_tres beside topology/tofa (no shim on $TOFA_RELEASE)"; fi
if reply=$(scontrol create reservation reservationname=cores starttime=now duration=5 \
            users=root corecnt=1 nodes=t1 2>&1) &&
        scontrol show reservation cores 2>/dev/null | grep -q 'CoreCnt=1'; then
    pass "a CoreCnt reservation is accepted $what"
else
    fail "CoreCnt reservation $what: ${reply:-}"
fi
scontrol delete reservation=cores >/dev/null 2>&1

if grep -q "topology/tofa: $RANKING_FUNC: 8 nodes ranked" "$DIR/log/slurmctld.log"; then
    pass "topology/tofa ranked the 8 nodes along the snake order"
else
    fail "no ranking message from topology/tofa in slurmctld.log"
fi
# Heartbeats missed while the slurmd were starting leave the 5-round window.
if wait_until 30 all_answered && wait_until 30 all_fault_free; then
    pass "service answers; all $NODES responders answer heartbeats, every outage probability is 0"
else
    fail "responders: $(query NODES 2>&1 | head -n 12)"
fi

# ---- (a) direct srun ----------------------------------------------------------
out=$(timeout $TMO srun --tofa-matrix=pairs8.mat -n 8 -l printenv SLURMD_NODENAME 2>&1)
rc=$?
lay=$(layout <<<"$out")
if [ $rc -eq 0 ] && why=$(check_pairs "$lay" 8); then
    pass "(a) srun --tofa-matrix -n 8: heavy pairs on neighbouring nodes: $(awk '{ printf "%s:%s ", $1, $2 }' <<<"$lay")"
else
    fail "(a) srun --tofa-matrix -n 8 (rc $rc): ${why:-} output: $out"
fi
graph_a=$(query GRAPHS 2>/dev/null | sed -n 's/^graph id=\([^ ]*\).*/\1/p' | head -n 1)

# ---- (b) sbatch: placement at scheduling time, srun inside follows it ----------
cat > "$DATA/job_b.sh" <<'JOB'
#!/bin/bash
# A step of another size inherits the graph but keeps Slurm's layout.
srun -n 1 true || echo "SMALL STEP FAILED"
srun -l printenv SLURMD_NODENAME
JOB
jid_b=$(sbatch --parsable --tofa-matrix=pairs4.mat -n 4 -o "$DATA/job_b.out" "$DATA/job_b.sh" 2>&1)
state=$(wait_job "$jid_b")
alloc=$(job_nodes "$jid_b")
recorded=$(query "PLACEMENT job=$jid_b" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
lay=$(layout < "$DATA/job_b.out" 2>/dev/null)
ran=$(awk '{ print $2 }' <<<"$lay" | paste -sd, -)
if [ "$state" = COMPLETED ] && [ -n "$recorded" ] && [ "$ran" = "$recorded" ] \
        && ! grep -q "SMALL STEP FAILED" "$DATA/job_b.out" \
        && [ "$(expand "$alloc")" = "$(tr ',' '\n' <<<"$recorded" | sort -uV | tr '\n' ' ')" ] \
        && why=$(check_pairs "$lay" 4); then
    pass "(b) sbatch job $jid_b: allocation $alloc = placement nodes; srun inside ran tasks on $ran as recorded (a 1-task step ran too)"
else
    fail "(b) sbatch job $jid_b: state '$state', allocation '$alloc', recorded '$recorded', ran '$ran' ${why:-}; $(cat "$DATA/job_b.out" 2>/dev/null | head -n 5)"
fi
grep -q "$(tofa_chose_pattern "$jid_b")" "$DIR/log/slurmctld.log" \
    && pass "(b) slurmctld log: TOFA chose job $jid_b's nodes${TOFA_RELEASE:+ (topology/tofa eval_nodes)}" \
    || fail "(b) no 'TOFA chose its' line for job $jid_b in slurmctld.log"

# ---- (e, part 1) jobs without a graph: layouts with the TOFA select shim ---------
plain_layouts() {
    local j
    # Before each job: a node still completing the previous one would move
    # the next job elsewhere on one cluster and not on the other.
    idle() { wait_until 30 all_idle || note "warning: not all nodes idle: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"; }
    idle; timeout $TMO srun -n 8 -l printenv SLURMD_NODENAME 2>&1 | layout | tr '\n' ' '; echo
    idle; timeout $TMO srun -N 3 -n 5 -l printenv SLURMD_NODENAME 2>&1 | layout | tr '\n' ' '; echo
    idle; timeout $TMO srun -n 1 -l printenv SLURMD_NODENAME 2>&1 | layout | tr '\n' ' '; echo
    idle
    j=$(sbatch --parsable -n 6 -o /dev/null --wrap 'sleep 1' 2>&1)
    wait_job "$j" >/dev/null
    echo "sbatch -n 6: $(job_nodes "$j")"
}
layouts_tofa=$(plain_layouts)
# 24.11/26.05: the node table order (index order = topology/tofa's torus
# snake order) for (e).
node_order() { scontrol show node -o | sed -n 's/^NodeName=\([^ ]*\) .*/\1/p' | tr '\n' ' '; }
[ -z "$TOFA_RELEASE" ] || order_tofa=$(node_order)

# ---- (c) a dead slurmd is avoided ----------------------------------------------
# The victim is a node the fault-free placement of (b) used.
victim=$(cut -d, -f1 <<<"$recorded")
victim=${victim:-t3}
pid=$(cat "$DIR/run/slurmd-$victim.pid" 2>/dev/null)
p_before=$(outage $victim)
kill -9 "$pid" 2>/dev/null
positive() { local p; p=$(outage $victim); [ -n "$p" ] && awk -v p="$p" 'BEGIN { exit !(p > 0) }'; }
if [ "$p_before" = 0 ] && wait_until 30 positive; then
    pass "(c) slurmd $victim killed: outage probability $p_before -> $(outage $victim)"
else
    fail "(c) outage of $victim stays '$(outage $victim)' after killing its slurmd"
fi
out=$(timeout $TMO srun --tofa-matrix=pairs4.mat -n 4 -l printenv SLURMD_NODENAME 2>&1)
rc=$?
lay=$(layout <<<"$out")
if [ $rc -eq 0 ] && ! grep -qw $victim <<<"$lay" && why=$(check_pairs "$lay" 4); then
    pass "(c) srun --tofa-matrix avoids $victim: $(awk '{ printf "%s:%s ", $1, $2 }' <<<"$lay")"
else
    fail "(c) srun after the outage (rc $rc): ${why:-} $out"
fi
jid_c=$(sbatch --parsable --tofa-matrix=pairs4.mat -n 4 -o /dev/null --wrap 'srun true' 2>&1)
state=$(wait_job "$jid_c")
alloc=$(job_nodes "$jid_c")
if [ "$state" = COMPLETED ] && ! grep -qw $victim <<<"$(expand "$alloc")"; then
    pass "(c) sbatch --tofa-matrix job $jid_c avoids $victim: $alloc"
else
    fail "(c) sbatch job $jid_c: state '$state', nodes '$alloc'"
fi
slurmd -N $victim 2>/dev/null || true
node_ok() { [ "$(sinfo -h -n $victim -o %T)" = idle ]; }
wait_until 40 node_ok || fail "precondition: $victim is '$(sinfo -h -n $victim -o %T)' after restarting its slurmd"

# ---- (d) slurmctld restart ---------------------------------------------------------
placement_b=$recorded
missed() { query NODES 2>/dev/null | grep "name=$1 " | grep -o 'missed=[0-9]*' | cut -d= -f2; }
missed_before=$(missed $victim)
graphs_before=$(query GRAPHS 2>/dev/null | sed -n 's/^graph id=\([^ ]*\).*/\1/p' | sort | tr '\n' ' ')
ctld_pid=$(cat "$DIR/run/slurmctld.pid")
scontrol shutdown slurmctld >/dev/null 2>&1
gone() { ! kill -0 "$ctld_pid" 2>/dev/null; }
wait_until 30 gone || fail "precondition: slurmctld $ctld_pid still running"
slurmctld >/dev/null 2>&1
ping_ok() { scontrol ping 2>/dev/null | grep -q UP && query PING >/dev/null 2>&1; }
if wait_until 40 ping_ok; then
    wait_until 40 all_idle || fail "precondition: not all nodes idle after the restart: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
    after=$(query "PLACEMENT job=$jid_b" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
    graphs_after=$(query GRAPHS 2>/dev/null | sed -n 's/^graph id=\([^ ]*\).*/\1/p' | sort | tr '\n' ' ')
    missed_after=$(missed $victim)
    if [ -n "$placement_b" ] && [ "$after" = "$placement_b" ]; then
        pass "(d) after the restart job $jid_b's mapping is still $after"
    else
        fail "(d) job $jid_b's mapping was '$placement_b', is '$after'"
    fi
    if [ -n "$graphs_before" ] && [ "$graphs_after" = "$graphs_before" ]; then
        pass "(d) graphs survive: $graphs_after"
    else
        fail "(d) graphs before '$graphs_before', after '$graphs_after'"
    fi
    if [ -n "$missed_before" ] && [ "$missed_before" -gt 0 ] && [ "${missed_after:-0}" -ge "$missed_before" ]; then
        pass "(d) heartbeat history survives: $victim missed $missed_before heartbeats before the restart, $missed_after after"
    else
        fail "(d) $victim missed '$missed_before' heartbeats before, '$missed_after' after the restart"
    fi
    out=$(timeout $TMO env TOFA_GRAPH_ID="$graph_a" srun -n 8 -l printenv SLURMD_NODENAME 2>&1)
    lay=$(layout <<<"$out")
    if [ -n "$graph_a" ] && why=$(check_pairs "$lay" 8); then
        pass "(d) the graph uploaded before the restart still places a job (by id $graph_a)"
    else
        fail "(d) TOFA_GRAPH_ID=$graph_a srun after the restart: ${why:-} $out"
        tail -n 25 "$DIR/log/slurmctld.log"
    fi
else
    fail "(d) slurmctld or the service did not come back: $(tail -n 5 "$DIR/log/slurmctld.log")"
fi

# ---- (f) errors -----------------------------------------------------------------------
last_job() { scontrol show config >/dev/null 2>&1; squeue -h -t all -o %i 2>/dev/null | sort -n | tail -n 1; }
next_id() { timeout $TMO srun -n 1 printenv SLURM_JOB_ID 2>/dev/null; }
before=$(next_id)
out=$(timeout $TMO srun --tofa-matrix=bad.mat -n 3 true 2>&1); rc=$?
after=$(next_id)
if [ $rc -ne 0 ] && grep -q 'bad.mat:3:' <<<"$out" && [ -n "$before" ] && [ "$after" = $((before + 1)) ]; then
    pass "(f) malformed matrix: exit $rc, '$(grep -o 'bad.mat:3:[^;]*' <<<"$out" | head -n 1)', no job submitted"
else
    fail "(f) malformed matrix: rc $rc, jobs $before -> $after, output: $out"
fi
out=$(timeout $TMO srun --tofa-matrix=pairs8.mat -n 4 true 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'ntasks=4 but the communication graph .*pairs8.mat has 8 tasks' <<<"$out"; then
    pass "(f) wrong task count: $(grep -o 'srun --ntasks=4 but[^$]*' <<<"$out" | head -n 1)"
else
    fail "(f) wrong task count: rc $rc, output: $out"
fi
out=$(cd /tmp && timeout $TMO runuser -u nobody -- env SLURM_CONF="$SLURM_CONF" LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" \
        TOFA_GRAPH_ID="$graph_a" srun -n 8 true 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "unknown graph id" <<<"$out"; then
    pass "(f) user nobody cannot use root's graph $graph_a: $(grep -o 'unknown graph id[^$]*' <<<"$out" | head -n 1)"
else
    fail "(f) user nobody with root's graph id: rc $rc, output: $out"
fi
out=$(timeout $TMO srun --tofa-matrix=big.edges -n 100 true 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -qi 'MaxGraphTasks\|64' <<<"$out"; then
    pass "(f) oversized graph rejected: $(grep -i 'tofa' <<<"$out" | head -n 1)"
else
    fail "(f) oversized graph: rc $rc, output: $out"
fi

# ---- (h) a pattern instead of a profile (issue 37) -------------------------------
# A 1D non-periodic halo of 8 ranks with a heavy face: -n comes from the
# pattern; ranks i and i+1 talk, so the chain must run on neighbouring nodes.
pattern='halo:ranks=8,cells=4096,bytes=1M,periodic=no'
out=$(timeout $TMO srun --tofa-pattern="$pattern" -l printenv SLURMD_NODENAME 2>&1); rc=$?
lay=$(layout <<<"$out")
far=$(awk 'NR > 1 { print prev, $2 } { prev = $2 }' <<<"$lay" | while read -r a b; do
    [ "$(hops "$a" "$b")" -le 1 ] || echo "$a-$b"; done)
if [ $rc -eq 0 ] && [ "$(wc -l <<<"$lay")" -eq 8 ] && [ -z "$far" ] &&
        query GRAPHS 2>/dev/null | grep -q "name=pattern:halo:ranks%3D8,cells%3D4096,.* tasks=8 "; then
    pass "(h) srun --tofa-pattern=$pattern: 8 tasks (from the pattern), consecutive ranks 0-1 hop apart: $(awk '{ printf "%s:%s ", $1, $2 }' <<<"$lay")"
else
    fail "(h) srun --tofa-pattern (rc $rc): far pairs '${far:-}', output: $out; $(query GRAPHS 2>&1 | tail -n 2)"
fi
jid_h=$(sbatch --parsable --tofa-pattern="$pattern" -o /dev/null --wrap 'srun true' 2>&1)
if [[ "$jid_h" =~ ^[0-9]+$ ]] && [ "$(wait_job "$jid_h")" = COMPLETED ] &&
        [ "$(scontrol show job "$jid_h" 2>/dev/null | sed -n 's/.* NumTasks=\([0-9]*\).*/\1/p')" = 8 ]; then
    pass "(h) sbatch --tofa-pattern: job $jid_h of 8 tasks completed on $(job_nodes "$jid_h")"
else
    fail "(h) sbatch --tofa-pattern: '$jid_h' $(scontrol show job "$jid_h" 2>&1 | head -n 3)"
fi
before=$(next_id)
out=$(timeout $TMO srun --tofa-pattern='halo:ranks=8,cells=16x16' true 2>&1); rc=$?
out2=$(timeout $TMO srun --tofa-pattern="$pattern" --tofa-matrix=pairs8.mat true 2>&1); rc2=$?
after=$(next_id)
if [ $rc -ne 0 ] && grep -q "at column 14: cells=16x16: expected one positive size" <<<"$out" &&
        [ $rc2 -ne 0 ] && grep -q "give one of --tofa-matrix and --tofa-pattern" <<<"$out2" &&
        [ -n "$before" ] && [ "$after" = $((before + 1)) ]; then
    pass "(h) bad pattern: '$(grep -o "bad pattern.*" <<<"$out" | head -n 1)'; both options refused; no job submitted"
else
    fail "(h) bad pattern: rc $rc '$out'; both options: rc $rc2 '$out2'; jobs $before -> $after"
fi

# ---- (i) the running jobs' links (issue 37) ----------------------------------------
# slurmctld reports its running jobs to the service every few seconds; the
# links of a running job's placement carry its bytes x hops in all (its
# hop_bytes), and they are gone once it ends.
link_total() { query "LINKS top=0" 2>/dev/null | awk -F'bytes=' '/^link / { split($2, b, " "); s += b[1] } END { printf "%.6g", s + 0 }'; }
job_field() { query "JOB job=$1" 2>/dev/null | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }
counted() { [ -n "$(job_field "$jid_i" shared_traffic)" ]; }
only_its_links() { [ "$(link_total)" = "$(job_field "$jid_i" hop_bytes | awk '{ printf "%.6g", $1 }')" ]; }
links_gone() { [ "$(link_total)" = 0 ]; }
jid_i=$(sbatch --parsable --tofa-matrix=pairs8.mat -n 8 -o /dev/null --wrap 'sleep 20' 2>&1)
# Jobs of the checks above may still be ending: their links go with them.
if [[ "$jid_i" =~ ^[0-9]+$ ]] && wait_until 40 counted && wait_until 20 only_its_links; then
    hop_bytes=$(job_field "$jid_i" hop_bytes)
    shared=$(job_field "$jid_i" shared_traffic)
    total=$(link_total)
    # tofactl links --svg draws every loaded link (a line, or a dot between planes).
    loaded=$(query "LINKS top=0" 2>/dev/null | grep -c '^link ')
    "$BUILDDIR/tools/tofactl" --conf "$TOFA_CONF" --host "127.0.0.1:$SERVICE_PORT" \
        --munge-socket "$MUNGE_SOCKET" links --top 3 --svg "$DATA/links.svg" >"$DATA/links.out" 2>&1
    drawn=$(grep -cE "bytes</title></(line|circle)>" "$DATA/links.svg" 2>/dev/null)
    scancel "$jid_i"
    if [ "$shared" = 0 ] && [ "$loaded" -gt 0 ] && [ "$drawn" = "$loaded" ] && wait_until 40 links_gone; then
        pass "(i) job $jid_i running: its links carry $total bytes = its hop_bytes ($hop_bytes), shared_traffic=$shared; tofactl links --svg drew its $drawn links; gone once it ended"
    else
        fail "(i) links of job $jid_i: total $total, hop_bytes $hop_bytes, shared '$shared', $loaded links, $drawn drawn ($(tail -n 2 "$DATA/links.out")), after the end: $(link_total)"
    fi
else
    fail "(i) job '$jid_i': counted '$(job_field "$jid_i" shared_traffic)', links total $(link_total), its hop_bytes $(job_field "$jid_i" hop_bytes): $(query 'LINKS top=0' 2>&1 | head -n 3)"
    scancel "$jid_i" 2>/dev/null
fi

# ---- (g, part 1) a broken tofa.conf on reconfigure: logged, slurmctld runs on ----
cp "$TOFA_CONF" "$DATA/tofa.conf.good"
printf 'Dims=2x2x2 Wrap=yes\nNodeName=t[1-8]\nNodeName=t9 Coord=1,0,0\n' > "$TOFA_CONF"
if [ -z "$TOFA_RELEASE" ]; then
    scontrol reconfigure >/dev/null 2>&1
    sleep 2
    if scontrol ping 2>/dev/null | grep -q UP \
            && grep -q "$RANKING_FUNC: $TOFA_CONF:3:.*nodes keep name order" "$DIR/log/slurmctld.log" \
            && timeout $TMO srun -n 1 true; then
        pass "(g) broken tofa.conf on reconfigure: error logged with the line, slurmctld keeps running"
    else
        fail "(g) reconfigure with a broken tofa.conf: $(grep tofa "$DIR/log/slurmctld.log" | tail -n 3)"
    fi
else
    # 24.11/26.05 reconfigure by starting a new slurmctld (fork + exec) that
    # reads every file afresh; it stops at the broken tofa.conf as at startup
    # (fatal, with the line), and the running slurmctld carries on.
    ctld_pid=$(cat "$DIR/run/slurmctld.pid")
    scontrol reconfigure >/dev/null 2>&1
    logged() { grep -q "fatal: topology/tofa: $RANKING_FUNC: $TOFA_CONF:3:" "$DIR/log/slurmctld.log"; }
    wait_until 30 logged
    sleep 1
    # The good file back first: query (a client) reads ServicePort from it.
    cp "$DATA/tofa.conf.good" "$TOFA_CONF"
    if logged && kill -0 "$ctld_pid" 2>/dev/null && scontrol ping 2>/dev/null | grep -q UP \
            && query PING >/dev/null 2>&1 && timeout $TMO srun -n 1 true; then
        pass "(g) broken tofa.conf on reconfigure: the new slurmctld refuses it with the line ($(grep -o "$TOFA_CONF:3:[^(]*" "$DIR/log/slurmctld.log" | head -n 1)), slurmctld $ctld_pid and its TOFA service keep running"
    else
        fail "(g) reconfigure with a broken tofa.conf: slurmctld $ctld_pid $(kill -0 "$ctld_pid" 2>/dev/null && echo runs || echo gone), TOFA service: $(query PING 2>&1 | head -n 1); $(grep tofa "$DIR/log/slurmctld.log" | tail -n 3)"
    fi
fi
cp "$DATA/tofa.conf.good" "$TOFA_CONF"

# ---- (e, part 2) the same jobs on plain cons_tres -------------------------------------
"$MINICLUSTER" down --dir "$DIR" >/dev/null 2>&1
tofa_select_conf plain
if cluster_up; then
    layouts_plain=$(plain_layouts)
    if [ -n "$TOFA_RELEASE" ]; then
        # Slurm's own topology plugin keeps the node table in name order,
        # topology/tofa in the snake order; Slurm's generic choice goes by
        # node index, so the same job gets the nodes of the same indexes:
        # rename node i of this order to node i of topology/tofa's.
        order_plain=$(node_order)
        layouts_plain=$(awk -v from="$order_plain" -v to="$order_tofa" '
            BEGIN { n = split(from, f, " "); split(to, t, " "); for (i = 1; i <= n; i++) m[f[i]] = t[i] }
            /^sbatch/ { print; next }
            { for (i = 1; i <= NF; i++) if ($i in m) $i = m[$i]; print $0 (NF ? " " : "") }' <<<"$layouts_plain")
        sb=$(sed -n 's/^sbatch -n 6: //p' <<<"$layouts_plain")
        if [ -n "$sb" ]; then
            sb=$(scontrol show hostnames "$sb" | awk -v from="$order_plain" -v to="$order_tofa" '
                BEGIN { n = split(from, f, " "); split(to, t, " "); for (i = 1; i <= n; i++) m[f[i]] = t[i] }
                { print ($1 in m) ? m[$1] : $1 }' | sort -V | paste -sd, -)
            layouts_plain=$(sed "s/^sbatch -n 6: .*/sbatch -n 6: $(scontrol show hostlist "$sb")/" <<<"$layouts_plain")
        fi
        note "$TOFA_RELEASE: Slurm's own topology plugin's layouts with node i of its order ($order_plain) renamed to node i of topology/tofa's ($order_tofa)"
    fi
    if [ "$layouts_tofa" = "$layouts_plain" ] && [ -n "$(tr -d ' \n' <<<"$layouts_plain")" ]; then
        pass "(e) jobs without --tofa-matrix: same nodes and layout as Slurm's own select/cons_tres${TOFA_RELEASE:+ and topology plugin}"
        while IFS= read -r l; do note "$l"; done <<<"$layouts_plain"
    else
        if [ -z "$TOFA_RELEASE" ]; then
        fail "(e) layouts differ: with the TOFA select shim:
$layouts_tofa
Slurm's own select/cons_tres:
$layouts_plain"
        else
            fail "(e) layouts differ: with topology/tofa:
$layouts_tofa
Slurm's own topology plugin, nodes renamed to topology/tofa's order:
$layouts_plain"
        fi
    fi
else
    fail "(e) cluster with Slurm's own select/cons_tres did not come up"
fi

# ---- (g) a broken tofa.conf stops slurmctld at startup, naming file and line ----
if [ -z "$TOFA_RELEASE" ]; then
    "$MINICLUSTER" down --dir "$DIR" >/dev/null 2>&1
    started=no
else
    # 24.11/26.05's slurmctld sets up auth/munge before the topology plugin
    # ranks the nodes: munged stays up (stop_cluster stops it), the others stop,
    # and slurm.conf names topology/tofa again.
    daemons_gone() { local f; for f in "$DIR"/run/*.pid; do [ -f "$f" ] && kill -0 "$(cat "$f" 2>/dev/null)" 2>/dev/null && return 1; done; return 0; }
    scontrol shutdown >/dev/null 2>&1
    wait_until 30 daemons_gone || fail "precondition: daemons still running: $(cat "$DIR"/run/*.pid 2>/dev/null | tr '\n' ' ')"
    tofa_select_conf tofa
    cluster_conf
fi
ctld_refuses() {   # ctld_refuses LABEL EXPECTED-TEXT: tofa.conf already written
    local out rc
    : > "$DIR/log/slurmctld.log"
    out=$(timeout -k 5 30 slurmctld -D 2>&1); rc=$?  # -k: a slurmctld hung in exit ignores SIGTERM
    out="$out $(cat "$DIR/log/slurmctld.log")"
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qF "$2" <<<"$out"; then
        pass "(g) $1: slurmctld exits ($rc): $(grep -oF "$2" <<<"$out" | head -n 1)..."
    else
        fail "(g) $1: rc $rc, expected '$2' in: $(tail -n 3 <<<"$out")"
        [ $rc -eq 124 ] && "$MINICLUSTER" down --dir "$DIR" >/dev/null 2>&1
    fi
}
# (g, part 2) at startup the same errors are fatal.
printf 'Dims=2x2x2 Wrap=yes\nNodeName=t[1-7]\nNodeName=zz\n' > "$TOFA_CONF"
ctld_refuses "node unknown to slurm.conf" "$TOFA_CONF:3: node 'zz' is not defined in slurm.conf"
printf 'Dims=2x2x2 Wrap=yes\nNodeName=t[1-8]\nNodeName=t9 Coord=1,0,0\n' > "$TOFA_CONF"
ctld_refuses "duplicate coordinate" "$TOFA_CONF:3:"
printf 'Dims=2x2x1 Wrap=yes\nNodeName=t[1-4]\n' > "$TOFA_CONF"
ctld_refuses "slurm.conf node missing from tofa.conf" "slurm.conf node 't5' has no NodeName/Coord entry"
checks_done
