# shellcheck shell=bash
# Running programs so that Ctrl-C and SIGTERM stop them at once. Sourced by
# the scripts that run long programs (grade.sh, profile.sh and the GPU
# machine's scripts). bash runs a trap only once the foreground command has
# ended, but during `wait` at once: so each program runs in the background
# under timeout, which leads a process group of its own and passes a signal
# it gets on to that whole group, and the script waits for it. Also the log
# folder of the GPU machine's scripts, which a stop names.

# start_program DIR LIMIT COMMAND...: starts COMMAND in the folder DIR, in
# the background, under timeout LIMIT seconds (0: none; SIGKILL 10 s after
# the limit or a stop), with the caller's redirections; $! is its id.
start_program() {
  local dir=$1 limit=$2
  shift 2
  (
    [ -z "$stop_stderr" ] || exec {stop_stderr}>&-
    cd "$dir" && exec timeout -k 10 "$limit" "$@"
  ) &
}

# wait_program PID: waits for a program start_program started; returns its
# exit status (124 when it ran past its limit).
wait_program() { wait "$1"; }

# run_program_in DIR LIMIT COMMAND...: start_program, then wait_program.
run_program_in() {
  start_program "$@"
  wait_program "$!"
}

# wait_any: waits for whichever started program ends first; sets ended_pid
# to its id and returns its exit status (127 when none is left). Needs
# bash 5.1 or newer.
wait_any() {
  ended_pid=""
  # shellcheck disable=SC2034  # read by the caller
  wait -n -p ended_pid
}

# stop_on_signals: from now on SIGINT, SIGTERM and SIGHUP (a closed terminal
# or dropped session: the programs run in process groups of their own, which
# the hang-up would not reach) stop every program still running and wait for
# them, run $stop_tidy SIGNAME when set (the script's
# function that removes what a stopped run must not leave; it may set
# stop_note), say "SCRIPT: stopped by SIGNAME$stop_note" on stderr and exit
# 130, 143 or 129.
stop_note=""
stop_tidy=""
stop_stderr=""
stop_on_signals() {
  # The line goes to this stderr, not to the log of the program waited for.
  exec {stop_stderr}>&2
  trap 'stop_now INT 130' INT
  trap 'stop_now TERM 143' TERM
  trap 'stop_now HUP 129' HUP
}

# use_log_folder [SUBFOLDER...]: creates the folder $logs and these folders
# in it, or says "SCRIPT: cannot create FOLDER" and exits 1; makes $logs
# absolute (a relative one is the caller's) and names it in stop_note, the
# line a stop says.
# shellcheck disable=SC2120  # the subfolders are optional
use_log_folder() {
  local folder
  for folder in "$logs" "${@/#/$logs/}"; do
    mkdir -p -- "$folder" || { echo "${0##*/}: cannot create $folder" >&2; exit 1; }
  done
  logs=$(cd "$logs" && pwd)
  stop_note=": the logs so far are in $logs"
}

# shellcheck disable=SC2317  # run by the traps of stop_on_signals
stop_now() {
  local pid
  trap '' INT TERM HUP
  exec 2>&"$stop_stderr"
  for pid in $(jobs -pr); do kill -TERM "$pid" 2>/dev/null; done
  wait 2>/dev/null
  [ -z "$stop_tidy" ] || "$stop_tidy" "$1"
  echo "${0##*/}: stopped by SIG$1$stop_note" >&2
  exit "$2"
}
