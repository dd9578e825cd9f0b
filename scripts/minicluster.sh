#!/bin/bash
# A Slurm mini-cluster on this host: one private munged, one slurmctld and N
# slurmd (multiple-slurmd mode, one loopback port each), all state, logs and
# pid files under one working directory. Meant for integration tests (as root).
#
# munge: the cluster runs its own munged (key, socket, pid, log in DIR/munge) and
# points Slurm at it with AuthInfo=socket=...; in 22.05 both auth/munge and
# cred/munge read that option, and client commands (srun, sbatch, sinfo) use it
# too once SLURM_CONF is exported. A system munged, if any, is left alone.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$SCRIPT_DIR/lib/common.sh"

usage() {
    cat <<EOF
Usage: $TOFA_PROG {up|down|status|conf} [options]

  up       write the configuration, start munged, slurmctld and the slurmd,
           wait until every node is idle; prints "export SLURM_CONF=..."
  down     stop everything (scancel, scontrol shutdown, then the pid files);
           safe to run when nothing is running
  status   show the daemons and sinfo; exit 0 only if all daemons run
  conf     write the configuration only and print slurm.conf

Options (for up and conf; down and status need only --dir):
  --dir DIR            working directory (default /tmp/tofa-cluster)
  --nodes N            number of nodes (default 8)
  --prefix P           node names P1..PN (default t)
  --cpus N             CPUs per node (default 4)
  --port-base P        slurmctld port P, slurmd ports P+1..P+N (default 17000)
  --plugin-dir DIR     extra PluginDir, searched before Slurm's own (repeatable)
  --conf-extra FILE    lines appended to slurm.conf; a key set there replaces
                       this script's default for that key
  --plugstack FILE     plugstack.conf to use (default: an empty one)
  --timeout SECS       how long up waits for idle nodes (default 60)
  --controller-cpus L  run munged and slurmctld on these host CPUs (taskset
                       list), as on a cluster whose controller has its host
  --node-cpus L        run the slurmd, and so the job steps, on these CPUs
  -h, --help           this message

Example:
  $TOFA_PROG up --nodes 8 && export SLURM_CONF=/tmp/tofa-cluster/etc/slurm.conf
  srun -N 8 -l hostname
  $TOFA_PROG down
EOF
}

