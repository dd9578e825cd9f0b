#!/usr/bin/env bash
# Times .ci/run as on a fresh machine: a clone of HEAD beside a copy of
# ../shared, with every cache tofa keeps (Slurm sources, the 22.05 patched
# clients, the 24.11/26.05 builds, ccache, the sanitizer and fuzz trees)
# pointed at an empty directory. Debian packages already installed stay so;
# with --packages, also times scripts/install-deps.sh in a fresh Debian 12
# container (podman, image docker.io/library/debian:bookworm, see
# ../shared/DESIGN.md). The README's fresh-machine figure comes from here.
#   scripts/ci-fresh.sh [--packages] [WORKDIR]   (default /tmp/tofa-ci-fresh)
# About 40 minutes on 2 cores; the log is WORKDIR/ci.log.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=no
[ "${1:-}" = --packages ] && { packages=yes; shift; }
work=${1:-/tmp/tofa-ci-fresh}
src=$PWD

if [ "$packages" = yes ]; then
  start=$(date +%s)
  podman run --runtime runc --rm --network host -v "$src/scripts:/s:ro" \
    docker.io/library/debian:bookworm bash /s/install-deps.sh >&2
  echo "packages: $(( $(date +%s) - start )) s in a fresh Debian 12 container"
fi

rm -rf "$work"
mkdir -p "$work/cache"
git clone -q "$src" "$work/main"
cp -r "$src/../shared" "$work/"
cache=$work/cache
start=$(date +%s)
status=0
(cd "$work/main" &&
  CCACHE_DIR=$cache/ccache TOFA_SLURM_CACHE=$cache/slurm-src \
  TOFA_SLURM_PATCHED_CACHE=$cache/slurm-patched TOFA_SLURM_RELEASE_CACHE=$cache \
  TOFA_FUZZ_BUILD=$cache/fuzz-build TOFA_SANITIZER_BUILD=$cache/sanitizers \
  TOFA_DEB_CACHE=$cache/deb CI=true bash .ci/run) >"$work/ci.log" 2>&1 || status=$?
echo ".ci/run with empty caches: $(( $(date +%s) - start )) s, exit $status; $(grep -E '^test command|passed, .*failed' "$work/ci.log" | tail -n 2 | paste -sd' ')"
exit "$status"
