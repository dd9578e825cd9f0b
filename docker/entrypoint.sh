#!/bin/bash
# Entrypoint of the tofa cluster image (runs under tini). Writes slurm.conf,
# plugstack.conf and tofa.conf from the environment, starts munged, then runs
# the role given as the first argument:
#   slurmctld   the controller (foreground, logs to the container's stderr)
#   slurmd      a compute node; its node name is the container's hostname
#               (c1..cN) unless TOFA_NODENAME says otherwise
#   conf        print the generated slurm.conf, plugstack.conf, tofa.conf; exit
#   CMD...      anything else runs as given, with the configuration in place
#
# Environment (the same in every container of a cluster):
#   TOFA_NODES=4          nodes c1..cN
#   TOFA_CPUS=2           CPUs per node (may exceed the host's: config_overrides)
#   TOFA_MEMORY=1000      RealMemory per node, MB
#   TOFA_CONTROLLER=slurmctld   host name of the controller container
#   TOFA_PLUGINS=auto     auto: enable each tofa plugin whose .so is installed;
#                         off: plain Slurm even when the plugins are installed
#   TOFA_TORUS=           torus of tofa.conf, e.g. 2x2 (default: N factored
#                         into up to 3 near-equal dimensions)
# A mounted /etc/slurm/slurm.conf.extra is appended to slurm.conf; a key set
# there replaces the generated one. A mounted /etc/slurm/tofa.conf is kept.
set -euo pipefail

PROG=tofa-entrypoint
ETC=${TOFA_ETC:-/etc/slurm}
TEMPLATE=${TOFA_TEMPLATE:-/usr/local/share/tofa-docker/slurm.conf.in}
PLUGIN_SEARCH=${TOFA_PLUGIN_SEARCH:-/usr/local/lib /usr/lib}
SLURM_PLUGIN_DIR=

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

read_settings() {
    NODES=${TOFA_NODES:-4}
    CPUS=${TOFA_CPUS:-2}
    MEMORY=${TOFA_MEMORY:-1000}
    CONTROLLER=${TOFA_CONTROLLER:-slurmctld}
    PLUGINS=${TOFA_PLUGINS:-auto}
    TORUS=${TOFA_TORUS:-}
    [[ $NODES =~ ^[1-9][0-9]*$ ]] || die "TOFA_NODES must be a positive integer, not '$NODES'"
    [[ $CPUS =~ ^[1-9][0-9]*$ ]] || die "TOFA_CPUS must be a positive integer, not '$CPUS'"
    [[ $MEMORY =~ ^[1-9][0-9]*$ ]] || die "TOFA_MEMORY must be a positive integer, not '$MEMORY'"
    case $PLUGINS in auto|off) ;; *) die "TOFA_PLUGINS must be auto or off, not '$PLUGINS'" ;; esac
    [ -z "$TORUS" ] || [[ $TORUS =~ ^[1-9][0-9]*(x[1-9][0-9]*)*$ ]] \
        || die "TOFA_TORUS must look like 4 or 2x2 or 2x2x2, not '$TORUS'"
}

find_slurm_plugin_dir() {
    local d
    for d in /usr/lib/*/slurm-wlm /usr/lib/slurm-wlm /usr/lib64/slurm; do
        [ -f "$d/select_cons_tres.so" ] && { SLURM_PLUGIN_DIR=$d; return; }
    done
    die "cannot find Slurm's plugin directory (select_cons_tres.so)"
}

# Paths of the installed tofa plugins, one a line (libtofa itself excluded).
tofa_plugins() {
    [ "$PLUGINS" = auto ] || return 0
    # shellcheck disable=SC2086
    find $PLUGIN_SEARCH -maxdepth 4 \( -type f -o -type l \) -name '*tofa*.so' ! -name 'lib*' \
        2>/dev/null | sort
}

# tofa's select shim (select_cons_tres.so in tofa's select directory), if installed.
tofa_select_shim() {
    [ "$PLUGINS" = auto ] || return 0
    # shellcheck disable=SC2086
    find $PLUGIN_SEARCH -maxdepth 5 \( -type f -o -type l \) -path '*tofa*/select/select_cons_tres.so' \
        2>/dev/null | sort | head -n 1
}

