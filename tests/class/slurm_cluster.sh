# shellcheck shell=bash
# A real single-node Slurm cluster, from Debian's packages: munged on its
# own key and socket, slurmctld and slurmd configured in a folder of their
# own (as root, without systemd: proctrack/linuxproc, task/none,
# select/cons_tres), on ports of their own. Used by the class tests and by
# scripts/dev/gpu_class.sh on a GPU machine.
#
#   start_cluster DIR [--gpus N|FILE,...]
#     starts it, sets SLURM_CONF for the Slurm commands. --gpus makes the
#     node's GPUs a gres: GresTypes=gpu, Gres=gpu:COUNT on the node, and
#     DIR/gres.conf (beside slurm.conf, where slurmd looks) naming the device
#     files, /dev/nvidia0 to /dev/nvidia(N-1) for a number; a job asking for
#     --gres=gpu:1 then waits for a free one and runs with
#     CUDA_VISIBLE_DEVICES set to it. Fails, saying why from the logs, when
#     the node does not come up or registers other gres.
#   stop_cluster     stops all three.
#   gpu_devices      the machine's NVIDIA GPU device files, comma-separated
#                    (/dev/nvidia0, /dev/nvidia1, ...; nothing without).

# slurm_missing: what the cluster needs that this machine lacks, or nothing.
slurm_missing() {
  local tool
  [ "$(id -u)" = 0 ] || { echo "root (slurmd runs jobs as their users)"; return; }
  for tool in munged slurmctld slurmd sbatch squeue sinfo scancel scontrol; do
    command -v "$tool" >/dev/null || { echo "$tool (Debian: slurm-wlm, munge)"; return; }
  done
}

# gpu_devices: the machine's /dev/nvidiaN, comma-separated, in order.
gpu_devices() {
  local file
  for file in /dev/nvidia*; do
    [[ $file =~ ^/dev/nvidia[0-9]+$ ]] && [ -c "$file" ] && echo "$file"
  done | sort -V | paste -sd, -
}

# cluster_gres_files SPEC: the device files of --gpus SPEC, one a line.
cluster_gres_files() {
  local i
  if [[ $1 =~ ^[0-9]+$ ]]; then
    for ((i = 0; i < $1; i++)); do echo "/dev/nvidia$i"; done
  else
    tr ',' '\n' <<<"$1" | grep .
  fi
}

cluster_dir=""
cluster_made_slice=""
start_cluster() {
  cluster_dir=$1
  local host port i gpus="" node_gres="" state file
  local -a files=()
  if [ $# -gt 1 ]; then
    [ "$2" = --gpus ] || { echo "start_cluster: unknown option '$2' (--gpus N|FILE,...)" >&2; return 1; }
    [ -n "${3:-}" ] || { echo "start_cluster: --gpus needs a count or device files" >&2; return 1; }
    gpus=$3
  fi
  if [ -n "$gpus" ]; then
    mapfile -t files < <(cluster_gres_files "$gpus")
    [ ${#files[@]} -gt 0 ] || { echo "start_cluster: --gpus $gpus names no GPU" >&2; return 1; }
    for file in "${files[@]}"; do
      # slurmd takes a plain file too, but then sets no CUDA_VISIBLE_DEVICES.
      [ -c "$file" ] || { echo "start_cluster: $file is not a GPU's device file (a character device)" >&2; return 1; }
    done
    node_gres=" Gres=gpu:${#files[@]}"
  fi
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
CONF
  if [ -n "$gpus" ]; then
    # The gres lines: the type, and the logs of how the node's gres were read.
    printf 'GresTypes=gpu\nDebugFlags=Gres\n' >>"$cluster_dir/slurm.conf"
    {
      echo "# The node's GPUs, by device file; no NVML: nothing detected."
      echo "AutoDetect=off"
      for file in "${files[@]}"; do echo "NodeName=$host Name=gpu File=$file"; done
    } >"$cluster_dir/gres.conf"
    # With device gres, slurmd starts its cgroup plugin; where no systemd
    # answers on D-Bus (a container, a machine booted without it) it must
    # make its cgroup folders itself.
    printf 'CgroupPlugin=autodetect\nIgnoreSystemd=yes\n' >"$cluster_dir/cgroup.conf"
    # Without systemd nothing made the slice slurmd puts its scope in; one
    # made here goes again with the cluster.
    if [ -d /sys/fs/cgroup ] && [ ! -d /sys/fs/cgroup/system.slice ] &&
      mkdir /sys/fs/cgroup/system.slice 2>/dev/null; then
      cluster_made_slice=/sys/fs/cgroup/system.slice
    fi
  fi
  cat >>"$cluster_dir/slurm.conf" <<CONF
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc)$node_gres State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$cluster_dir/slurm.conf
  slurmctld -f "$SLURM_CONF" || return 1
  slurmd -f "$SLURM_CONF" || return 1
  for ((i = 0; i < 100; i++)); do
    state=$(sinfo -h -o '%t' 2>/dev/null)
    [[ $state != *idle* ]] || break
    sleep 0.2
  done
  if [[ $state != *idle* ]]; then
    echo "the Slurm cluster never came up (node state '$state'): $(cluster_log_tail)" >&2
    return 1
  fi
  [ -n "$gpus" ] || return 0
  # The gres the node registered, as the controller sees it: gpu:COUNT,
  # with the sockets they sit on where slurmd found them.
  state=$(scontrol show node "$host" 2>/dev/null | grep -o 'Gres=[^ ]*' | head -n 1)
  if [[ ! $state =~ ^Gres=gpu:${#files[@]}(\(.*\))?$ ]]; then
    echo "the Slurm node registered '${state:-no Gres}', not Gres=gpu:${#files[@]}: $(cluster_log_tail)" >&2
    return 1
  fi
}

# cluster_log_tail: the last lines of the daemons' logs, and their lines
# about gres.
cluster_log_tail() {
  local log
  for log in "$cluster_dir"/log/slurmctld.log "$cluster_dir"/log/slurmd.log; do
    echo
    echo "== $log"
    grep -i 'gres' "$log" 2>/dev/null | tail -n 10
    tail -n 5 "$log" 2>&1
  done
}

stop_cluster() {
  [ -n "$cluster_dir" ] || return 0
  local file pid i jobs
  # Jobs still queued or running are cancelled first, and given a moment to
  # end, so that no slurmstepd outlives the slurmd it reports to.
  jobs=$(squeue -h -o %A 2>/dev/null)
  if [ -n "$jobs" ]; then
    # shellcheck disable=SC2086  # one id a word
    scancel $jobs 2>/dev/null
    for ((i = 0; i < 50; i++)); do
      [ -n "$(squeue -h -o %A 2>/dev/null)" ] || break
      sleep 0.2
    done
  fi
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
  # The cgroup slice start_cluster made, with what slurmd made in it (empty
  # once its processes have ended), deepest first.
  if [ -n "$cluster_made_slice" ]; then
    find "$cluster_made_slice" -depth -type d -exec rmdir {} + 2>/dev/null
    cluster_made_slice=""
  fi
  cluster_dir=""
}
