# shellcheck shell=bash
# Shared helpers for the tofa shell scripts (sourced, not executed).
# Messages go to stderr so that stdout stays free for a script's result.

TOFA_PROG=${TOFA_PROG:-$(basename "$0")}

log() { printf '%s: %s\n' "$TOFA_PROG" "$*" >&2; }

die() {
    printf '%s: error: %s\n' "$TOFA_PROG" "$*" >&2
    exit 1
}

require_root() {
    [ "$(id -u)" -eq 0 ] || die "must run as root (it installs packages and starts daemons)"
}

# Installs the given Debian packages that are not installed yet (CI starts from
# a fresh Debian 12). "apt-get update" runs once, only when something is missing.
apt_install_missing() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    require_root
    log "installing missing packages: ${missing[*]}"
    apt-get update -q >&2 || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Use-Pty=0 --no-install-recommends \
        "${missing[@]}" >&2 || die "apt-get install ${missing[*]} failed"
}

# Prints the version of an installed Debian package, or nothing.
installed_version() {
    dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true
}

# podman as verified on the project's machines, in $CONTAINERS_CONF (default
# /etc/containers/containers.conf) unless it exists: runc (crun fails on hosts
# with hybrid cgroups), no default ulimits (some sandboxes forbid raising
# rlimits), netavark with aardvark-dns (containers on one network resolve each
# other's names). Needs root when the file is missing.
write_containers_conf() {
    local conf=${CONTAINERS_CONF:-/etc/containers/containers.conf}
    [ -f "$conf" ] && return 0
    [ "$(id -u)" -eq 0 ] || die "$conf is missing; create it as root (see docker/README.md)"
    log "writing $conf (runc, no default ulimits, netavark)"
    mkdir -p "$(dirname "$conf")"
    cat > "$conf" <<'CONF'
# Written by tofa's scripts (scripts/lib/common.sh: write_containers_conf).
[containers]
default_ulimits = []

[network]
network_backend = "netavark"

[engine]
runtime = "runc"
CONF
}
