#!/bin/bash
# The 22.05 packages on a clean Debian 12: a container from the pristine
# bookworm base image (scripts/build-deb.sh image bookworm) installs
# out/deb/22.05/slurm-tofa_*.deb and slurm-tofa-dev_*.deb with apt (which
# pulls Debian's Slurm, munge, Scotch ... from the archive), then, on an
# internal podman network (no route out; its own loopback, so no clash with
# clusters on this host), runs tests/packaging/in_container.sh: munged + slurmctld + 4 slurmd with
# the plugins from /usr/lib/<triplet>/slurm-wlm and TOFA jobs whose layouts
# must match the service's placements. Nothing of the build tree is mounted:
# only the .deb files and three scripts (in_container.sh, scripts/minicluster.sh,
# scripts/lib/common.sh) are copied in. Prints "N passed, N failed".
#
#   bash tests/packaging/deb_install.sh [DEB_DIR]     (default out/deb/22.05)
#
# Exits 77 (skip) when not root or podman cannot run; 1 when the packages
# are missing (build them with scripts/build-deb.sh 22.05).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_ROOT=$(cd "$HERE/../.." && pwd)
DEBS=${1:-${TOFA_DEB_DIR:-$SRC_ROOT/out/deb/22.05}}
CACHE=${TOFA_DEB_CACHE:-/var/cache/tofa/deb}
NAME=tofa-deb-install-$$
STEP_IMAGE=localhost/tofa-deb-install:$$

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (podman, apt in the container)"; exit 77; }
shopt -s nullglob
debs=("$DEBS"/slurm-tofa_*.deb "$DEBS"/slurm-tofa-dev_*.deb)
if [ ${#debs[@]} -ne 2 ]; then
    echo "FAIL: expected slurm-tofa_*.deb and slurm-tofa-dev_*.deb in $DEBS (bash scripts/build-deb.sh 22.05)"
    echo "0 passed, 1 failed"
    exit 1
fi
IMAGE=$(bash "$SRC_ROOT/scripts/build-deb.sh" image bookworm 2>/dev/null | tail -n 1)
if [ -z "$IMAGE" ] || ! podman --runtime runc image exists "$IMAGE"; then
    echo "SKIP: no bookworm base image (scripts/build-deb.sh image bookworm failed)"
    exit 77
fi
pod() { podman --runtime runc "$@"; }

work=$(mktemp -d /tmp/tofa-deb-install.XXXXXX)
cleanup() {
    pod rm -f "$NAME" >/dev/null 2>&1 || true
    pod rmi -f "$STEP_IMAGE" >/dev/null 2>&1 || true
    pod network rm -f "$NAME" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/debs" "$work/test" "$CACHE/apt-archives-bookworm"
cp "${debs[@]}" "$work/debs/"
cp "$HERE/in_container.sh" "$SRC_ROOT/scripts/minicluster.sh" "$work/test/"
mkdir -p "$work/test/lib"
cp "$SRC_ROOT/scripts/lib/common.sh" "$work/test/lib/"
echo "packages: $(cd "$work/debs" && echo *.deb); image $IMAGE"

# 1. apt install on the clean system (network; downloaded .debs are cached
#    in $CACHE/apt-archives-bookworm between runs, the system is new each time).
t0=$(date +%s)
if ! pod run --name "$NAME" --network host -v "$work/debs:/debs:ro" \
        -v "$CACHE/apt-archives-bookworm:/var/cache/apt/archives" "$IMAGE" bash -euc '
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            /debs/slurm-tofa_*.deb /debs/slurm-tofa-dev_*.deb slurmctld slurmd slurm-client munge procps
        dpkg-query -W slurm-tofa slurm-tofa-dev slurm-wlm-basic-plugins slurmctld slurmd munge' \
        > "$work/install.log" 2>&1; then
    tail -n 25 "$work/install.log"
    echo "FAIL: apt-get install of the packages in a clean bookworm container"
    echo "0 passed, 1 failed"
    exit 1
fi
tail -n 6 "$work/install.log"
echo "PASS: apt-get install ./slurm-tofa*.deb on a clean Debian 12 ($(( $(date +%s) - t0 )) s)"
pod commit -q "$NAME" "$STEP_IMAGE" >/dev/null
pod rm -f "$NAME" >/dev/null

# 2. The cluster test, offline: an --internal network (no route out). Not
#    --network none: with only a loopback, getaddrinfo(AI_ADDRCONFIG) refuses
#    even "127.0.0.1" and Slurm cannot resolve its nodes.
t1=$(date +%s)
pod network create --internal "$NAME" >/dev/null || { echo "FAIL: podman network create --internal"; exit 1; }
pod run --rm --name "$NAME" --network "$NAME" -v "$work/test:/opt/tofa-test:ro" "$STEP_IMAGE" \
    bash /opt/tofa-test/in_container.sh 2>&1 | tee "$work/test.log" | grep -v '^minicluster.sh: '
rc=${PIPESTATUS[0]}
summary=$(tail -n 1 "$work/test.log")
if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    p=$((BASH_REMATCH[1] + 1)) f=${BASH_REMATCH[2]}
else
    p=1 f=1
    echo "FAIL: in_container.sh ended without a summary (rc $rc)"
fi
[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
echo "(install $(( t1 - t0 )) s, cluster test $(( $(date +%s) - t1 )) s)"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
