#!/bin/bash
# Runs inside the clean Debian 12 container of tests/packaging/deb_install.sh,
# after `apt-get install ./slurm-tofa_*.deb ./slurm-tofa-dev_*.deb slurmctld
# slurmd slurm-client munge`: everything tofa comes from the installed
# package (no build tree here). Starts munged + slurmctld + 4 slurmd with the
# plugins from Slurm's plugin directory (scripts/minicluster.sh, copied in
# beside this script) and checks TOFA layouts against the placements the
# service recorded. Prints "N passed, N failed".
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MINICLUSTER=$HERE/minicluster.sh
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
PD=/usr/lib/$MA/slurm-wlm
DIR=/tmp/tofa-deb-cluster
PORT_BASE=17000
SERVICE_PORT=17090
NODES=4
CPUS=2

passed=0 failed=0
ok() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name"; fi; }
finish() {
    bash "$MINICLUSTER" down --dir "$DIR" >/dev/null 2>&1 || true
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}
trap 'finish; exit $?' EXIT

# ---- the package -------------------------------------------------------------
slurm_version=$(dpkg-query -W -f='${Version}' slurm-wlm-basic-plugins)
tofa_depends=$(dpkg-query -W -f='${Depends}' slurm-tofa)
echo "slurm-tofa $(dpkg-query -W -f='${Version}' slurm-tofa): Depends: $tofa_depends"
check "slurm-tofa depends on the installed Slurm exactly (slurm-wlm-basic-plugins (= $slurm_version))" \
    grep -qF "slurm-wlm-basic-plugins (= $slurm_version)" <<<"$tofa_depends"
for f in "$PD/topology_tofa.so" "$PD/slurmctld_tofa.so" "$PD/cli_filter_tofa.so" \
         "$PD/tofa_loadmatrix.so" "$PD/tofa_nodestate.so" "$PD/tofa-select/select_cons_tres.so" \
         /usr/lib/$MA/libtofa.so.0 /usr/libexec/tofa/tofa-map-worker /usr/bin/tofa-map \
         /usr/bin/tofactl /usr/bin/tofa-rubik /usr/include/tofa.h /usr/lib/$MA/libtofa.so; do
    check "installed: $f" test -e "$f"
