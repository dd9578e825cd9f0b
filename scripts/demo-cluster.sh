#!/usr/bin/env bash
# The Slurm part of the demo (root): a native cluster of 16 slurmd on a 4x2x2
# torus with 8 cores per node and every tofa plugin, an administrator marks
# node t2 as failing, and the bundled 85-task graph runs once with Slurm's
# default layout and once with --tofa-matrix; prints where each rank ran and
# the metrics of both layouts. Expects a build in the source tree (or in
# TOFA_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
build=${TOFA_BUILD_DIR:-$top}
dir=${TOFA_DEMO_DIR:-/tmp/tofa-demo}
port_base=${TOFA_DEMO_PORT_BASE:-17600}
nodes=16
failing=t2
out=$top/out/demo
mkdir -p "$dir/data" "$out"
export LD_LIBRARY_PATH=$build/common/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
plugins=$build/plugins/.libs

# shellcheck source=lib/tofa_conf.sh
. "$top/scripts/lib/tofa_conf.sh"
tofa_conf_write "$dir/data/tofa.conf" 4x2x2 8 $nodes $((port_base + 50)) \
  "$build/tools/.libs/tofa-map-worker"
tofa_slurm_conf_write "$dir/data/conf-extra"
tofa_plugstack_write "$dir/data/plugstack.conf" "$plugins"

bash scripts/minicluster.sh down --dir "$dir" >/dev/null 2>&1 || true
mkdir -p "$dir/etc" && cp "$dir/data/tofa.conf" "$dir/etc/tofa.conf"
trap 'bash "$top/scripts/minicluster.sh" down --dir "$dir" >/dev/null 2>&1 || true' EXIT
echo "== starting munged, slurmctld and $nodes slurmd with the tofa plugins"
bash scripts/minicluster.sh up --dir "$dir" --nodes $nodes --cpus 8 --port-base "$port_base" \
  --plugin-dir "$build/plugins/select/.libs" --plugin-dir "$plugins" --conf-extra "$dir/data/conf-extra" \
  --plugstack "$dir/data/plugstack.conf" >/dev/null
export SLURM_CONF=$dir/etc/slurm.conf
tofactl() { "$build/tools/tofactl" --host 127.0.0.1 "$@"; }

echo "== waiting until every node answers heartbeats (start-up misses age out of the window)"
for _ in $(seq 1 60); do
  [ "$(tofactl nodes | awk '$2 == "responding" && $3 == "0.0000"' | wc -l)" -eq $nodes ] && break
  sleep 1
done
echo "== the administrator marks $failing as failing: tofactl set-outage $failing 0.02"
tofactl set-outage $failing 0.02
tofactl nodes

cd "$dir/data"
cp "$top/examples/dt85.mat" .
run() {  # run LABEL [srun options]: writes LABEL.hosts (line i = node of rank i)
  local label=$1; shift
  timeout 120 srun -n 85 -l "$@" printenv SLURMD_NODENAME |
    sed -n 's/^ *\([0-9]*\): *\(t[0-9]*\)$/\1 \2/p' | sort -n | awk '{ print $2 }' >"$label.hosts"
}
echo "== srun -n 85 (Slurm's default layout)"
run default
echo "== srun --tofa-matrix=dt85.mat -n 85"
run tofa --tofa-matrix=dt85.mat

echo
echo "Where each rank ran (tofa):"
awk '{ ranks[$1] = ranks[$1] (ranks[$1] ? "," : "") NR - 1 } END { for (n in ranks) print "  " n ": ranks " ranks[n] }' \
  tofa.hosts | sort -V
echo
echo "$failing $(tofactl nodes | awk -v n=$failing '$1 == n { print $3 }')" >faults.txt
echo "Metrics of both layouts (faults: $(cat faults.txt)):"
"$build/tools/tofa-map" --topology tofa.conf --graph dt85.mat --faults faults.txt \
  --evaluate default.hosts --evaluate tofa.hosts | tee "$out/cluster-metrics.txt"
cp default.hosts tofa.hosts "$out/"
grep -qx "$failing" tofa.hosts && echo "note: tofa used $failing" ||
  echo "tofa kept every rank off the failing node $failing"
