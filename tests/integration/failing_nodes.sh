#!/bin/bash
# Issue 11 (4) on the real mini-cluster: nodes whose outage probability is
# above OutageThreshold (0.5) are never used by a TOFA job while it fits
# elsewhere, whatever the strategy; a job that fits only with them waits
# (OnlyFailingNodesFit=wait). At 5516619 the default strategy placed ranks on
# a killed and a frozen node and the job failed. Then (issue 39) the frozen
# node, after 50 s, recovers within heartbeat rounds of thawing.
# Needs root. Environment as lib_tofa_cluster.sh.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOFA_LIB_DEFAULT_DIR=/tmp/tofa-failing-cluster
TOFA_LIB_DEFAULT_PORT_BASE=17900
. "$HERE/lib_tofa_cluster.sh"
frozen=
thaw() { [ -z "$frozen" ] || kill -CONT "$frozen" 2>/dev/null; }
at_exit thaw
tofa_lib_require_root_and_plugins
tofa_lib_write_config
matrix 6 "0 1 100000" "2 3 100000" "4 5 100000" "1 2 10" "3 4 10" > "$DATA/pairs6.mat"
chmod 0644 "$DATA"/*

job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
above_half() { local p; p=$(outage "$1"); [ -n "$p" ] && awk -v p="$p" 'BEGIN { exit !(p > 0.5) }'; }

tofa_lib_start
cd "$DATA" || exit 1
wait_until 30 all_answered && wait_until 30 all_fault_free ||
    fail "precondition: not every responder answered yet"

# t3's slurmd killed, t6's frozen: both stop answering heartbeats; Slurm
# itself still lists them as usable for a while (SlurmdTimeout).
kill -9 "$(cat "$DIR/run/slurmd-t3.pid")"
frozen=$(cat "$DIR/run/slurmd-t6.pid")
kill -STOP "$frozen"
frozen_since=$(date +%s)
if wait_until 30 above_half t3 && wait_until 30 above_half t6; then
    pass "t3 killed and t6 frozen: outage probabilities $(outage t3) and $(outage t6)"
else
    fail "outage probabilities of t3 and t6: '$(outage t3)' '$(outage t6)'"
fi

for strategy in tofa greedy default-slurm; do
    jid=$(sbatch --parsable --tofa-matrix=pairs6.mat --tofa-strategy=$strategy -n 6 \
        -o "$DATA/out-$strategy" --wrap 'srun -l printenv SLURMD_NODENAME' 2>&1)
    done_() { case "$(job_state "$jid")" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL) return 0 ;; esac; return 1; }
    wait_until $TMO done_
    used=$(layout < "$DATA/out-$strategy" 2>/dev/null | awk '{ print $2 }' | sort -u | tr '\n' ' ')
    if [ "$(job_state "$jid")" = COMPLETED ] && [ "$(wc -w <<<"$used")" -eq 6 ] &&
        ! grep -qw -e t3 -e t6 <<<"$used"; then
        pass "($strategy) 6-task TOFA job $jid ran on $used, not on t3 or t6"
    else
        fail "($strategy) job $jid: $(job_state "$jid"), ranks on '$used'"
        scancel "$jid" 2>/dev/null
    fi
done

jid=$(sbatch --parsable --tofa-matrix=pairs8.mat -N 8 -n 8 -o /dev/null --wrap 'srun true' 2>&1)
sleep 8
state=$(job_state "$jid")
if [ "$state" = PENDING ] &&
    grep -q "job $jid waits: it does not fit without the 2 candidate node(s) above OutageThreshold" "$DIR/log/slurmctld.log"; then
    pass "an 8-node TOFA job, which fits only with t3 and t6, waits (PENDING, reason logged)"
else
    fail "8-task TOFA job $jid: state $state"
fi
scancel "$jid" 2>/dev/null

# Issue 39 (3): a node that answers again after a long freeze responds within
# a couple of heartbeat rounds (HeartbeatInterval=1 here), whatever its
# silence; its estimate then recovers at the model's pace (window:5). The
# TCP heartbeats sent to it while frozen wait in its socket and re-key it
# when it thaws: it used to stay failing about as long as it was frozen.
answers() { query NODES 2>/dev/null | awk -v n="name=$1" '$2 == n { for (i = 3; i <= NF; i++) if ($i ~ /^answered=/) { sub(/^answered=/, "", $i); print $i } }'; }
silence=$(( $(date +%s) - frozen_since ))
[ "$silence" -ge 50 ] || sleep $(( 50 - silence ))
silence=$(( $(date +%s) - frozen_since ))
answered_before=$(answers t6)
kill -CONT "$frozen"
frozen=
thawed=$(date +%s)
answers_again() { [ "$(answers t6)" -gt "${answered_before:-0}" ]; }
fault_free_again() { [ "$(outage t6)" = 0 ]; }
if wait_until 10 answers_again; then
    answered_after=$(( $(date +%s) - thawed ))
    if wait_until 20 fault_free_again; then
        pass "t6 frozen $silence s: answers again $answered_after s after it thawed, p = 0 after $(( $(date +%s) - thawed )) s (window:5)"
    else
        fail "t6 frozen $silence s answers again but p = $(outage t6) $(( $(date +%s) - thawed )) s after it thawed"
    fi
else
    fail "t6 frozen $silence s: no answer 10 s after it thawed ($(query NODES 2>&1 | grep 'name=t6 '))"
fi
checks_done
