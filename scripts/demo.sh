#!/usr/bin/env bash
# The demo: installs what is needed and builds; maps the bundled 85-task
# DT-like graph onto an 8x8x8 torus with 16 nodes at outage probability 0.02
# with every strategy side by side; then (as root) runs the same graph as a
# real Slurm job on a 16-node mini-cluster with the tofa plugins, next to
# Slurm's default layout, with one node marked as failing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
mkdir -p out/demo
echo "== tofa-map: every strategy on an 8x8x8 torus with 16 nodes at p = 0.02"
./tools/tofa-map --topology examples/torus8x8x8.conf --graph examples/dt85.mat \
  --faults examples/faults16.txt --compare --strategy tofa \
  --hostfile out/demo/hostfile --json out/demo/metrics.json --svg out/demo/placement.svg
echo
echo "SLURM_HOSTFILE for the tofa placement: out/demo/hostfile (line i = node of rank i)"
echo "metrics of every strategy:             out/demo/metrics.json"
echo "the placement drawn on the torus:      out/demo/placement.svg"
echo
if [ "$(id -u)" -eq 0 ]; then
  bash scripts/demo-cluster.sh
else
  echo "(the Slurm part of the demo starts slurmctld and slurmd: run it as root)"
fi
