# shellcheck shell=bash
# The tofa lines of a cluster's configuration, one writer for the demo
# (scripts/demo-cluster.sh) and the test clusters
# (tests/integration/lib_tofa_cluster.sh): what an administrator copies
# (docs/admin-guide.md explains every key).

# tofa_conf_write FILE DIMS CORES NODES PORT MAP_WORKER [LINE...]: tofa.conf
# for t[1-NODES] on a DIMS torus, heartbeats every second, outages from a
# window of 5 beats; each LINE (may hold several) appended.
tofa_conf_write() {
    local file=$1 dims=$2 cores=$3 nodes=$4 port=$5 worker=$6 line
    shift 6
    {
        cat <<CONF
Dims=$dims Wrap=yes CoresPerNode=$cores
NodeName=t[1-$nodes]
ServicePort=$port
HeartbeatInterval=1
HeartbeatTimeout=1
HeartbeatPortOffset=100
OutageModel=window:5
MapWorker=$worker
CONF
        for line in "$@"; do [ -z "$line" ] || printf '%s\n' "$line"; done
    } >"$file"
}

# tofa_slurm_conf_write FILE: slurm.conf's tofa lines on 22.05 (the select
# shim over cons_tres, the slurmctld service, the cli_filter).
tofa_slurm_conf_write() {
    cat >"$1" <<CONF
TopologyPlugin=topology/tofa
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPlugstack=slurmctld/tofa
CliFilterPlugins=tofa
CONF
}

# tofa_plugstack_write FILE PLUGIN_DIR: plugstack.conf of the SPANK plugins.
tofa_plugstack_write() {
    printf 'required %s/tofa_loadmatrix.so\nrequired %s/tofa_nodestate.so\n' "$2" "$2" >"$1"
}
