#!/bin/bash
# Integration test of the literal "--distribution=TOFA" (patches/
# slurm-22.05-distribution-tofa.patch) on a native mini-cluster with the tofa
# plugins. The clients are the patched build of scripts/slurm-patched.sh; the
# daemons stay Debian's stock ones (the patch only changes the clients). Checks:
#   (p) the parser of the patched libslurmfull: TOFA in any case is arbitrary +
#       marker, prints back as "tofa"; every other value parses and prints as
#       with the stock library; the stock library rejects TOFA;
#   (a) srun --distribution=TOFA --tofa-matrix=G -n 8: task i on node T(i) of
#       the placement cli_filter/tofa reports, heavy pairs 1 hop apart, the
#       same layout as the stock srun with --tofa-matrix alone; -m tofa and
#       SLURM_DISTRIBUTION=ToFa give it too;
#   (b) --distribution=TOFA without a graph: clear error, no job submitted
#       (srun and sbatch); the stock srun rejects the value;
#   (c) sbatch --distribution=TOFA --tofa-matrix: placed at scheduling time,
#       an srun --distribution=TOFA inside follows the recorded mapping;
#   (d) block, cyclic, arbitrary, plane=2 (and a few more): the same layouts
#       and the same "srun -v" distribution line with the patched and the
#       stock clients;
#   (e) the stock daemons never saw the marker (no "Unknown distribution flag").
# Environment: as tofa_cluster.sh (TOFA_PLUGIN_DIR, TOFA_LIB_DIR, TOFA_QUERY,
# TOFA_CLUSTER_DIR default /tmp/tofa-distribution-cluster,
# TOFA_CLUSTER_PORT_BASE default 17800, TOFA_KEEP_CLUSTER=1), plus
#   TOFA_SLURM_PATCHED   install dir of the patched Slurm (default: the output
#                        of scripts/slurm-patched.sh, which builds it once, ~4 min)
#   TOFA_SLURM_RELEASE   24.11 or 26.05 (lib_tofa_cluster.sh): the patch is for
#                        22.05's parser only, so there the stock clients of the
#                        release run: the spelling that works unpatched,
#                        "--tofa-matrix=G" alone, gives task i on node T(i)
#                        (a), sbatch --tofa-matrix + srun inside (c); the
#                        stock library, srun and sbatch reject every TOFA
#                        spelling, nothing submitted (p, b); (e) as on 22.05;
#                        the checks that need the patched clients are
#                        reported as "skip:" lines. Default working directory
#                        /tmp/tofa-distribution-cluster-RELEASE, port base
#                        20800 (24.11) or 21000 (26.05).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export TOFA_LIB_DEFAULT_DIR=/tmp/tofa-distribution-cluster
export TOFA_LIB_DEFAULT_PORT_BASE=17800
# shellcheck source=lib_tofa_cluster.sh
. "$HERE/lib_tofa_cluster.sh"


tofa_lib_require_root_and_plugins
if [ -z "$TOFA_RELEASE" ]; then
PATCHED=${TOFA_SLURM_PATCHED:-}
if [ -z "$PATCHED" ]; then
    PATCHED=$(bash "$SRCDIR/scripts/slurm-patched.sh" | tail -n 1) || skip "scripts/slurm-patched.sh failed"
fi
for f in lib/libslurmfull.so bin/srun bin/sbatch; do
    [ -e "$PATCHED/$f" ] || skip "$PATCHED/$f missing (scripts/slurm-patched.sh)"
