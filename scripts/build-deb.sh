#!/bin/bash
# Builds tofa's Debian packages (debian/) for one Slurm release, into
# out/deb/VERSION/ (docs/packaging.md):
#   22.05  natively on this Debian 12 host, against Debian 12's Slurm
#          (slurm-wlm 22.05.8): dpkg-buildpackage -us -uc -b;
#   24.11  inside a Debian 13 (trixie) container (podman), against Debian
#          13's own Slurm (slurm-wlm 24.11.5): the same debian/ directory.
# Containers: the base images are made once with debootstrap from the Debian
# mirror apt uses and `podman import` (no registry needed); the rootfs
# tarballs and the Slurm source trees are cached in /var/cache/tofa/deb
# (TOFA_DEB_CACHE), the images in podman's storage. Prints the output
# directory (last line of stdout).
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=lib/common.sh
. "$SCRIPT_DIR/lib/common.sh"

usage() {
    cat <<EOF
Usage: $TOFA_PROG [--jobs N] [--check] [--out DIR] 22.05|24.11
       $TOFA_PROG image bookworm|trixie

  22.05        build slurm-tofa and slurm-tofa-dev on this Debian 12 host
  24.11        build them in a Debian 13 (trixie) container with podman
  image SUITE  make sure the base image of SUITE exists (debootstrap +
               podman import the first time); prints its name

  --jobs N     parallel make jobs (default 2)
  --check      run make check during the build (default: nocheck)
  --out DIR    output directory (default $SRC_ROOT/out/deb/VERSION)
  -h, --help   this message

Environment: TOFA_DEB_CACHE (default /var/cache/tofa/deb).
EOF
}

CACHE=${TOFA_DEB_CACHE:-/var/cache/tofa/deb}
PODMAN_PACKAGES=(podman runc netavark aardvark-dns iptables debootstrap)
jobs=2
check=no
out=
version=
suite=
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift ;;
        --check) check=yes ;;
        image) [ $# -ge 2 ] || die "image needs a suite"; version=image; suite=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        22.05|24.11) version=$1 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done
[ -n "$version" ] || { usage >&2; die "VERSION missing"; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer"

# ---- containers -------------------------------------------------------------

prepare_podman() {
    require_root
    apt_install_missing "${PODMAN_PACKAGES[@]}"
    write_containers_conf
}

pod() { podman --runtime runc "$@"; }

# docker.io/library/debian:SUITE, as the registry would name it (docker/cluster.sh
# uses the same name for bookworm, so either script's image serves both).
ensure_base_image() {
    local suite=$1 image=docker.io/library/debian:$1
    prepare_podman
    if pod image exists "$image"; then echo "$image"; return 0; fi
    local tarball=$CACHE/debian-$suite-rootfs.tar
    # docker/cluster.sh keeps the same bookworm rootfs under its own cache.
    if [ ! -s "$tarball" ] && [ -s "/var/cache/tofa/docker/debian-$suite-rootfs.tar" ]; then
        tarball=/var/cache/tofa/docker/debian-$suite-rootfs.tar
    fi
    [ -s "$tarball" ] || build_debian_rootfs "$suite" "$tarball" "$CACHE/debootstrap-$suite.log"
    log "podman import $tarball as $image"
    pod import -q --change 'CMD ["bash"]' "$tarball" "$image" >/dev/null \
        || die "podman import of $tarball failed"
    echo "$image"
}

if [ "$version" = image ]; then
    case $suite in bookworm|trixie) ;; *) die "image: bookworm or trixie, not '$suite'" ;; esac
    ensure_base_image "$suite" | tail -n 1
    exit 0
fi

# ---- common -------------------------------------------------------------------

[ -n "$out" ] || out=$SRC_ROOT/out/deb/$version
PKG_VERSION=$(dpkg-parsechangelog -l "$SRC_ROOT/debian/changelog" -S Version 2>/dev/null \
    || sed -n '1s/.*(\(.*\)).*/\1/p' "$SRC_ROOT/debian/changelog")
SRC_NAME=slurm-tofa
STAGE=$CACHE/build-$version
TREE=$STAGE/$SRC_NAME-$PKG_VERSION
T0=$(date +%s)
elapsed() { echo $(( $(date +%s) - T0 )); }