# "Key=Value" lines that switch on the plugins found; prints nothing without them.
# The select shim keeps SelectType=select/cons_tres: its directory comes first
# on PluginDir.
plugin_settings() {
    local path name dirs=() shim
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        name=$(basename "$path" .so)
        case $name in
            topology_tofa*)   echo "TopologyPlugin=topology/${name#topology_}" ;;
            slurmctld_tofa*)  echo "SlurmctldPlugstack=slurmctld/${name#slurmctld_}" ;;
            cli_filter_tofa*) echo "CliFilterPlugins=${name#cli_filter_}" ;;
            *) continue ;;    # SPANK plugins go to plugstack.conf
        esac
        dirs+=("$(dirname "$path")")
    done < <(tofa_plugins)
    shim=$(tofa_select_shim)
    if [ -n "$shim" ]; then
        echo "SelectType=select/cons_tres"
        dirs=("$(dirname "$shim")" "${dirs[@]}")
    fi
    if [ ${#dirs[@]} -gt 0 ]; then
        echo "PluginDir=$(printf '%s\n' "${dirs[@]}" | awk '!seen[$0]++' | tr '\n' ':')$SLURM_PLUGIN_DIR"
    fi
}

# N factored into up to 3 dimensions as equal as possible: 4 -> 2x2, 8 -> 2x2x2,
# 6 -> 2x3, 5 -> 5.
default_torus() {
    local n=$1 a b c best='' spread=$1
    for ((a = 1; a * a * a <= n; a++)); do
        ((n % a == 0)) || continue
        for ((b = a; a * b * b <= n; b++)); do
            ((n / a % b == 0)) || continue
            c=$((n / a / b))
            if ((c - a < spread)); then spread=$((c - a)); best="$a $b $c"; fi
        done
    done
    [ -n "$best" ] || best="1 1 $n"
    local dims
    # shellcheck disable=SC2086
    dims=$(printf '%s\n' $best | awk '$1 > 1' | paste -sd x)
    echo "${dims:-1}"
}

write_slurm_conf() {
    local overrides extra=$ETC/slurm.conf.extra line key
    overrides=$(plugin_settings)
    if [ -f "$extra" ]; then
        overrides+=$'\n'$(grep -E '^[[:space:]]*[A-Za-z]+[[:space:]]*=' "$extra" || true)
    fi
    {
        sed -e "s|@CONTROLLER@|$CONTROLLER|g" -e "s|@PLUGINDIR@|$SLURM_PLUGIN_DIR|g" \
            -e "s|@NODES@|$NODES|g" -e "s|@CPUS@|$CPUS|g" -e "s|@MEMORY@|$MEMORY|g" \
            "$TEMPLATE" \
        | while IFS= read -r line; do
            key=${line%%=*}
            if [[ $line =~ ^[A-Za-z]+= ]] && [[ ! $key =~ ^(NodeName|PartitionName|NodeSet|DownNodes)$ ]] \
                && grep -qiE "^[[:space:]]*${key}[[:space:]]*=" <<<"$overrides"; then
                echo "# $key: set below"
            else
                echo "$line"
            fi
        done
        if [ -n "$(plugin_settings)" ]; then
            echo "# tofa plugins found in this image"
            plugin_settings
        fi
        if [ -f "$extra" ]; then
            echo "# from $extra"
            cat "$extra"
        fi
    } > "$ETC/slurm.conf.tmp"
    mv "$ETC/slurm.conf.tmp" "$ETC/slurm.conf"
}

write_plugstack_conf() {
    local path
    {
        echo "# Written by $PROG: the tofa SPANK plugins found in this image."
        while IFS= read -r path; do
            case $(basename "$path") in
                tofa_loadmatrix*.so) echo "required $path" ;;
                tofa_nodestate*.so)  echo "optional $path" ;;
            esac
        done < <(tofa_plugins)
    } > "$ETC/plugstack.conf"
}

write_tofa_conf() {
    [ -n "$(plugin_settings)" ] || return 0
    if [ -f "$ETC/tofa.conf" ] && ! grep -q "^# Written by $PROG" "$ETC/tofa.conf"; then
        log "keeping $ETC/tofa.conf"
        return 0
    fi
    local torus=${TORUS:-$(default_torus "$NODES")} product
    product=$(( ${torus//x/*} ))
    [ "$product" -eq "$NODES" ] || die "TOFA_TORUS=$torus has $product nodes, TOFA_NODES is $NODES"
    cat > "$ETC/tofa.conf" <<EOF
# Written by $PROG: the torus of the container cluster (TOFA_TORUS).
Dims=$torus Wrap=yes CoresPerNode=$CPUS
NodeName=c[1-$NODES]
EOF
}

start_munged() {
    install -d -o munge -g munge -m 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged || die "munged failed to start"
    local i
    for ((i = 0; i < 50; i++)); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    die "munged does not answer"
}

# slurmctld resolves every NodeAddr when it starts: give the node containers a
# moment to appear in the network's DNS (a missing one is only a warning).
wait_for_nodes_dns() {
    local i n missing
    for ((i = 0; i < 60; i++)); do
        missing=
        for ((n = 1; n <= NODES; n++)); do
            getent hosts "c$n" >/dev/null || missing+=" c$n"
        done
        [ -z "$missing" ] && return 0
        sleep 0.5
    done
    log "warning: no address yet for$missing; starting slurmctld anyway"
}

main() {
    local role=${1:-slurmd}
    read_settings
    find_slurm_plugin_dir
    mkdir -p "$ETC"
    write_slurm_conf
    write_plugstack_conf
    write_tofa_conf
    case $role in
        conf)
            cat "$ETC/slurm.conf"; echo "# --- plugstack.conf"; cat "$ETC/plugstack.conf"
            if [ -f "$ETC/tofa.conf" ]; then echo "# --- tofa.conf"; cat "$ETC/tofa.conf"; fi
            exit 0 ;;
    esac
    start_munged
    case $role in
        slurmctld)
            mkdir -p /var/spool/slurmctld
            wait_for_nodes_dns
            exec slurmctld -D ;;
        slurmd)
            mkdir -p /var/spool/slurmd
            if [ -n "${TOFA_NODENAME:-}" ]; then exec slurmd -D -N "$TOFA_NODENAME"; fi
            exec slurmd -D ;;
        *)
            exec "$@" ;;
    esac
}

main "$@"