done
STOCK_LIB=/usr/lib/x86_64-linux-gnu/slurm-wlm/libslurmfull.so
[ -f "$STOCK_LIB" ] || STOCK_LIB=$(dirname "$(readlink -f "$(command -v srun)")")/../lib/$(gcc -print-multiarch 2>/dev/null)/slurm-wlm/libslurmfull.so
# Patched clients (their RUNPATH is $PATCHED/lib; LD_LIBRARY_PATH makes it
# explicit) and the stock srun with the stock library; each call may take TMO s.
p_srun() { timeout "$TMO" env "LD_LIBRARY_PATH=$PATCHED/lib:$LD_LIBRARY_PATH" "$PATCHED/bin/srun" "$@"; }
p_sbatch() { timeout "$TMO" env "LD_LIBRARY_PATH=$PATCHED/lib:$LD_LIBRARY_PATH" "$PATCHED/bin/sbatch" "$@"; }
s_srun() { timeout "$TMO" /usr/bin/srun "$@"; }
else
    # 24.11/26.05: no patched clients (the patch is for 22.05's proc_args.c);
    # the stock clients and library of the release.
    PATCHED=
    STOCK_LIB=$SLURM_PREFIX/lib/slurm/libslurmfull.so
    s_srun() { timeout "$TMO" "$SLURM_PREFIX/bin/srun" "$@"; }
    s_sbatch() { timeout "$TMO" "$SLURM_PREFIX/bin/sbatch" "$@"; }
    NOPATCH="no --distribution=TOFA patch for Slurm $TOFA_RELEASE (patches/ has 22.05's only)"
fi

# ---- (p) the parser, through the libraries' own functions ----------------------
# Prints "value -> result hex, formatted" for each value, using one library.
parse_table() {
    python3 - "$1" <<'PY'
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.verify_dist_type.restype = ctypes.c_int
lib.verify_dist_type.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]
lib.set_distribution.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
for v in ["TOFA", "tofa", "ToFa", "tofa,pack", "TOFA,nopack", "tofa:block", "tofax",
          "block", "cyclic", "arbitrary", "hostfile", "plane=2", "block:cyclic",
          "cyclic:block:fcyclic", "*:*:*", "pack", "cyclic,nopack", "Block", "bogus"]:
    plane = ctypes.c_uint32(0)
    r = lib.verify_dist_type(v.encode(), ctypes.byref(plane))
    text = ctypes.c_char_p()
    if r != -1:
        lib.set_distribution(r, ctypes.byref(text))
    print("%s -> 0x%x %s plane=%d" % (v, r & 0xffffffff,
          (text.value or b"-").decode(), plane.value))
PY
}
stock_table=$(parse_table "$STOCK_LIB" 2>&1)
if [ -n "$TOFA_RELEASE" ]; then
    skip_check "(p) patched parser: $NOPATCH"
    skip_check "(p) other values, patched vs stock library: $NOPATCH"
    if [ "$(head -n 7 <<<"$stock_table" | grep -c '0xffffffff')" -eq 7 ]; then
        pass "(p) the stock $TOFA_RELEASE library ($STOCK_LIB) rejects all seven TOFA spellings"
        tail -n +8 <<<"$stock_table" | sed 's/^/  /'
    else
        fail "(p) stock $TOFA_RELEASE library on TOFA values: $stock_table"
    fi
else
patched_table=$(parse_table "$PATCHED/lib/libslurmfull.so" 2>&1)
expect_tofa="TOFA -> 0x100003 tofa plane=0
tofa -> 0x100003 tofa plane=0
ToFa -> 0x100003 tofa plane=0
tofa,pack -> 0x900003 tofa,pack plane=0
TOFA,nopack -> 0x500003 tofa,nopack plane=0
tofa:block -> 0xffffffff - plane=0
tofax -> 0xffffffff - plane=0"
if [ "$(head -n 7 <<<"$patched_table")" = "$expect_tofa" ]; then
    pass "(p) patched parser: TOFA/tofa/ToFa = arbitrary (0x3) + marker 0x100000, printed 'tofa'; 'tofa,pack' keeps the flag; 'tofa:block' and 'tofax' rejected"
else
    fail "(p) patched parser:
$patched_table"
fi
if [ "$(tail -n +8 <<<"$patched_table")" = "$(tail -n +8 <<<"$stock_table")" ] \
        && [ -n "$(tail -n +8 <<<"$stock_table")" ]; then
    pass "(p) other values parse and print identically with the stock library ($(tail -n +8 <<<"$stock_table" | wc -l) values)"
    tail -n +8 <<<"$stock_table" | sed 's/^/  /'
else
    fail "(p) other values differ: patched
$(tail -n +8 <<<"$patched_table")
stock
$(tail -n +8 <<<"$stock_table")"
fi
if [ "$(head -n 7 <<<"$stock_table" | grep -c '0xffffffff')" -eq 7 ]; then
    pass "(p) the stock library rejects all seven TOFA spellings"
