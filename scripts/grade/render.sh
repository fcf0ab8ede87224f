# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's render part: each scene's graded worker and reference worker
# timed and checked by the judge (judge.sh), one after the other; or, with
# --ref-render, a course-style reference program's own printed time. The
# CPU renderer's reference is the serial worker's time over the cores,
# cached per scene, size, build and machine.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- render

host=$(uname -n 2>/dev/null || echo host)
declare -A scene_ref_ms=() scene_ref_name=() scene_ref_trip=() scene_ref_median=()

# render_memory: where the judge's arrays live for the render workers (the
# CPU renderer's are host code).
render_memory() { if [ "$renderer" = cpu ]; then echo host; else echo "$judge_memory"; fi; }

# render_worker_target MODE: the worker graded (MODE: --cuda-mode, or the
# ladder's rung).
render_worker_target() {
  if [ "$renderer" = cpu ]; then
    echo judge_render_cpu
  elif [ "$renderer" = student ] || [ -f "$repo/.handout" ]; then
    echo render_worker
  else
    echo "judge_render_rung_${1:-auto}"
  fi
}

# render_reference_worker: the reference worker's program ("" with --ref-render).
render_reference_worker() {
  if [ -n "$ref_render" ]; then
    echo ""
  elif [ "$renderer" = cpu ]; then
    echo "$bin_dir/judge_render_serial"
  elif [ -n "$ref_render_worker" ]; then
    echo "$ref_render_worker"
  elif [ "$ref_mode" = course ]; then
    echo "$bin_dir/judge_render_reference"
  else
    echo "$bin_dir/judge_render_rung_$ref_mode"
  fi
}

# render_programs: the targets the render part builds.
render_programs() {
  local mode
  echo judge
  # The judge's empty renderer, the allowance of every graded worker.
  if [ "$(render_memory)" = host ]; then echo judge_render_empty_host; else
    echo judge_calibration_worker judge_render_empty
  fi
  if [ "$ladder" = 1 ]; then
    for mode in "${render_rungs[@]}"; do render_worker_target "$mode"; done
  else
    render_worker_target "$cuda_mode"
  fi
  if [ -z "$ref_render" ]; then
    if [ "$renderer" = cpu ]; then echo judge_render_serial
    elif [ -n "$ref_render_worker" ]; then :
    elif [ "$ref_mode" = course ]; then echo judge_render_reference
    else echo "judge_render_rung_$ref_mode"; fi
  fi
}

