#!/usr/bin/env bash
# The render judge against host-code render workers (--memory host, no GPU
# needed): the honest control keeps its rows on static, animated and snow
# scenes; forged lines, a cached image and a wrong image size are rejected
# with their reasons; work moved into the setup, the load or the read-back,
# or done by a thread as soon as the frame's variant appears, is timed.
# Skips (77) without bubblewrap.
#
# Usage: test_render_judge.sh JUDGE BIN_DIR
set -uo pipefail
judge=$1 bin=$2
# shellcheck source=tests/grade/testing.sh
source "$(dirname "$0")/../grade/testing.sh"
judge_test_start "$bin/judge_render_worker_honest"

# render_rows WORKER SCENES [OPTIONS...]: the judge's output for the render
# worker; its exit status in $status.
render_rows() {
  local worker=$1 scenes=$2
  shift 2
  mkdir -p "$tmp/logs-$worker"
  rm -f -- "$tmp/rows.jsonl"
  rows=$("$judge" --worker "$bin/judge_render_worker_$worker" --memory host --runs 3 --size 128 \
    --scenes "$scenes" --call-timeout 30 --start-timeout 30 --memory-limit "$memory_limit" --log-dir "$tmp/logs-$worker" \
    --rows "$tmp/rows.jsonl" "$@" render 2>&1)
  status=$?
}

# field SCENE NAME: one field of the scene's row, by its name (the judge's
# --rows: JSON lines).
field() { jq -r --arg scene "$1" --arg name "$2" 'select(.test == "render" and .item == $scene) | .[$name]' "$tmp/rows.jsonl"; }

render_rows honest rgb,rand10k,snowsingle,bouncingballs
expect_eq "honest: the printed row and the --rows row agree" \
  "$(awk -F '\t' '$2 == "rand10k" { print $3, $4, $5, $8 }' <<<"$rows")" \
  "$(jq -r 'select(.item == "rand10k") | "\(.status) \(.best_ms) \(.median_ms) \(.runs)"' "$tmp/rows.jsonl" | awk '{ printf "%s %.4f %.4f %s\n", $1, $2, $3, $4 }')"
expect_eq "honest: exit status" 0 "$status"
for scene in rgb rand10k snowsingle bouncingballs; do
  expect_eq "honest $scene: ok, three frames" ok:3 "$(field "$scene" status):$(field "$scene" runs)"
done

render_rows forged_print rgb
expect_eq "forged lines: exit status" 1 "$status"
expect_match "forged lines: the first frame's image differs" \
  $'\trejected\t.*\timage of timed frame 1 differs from the reference at pixel' "$rows"
expect_match "forged lines: its lines stay in its log" 'Correctness check passed' "$(cat "$tmp"/logs-forged_print/*.log)"
# A wrong frame leaves its pictures in the log folder, named in the row.
expect_match "forged lines: the row names the pictures" \
  'pictures: judge-render-rgb-frame1_yours.png, _reference.png, _difference.png in the worker.s log folder' "$rows"
for picture in yours reference difference; do
  expect_eq "forged lines: the $picture picture, a PNG" $'\x89PNG' "$(head -c 4 "$tmp/logs-forged_print/judge-render-rgb-frame1_$picture.png")"
done

# The first frame a worker draws is the judge's warm-up, on decoys: a
# worker that keeps it fails the first timed frame.
render_rows cache rand10k
expect_match "cached image: the first timed frame differs" $'\trejected\t.*\timage of timed frame 1 differs' "$rows"

render_rows wrong_size rgb
expect_match "wrong image size: said" 'image\(\) is 129x128, not the scene.s 128x128' "$rows"

# Shrinking the shared image or scene (SIGBUS in the judge) is refused.
render_rows resize_image rgb
expect_eq "resize_image: the judge survives" ok:3 "$(field rgb status):$(field rgb runs)"
expect_match "resize_image: shrinking the image refused" \
  'ftruncate\(5, 0\): Operation not permitted' "$(cat "$tmp"/logs-resize_image/*.log)"

