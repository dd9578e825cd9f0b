#!/usr/bin/env bash
# Reruns the mapper benchmark and rewrites the README's results table and
# docs/bench-mappers.svg from its JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p out docs
make -s bench/bench_mappers bench/bench_service
./bench/bench_mappers --examples examples >out/bench-mappers.json
./bench/bench_service --examples examples >out/bench-service.json
python3 scripts/results_table.py out/bench-mappers.json README.md docs/bench-mappers.svg \
  out/bench-service.json
echo "README.md and docs/bench-mappers.svg updated from out/bench-mappers.json" >&2