else
    fail "(p) stock library on TOFA values: $(head -n 7 <<<"$stock_table")"
fi
fi

# ---- bring up ----------------------------------------------------------------------
tofa_lib_write_config
if ! cluster_up; then
    fail "minicluster up with the tofa plugins"
    tail -n 20 "$DIR/log/slurmctld.log" 2>/dev/null
    exit 1
fi
started=yes   # read by stop_cluster
export SLURM_CONF=$DIR/etc/slurm.conf
if [ -z "$TOFA_RELEASE" ]; then
    pass "minicluster up: $NODES stock slurmd, stock slurmctld, tofa plugins; clients from $PATCHED"
else
    pass "minicluster up ($RELEASE_DESC): $NODES slurmd, slurmctld, stock clients, tofa plugins ($NOPATCH)"
fi
cd "$DATA" || exit 1
if ! { wait_until 30 all_answered && wait_until 30 all_fault_free; }; then
    fail "precondition: responders not all fault-free: $(query NODES 2>&1 | head -n 3)"
fi
next_id() { s_srun -n 1 printenv SLURM_JOB_ID 2>/dev/null; }
order() { awk '{ print $2 }' <<<"$1" | paste -sd, -; }

if [ -n "$TOFA_RELEASE" ]; then
# ---- 24.11/26.05: the stock clients -------------------------------------------------
# (a) The spelling that works without the patch: --tofa-matrix alone. T: the
# service's placement of the graph on the idle nodes (as below).
wait_until 30 all_idle
out=$(s_srun --tofa-matrix=pairs8.mat -n 8 -l printenv SLURMD_NODENAME 2>&1)
rc=$?
lay=$(layout <<<"$out")
graph=$(query GRAPHS 2>/dev/null | sed -n 's/^graph id=\([^ ]*\).*/\1/p' | head -n 1)
wait_until 30 all_idle   # the job's nodes may still be completing
idle=$(scontrol show node -o | sed -n 's/^NodeName=\([^ ]*\) .*State=IDLE .*/\1/p' | paste -sd, -)
T=$(query "PLACE graph=$graph job=none tasks=8 slots=0 candidates=$idle" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
if [ $rc -eq 0 ] && [ -n "$T" ] && [ "$(order "$lay")" = "$T" ] && why=$(check_pairs "$lay" 8); then
    pass "(a) $TOFA_RELEASE: stock srun --tofa-matrix -n 8 (the spelling that works unpatched): task i on node T(i), T = $T (service placement of graph $graph on $idle); heavy pairs 1 hop apart"
else
    fail "(a) $TOFA_RELEASE: stock srun --tofa-matrix (rc $rc): T '$T' (graph '$graph', idle '$idle'), ran '$(order "$lay")' ${why:-}; $(grep -i 'error' <<<"$out" | head -n 5)"
fi
skip_check "(a) --distribution=TOFA gives the layout of --tofa-matrix alone: $NOPATCH; the check above is --tofa-matrix alone"
skip_check "(a) '-m tofa' and SLURM_DISTRIBUTION=ToFa: $NOPATCH"
# (b) Every TOFA spelling is refused by the stock clients, nothing submitted.
skip_check "(b) cli_filter/tofa's 'needs a communication graph' error: $NOPATCH (the stock clients refuse the value before the filter runs)"
before=$(next_id)
out1=$(s_srun --distribution=TOFA --tofa-matrix=pairs8.mat -n 8 true 2>&1); rc1=$?
out2=$(s_srun -m tofa --tofa-matrix=pairs8.mat -n 8 true 2>&1); rc2=$?
out3=$(SLURM_DISTRIBUTION=ToFa s_srun --tofa-matrix=pairs8.mat -n 8 true 2>&1); rc3=$?
out4=$(s_sbatch --distribution=tofa --tofa-matrix=pairs4.mat -n 4 --wrap true 2>&1); rc4=$?
after=$(next_id)
if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && [ $rc3 -ne 0 ] && [ $rc4 -ne 0 ] \
        && [ "$(grep -l 'Invalid --distribution specification' <(echo "$out1") <(echo "$out2") <(echo "$out4") | wc -l)" -eq 3 ] \
        && [ -n "$before" ] && [ "$after" = $((before + 1)) ]; then
    pass "(b) $TOFA_RELEASE: the stock srun (--distribution=TOFA, -m tofa, SLURM_DISTRIBUTION=ToFa) and sbatch (--distribution=tofa) refuse the value, no job submitted: '$(grep -o 'error: Invalid --distribution specification' <<<"$out1" | head -n 1)'; SLURM_DISTRIBUTION=ToFa: '$(head -n 1 <<<"$out3")'"
else
    fail "(b) $TOFA_RELEASE stock clients on TOFA spellings: srun rc $rc1 '$out1'; -m tofa rc $rc2 '$out2'; SLURM_DISTRIBUTION rc $rc3 '$out3'; sbatch rc $rc4 '$out4'; jobs $before -> $after"
fi
# (c) sbatch --tofa-matrix: the srun inside follows the recorded mapping.
cat > "$DATA/job_c.sh" <<JOB
#!/bin/bash
echo "SLURM_DISTRIBUTION=\${SLURM_DISTRIBUTION:-unset}"
$SLURM_PREFIX/bin/srun -l printenv SLURMD_NODENAME
JOB
wait_until 30 all_idle
jid=$(s_sbatch --parsable --tofa-matrix=pairs4.mat -n 4 -o "$DATA/job_c.out" "$DATA/job_c.sh" 2>&1)
state=
for _ in $(seq 1 $((TMO * 5))); do
    state=$(scontrol show job "$jid" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL) break ;; esac
    sleep 0.2
done
recorded=$(query "PLACEMENT job=$jid" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
lay=$(layout < "$DATA/job_c.out" 2>/dev/null)
if [ "$state" = COMPLETED ] && [ -n "$recorded" ] && [ "$(order "$lay")" = "$recorded" ] \
        && grep -q '^SLURM_DISTRIBUTION=unset$' "$DATA/job_c.out" && why=$(check_pairs "$lay" 4); then
    pass "(c) $TOFA_RELEASE: sbatch --tofa-matrix job $jid (the unpatched spelling): srun inside ran on $recorded as recorded; no SLURM_DISTRIBUTION in the job's environment"
else
    fail "(c) $TOFA_RELEASE: sbatch job $jid: state '$state', recorded '$recorded', ran '$(order "$lay")' ${why:-}; $(head -n 5 "$DATA/job_c.out" 2>/dev/null) $jid"
fi
# (d) compares the patched with the stock clients.
skip_check "(d) other distributions, patched vs stock srun: $NOPATCH"
skip_check "(d) SLURM_DISTRIBUTION=cyclic, patched vs stock srun: $NOPATCH"
skip_check "(d) an invalid value, patched vs stock srun: $NOPATCH"
else
# ---- 22.05: the patched and the stock clients (everything up to (e)) -----------------

# ---- (a) srun --distribution=TOFA ----------------------------------------------------
# T: the service's placement of the graph on the idle nodes in slurmctld's node
# order, asked directly (the PLACE request cli_filter/tofa sends; the service
# places deterministically).
wait_until 30 all_idle
out=$(p_srun --distribution=TOFA --tofa-matrix=pairs8.mat -n 8 -l printenv SLURMD_NODENAME 2>&1)
rc=$?
lay=$(layout <<<"$out")
graph=$(query GRAPHS 2>/dev/null | sed -n 's/^graph id=\([^ ]*\).*/\1/p' | head -n 1)
wait_until 30 all_idle  # the step's nodes may still be completing its job
idle=$(scontrol show node -o | sed -n 's/^NodeName=\([^ ]*\) .*State=IDLE .*/\1/p' | paste -sd, -)
T=$(query "PLACE graph=$graph job=none tasks=8 slots=0 candidates=$idle" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
if [ $rc -eq 0 ] && [ -n "$T" ] && [ "$(order "$lay")" = "$T" ] && why=$(check_pairs "$lay" 8); then
    pass "(a) srun --distribution=TOFA --tofa-matrix -n 8: task i on node T(i), T = $T (service placement of graph $graph on $idle); heavy pairs 1 hop apart"
else
    fail "(a) srun --distribution=TOFA (rc $rc): T '$T' (graph '$graph', idle '$idle'), ran '$(order "$lay")' ${why:-}; $(grep -i 'error' <<<"$out" | head -n 5)"
fi
tofa_layout=$(order "$lay")
wait_until 30 all_idle
plain=$(s_srun --tofa-matrix=pairs8.mat -n 8 -l printenv SLURMD_NODENAME 2>&1 | layout)
if [ -n "$tofa_layout" ] && [ "$(order "$plain")" = "$tofa_layout" ]; then
    pass "(a) the stock srun with --tofa-matrix alone gives the same layout: $(order "$plain")"
else
    fail "(a) stock srun --tofa-matrix: '$(order "$plain")', --distribution=TOFA: '$tofa_layout'"
fi
wait_until 30 all_idle
lay_m=$(p_srun -m tofa --tofa-matrix=pairs8.mat -l printenv SLURMD_NODENAME 2>&1 | layout)
wait_until 30 all_idle
lay_env=$(SLURM_DISTRIBUTION=ToFa p_srun --tofa-matrix=pairs8.mat -n 8 -l printenv SLURMD_NODENAME 2>&1 | layout)
if [ "$(order "$lay_m")" = "$tofa_layout" ] && [ "$(order "$lay_env")" = "$tofa_layout" ]; then
    pass "(a) '-m tofa' (-n from the graph) and SLURM_DISTRIBUTION=ToFa: the same layout"
else
    fail "(a) -m tofa: '$(order "$lay_m")', SLURM_DISTRIBUTION=ToFa: '$(order "$lay_env")', expected '$tofa_layout'"
fi

# ---- (b) TOFA without a graph ------------------------------------------------------------
msg='cli_filter/tofa: --distribution=TOFA needs a communication graph: add --tofa-matrix=FILE or --tofa-pattern=SPEC'
before=$(next_id)
out=$(p_srun --distribution=TOFA -n 8 true 2>&1); rc=$?
out_b=$(p_sbatch --distribution=tofa -n 4 --wrap true 2>&1); rc_b=$?
after=$(next_id)
if [ $rc -ne 0 ] && grep -qF "$msg" <<<"$out" && [ $rc_b -ne 0 ] && grep -qF "$msg" <<<"$out_b" \
        && [ -n "$before" ] && [ "$after" = $((before + 1)) ]; then
    pass "(b) no graph: srun (exit $rc) and sbatch (exit $rc_b) say '$(grep -oF "$msg" <<<"$out")', no job submitted"
else
    fail "(b) no graph: srun rc $rc '$out'; sbatch rc $rc_b '$out_b'; jobs $before -> $after"
fi
out=$(s_srun --distribution=TOFA --tofa-matrix=pairs8.mat -n 8 true 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'Invalid --distribution specification' <<<"$out"; then
    pass "(b) the stock srun rejects the value: '$(grep -o 'error: Invalid --distribution specification' <<<"$out" | head -n 1)'"
else
    fail "(b) stock srun --distribution=TOFA: rc $rc, $out"
fi

# ---- (c) sbatch --distribution=TOFA ---------------------------------------------------------
cat > "$DATA/job_c.sh" <<JOB
#!/bin/bash
echo "SLURM_DISTRIBUTION=\${SLURM_DISTRIBUTION:-unset}"
LD_LIBRARY_PATH=$PATCHED/lib:\$LD_LIBRARY_PATH $PATCHED/bin/srun --distribution=TOFA -l printenv SLURMD_NODENAME
JOB
wait_until 30 all_idle
jid=$(p_sbatch --parsable --distribution=TOFA --tofa-matrix=pairs4.mat -n 4 -o "$DATA/job_c.out" "$DATA/job_c.sh" 2>&1)
state=
for _ in $(seq 1 $((TMO * 5))); do
    state=$(scontrol show job "$jid" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL) break ;; esac
    sleep 0.2
done
recorded=$(query "PLACEMENT job=$jid" 2>&1 | grep -o 'nodes=[^ ]*' | cut -d= -f2)
lay=$(layout < "$DATA/job_c.out" 2>/dev/null)
if [ "$state" = COMPLETED ] && [ -n "$recorded" ] && [ "$(order "$lay")" = "$recorded" ] \
        && grep -q '^SLURM_DISTRIBUTION=unset$' "$DATA/job_c.out" && why=$(check_pairs "$lay" 4); then
    pass "(c) sbatch --distribution=TOFA job $jid: srun --distribution=TOFA inside ran on $recorded as recorded; the job's environment has no SLURM_DISTRIBUTION (as with --tofa-matrix alone)"
else
    fail "(c) sbatch job $jid: state '$state', recorded '$recorded', ran '$(order "$lay")' ${why:-}; $(head -n 5 "$DATA/job_c.out" 2>/dev/null) $jid"
fi

# ---- (d) other distributions: patched and stock clients agree ---------------------------------
# Nodes have 1 CPU here (as tofa.conf's CoresPerNode): -O lets several
# tasks share one, the layouts are computed the same.
cases=("-N 4 -n 8 -O --distribution=block"
       "-N 4 -n 8 -O --distribution=cyclic"
       "-n 4 -O --distribution=arbitrary -w t3,t1,t1,t2"
       "-N 4 -n 8 -O --distribution=plane=2"
       "-N 2 -n 6 -O -m cyclic:block"
       "-N 3 -n 6 -O -m block,nopack"
       "-n 5")
same=0
for c in "${cases[@]}"; do
    wait_until 30 all_idle
    # shellcheck disable=SC2086
    p=$(p_srun $c -l printenv SLURMD_NODENAME 2>&1 | layout)
    wait_until 30 all_idle
    # shellcheck disable=SC2086
    s=$(s_srun $c -l printenv SLURMD_NODENAME 2>&1 | layout)
    # shellcheck disable=SC2086
    pv=$(p_srun -v $c true 2>&1 | grep -m1 '^srun: distribution')
    # shellcheck disable=SC2086
    sv=$(s_srun -v $c true 2>&1 | grep -m1 '^srun: distribution')
    if [ -n "$s" ] && [ "$p" = "$s" ] && [ "$pv" = "$sv" ]; then
        same=$((same + 1))
        note "$c: $(order "$s") ${sv:+| $(tr -s ' ' <<<"$sv")}"
    else
        fail "(d) $c: patched '$(order "$p")' '$pv', stock '$(order "$s")' '$sv'"
    fi
done
[ $same -eq ${#cases[@]} ] && pass "(d) ${#cases[@]} other distributions: the same layouts and -v lines with the patched and the stock srun"
wait_until 30 all_idle
out_p=$(SLURM_DISTRIBUTION=cyclic p_srun -N 4 -n 8 -O -l printenv SLURMD_NODENAME 2>&1 | layout)
out_s=$(SLURM_DISTRIBUTION=cyclic s_srun -N 4 -n 8 -O -l printenv SLURMD_NODENAME 2>&1 | layout)
if [ -n "$out_s" ] && [ "$out_p" = "$out_s" ]; then
    pass "(d) SLURM_DISTRIBUTION=cyclic: the same layout ($(order "$out_s"))"
else
    fail "(d) SLURM_DISTRIBUTION=cyclic: patched '$(order "$out_p")', stock '$(order "$out_s")'"
fi
out_p=$(p_srun -m bogus -n 1 true 2>&1); rc_p=$?
out_s=$(s_srun -m bogus -n 1 true 2>&1); rc_s=$?
if [ $rc_p -ne 0 ] && [ "$rc_p" = "$rc_s" ] && [ "$out_p" = "$out_s" ]; then
    pass "(d) an invalid value: the same error ($out_p)"
else
    fail "(d) -m bogus: patched $rc_p '$out_p', stock $rc_s '$out_s'"
fi

fi

# ---- (e) the stock daemons never saw the marker ----------------------------------------------
if ! grep -q 'Unknown distribution flag' "$DIR"/log/*.log 2>/dev/null; then
    pass "(e) no 'Unknown distribution flag' in the logs of the stock slurmctld and slurmd"
else
    fail "(e) $(grep -h 'Unknown distribution flag' "$DIR"/log/*.log | head -n 3)"
fi
checks_done