# render_preflight: the scenes must be ones the judge knows (a usage error
# before any long run).
render_preflight() {
  local list=$logs/render/scenes.log scene
  run_program "$list" "$bin_dir/judge" --list-scenes || return 0
  for scene in ${scenes//,/ }; do
    grep -qx -- "$scene" "$list" || usage_error "--scenes: the judge does not know the scene '$scene' (judge --list-scenes names them)"
  done
}

# serial_reference_time SCENE LABEL: sets REF_MS, REF_TRIP and CACHED from
# the serial worker's best time, timed by the judge. Cached per scene, size,
# build and machine, with how many other tasks ran when it was measured: a
# time measured on a busy machine is used once and never kept.
serial_reference_time() {
  local scene=$1 label=$2 name cached load before worker
  worker=$(render_reference_worker)
  name=$(serial_time_name "$scene" "$size" "$(program_hash "$worker")" "$host")
  cached=$cache_dir/render/$name
  CACHED=0 REF_TRIP=-
  if [ "$use_cache" = 1 ] && REF_MS=$(cached_time "$cached" "$cores"); then
    CACHED=1
    progress "$label: serial reference time from the cache"
    return 0
  fi
  # The machine is looked at before and after the timing: the busier counts.
  before=$(other_runnable)
  judge_worker "$label: serial reference" "$logs/render/$scene.serial" "$worker" render "$scene" host
  [ "$JUDGE_VERDICT" = ok ] || return 1
  REF_MS=$JUDGE_MS REF_TRIP=$JUDGE_ROUND_TRIP
  load=$(printf '%s\n' "$before" "$(other_runnable)" | awk 'NF { if (!seen || $1 > m) m = $1; seen = 1 } END { if (seen) print m }')
  if is_busy "$load" "$cores"; then
    warn "render $scene: the machine was busy ($load other tasks running on $cores cores) while timing the serial renderer: its time is not cached"
  elif cache_ready; then
    # The time is measured and good: a cache that cannot take it only costs
    # the next run a measurement.
    if ! printf '%s %s\n' "$REF_MS" "${load:--}" >"$work_dir/$name" || ! cache_put "$work_dir/$name" "$name"; then
      warn "render $scene: could not cache the serial time"
    fi
  fi
  return 0
}

# render_reference_name: the reference named in every row.
render_reference_name() {
  if [ -n "$ref_render" ]; then
    echo "$(basename "$ref_render") -r $ref_renderer (its own time)"
  elif [ "$renderer" = cpu ]; then
    echo "serial / $cores cores (perfect scaling)"
  elif [ -n "$ref_render_worker" ]; then
    basename "$ref_render_worker"
  elif [ "$ref_mode" = course ]; then
    echo "course design (judge_render_reference)"
  else
    echo "$ref_mode (judge_render_rung_$ref_mode)"
  fi
}

# render_reference_cores: the cores the reference time is divided among
# (the CPU renderer's serial reference, perfect scaling), else 1.
render_reference_cores() { if [ "$renderer" = cpu ] && [ -z "$ref_render" ]; then echo "$cores"; else echo 1; fi; }

# render_reference_time PART SCENE LABEL: sets REF_MS, REF_MEDIAN ("-"),
# REF_TRIP and REF_NAME from a reference timed apart (measured once per
# scene, the ladder's rungs reuse it): a --ref-render program's own time,
# or the CPU renderer's serial worker's, timed by the judge; a reference
# that cannot give a correct time stops the part (not_graded). A reference
# worker is timed beside the graded one instead (judge_pair).
render_reference_time() {
  local part=$1 scene=$2 label=$3 problem
  REF_MS=${scene_ref_ms[$scene]:-} REF_NAME=${scene_ref_name[$scene]:-} REF_TRIP=${scene_ref_trip[$scene]:--}
  REF_MEDIAN=${scene_ref_median[$scene]:--}
  [ -z "$REF_MS" ] || return 0
  REF_MEDIAN=-
  REF_NAME=$(render_reference_name) REF_TRIP=-
  if [ -n "$ref_render" ]; then
    timed_runs "$label: reference $REF_NAME" "$logs/render/$scene.ref" '^Total:' \
      "$ref_render" -r "$ref_renderer" -s "$size" -b 0:4 -f '' "$scene"
    if [ "$RUN_VERDICT" != ok ]; then
      reference_failed "$part" "$REF_NAME"
      return 1
    fi
    REF_MS=$RUN_BEST
  elif [ "$renderer" = cpu ]; then
    if ! serial_reference_time "$scene" "$label"; then
      problem=$(judge_problem)
      not_graded "$part" "${problem:-the serial reference was rejected by the judge: $JUDGE_NOTE (log: ${JUDGE_LOG#"$logs"/})}"
      return 1
    fi
    [ "$CACHED" = 0 ] || REF_NAME="serial / $cores cores (perfect scaling, cached)"
  fi
  scene_ref_ms[$scene]=$REF_MS scene_ref_name[$scene]=$REF_NAME scene_ref_trip[$scene]=$REF_TRIP
  scene_ref_median[$scene]=$REF_MEDIAN
}

# grade_render_scene PART SCENE LABEL MODE: one row of the render table.
# A reference worker is timed interleaved with the graded one by one judge
# run, which scores the row (judge_pair); the CPU renderer's serial
# reference and a --ref-render program are timed first, once per scene,
# and the judge scores the graded row against that time (judge_score).
# Returns 1 when the part cannot go on (no GPU, no sandbox, no reference).
grade_render_scene() {
  local part=$1 scene=$2 label=$3 mode=$4 prefix problem seed=-
  prefix=$logs/render/$scene.$(render_worker_target "$mode")
  if [ "$renderer" != cpu ] && [ -z "$ref_render" ]; then
    REF_NAME=$(render_reference_name)
    if ! judge_pair "$label (against $REF_NAME)" "$prefix" "$bin_dir/$(render_worker_target "$mode")" \
      "$(render_reference_worker)" render "$scene"; then
      problem=$ROW_PROBLEM
      [ "$ladder" = 0 ] || problem="--ladder: $problem"
      not_graded "$part" "$problem"
      return 1
    fi
  else
    render_reference_time "$part" "$scene" "$label" || return 1
    judge_worker "$label" "$prefix" \
      "$bin_dir/$(render_worker_target "$mode")" render "$scene" "$(render_memory)"
    problem=$(judge_problem)
    if [ -n "$problem" ]; then
      [ "$ladder" = 0 ] || problem="--ladder: $problem"
      not_graded "$part" "$problem"
      return 1
    fi
    judge_score render "$REF_MS" "$REF_MEDIAN" "$(render_reference_cores)" ||
      { not_graded "$part" "the judge could not score $scene: $ROW_PROBLEM"; return 1; }
  fi
  [ "$JUDGE_VERDICT" = ok ] ||
    warn "render $scene${mode:+ ($mode)}: rejected by the judge: $JUDGE_NOTE (worker's log: ${prefix#"$logs"/}.worker/)"
  [[ ! $seed_mode =~ ^[0-9]+$ ]] || seed=$seed_mode
  add_score_row "$part" "$scene" "$seed" "$REF_NAME" "$ROW_REF_MS" "$JUDGE_MS" "$ROW_SPEEDUP" "$JUDGE_VERDICT" \
    "$ROW_SCORE" "$ROW_MAX" "$JUDGE_ROUND_TRIP" \
    "$(noted "$JUDGE_NOTE" "$(noise_note "$JUDGE_VERDICT" "$ROW_SCORE" "$ROW_LOW" "$ROW_HIGH" "$ROW_REF_MS" "$REF_MEDIAN" "$JUDGE_MS" "$JUDGE_MEDIAN")")"
}

# grade_render_rung MODE: the table of one worker (MODE empty: the graded
# renderer as --renderer and --cuda-mode name it).
grade_render_rung() {
  local mode=$1 part=render scene i=0 total what
  [ "$ladder" = 0 ] || part=render/$mode
  total=$(wc -w <<<"${scenes//,/ }")
  for scene in ${scenes//,/ }; do
    i=$((i + 1))
    grade_render_scene "$part" "$scene" "render${mode:+ $mode} $scene ($i/$total)" "$mode" || return 1
  done
  what=$(render_worker_target "$mode")
  print_score_table "$part" "Score table: render ($what, ${size}x$size, ms per frame, best of $runs timed by the judge)" \
    "Scene Name" "Ref Time (T_ref)" "Your Time (T)"
}

grade_render() {
  local mode target
  for target in $(render_programs); do
    ensure_program "$target" || { not_graded render "$(unavailable "$target")"; return; }
  done
  if [ -n "$ref_render" ]; then reference_runs render "$(render_reference_name)" "$ref_render" || return; fi
  if [ -n "$ref_render_worker" ]; then reference_runs render "$(render_reference_name)" "$ref_render_worker" || return; fi
  mkdir -p "$logs/render"
  if [ "$ladder" = 0 ]; then
    grade_render_rung "$cuda_mode"
    return
  fi
  for mode in "${render_rungs[@]}"; do grade_render_rung "$mode" || return; done
  print_ladder_table "Ladder: render ${size}x$size, ms per frame per scene, best of $runs, against $(render_reference_name)" \
    "$scenes" render "${render_rungs[@]}"
}