# Variants move and resize the circles too: what was computed from the
# first frame's geometry is wrong for the next, even on rgb and pattern,
# whose positions the course's generator fixes.
render_rows cache_geometry rgb,pattern
expect_match "cache_geometry rgb: the first timed frame differs" $'^render\trgb\trejected\t.*\timage of timed frame 1 differs' "$rows"
expect_match "cache_geometry pattern: the first timed frame differs" $'^render\tpattern\trejected\t.*\timage of timed frame 1 differs' "$rows"

# A worker that knows the seed cannot draw the variants ahead: they come
# from the seed and a secret the grader keeps.
printf 'a secret of the grader\n' >"$tmp/secret"
render_rows known_seed rgb --seed 20261203 --secret-file "$tmp/secret"
expect_match "known_seed with a secret: the first frame differs" $'\trejected\t.*\timage of timed frame 1 differs' "$rows"
render_rows known_seed rgb --seed 20261203
expect_match "known_seed without a secret file: the first frame differs" $'\trejected\t.*\timage of timed frame 1 differs' "$rows"
# The same seed and secret give the same inputs (a regrade), another secret
# other ones: the per-frame costs name each frame's variant.
for run in 1 2; do
  render_rows honest rand10k --seed 7 --secret-file "$tmp/secret"
  cp "$tmp/logs-honest/judge-render-rand10k.variants" "$tmp/variants-$run"
done
printf 'another secret of the grader\n' >"$tmp/secret2"
render_rows honest rand10k --seed 7 --secret-file "$tmp/secret2"
expect_eq "same seed and secret: the same variants" "$(cat "$tmp/variants-1")" "$(cat "$tmp/variants-2")"
expect_no_match "another secret: other variants" "$(head -n 1 "$tmp/variants-1")" "$(cat "$tmp/logs-honest/judge-render-rand10k.variants")"
# A trusted reference (no empty renderer first) sees the same variants as a
# graded worker: the same frames for both.
render_rows honest rand10k --seed 7 --secret-file "$tmp/secret" --trusted-untimed
expect_eq "trusted or charged: the same variants" "$(cat "$tmp/variants-1")" "$(cat "$tmp/logs-honest/judge-render-rand10k.variants")"

# Work moved out of the timed frame: its rand10k row stays correct, and
# every frame is charged a good part of the row's best time and more than
# 1 ms (the work is a serial rand10k frame), swell_allowance's too, though
# it burns every core while the judge times its empty renderer, and
# zombie_swell's, whose burners are zombie leaders (their first thread
# ended, another running on) that burn while the worker is held. The honest
# control, judged among them, is charged under half the least of theirs:
# the charge tells moved work from an honest load even where a busy machine
# adds to both.
# charge WORKER: the charge of its rand10k frames (the same for each: the
# medians' difference), from its costs.
charge() {
  awk -F '\t' '!/^#/ { if (m == "" || $NF < m) m = $NF } END { print m }' "$tmp/logs-$1/judge-render-rand10k.tsv"
}
# Under AddressSanitizer the workers are slow and timing is not what that
# run looks at: the judge runs these workers through the same code as the
# honest one above, and setup_precompute still runs for the costs checked
# below; only the charges' comparisons are left out.
if [ "$asan" = 1 ]; then
  skip_part "the charges of moved work at 384x384 (timing, under AddressSanitizer)"
  render_rows setup_precompute rand10k --size 384
