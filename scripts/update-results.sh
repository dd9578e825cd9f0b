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
command -v rsvg-convert >/dev/null ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-bin >/dev/null
rsvg-convert docs/bench-mappers.svg -o docs/bench-mappers.png
echo "README.md, docs/bench-results.md and docs/bench-mappers.{svg,png} updated" >&2
