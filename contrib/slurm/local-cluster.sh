#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying `zerosum slurm` and for its test:
# munged, slurmctld and slurmd started by hand, as root, from Debian's packages
# (apt-get install slurm-wlm munge). Nothing in /etc is changed: the configuration lives in
# the state folder, and Slurm's commands find it through SLURM_CONF.
#
#   contrib/slurm/local-cluster.sh start [STATE]   start (or find running) the cluster
#   contrib/slurm/local-cluster.sh stop [STATE]    stop the daemons it started
#
# STATE defaults to /tmp/zerosum-slurm. After `start`, run Slurm's commands with
#   export SLURM_CONF=STATE/slurm.conf
# The node is this machine's short host name with all its CPUs; jobs run as the submitting
# user. Without cgroups or systemd (containers, CI): processes are tracked by
# proctrack/linuxproc, tasks are not bound (task/none), and no accounting is gathered.
set -euo pipefail

action=${1:-}
state=${2:-/tmp/zerosum-slurm}
conf=$state/slurm.conf

fail() { echo "local-cluster.sh: $*" >&2; exit 1; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

start() {
  [ "$(id -u)" -eq 0 ] || fail "start the cluster as root (slurmd runs jobs as their users)"
  for program in munged slurmctld slurmd sinfo; do
    command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] \
      || fail "$program is missing (Debian: apt-get install slurm-wlm munge)"
  done
  export PATH=$PATH:/usr/sbin
  mkdir -p "$state/ctld" "$state/spool"
  local host cpus
  host=$(hostname -s)
  cpus=$(nproc)
  cat > "$conf" <<CONF
ClusterName=zerosum
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MinJobAge=600
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  cat > "$state/cgroup.conf" <<CONF
CgroupPlugin=cgroup/v1
IgnoreSystemd=yes
CONF
  export SLURM_CONF=$conf
  # munged: the key Debian's package made, run as its own user.
  if ! pgrep -x munged >/dev/null; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    [ -f /etc/munge/munge.key ] || fail "/etc/munge/munge.key is missing (reinstall munge)"
    runuser -u munge -- munged
  fi
  alive "$state/slurmctld.pid" || slurmctld -f "$conf"
  alive "$state/slurmd.pid" || slurmd -f "$conf"
  # Ready when the node takes jobs.
  for _ in $(seq 1 150); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
      echo "slurm is up: export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.2
  done
  fail "the node did not come up in 30 s (see $state/slurmctld.log and $state/slurmd.log)"
}

stop() {
  local pidfile
  for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid"; do
    if alive "$pidfile"; then
      local pid
      pid=$(cat "$pidfile")
      kill "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
  done
  echo "slurm is stopped (munged is left running)"
}

case $action in
  start) start ;;
  stop) stop ;;
  *) fail "usage: local-cluster.sh start|stop [STATE]" ;;
esac