# A fresh copy of the working tree (tracked files and new ones git does not
# ignore; no in-tree build products, no .git): dpkg-buildpackage cleans and
# builds in it, never in the checkout, whose in-tree build stays as it is.
stage_source() {
    rm -rf "$STAGE"
    mkdir -p "$TREE"
    if git -C "$SRC_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
        # Not the directory and tarballs of a running make dist(check).
        (cd "$SRC_ROOT" && git ls-files -z --cached --others --exclude-standard \
            | grep -zv '^tofa-[0-9][^/]*\(/\|\.tar\.\)' \
            | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$TREE" -xf -
    else
        (cd "$SRC_ROOT" && tar --exclude=./out --exclude=./.git -cf - .) | tar -C "$TREE" -xf -
    fi
    [ -x "$TREE/debian/rules" ] || die "no debian/rules in the staged tree $TREE"
    # The source package (.dsc + native tarball) from the clean copy.
    (cd "$STAGE" && dpkg-source -b "$SRC_NAME-$PKG_VERSION" > "$STAGE/dpkg-source.log" 2>&1) \
        || { tail -n 20 "$STAGE/dpkg-source.log" >&2; die "dpkg-source -b failed"; }
}

collect() {
    mkdir -p "$out"
    rm -f "$out"/*.deb "$out"/*.dsc "$out"/*.tar.xz "$out"/*.changes "$out"/*.buildinfo
    cp "$STAGE"/*.deb "$STAGE"/*.dsc "$STAGE"/*.tar.xz "$STAGE"/*.changes "$STAGE"/*.buildinfo "$out"/
    cp "$STAGE"/*.log "$out"/ 2>/dev/null || true
    ls "$out"/*.deb >/dev/null 2>&1 || die "no .deb in $out"
}

# make check (unit, command-line, manual-page and MPI profiler tests) runs
# only with --check: make distcheck runs the same tests.
BUILD_OPTIONS="parallel=$jobs"
[ $check = yes ] || BUILD_OPTIONS="$BUILD_OPTIONS nocheck"

# ---- 22.05: this Debian 12 host ------------------------------------------------

build_native() {
    require_root
    . /etc/os-release
    [ "${VERSION_CODENAME:-}" = bookworm ] || log "warning: 22.05 is built on Debian 12 (bookworm); this is ${VERSION_CODENAME:-unknown}"
    apt_install_missing dpkg-dev debhelper fakeroot lintian git
    stage_source
    if ! (cd "$TREE" && dpkg-checkbuilddeps -B >/dev/null 2>&1); then
        log "installing the build dependencies (apt-get build-dep)"
        (cd "$TREE" && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q -o Dpkg::Use-Pty=0 ./ >&2) \
            || die "apt-get build-dep failed"
    fi
    local slurm_tree
    slurm_tree=$(bash "$SCRIPT_DIR/slurm-source.sh" | tail -n 1)
    [ -f "$slurm_tree/config.h" ] || die "scripts/slurm-source.sh gave no configured Slurm tree"
    log "Slurm $(installed_version slurm-wlm-basic-plugins), internal headers from $slurm_tree"
    local t
    t=$(date +%s)
    log "dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS=$BUILD_OPTIONS; log $STAGE/build.log)"
    if command -v ccache >/dev/null; then
        export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$CACHE/ccache-bookworm CCACHE_BASEDIR=$TREE
    fi
    (cd "$TREE" && TOFA_SLURM_SOURCE=$slurm_tree DEB_BUILD_OPTIONS=$BUILD_OPTIONS \
        dpkg-buildpackage -us -uc -b > "$STAGE/build.log" 2>&1) \
        || { tail -n 30 "$STAGE/build.log" >&2; die "dpkg-buildpackage failed; see $STAGE/build.log"; }
    log "dpkg-buildpackage: $(( $(date +%s) - t )) s"
    (cd "$STAGE" && lintian --info --display-info --pedantic *.changes *.dsc > "$STAGE/lintian.log" 2>&1) || true
}

# ---- 24.11: a Debian 13 container ----------------------------------------------

# Packages of the build image besides the build dependencies of debian/control:
# the tools, and what Slurm's configure needs to describe Debian's build.
BUILD_IMAGE_PACKAGES="dpkg-dev debhelper fakeroot lintian ccache ca-certificates xz-utils patch
 gcc g++ make libc6-dev libmunge-dev libpmix-dev libpam0g-dev"

build_image() {
    local base=$1 key image ctr
    key=$( { cat "$SRC_ROOT/debian/control"; echo "$BUILD_IMAGE_PACKAGES"; } | sha256sum | cut -c1-12)
    image=localhost/tofa-deb-build:trixie-$key
    if pod image exists "$image"; then echo "$image"; return 0; fi
    local t previous
    t=$(date +%s)
    # An older build image (debian/control changed since) is a good start:
    # apt-get build-dep then adds only what is new.
    previous=$(pod images --format '{{.Repository}}:{{.Tag}}' localhost/tofa-deb-build 2>/dev/null \
        | grep ':trixie-' | head -n 1 || true)
    [ -z "$previous" ] || base=$previous
    log "building $image: $base + deb-src + build dependencies (log $CACHE/build-image-trixie.log)"
    ctr=tofa-deb-image-$$
    pod rm -f "$ctr" >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    if ! pod run --name "$ctr" --network host -v "$TREE:/src:ro" "$base" bash -euc '
            sed "s/^Types: deb\$/Types: deb-src/" /etc/apt/sources.list.d/debian.sources \
                > /etc/apt/sources.list.d/debian-src.sources
            apt-get update -q
            export DEBIAN_FRONTEND=noninteractive
            apt-get install -y -q --no-install-recommends '"$(echo $BUILD_IMAGE_PACKAGES)"'
            apt-get build-dep -y -q /src
            apt-get clean' > "$CACHE/build-image-trixie.log" 2>&1; then
        pod rm -f "$ctr" >/dev/null 2>&1 || true
        tail -n 20 "$CACHE/build-image-trixie.log" >&2
        die "the build image could not be prepared; see $CACHE/build-image-trixie.log"
    fi
    pod commit -q "$ctr" "$image" >/dev/null || die "podman commit failed"
    pod rm -f "$ctr" >/dev/null
    # Only the newest build image keeps a name (the layers stay shared).
    [ -z "$previous" ] || pod untag "$previous" >/dev/null 2>&1 || true
    log "build image ready in $(( $(date +%s) - t )) s"
    echo "$image"
}

# Inside the container: Debian 13's Slurm source (apt-get source applies
# Debian's patches), configured with the flags of its debian/rules, and the
# one convenience library the 24.11 topology plugin links
# (src/plugins/topology/common). Cached in $CACHE/slurm-src-trixie/VERSION,
# mounted at the same path, so libtool's .la paths hold.
SLURM_TREE_SCRIPT='
set -euo pipefail
debver=$(dpkg-query -W -f="\${Version}" libslurm-dev)
upstream=${debver%%-*}
dir=$CACHE/slurm-src-trixie/$debver
tree=$dir/slurm-wlm-$upstream
if [ ! -f "$dir/.tofa-ready" ]; then
    rm -rf "$dir"; mkdir -p "$dir"; cd "$dir"
    if apt-get source -q --only-source "slurm-wlm=$debver" >&2; then
        echo "Debian source package $debver, Debian patches applied" > "$dir/SOURCE"
    else
        # The mirror serves the orig tarball of 24.11.5-4+deb13u1 but not its
        # .dsc and debian.tar.xz (404): the upstream tree, without Debian patches.
        echo "tofa: Debian packaging of slurm-wlm $debver not on the mirror: upstream tree without Debian patches" >&2
        rm -rf "$tree"
        ls slurm-wlm_"$upstream".orig.tar.* >/dev/null 2>&1 \
            || apt-get source -q --tar-only --only-source "slurm-wlm=$debver" >&2
        orig=$(ls slurm-wlm_"$upstream".orig.tar.* | head -n 1)
        top=$(tar -tf "$orig" | awk -F/ "NR == 1 { print \$1 }")
        tar -xf "$orig"
        [ -d "$tree" ] || mv "$top" "$tree"
        echo "upstream $orig of $debver, WITHOUT Debian patches (packaging not on the mirror)" > "$dir/SOURCE"
    fi
    [ -x "$tree/configure" ] || { echo "apt-get source gave no $tree" >&2; exit 1; }
    ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
    pmix=; [ -d "/usr/lib/$ma/pmix2" ] && pmix="--with-pmix=/usr/lib/$ma/pmix2"
    cd "$tree"
    ./configure --build="$(dpkg-architecture -qDEB_BUILD_GNU_TYPE)" --prefix=/usr \
        --includedir=/usr/include --mandir=/usr/share/man --infodir=/usr/share/info \
        --sysconfdir=/etc/slurm --localstatedir=/var --libdir=/usr/lib/$ma --runstatedir=/run \
        --disable-option-checking --disable-silent-rules --disable-maintainer-mode \
        --disable-dependency-tracking --with-munge --enable-pam --without-rpath \
        --disable-debug --enable-multiple-slurmd $pmix \
        SUCMD=/bin/su SLEEP_CMD=/bin/sleep > "$dir/configure.log" 2>&1 \
        || { tail -n 20 "$dir/configure.log" >&2; exit 1; }
    make -C src/plugins/topology/common libtopology_common.la > "$dir/make.log" 2>&1 \
        || { tail -n 20 "$dir/make.log" >&2; exit 1; }
    for h in slurm.h slurm_errno.h spank.h slurm_version.h; do
        cmp -s "slurm/$h" "/usr/include/slurm/$h" \
            || { echo "slurm/$h of $tree differs from the installed one" >&2; exit 1; }
    done
    touch "$dir/.tofa-ready"
fi
echo "$tree"
'

build_container() {
    require_root
    local base image slurm_tree t
    base=$(ensure_base_image trixie | tail -n 1)
    log "base image $base ($(elapsed) s)"
    apt_install_missing dpkg-dev git
    stage_source
    image=$(build_image "$base" | tail -n 1)
    log "build image $image ($(elapsed) s)"
    mkdir -p "$CACHE/ccache-trixie"
    t=$(date +%s)
    slurm_tree=$(pod run --rm --network host -e CACHE="$CACHE" -v "$CACHE:$CACHE" "$image" \
        bash -c "$SLURM_TREE_SCRIPT" 2> "$STAGE/slurm-tree.log" | tail -n 1) \
        || { tail -n 20 "$STAGE/slurm-tree.log" >&2; die "preparing Debian 13's Slurm source failed"; }
    log "Slurm source tree $slurm_tree ($(( $(date +%s) - t )) s)"
    t=$(date +%s)
    log "dpkg-buildpackage -us -uc -b in the container (DEB_BUILD_OPTIONS=$BUILD_OPTIONS; log $STAGE/build.log)"
    pod run --rm --network host -v "$CACHE:$CACHE" -w "$TREE" \
        -e TOFA_SLURM_SOURCE="$slurm_tree" -e DEB_BUILD_OPTIONS="$BUILD_OPTIONS" \
        -e CCACHE_DIR="$CACHE/ccache-trixie" -e CCACHE_BASEDIR="$TREE" \
        -e PATH=/usr/lib/ccache:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        "$image" bash -c 'dpkg-buildpackage -us -uc -b && cd .. &&
            { lintian --info --display-info --pedantic *.changes *.dsc > lintian.log 2>&1 || true; }' \
        > "$STAGE/build.log" 2>&1 \
        || { tail -n 30 "$STAGE/build.log" >&2; die "dpkg-buildpackage in the container failed; see $STAGE/build.log"; }
    log "dpkg-buildpackage: $(( $(date +%s) - t )) s"
}

case $version in
    22.05) build_native ;;
    24.11) build_container ;;
esac
collect
log "Slurm $version packages in $out ($(elapsed) s):"
(cd "$out" && ls -1 ./*.deb ./*.dsc) >&2
for deb in "$out"/*.deb; do
    dpkg-deb -f "$deb" Package Version Depends | sed 's/^/    /' >&2
done
echo "$out"
