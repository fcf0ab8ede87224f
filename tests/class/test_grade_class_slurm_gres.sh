#!/usr/bin/env bash
# scripts/class/grade_class.sh --slurm with the GPUs as a Slurm gres, on a real
# single-node cluster (slurm_cluster.sh's start_cluster --gpus) whose two
# GPUs are stand-ins: character devices made with mknod (slurmd only looks
# at them; nothing opens them), and an nvidia-smi stand-in that names them.
# The node registers gres gpu:2, a job asking for more is refused, jobs
# asking for one each never share one, and the
# stand-in class of class_standins.sh graded with --gres=gpu:1 per task
# sees CUDA_VISIBLE_DEVICES set to one of them in every task and grade,
# the GPU's name in every gradebook row. Skips (77) without root, Slurm,
# munge, zip, unzip, or where mknod is not permitted (no CAP_MKNOD).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/grade/testing.sh
source "$repo/tests/grade/testing.sh"
# shellcheck source=tests/class/slurm_cluster.sh
source "$here/slurm_cluster.sh"
# shellcheck source=tests/class/class_standins.sh
source "$here/class_standins.sh"
skip_without_slurm
use_temp_folder
trap 'stop_cluster; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/dev"
# The NVIDIA driver's character devices are major 195, minor the GPU.
for i in 0 1; do
  mknod "$tmp/dev/nvidia$i" c 195 "$i" 2>/dev/null ||
    { echo "SKIPPED: mknod is not permitted here (the stand-in GPUs are character devices)"; exit 77; }
done
make_class
cat >"$fakebin/nvidia-smi" <<'SH'
#!/usr/bin/env bash
# nvidia-smi's stand-in: the name of GPU -i N.
index=0
while [ $# -gt 0 ]; do [ "$1" != -i ] || index=$2; shift; done
echo "Stand-in GPU $index"
SH
chmod +x "$fakebin/nvidia-smi"

OUT=$(start_cluster "$tmp/plain" --gpus "$tmp/calls" 2>&1)
expect_eq "a plain file as a GPU: refused" 1 "$?"
expect_match "a plain file as a GPU: said" "is not a GPU's device file" "$OUT"
stop_cluster
start_cluster "$tmp/cluster" --gpus "$tmp/dev/nvidia0,$tmp/dev/nvidia1" || { fail "the cluster starts with two GPUs"; finish; exit 1; }
pass
expect_match "the node's gres" '^ *Gres=gpu:2 *$' "$(scontrol show node)"
expect_match "gres.conf names the device files" "File=$tmp/dev/nvidia1\$" "$(cat "$tmp/cluster/gres.conf")"
OUT=$(sbatch --gres=gpu:3 --wrap true 2>&1)
expect_eq "a job asking for three GPUs: refused" 1 "$?"

# Four tasks of a GPU each, a second long: never two on one GPU at once.
mkdir -p "$tmp/spans"
# shellcheck disable=SC2016  # expanded by the job
sbatch --array=0-3 --gres=gpu:1 --output="$tmp/spans/%a" \
  --wrap 'start=$(date +%s.%N); sleep 1; echo "${CUDA_VISIBLE_DEVICES-unset} $start $(date +%s.%N)"' >/dev/null
for ((i = 0; i < 100; i++)); do [ -n "$(squeue -h 2>/dev/null)" ] || break; sleep 0.2; done
spans=$(cat "$tmp"/spans/*)
expect_eq "one GPU a task: four tasks ran" 4 "$(grep -cE '^[01] ' <<<"$spans")"
expect_eq "one task a GPU at a time" "" "$(awk '{ gpu[NR] = $1; from[NR] = $2; to[NR] = $3 }
  END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
    if (gpu[i] == gpu[j] && from[i] < to[j] && from[j] < to[i]) print "GPU " gpu[i] ": tasks overlap" }' <<<"$spans")"

: >"$GRADE_CALLS"
OUT=$("$repo/scripts/class/grade_class.sh" --slurm --wait --handout "$handout" --out "$tmp/out" \
  --timeout 30 --grade-timeout 3 "$subs" 2>"$tmp/gres.err")
expect_eq "gres: exit status (some not graded)" 1 "$?"
expect_match "gres: submitted" '^Submitted to Slurm: array [0-9]+ \(10 submissions\)' "$OUT"
book() { grep "^$1," "$tmp/out/gradebook.csv"; }
expect_match "gres: alice graded on a GPU" '^alice,5,2.5,60,67.5,82,graded,"Stand-in GPU [01]"$' "$(book alice)"
expect_match "gres: carol's build failed, on a GPU" '^carol,0,0,0,0,82,build failed,"Stand-in GPU [01]"$' "$(book carol)"
expect_eq "gres: every row names a GPU" "" "$(awk -F, 'NR > 1 && $NF !~ /^"Stand-in GPU [01]"$/' "$tmp/out/gradebook.csv")"
expect_eq "gres: every grade saw one GPU" "" "$(awk '$2 != 0 && $2 != 1' "$GRADE_CALLS")"
expect_eq "gres: a grade per submission that builds" 7 "$(wc -l <"$GRADE_CALLS")"
tasks=$(cat "$tmp"/out/.slurm/task-*.out)
expect_eq "gres: every task's log names its GPU" 10 "$(grep -cE '^Task [0-9]+ of array [0-9]+ on .*: grading .*, CUDA_VISIBLE_DEVICES=[01]$' <<<"$tasks")"
expect_match "gres: a task's log says its status" '^carol: build failed \(GPU: Stand-in GPU [01]\)$' "$tasks"
finish
