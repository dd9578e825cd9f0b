#!/bin/bash
# Builds NPB 3.3's DT benchmark as a native Open MPI program, for recording
# with tofa-profile --trace. Its source is the MPI C program SimGrid ships in
# examples/smpi/NAS, taken from Debian's simgrid source package (the version
# of the installed libsimgrid-dev); only its two SimGrid includes and its
# TRACE_smpi_set_category calls (SimGrid's tracing categories) are removed.
# Prints the binary's path (last line of stdout); cached in
# $TOFA_NPB_CACHE (default /var/cache/tofa/npb-dt).
#
#   mpirun -np 43 "$(tools/sim/record/npb-dt.sh)" 43 B BH
set -euo pipefail
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../../scripts/lib/common.sh
. "$SCRIPT_DIR/../../../scripts/lib/common.sh"

cache=${TOFA_NPB_CACHE:-/var/cache/tofa/npb-dt}
version=$(installed_version libsimgrid-dev)
[ -n "$version" ] || die "libsimgrid-dev is not installed (scripts/install-deps.sh)"
source_version=${version%%+b*} # a binNMU (+bN) builds the same source
bin=$cache/$source_version/dt
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

mpicc=$(command -v mpicc.openmpi || true)
[ -n "$mpicc" ] || die "mpicc.openmpi not found (libopenmpi-dev)"
work=$cache/$source_version/src
rm -rf "$work" && mkdir -p "$work"
if ensure_deb_src; then apt_get update -q >&2 || die "apt-get update failed"; fi
log "apt-get source simgrid=$source_version (NPB DT from examples/smpi/NAS)"
(cd "$work" && apt_get source -q --download-only "simgrid=$source_version" >&2) \
    || die "apt-get source simgrid=$source_version failed"
tar -xf "$work"/simgrid_*.orig.tar.* -C "$work" --strip-components=4 --wildcards '*/examples/smpi/NAS/*.[ch]'
sed -i -e 's|#include "smpi/mpi.h"|#include <mpi.h>|' -e '/#include "simgrid\/instr.h"/d' \
    -e 's|TRACE_smpi_set_category *(.*);||' "$work"/dt.c "$work"/nas_common.c
"$mpicc" -O2 -o "$bin.tmp" "$work"/dt.c "$work"/DGraph.c "$work"/nas_common.c -lm
mv "$bin.tmp" "$bin"
rm -f "$work"/simgrid_*
log "built $bin"
echo "$bin"
