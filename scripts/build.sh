#!/usr/bin/env bash
# Configures (once) and builds tofa in the source tree. Extra arguments go to configure.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f Makefile ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
  autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  ./configure --enable-werror "$@" >/dev/null
fi
make -j"$jobs" >/dev/null
