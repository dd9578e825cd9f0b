#!/usr/bin/env bash
# The demo: installs what is needed, builds, and maps the bundled 85-task
# DT-like graph onto an 8x8x8 torus with 16 nodes at outage probability 0.02,
# printing every strategy's metrics side by side and writing the TOFA hostfile.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
mkdir -p out/demo
./tools/tofa-map --topology examples/torus8x8x8.conf --graph examples/dt85.mat \
  --faults examples/faults16.txt --compare --strategy tofa \
  --hostfile out/demo/hostfile --json out/demo/metrics.json --svg out/demo/placement.svg
echo
echo "SLURM_HOSTFILE for the tofa placement: out/demo/hostfile (line i = node of rank i)"
echo "metrics of every strategy:             out/demo/metrics.json"
echo "the placement drawn on the torus:      out/demo/placement.svg"