done
unresolved=$(for f in "$PD"/*tofa*.so "$PD"/tofa-select/*.so /usr/libexec/tofa/tofa-map-worker /usr/bin/tofa-map; do
    LD_LIBRARY_PATH=$PD ldd "$f" | grep 'not found' | sed "s|^|$f: |"; done)
check "every library of the plugins and tools resolves (ldd)${unresolved:+: $unresolved}" test -z "$unresolved"
check "man tofa_slurm(8) is installed" test -e /usr/share/man/man8/tofa_slurm.8.gz
EX=/usr/share/doc/slurm-tofa/examples
check "tofa-map maps the example graph (dt85.mat on torus8x8x8.conf)" \
    bash -c "tofa-map --topology $EX/torus8x8x8.conf --graph $EX/dt85.mat --strategy tofa > /tmp/tofa-map.out 2>&1"
check "the example slurm.conf names the installed select shim" \
    grep -q "^PluginDir=$PD/tofa-select:$PD\$" "$EX/slurm.conf.example"

# ---- the cluster: Slurm's daemons with the installed plugins -----------------
mkdir -p "$DIR/etc" "$DIR/data"
DATA=$DIR/data
cat > "$DATA/conf-extra" <<CONF
PluginDir=$PD/tofa-select:$PD
TopologyPlugin=topology/tofa
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPlugstack=slurmctld/tofa
CliFilterPlugins=tofa
CONF
cat > "$DATA/plugstack.conf" <<CONF
required $PD/tofa_loadmatrix.so
optional $PD/tofa_nodestate.so
CONF
# t1..t4 on a 2x2 torus; heavy pairs (0,1) and (2,3). No MapWorker line: the
# package's default, /usr/libexec/tofa/tofa-map-worker.
cat > "$DIR/etc/tofa.conf" <<CONF
Dims=2x2 Wrap=yes CoresPerNode=$CPUS
NodeName=t[1-$NODES]
ServicePort=$SERVICE_PORT
HeartbeatInterval=1
HeartbeatTimeout=1
HeartbeatPortOffset=100
CONF
cat > "$DATA/pairs4.mat" <<'MAT'
4
0 100000 0 0
100000 0 10 0
0 10 0 100000
0 0 100000 0
MAT
chmod 0755 "$DIR" "$DATA"; chmod 0644 "$DATA"/* "$DIR/etc/tofa.conf"

if ! bash "$MINICLUSTER" up --dir "$DIR" --nodes "$NODES" --cpus "$CPUS" --port-base "$PORT_BASE" \
        --timeout 60 --conf-extra "$DATA/conf-extra" --plugstack "$DATA/plugstack.conf" >/dev/null; then
    fail "munged + slurmctld + $NODES slurmd up"
    tail -n 30 "$DIR/log/slurmctld.log" 2>/dev/null || true
    exit 1
fi
export SLURM_CONF=$DIR/etc/slurm.conf
ok "munged + slurmctld $(slurmctld -V | awk '{ print $2 }') + $NODES slurmd up with the installed plugins ($(sinfo -h -o '%D %T' | tr '\n' ' '))"
service_up() { grep -q "service listening on port $SERVICE_PORT" "$DIR/log/slurmctld.log"; }
if service_up || { sleep 4; service_up; }; then ok "slurmctld/tofa started the TOFA service"
else fail "TOFA service not started (slurmctld.log)"; fi

tofactl() { /usr/bin/tofactl --conf "$DIR/etc/tofa.conf" --host "127.0.0.1:$SERVICE_PORT" \
    --munge-socket "$DIR/munge/munge.socket.2" "$@"; }
hops() { local a=$((${1#t} - 1)) b=$((${2#t} - 1)) x; x=$((a ^ b)); echo $(( (x & 1) + ((x >> 1) & 1) )); }
# pairs_one_hop LAYOUT ("rank node" lines): 4 distinct nodes, ranks 0-1 and 2-3 one hop apart
pairs_one_hop() {
    local layout=$1
    node() { awk -v t="$1" '$1 == t { print $2 }' <<<"$layout"; }
    [ "$(awk '{ print $2 }' <<<"$layout" | sort -u | wc -l)" -eq 4 ] &&
        [ "$(hops "$(node 0)" "$(node 1)")" -eq 1 ] && [ "$(hops "$(node 2)" "$(node 3)")" -eq 1 ]
}
# placement JOBID: the service's record as "task node" lines (tofactl job).
placement() { tofactl job "$1" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ && $2 ~ /^t[0-9]+$/ { print $1, $2 }' | sort -n; }

# run_layout NAME SRUN-OPTIONS...: the layout of a direct srun must be the
# placement the service recorded for its job, with the heavy pairs 1 hop apart.
run_layout() {
    local name=$1 out lay job want; shift
    out=$(cd "$DATA" && timeout 90 srun "$@" -l bash -c 'echo "$SLURM_JOB_ID $SLURMD_NODENAME"' 2>>"$DATA/srun.err") || true
    lay=$(sed -n 's/^ *\([0-9]*\): *[0-9]* \(t[0-9]*\)$/\1 \2/p' <<<"$out" | sort -n)
    job=$(sed -n 's/^ *[0-9]*: *\([0-9]*\) t[0-9]*$/\1/p' <<<"$out" | sort -u | head -n 1)
    want=$( [ -n "$job" ] && placement "$job")
    echo "  $name: job ${job:-?}, layout $(tr '\n' ' ' <<<"$lay")| placement $(tr '\n' ' ' <<<"$want")"
    if [ -n "$lay" ] && [ "$lay" = "$want" ] && pairs_one_hop "$lay"; then
        ok "$name: task i ran on node T(i) of the service's placement, heavy pairs 1 hop apart"
    else
        fail "$name (see $DATA/srun.err: $(tail -n 2 "$DATA/srun.err" | tr '\n' ' '))"
    fi
}
run_layout "srun --tofa-matrix -n 4 --ntasks-per-node=1" --tofa-matrix=pairs4.mat -n 4 --ntasks-per-node=1
run_layout "srun --tofa-matrix --distribution=cyclic -n 4 --ntasks-per-node=1 (the placement wins)" \
    --tofa-matrix=pairs4.mat --distribution=cyclic -n 4 --ntasks-per-node=1
run_layout "srun --tofa-matrix --distribution=block:cyclic -n 4 -N 4" \
    --tofa-matrix=pairs4.mat --distribution=block:cyclic -n 4 -N 4
# Stock Slurm 22.05 does not know the literal TOFA distribution (patches/).
err=$(cd "$DATA" && timeout 30 srun --distribution=TOFA --tofa-matrix=pairs4.mat -n 4 true 2>&1) && err=
check "stock srun rejects --distribution=TOFA (needs patches/; --tofa-matrix alone selects TOFA)" \
    grep -qi "distribution" <<<"$err"

# sbatch: placed when the job starts; the srun inside follows the placement.
cat > "$DATA/job.sh" <<'JOB'
#!/bin/bash
srun -l printenv SLURMD_NODENAME
JOB
chmod 0755 "$DATA/job.sh"
if jid=$(cd "$DATA" && timeout 90 sbatch --parsable --wait --tofa-matrix=pairs4.mat -n 4 --ntasks-per-node=1 \
        -o "$DATA/batch.out" job.sh 2>>"$DATA/srun.err"); then
    blay=$(sed -n 's/^ *\([0-9]*\): *\(t[0-9]*\)$/\1 \2/p' "$DATA/batch.out" | sort -n)
    want=$(placement "$jid")
    echo "  sbatch: job $jid, layout $(tr '\n' ' ' <<<"$blay")| placement $(tr '\n' ' ' <<<"$want")"
    if [ -n "$blay" ] && [ "$blay" = "$want" ] && pairs_one_hop "$blay"; then
        ok "sbatch --tofa-matrix: the srun in the job follows the service's placement"
    else
        fail "sbatch --tofa-matrix layout ($(head -5 "$DATA/batch.out" | tr '\n' ' '))"
    fi
else
    fail "sbatch --wait --tofa-matrix (see $DATA/srun.err)"
fi
check "plain srun -N 4 (no graph) runs on 4 nodes" \
    test "$(timeout 60 srun -N 4 hostname 2>/dev/null | wc -l)" -eq 4
nodes=$(tofactl nodes 2>&1)
echo "$nodes" | sed 's/^/  /'
check "tofactl nodes: the heartbeat responders (tofa_nodestate) of t1..t4 answer" \
    test "$(awk '$1 ~ /^t[1-4]$/ && $5 > 0' <<<"$nodes" | wc -l)" -eq 4