else
  moved_least=""
  # At 384x384 the moved work (some 50 ms a frame) stands well above what a
  # busy machine's scheduler adds to a span (a period, some 12 ms).
  for worker in read_back_deferral honest setup_precompute swell_allowance zombie_swell; do
    render_rows "$worker" rand10k --size 384
    expect_eq "$worker: still correct" ok "$(field rand10k status)"
    charged=$(charge "$worker")
    if [ "$worker" = honest ]; then
      honest_charge=$charged honest_best=$(field rand10k best_ms)
      continue
    fi
    expect_eq "$worker: the moved work charged to every frame" yes \
      "$(awk -v c="$charged" -v t="$(field rand10k best_ms)" 'BEGIN { print (c >= 1 && c >= 0.3 * t) ? "yes" : "no: " c " ms of " t }')"
    moved_least=$(awk -v a="${moved_least:-$charged}" -v b="$charged" 'BEGIN { print (b < a) ? b : a }')
  done
  expect_eq "honest: charged under half the least moved work's charge" yes \
    "$(awk -v h="$honest_charge" -v m="$moved_least" 'BEGIN { print (h < 0.5 * m) ? "yes" : "no: " h " ms against " m }')"

  # sigcont_swell: as swell_allowance, its burners undoing the judge's stop
  # (sigcont_burners.h) while it is held: rejected for running while held.
  # Where none of its helpers' alarms fell in a hold, nothing ran there, and
  # its moved work is charged as swell_allowance's.
  render_rows sigcont_swell rand10k --size 384
  if [ "$(field rand10k status)" = ok ]; then
    expect_eq "sigcont_swell, not seen to run while held: the moved work charged" yes \
      "$(awk -v c="$(charge sigcont_swell)" -v t="$(field rand10k best_ms)" 'BEGIN { print (c >= 1 && c >= 0.3 * t) ? "yes" : "no: " c " ms of " t }')"
  else
    expect_match "sigcont_swell: rejected for running while held" 'while the judge held it still' "$(field rand10k reason)"
  fi

  # One frame of three drawn in its load (the setup), the others honest: the
  # median span is an honest one, so that frame is charged its own span, and
  # is no faster than an honest frame.
  render_rows minority_setup rand10k --size 384
  expect_eq "minority_setup: still correct" ok "$(field rand10k status)"
  # (A quarter: on a busy machine the empty renderer's median span, the
  # allowance, can take a good part of the moved frame's; without the charge
  # its best frame is some hundredth of an honest one.)
  expect_eq "minority_setup: its best frame no faster than a quarter of an honest one" yes \
    "$(awk -v b="$(field rand10k best_ms)" -v h="$honest_best" 'BEGIN { print (b >= 0.25 * h) ? "yes" : "no: " b " ms against " h }')"
fi

# Each frame's costs are in the log folder, beside the empty renderer's
# (the allowance: a fixed cost of the same run, never a reference's), and
# no option widens the allowance.
expect_eq "costs: a line per timed frame" 3 "$(grep -vc '^#' "$tmp/logs-setup_precompute/judge-render-rand10k.tsv")"
expect_eq "costs: the empty renderer's frames (at least five)" 5 "$(grep -vc '^#' "$tmp/logs-setup_precompute/judge-render-rand10k.empty.tsv")"
render_rows setup_precompute rand10k --untimed-costs 100000,100000
expect_eq "--untimed-costs is gone: usage error" 2 "$status"
render_rows read_back_deferral rand10k --trusted-untimed
expect_eq "--trusted-untimed: the read-back not charged" yes \
  "$(awk -v c="$(field rand10k charged_ms)" 'BEGIN { printf "%s", (c < 1) ? "yes" : "no: " c }')"

# A thread that draws each variant as soon as the judge writes it, before
# any call: the clock already runs then, so the judged frame is no faster
# than its own drawing (its log says how long each took).
render_rows draw_ahead rand10k
drew=$(awk '/^drew ahead in/ { if (m == "" || $4 < m) m = $4 } END { print m }' "$tmp/logs-draw_ahead/worker-render-rand10k.log")
expect_match "draw_ahead: it drew ahead" '^[0-9.]+$' "$drew"
expect_eq "draw_ahead: every frame (warm-up and timed) came from its drawing ahead" yes \
  "$(awk '/^frame from the drawing ahead$/ { a++ } /^frame drawn in render/ { r++ } END { print (a >= 4 && r == 0) ? "yes" : "no: " a + 0 " ahead, " r + 0 " in render()" }' \
    "$tmp/logs-draw_ahead/worker-render-rand10k.log")"
expect_eq "draw_ahead: the judged frame holds its drawing" yes \
  "$(awk -v b="$(field rand10k best_ms)" -v d="$drew" 'BEGIN { printf "%s", (b >= 0.5 * d) ? "yes" : "no: " b " ms judged, drew in " d }')"

out=$("$judge" --worker "$bin/judge_render_worker_honest" --memory host --scenes nosuchscene render 2>&1)
expect_eq "unknown scene: usage error" 2 "$?"
expect_match "unknown scene: says so" 'nosuchscene' "$out"
out=$("$judge" --worker "$bin/judge_render_worker_honest" --memory host render scan 2>&1)
expect_eq "render and scan at once: usage error" 2 "$?"
finish
