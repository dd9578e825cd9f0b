#!/bin/bash
# Issue 11 (7) on the real mini-cluster: a graph that a pending or running job
# refers to is never evicted by MaxGraphsPerUser, and an upload that would
# need to is refused at submit time with the reason. At 5516619 a held job's
# graph was evicted by later uploads and the job, once released, silently ran
# with Slurm's layout ("unknown graph id"). At a91dca4 (issue 39 (5)) a graph
# uploaded between two of slurmctld's job-list pushes (every 3 s) could still
# be evicted: the third submission below, made at once, took a held job's.
# Needs root. Environment as lib_tofa_cluster.sh.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOFA_LIB_DEFAULT_DIR=/tmp/tofa-quota-cluster
TOFA_LIB_DEFAULT_PORT_BASE=18000
TOFA_LIB_EXTRA_CONF="MaxGraphsPerUser=2
MaxGraphBytes=65536"
. "$HERE/lib_tofa_cluster.sh"

tofa_lib_require_root_and_plugins
tofa_lib_write_config
matrix 6 "0 1 100000" "2 3 100000" "4 5 100000" "1 2 10" "3 4 10" > "$DATA/pairs6.mat"
matrix 2 "0 1 5" > "$DATA/two.mat"
{ echo 64; for i in $(seq 64); do printf '1 %.0s' $(seq 64); echo; done; } > "$DATA/ones64.mat"
chmod 0644 "$DATA"/*
tofa_lib_start
cd "$DATA" || exit 1

job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
graph_count() { query GRAPHS 2>/dev/null | head -n 1 | sed -n 's/^OK count=//p'; }

# Issue 39 (7): 8 KiB of text, 2016 communicating pairs: 80 KB once built
# (40 bytes a pair). At a91dca4 only the text was measured against
# MaxGraphBytes, and a 64 MiB upload held ~180 MB in slurmctld.
out=$(sbatch --parsable --tofa-matrix=ones64.mat -n 64 -o /dev/null --wrap true 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "bytes in memory, expected at most 65536 (MaxGraphBytes in tofa.conf)" <<<"$out" \
        && [ "$(stat -c %s "$DATA/ones64.mat")" -le 65536 ]; then
    pass "a $(stat -c %s "$DATA/ones64.mat")-byte dense matrix that would hold more than MaxGraphBytes in memory is refused: $(grep -o 'ones64.mat:[0-9]*:[0-9]*: [0-9]* communicating pairs' <<<"$out")"
else
    fail "ones64.mat: rc $rc, output: $out"
    scancel "$out" 2>/dev/null
fi
[ "$(graph_count)" = 0 ] && pass "the refused graph is not stored" || fail "graphs stored: $(query GRAPHS 2>&1 | head -n 3)"

held4=$(sbatch --parsable -H --tofa-matrix=pairs4.mat -n 4 -o "$DATA/held4.out" \
    --wrap 'srun -l printenv SLURMD_NODENAME' 2>&1)
held8=$(sbatch --parsable -H --tofa-matrix=pairs8.mat -n 8 -o /dev/null --wrap 'srun true' 2>&1)
out=$(sbatch --parsable --tofa-matrix=pairs6.mat -n 6 -o /dev/null --wrap true 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "graph quota reached: all your 2 graphs are used by pending or running jobs or were used in the last 30 s" <<<"$out"; then
    pass "a third graph while 2 held jobs use the 2 allowed: refused at submit ($(grep -o 'graph quota reached[^;]*' <<<"$out" | head -n 1))"
else
    fail "third graph with both held: rc $rc, output: $out"
    scancel "$out" 2>/dev/null
fi
[ "$(graph_count)" = 2 ] && pass "both held jobs' graphs are still stored" ||
    fail "graphs stored: $(query GRAPHS 2>&1 | head -n 3)"

scancel "$held8"
sleep 34  # a graph used in the last 30 s may be a job's that the pushed list missed
out=$(sbatch --parsable --tofa-matrix=two.mat -n 2 -o /dev/null --wrap true 2>&1)
rc=$?
[ $rc -eq 0 ] && pass "once one held job is cancelled its graph makes room: job $out submitted" ||
    fail "upload after cancelling: rc $rc, $out"

scontrol release "$held4"
done_() { case "$(job_state "$held4")" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL) return 0 ;; esac; return 1; }
wait_until $TMO done_
recorded=$(query "PLACEMENT job=$held4" 2>/dev/null | grep -o 'nodes=[^ ]*' | cut -d= -f2)
ran=$(layout < "$DATA/held4.out" 2>/dev/null | awk '{ print $2 }' | paste -sd, -)
if [ "$(job_state "$held4")" = COMPLETED ] && [ -n "$recorded" ] && [ "$ran" = "$recorded" ]; then
    pass "released job $held4 ran with its TOFA placement $recorded"
else
    fail "released job $held4: $(job_state "$held4"), recorded '$recorded', ran '$ran'"
fi
checks_done