DIR=/tmp/tofa-cluster
NODES=8
PREFIX=t
CPUS=4
PORT_BASE=17000
PLUGIN_DIRS=()
CONF_EXTRA=
PLUGSTACK=
TIMEOUT=60
CONTROLLER_CPUS=
NODE_CPUS=

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --dir) DIR=${2:?--dir needs a value}; shift ;;
            --nodes) NODES=${2:?--nodes needs a value}; shift ;;
            --prefix) PREFIX=${2:?--prefix needs a value}; shift ;;
            --cpus) CPUS=${2:?--cpus needs a value}; shift ;;
            --port-base) PORT_BASE=${2:?--port-base needs a value}; shift ;;
            --plugin-dir) PLUGIN_DIRS+=("$(realpath "${2:?--plugin-dir needs a value}")"); shift ;;
            --conf-extra) CONF_EXTRA=$(realpath "${2:?--conf-extra needs a value}"); shift ;;
            --plugstack) PLUGSTACK=$(realpath "${2:?--plugstack needs a value}"); shift ;;
            --timeout) TIMEOUT=${2:?--timeout needs a value}; shift ;;
            --controller-cpus) CONTROLLER_CPUS=${2:?--controller-cpus needs a value}; shift ;;
            --node-cpus) NODE_CPUS=${2:?--node-cpus needs a value}; shift ;;
            -h|--help) usage; exit 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
        shift
    done
    [[ $NODES =~ ^[1-9][0-9]*$ ]] || die "--nodes must be a positive integer, not '$NODES'"
    [[ $CPUS =~ ^[1-9][0-9]*$ ]] || die "--cpus must be a positive integer, not '$CPUS'"
    if ! [[ $PORT_BASE =~ ^[1-9][0-9]*$ ]] || [ $((PORT_BASE + NODES)) -ge 65536 ]; then
        die "--port-base must leave room for $NODES ports below 65536"
    fi
    [[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer"
    local cpus
    for cpus in "$CONTROLLER_CPUS" "$NODE_CPUS"; do
        [ -z "$cpus" ] || taskset -c "$cpus" true 2>/dev/null \
            || die "--controller-cpus/--node-cpus: '$cpus' is not a CPU list of this host"
    done
    [[ $PREFIX =~ ^[a-zA-Z][a-zA-Z0-9_-]*$ ]] || die "--prefix must be a plain name, not '$PREFIX'"
    [ -z "$CONF_EXTRA" ] || [ -f "$CONF_EXTRA" ] || die "--conf-extra: no file $CONF_EXTRA"
    [ -z "$PLUGSTACK" ] || [ -f "$PLUGSTACK" ] || die "--plugstack: no file $PLUGSTACK"
    local d
    for d in "${PLUGIN_DIRS[@]}"; do
        [ -d "$d" ] || die "--plugin-dir: no directory $d"
    done
    DIR=$(realpath -m "$DIR")
    CONF=$DIR/etc/slurm.conf
    MUNGE_DIR=$DIR/munge
    MUNGE_SOCKET=$MUNGE_DIR/munge.socket.2
}

slurm_plugin_dir() {
    local d
    for d in /usr/lib/*/slurm-wlm /usr/lib/slurm-wlm /usr/lib64/slurm; do
        [ -f "$d/select_cons_tres.so" ] && { echo "$d"; return; }
    done
    die "cannot find Slurm's plugin directory (is slurm-wlm-basic-plugins installed?)"
}

node_names() {
    local i
    for ((i = 1; i <= NODES; i++)); do echo "$PREFIX$i"; done
}

# Default slurm.conf settings, "Key=Value" one a line. A key that also appears
# in --conf-extra is left out, so the extra file decides.
default_settings() {
    local host plugin_path
    host=$(hostname -s)
    plugin_path=$(IFS=:; echo "${PLUGIN_DIRS[*]:+${PLUGIN_DIRS[*]}:}$(slurm_plugin_dir)")
    cat <<EOF
ClusterName=tofa
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$PORT_BASE
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
PluginDir=$plugin_path
PlugStackConfig=$DIR/etc/plugstack.conf
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd-%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=30
SlurmdParameters=config_overrides
MailProg=/bin/true
EOF
}

write_config() {
    local key last=$((PORT_BASE + NODES))
    mkdir -p "$DIR"/{etc,state,spool,run,log,tmp}
    {
        echo "# Generated by $TOFA_PROG; do not edit (rerun '$TOFA_PROG conf')."
        while IFS= read -r line; do
            key=${line%%=*}
            if [ -n "$CONF_EXTRA" ] && grep -qiE "^[[:space:]]*${key}[[:space:]]*=" "$CONF_EXTRA"; then
                echo "# $key: set in $CONF_EXTRA"
            else
                echo "$line"
            fi
        done < <(default_settings)
        echo "NodeName=${PREFIX}[1-$NODES] NodeHostname=$(hostname -s) NodeAddr=127.0.0.1" \
            "Port=$((PORT_BASE + 1))-$last CPUs=$CPUS RealMemory=1000 State=UNKNOWN"
        echo "PartitionName=main Nodes=${PREFIX}[1-$NODES] Default=YES MaxTime=INFINITE State=UP"
        if [ -n "$CONF_EXTRA" ]; then
            echo "# --- from $CONF_EXTRA"
            cat "$CONF_EXTRA"
        fi
    } > "$CONF.tmp"
    mv "$CONF.tmp" "$CONF"
    if [ -n "$PLUGSTACK" ]; then
        cp "$PLUGSTACK" "$DIR/etc/plugstack.conf"
    else
        : > "$DIR/etc/plugstack.conf"
    fi
    # Remember the shape for status/down.
    printf 'NODES=%s\nPREFIX=%s\n' "$NODES" "$PREFIX" > "$DIR/etc/cluster.env"
}

proc_alive() {  # a running process (a zombie counts as gone)
    local state
    state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

pid_alive() {   # pid_alive PIDFILE -> prints the pid if that process runs
    local pid
    [ -f "$1" ] || return 1
    pid=$(cat "$1" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] && proc_alive "$pid" || return 1
    echo "$pid"
}

# Like wait_for, but runs CMD in this shell so that CMD may die (exit) itself.
wait_until() {
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@"; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}

wait_for() {    # wait_for SECONDS CMD... : retries CMD every 0.2 s
    local deadline=$(( $(date +%s) + $1 )); shift
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}

# Runs "$@" on the CPU list $1 (all CPUs when it is empty).
on_cpus() {
    local cpus=$1
    shift
    if [ -n "$cpus" ]; then taskset -c "$cpus" "$@"; else "$@"; fi
}

# A private munged (own key, socket, pid and log under $DIR/munge): it cannot
# clash with a system munged, and Slurm reaches it through AuthInfo=socket=.
start_munged() {
    local user=munge
    id munge >/dev/null 2>&1 || user=root
    install -d -o "$user" -g "$user" -m 0755 "$MUNGE_DIR"
    if [ ! -s "$MUNGE_DIR/munge.key" ]; then
        head -c 1024 /dev/urandom > "$MUNGE_DIR/munge.key"
    fi
    chown "$user:$user" "$MUNGE_DIR/munge.key"
    chmod 0600 "$MUNGE_DIR/munge.key"
    rm -f "$MUNGE_SOCKET" "$MUNGE_SOCKET.lock"
    local args=(--socket="$MUNGE_SOCKET" --key-file="$MUNGE_DIR/munge.key"
                --pid-file="$MUNGE_DIR/munged.pid" --log-file="$MUNGE_DIR/munged.log"
                --seed-file="$MUNGE_DIR/munged.seed")
    log "starting munged ($MUNGE_SOCKET)"
    if [ "$user" = munge ]; then
        on_cpus "$CONTROLLER_CPUS" runuser -u munge -- /usr/sbin/munged "${args[@]}" \
            || die "munged failed to start; see $MUNGE_DIR/munged.log"
    else
        on_cpus "$CONTROLLER_CPUS" /usr/sbin/munged --force "${args[@]}" || die "munged failed to start; see $MUNGE_DIR/munged.log"
    fi
    wait_for 10 munge_works || die "munged does not answer on $MUNGE_SOCKET; see $MUNGE_DIR/munged.log"
}

munge_works() {
    munge -n -S "$MUNGE_SOCKET" | unmunge -S "$MUNGE_SOCKET"
}

# Succeeds when slurmctld answers; exits up at once when it died (its pid file
# appears right after it forks, so a missing one is only fatal after 2 s).
ctld_ready() {
    if ! pid_alive "$DIR/run/slurmctld.pid" >/dev/null && [ $(( $(date +%s) - STARTED )) -ge 2 ]; then
        tail -n 5 "$DIR/log/slurmctld.log" >&2 || true
        die "slurmctld exited; see $DIR/log/slurmctld.log"
    fi
    scontrol ping >/dev/null 2>&1
}

# Succeeds when all nodes are idle; exits up at once when a slurmd died.
nodes_ready() {
    local n
    if [ $(( $(date +%s) - STARTED )) -ge 2 ]; then
        while read -r n; do
            if ! pid_alive "$DIR/run/slurmd-$n.pid" >/dev/null; then
                tail -n 5 "$DIR/log/slurmd-$n.log" >&2 || true
                die "slurmd $n exited; see $DIR/log/slurmd-$n.log"
            fi
        done < <(node_names)
    fi
    all_nodes_idle
}

all_nodes_idle() {
    local count
    count=$(sinfo -h -N -o '%N %T' | awk '$2 == "idle" { n++ } END { print n + 0 }')
    [ "$count" -eq "$NODES" ]
}

# Another cluster (or anything else) on our ports would make a daemon exit
# with a bind error deep in its log; say it up front instead.
check_ports_free() {
    command -v ss >/dev/null || return 0
    local used
    used=$(ss -Htln | awk -v lo="$PORT_BASE" -v hi="$((PORT_BASE + NODES))" '
        { n = split($4, a, ":"); p = a[n] + 0; if (p >= lo && p <= hi) print p }' | sort -nu | tr '\n' ' ')
    [ -z "$used" ] || die "ports in use: $used(another cluster? pick another --port-base)"
}

cmd_up() {
    require_root
    apt_install_missing munge slurmctld slurmd slurm-client
    if pid_alive "$DIR/run/slurmctld.pid" >/dev/null || pid_alive "$MUNGE_DIR/munged.pid" >/dev/null; then
        die "a cluster is already running in $DIR (run '$TOFA_PROG down --dir $DIR' first)"
    fi
    check_ports_free
    local start n
    start=$(date +%s%N)
    # Whatever was started is stopped again if up fails half way (logs stay).
    trap 'log "up failed: stopping what was started (logs in $DIR/log)"; cmd_down' EXIT
    rm -rf "$DIR"/{state,spool,run,log,tmp}
    write_config
    export SLURM_CONF=$CONF
    start_munged

    log "starting slurmctld (log $DIR/log/slurmctld.log)"
    on_cpus "$CONTROLLER_CPUS" slurmctld -c || die "slurmctld failed to start; see $DIR/log/slurmctld.log"
    STARTED=$(date +%s)
    wait_until 20 ctld_ready || die "slurmctld does not answer; see $DIR/log/slurmctld.log"

    log "starting $NODES slurmd"
    while read -r n; do
        mkdir -p "$DIR/spool/$n"
        on_cpus "$NODE_CPUS" slurmd -N "$n" || die "slurmd -N $n failed to start; see $DIR/log/slurmd-$n.log"
    done < <(node_names)

    STARTED=$(date +%s)
    if ! wait_until "$TIMEOUT" nodes_ready; then
        sinfo -N >&2 || true
        die "not all $NODES nodes became idle within ${TIMEOUT}s; logs in $DIR/log"
    fi
    trap - EXIT
    log "up: $NODES nodes idle after $(( ($(date +%s%N) - start) / 1000000 )) ms"
    echo "export SLURM_CONF=$CONF"
}

stop_pid() {   # TERM, wait up to 5 s, then KILL
    proc_alive "$1" || return 0
    kill "$1" 2>/dev/null || true
    wait_for 5 eval "! proc_alive $1" || kill -9 "$1" 2>/dev/null || true
}

# slurmstepd processes of this cluster (still running job steps): they inherit
# SLURM_CONF=$CONF from our slurmd.
our_stepds() {
    local p
    for p in $(pgrep -x slurmstepd || true); do
        { tr '\0' '\n' < "/proc/$p/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$CONF" && echo "$p"
    done
    return 0
}

none_alive() {
    local p
    for p in "$@"; do proc_alive "$p" && return 1; done
    return 0
}

no_jobs() {
    [ -z "$(squeue -h -o %i 2>/dev/null)" ]
}

cmd_down() {
    [ -d "$DIR" ] || { log "nothing to stop ($DIR does not exist)"; return 0; }
    export SLURM_CONF=$CONF
    local f pid pids=() asked=no
    for f in "$DIR"/run/*.pid; do
        pid=$(pid_alive "$f") && pids+=("$pid")
    done
    if pid_alive "$DIR/run/slurmctld.pid" >/dev/null && [ -f "$CONF" ]; then
        # Jobs first: a slurmd that still reports a finished job to a stopped
        # slurmctld retries for about 10 s before it exits.
        local jobs
        jobs=$(timeout 10 squeue -h -o %i 2>/dev/null || true)
        if [ -n "$jobs" ]; then
            log "cancelling jobs: $(echo "$jobs" | tr '\n' ' ')"
            # shellcheck disable=SC2086
            timeout 10 scancel $jobs 2>/dev/null || true
            wait_for 15 no_jobs || log "jobs still listed after 15 s; shutting down anyway"
        fi
        log "scontrol shutdown"
        if timeout 10 scontrol shutdown >/dev/null 2>&1; then
            asked=yes
        else
            log "scontrol shutdown failed; stopping the daemons by pid"
        fi
    fi
    if [ ${#pids[@]} -gt 0 ]; then
        if [ $asked = yes ]; then
            wait_for 15 none_alive "${pids[@]}" || log "daemons still running after 15 s; killing them"
        fi
        for pid in "${pids[@]}"; do stop_pid "$pid"; done
    fi
    rm -f "$DIR"/run/*.pid
    for pid in $(our_stepds); do
        log "killing leftover slurmstepd $pid"
        kill -9 "$pid" 2>/dev/null || true
    done
    if pid=$(pid_alive "$MUNGE_DIR/munged.pid"); then
        log "stopping munged"
        stop_pid "$pid"
    fi
    rm -f "$MUNGE_DIR/munged.pid"
    log "down"
}

cmd_status() {
    [ -f "$DIR/etc/cluster.env" ] || { echo "no cluster in $DIR"; return 3; }
    # shellcheck disable=SC1091
    . "$DIR/etc/cluster.env"
    export SLURM_CONF=$CONF
    local bad=0 pid n
    report() {   # report NAME PIDFILE
        if pid=$(pid_alive "$2"); then echo "$1: running (pid $pid)"
        else echo "$1: stopped"; bad=1; fi
    }
    report munged "$MUNGE_DIR/munged.pid"
    report slurmctld "$DIR/run/slurmctld.pid"
    while read -r n; do report "slurmd $n" "$DIR/run/slurmd-$n.pid"; done < <(node_names)
    if pid_alive "$DIR/run/slurmctld.pid" >/dev/null; then
        sinfo -N || bad=1
    fi
    echo "export SLURM_CONF=$CONF"
    return $((bad ? 3 : 0))
}

main() {
    [ $# -gt 0 ] || { usage >&2; exit 2; }
    local cmd=$1; shift
    case "$cmd" in
        -h|--help|help) usage; exit 0 ;;
    esac
    parse_args "$@"
    case "$cmd" in
        up) cmd_up ;;
        down) cmd_down ;;
        status) cmd_status ;;
        conf) write_config; cat "$CONF" ;;
        *) usage >&2; die "unknown command: $cmd" ;;
    esac
}

main "$@"
