#!/usr/bin/env bash
# Configures (once) and builds tofa in the source tree. Extra arguments go to configure.
# With ccache installed (scripts/install-deps.sh), compilations are cached in
# /var/cache/tofa/ccache, so a fresh clone (CI) rebuilds in about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# shellcheck source=lib/common.sh
. scripts/lib/common.sh
use_ccache "$PWD"
if [ ! -f Makefile ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
  autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  ./configure --enable-werror "${COMPILERS[@]}" "$@" >/dev/null
fi
make -j"$jobs" >/dev/null
