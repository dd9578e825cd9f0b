#!/usr/bin/env bash
# Configures (once) and builds tofa in the source tree. Extra arguments go to configure.
# With ccache installed (scripts/install-deps.sh), compilations are cached in
# /var/cache/tofa/ccache, so a fresh clone (CI) rebuilds in about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/tofa/ccache}
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1  # hits across checkouts (-g would hash the directory)
if [ ! -f Makefile ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
  autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  compilers=()
  if command -v ccache >/dev/null && mkdir -p "$CCACHE_DIR" 2>/dev/null; then
    compilers=(CC="ccache gcc" CXX="ccache g++")
  fi
  ./configure --enable-werror "${compilers[@]}" "$@" >/dev/null
fi
make -j"$jobs" >/dev/null
