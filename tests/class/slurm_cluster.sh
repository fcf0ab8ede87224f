# shellcheck shell=bash
# A real single-node Slurm cluster for the tests, from Debian's packages:
# munged on its own key and socket, slurmctld and slurmd configured in a
# folder of their own (as root, without systemd: proctrack/linuxproc,
# task/none, select/cons_tres), on ports of their own. start_cluster DIR
# sets SLURM_CONF for the Slurm commands; stop_cluster stops all three.

# slurm_missing: what the cluster needs that this machine lacks, or nothing.
slurm_missing() {
  local tool
  [ "$(id -u)" = 0 ] || { echo "root (slurmd runs jobs as their users)"; return; }
  for tool in munged slurmctld slurmd sbatch squeue sinfo scancel; do
    command -v "$tool" >/dev/null || { echo "$tool (Debian: slurm-wlm, munge)"; return; }
  done
}

cluster_dir=""
start_cluster() {
  cluster_dir=$1
  local host port i
  host=$(hostname -s)
  port=$((20000 + RANDOM % 20000))
  mkdir -p "$cluster_dir/munge" "$cluster_dir/state" "$cluster_dir/spool" "$cluster_dir/log"
  head -c 1024 /dev/urandom >"$cluster_dir/munge/munge.key"
  chmod 700 "$cluster_dir/munge"
  chmod 600 "$cluster_dir/munge/munge.key"
  munged --key-file="$cluster_dir/munge/munge.key" --socket="$cluster_dir/munge/socket" \
    --pid-file="$cluster_dir/munge/pid" --log-file="$cluster_dir/munge/log" \
    --seed-file="$cluster_dir/munge/seed" -f || return 1
  cat >"$cluster_dir/slurm.conf" <<CONF
ClusterName=test$port
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$cluster_dir/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$cluster_dir/state
SlurmdSpoolDir=$cluster_dir/spool
SlurmctldPidFile=$cluster_dir/slurmctld.pid
SlurmdPidFile=$cluster_dir/slurmd.pid
SlurmctldLogFile=$cluster_dir/log/slurmctld.log
SlurmdLogFile=$cluster_dir/log/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$cluster_dir/slurm.conf
  slurmctld -f "$SLURM_CONF" || return 1
  slurmd -f "$SLURM_CONF" || return 1
  for ((i = 0; i < 100; i++)); do
    sinfo -h -o '%t' 2>/dev/null | grep -q idle && return 0
    sleep 0.2
  done
  echo "the test cluster never came up: $(tail -n 3 "$cluster_dir/log/slurmctld.log" "$cluster_dir/log/slurmd.log" 2>&1)" >&2
  return 1
}

stop_cluster() {
  [ -n "$cluster_dir" ] || return 0
  local file pid
  for file in slurmd.pid slurmctld.pid munge/pid; do
    pid=$(cat "$cluster_dir/$file" 2>/dev/null) && kill "$pid" 2>/dev/null
  done
  for ((i = 0; i < 50; i++)); do
    pid=""
    for file in slurmd.pid slurmctld.pid munge/pid; do
      kill -0 "$(cat "$cluster_dir/$file" 2>/dev/null)" 2>/dev/null && pid=1
    done
    [ -n "$pid" ] || break
    sleep 0.1
  done
  cluster_dir=""
}
