# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's render part: the check against the serial image, the reference, the timed runs.
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- render

render_program=""
render_hash=""
has_check_against=0
host=$(uname -n 2>/dev/null || echo host)
declare -A scene_seed=() scene_ref_ms=() scene_ref_name=()

# render_preflight: what render's --help offers, and the scenes it knows.
render_preflight() {
  local help=$logs/render/help.log list=$logs/render/list.log scene
  render_program=$bin_dir/render
  render_hash=$(program_hash "$render_program")
  run_program "$help" "$render_program" --help
  ! help_lists "$help" '--check-against' || has_check_against=1
  run_program "$list" "$render_program" --list || return 0
  for scene in ${scenes//,/ }; do
    grep -qw -- "$scene" "$list" || usage_error "--scenes: render does not know the scene '$scene' (render --list names them)"
  done
}

# reference_image SCENE SEED LABEL: sets REF_IMAGE to the serial reference
# image of frame 0 (exact floats), from the cache, else rendered now into the
# cache (without the cache, into the log folder); fails when render cannot
# write it. (Not run in a subshell: a signal must find the running program.)
reference_image() {
  local scene=$1 seed=$2 label=$3 dir name written log=$logs/render/$1.reference-image.log
  name=$(reference_image_name "$scene" "$size" "$seed" "$render_hash" rgbaf)
  REF_IMAGE=""
  if cache_ready; then dir=$cache_dir/render; else dir=$logs/render; fi
  if [ "$dir" != "$logs/render" ] && [ -f "$dir/$name" ]; then
    progress "$label: serial reference image from the cache"
    REF_IMAGE=$dir/$name
    return 0
  fi
  progress "$label: serial reference image, seed $seed"
  run_program "$log" "$render_program" -r cpuref -s "$size" -S "$seed" -b 0:1 \
    -f "$work_dir/reference-$scene" --format rgbaf "$scene" || return 1
  written=$(parse_written_file "$log")
  [[ $written == /* ]] || written=$work_dir/$written
  [ -f "$written" ] || return 1
  if [ "$dir" = "$logs/render" ]; then
    mv -f -- "$written" "$dir/$name" || return 1
  else
    cache_put "$written" "$name" || return 1
  fi
  REF_IMAGE=$dir/$name
}

# render_check SCENE SEED LABEL ARGS...: sets CHECK_VERDICT and CHECK_LOG.
# Runs render ARGS (the renderer graded) with the check, against the stored
# serial image when render can (--check-against), else (an older render, or
# the image could not be made) with -c alone.
render_check() {
  local scene=$1 seed=$2 label=$3 args
  shift 3
  args=("$@" -s "$size" -S "$seed" -c)
  if [ "$has_check_against" = 1 ]; then
    if reference_image "$scene" "$seed" "$label"; then
      args+=(--check-against "$REF_IMAGE")
    else
      warn "render $scene: no serial reference image (log: render/$scene.reference-image.log), checking with -c alone"
    fi
  fi
  CHECK_LOG=$logs/render/$scene.check${rung_suffix}.log
  progress "$label: check, seed $seed"
  run_program "$CHECK_LOG" "$render_program" "${args[@]}" -f '' "$scene"
  CHECK_VERDICT=$(classify_run $? "$CHECK_LOG" "$GRADE_RENDER_PASS_RE")
}

# serial_reference_time SCENE LABEL: sets REF_MS and CACHED from the serial
# renderer's best time. Cached per scene, size, build and machine, with the
# load average it was measured under: a time measured on a busy machine is
# used once and never kept, a cached one only where it was measured quietly.
serial_reference_time() {
  local scene=$1 label=$2 name cached load
  name=$(serial_time_name "$scene" "$size" "$render_hash" "$host")
  cached=$cache_dir/render/$name
  CACHED=0
  if [ "$use_cache" = 1 ] && REF_MS=$(cached_time "$cached" "$cores"); then
    CACHED=1
    progress "$label: serial reference time from the cache"
    return 0
  fi
  timed_runs "$label: serial reference" "$logs/render/$scene.cpuref" '^Total:' \
    "$render_program" -r cpuref -s "$size" -b 0:4 -f '' "$scene"
  [ "$RUN_VERDICT" = ok ] || return 1
  REF_MS=$RUN_BEST
  load=$(load_average)
  if is_busy "$load" "$cores"; then
    warn "render $scene: the machine was busy (load $load on $cores cores) while timing the serial renderer: its time is not cached"
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
    echo "$(basename "$ref_render") -r $ref_renderer"
  elif [ "$renderer" != cpu ]; then
    echo "render -r cuda --cuda-mode $ref_mode"
  else
    echo "serial / $cores cores (perfect scaling)"
  fi
}

# render_reference_time SCENE LABEL: sets REF_MS and REF_NAME from the
# named reference (measured once per scene); fails when it cannot give a
# correct time.
render_reference_time() {
  local scene=$1 label=$2 program
  REF_MS=${scene_ref_ms[$scene]:-} REF_NAME=${scene_ref_name[$scene]:-}
  [ -z "$REF_MS" ] || return 0
  REF_NAME=$(render_reference_name)
  if [ -z "$ref_render" ] && [ "$renderer" = cpu ]; then
    serial_reference_time "$scene" "$label" || return 1
    REF_MS=$(per_core "$REF_MS" "$cores")
    [ "$CACHED" = 0 ] || REF_NAME="serial / $cores cores (perfect scaling, cached)"
  else
    if [ -n "$ref_render" ]; then program=("$ref_render" -r "$ref_renderer")
    else program=("$render_program" -r cuda --cuda-mode "$ref_mode"); fi
    timed_runs "$label: reference $REF_NAME" "$logs/render/$scene.ref" '^Total:' \
      "${program[@]}" -s "$size" -b 0:4 -f '' "$scene"
    [ "$RUN_VERDICT" = ok ] || return 1
    REF_MS=$RUN_BEST
  fi
  scene_ref_ms[$scene]=$REF_MS scene_ref_name[$scene]=$REF_NAME
}

# choose_seed SCENE: the check's seed (see --seed), one per scene for the
# whole run. "auto" reuses a cached serial image's seed only where the check
# can use that image.
choose_seed() {
  local seed=${scene_seed[$1]:-}
  if [ -z "$seed" ]; then
    case "$seed_mode" in
      random) seed=$(random_seed) ;;
      auto)
        if [ "$use_cache" = 0 ] || [ "$has_check_against" = 0 ] ||
          ! seed=$(cached_seed "$cache_dir/render" "$1" "$size" "$render_hash" rgbaf); then
          seed=$(random_seed)
        fi
        ;;
      *) seed=$seed_mode ;;
    esac
    scene_seed[$1]=$seed
  fi
  SEED=$seed
}

# graded_renderer MODE: render's options for the renderer graded.
graded_renderer() {
  printf '%s\n' -r "$renderer"
  [ -z "$1" ] || printf '%s\n' --cuda-mode "$1"
}

# grade_render_scene PART SCENE LABEL MODE: one row of the render table.
# Returns 1 when the part cannot go on (no GPU, no reference).
grade_render_scene() {
  local part=$1 scene=$2 label=$3 mode=$4 verdict args
  mapfile -t args < <(graded_renderer "$mode")
  choose_seed "$scene"
  render_check "$scene" "$SEED" "$label" "${args[@]}"
  if [ "$CHECK_VERDICT" = nogpu ]; then
    local what="the $renderer renderer needs a GPU"
    [ "$ladder" = 0 ] || what="--ladder needs a GPU"
    not_graded "$part" "$what: $(first_failure_line "$CHECK_LOG") (on a machine without one: --renderer cpu)"
    return 1
  fi
  if [ "$CHECK_VERDICT" != ok ]; then
    report_bad_run "render $scene${mode:+ (--cuda-mode $mode)}, seed $SEED" "$CHECK_VERDICT" "$CHECK_LOG"
    warn "replay: $render_program ${args[*]} -s $size -S $SEED -c $scene"
  fi
  render_reference_time "$scene" "$label" || { reference_failed "$part" "$(render_reference_name)"; return 1; }
  timed_runs "$label: ${mode:-$renderer} renderer" "$logs/render/$scene.${mode:-$renderer}" '^Total:' \
    "$render_program" "${args[@]}" -s "$size" -b 0:4 -f '' "$scene"
  [ "$RUN_VERDICT" = ok ] || report_bad_run "render $scene (timing)" "$RUN_VERDICT" "$RUN_LOG"
  verdict=$CHECK_VERDICT
  [ "$verdict" != ok ] || verdict=$RUN_VERDICT
  add_score_row "$part" "$scene" "$SEED" "$REF_NAME" "$REF_MS" "$RUN_BEST" "$verdict" \
    "$(render_score "$verdict" "$REF_MS" "$RUN_BEST")" 9
}

# grade_render_rung MODE: the table of one CUDA mode (empty: the graded
# renderer as render picks it, or --cuda-mode).
grade_render_rung() {
  local mode=$1 part=render scene i=0 total seeds what
  [ "$ladder" = 0 ] || part=render/$mode
  rung_suffix=${mode:+.$mode}
  total=$(wc -w <<<"${scenes//,/ }")
  for scene in ${scenes//,/ }; do
    i=$((i + 1))
    grade_render_scene "$part" "$scene" "render${mode:+ $mode} $scene ($i/$total)" "$mode" || return 1
  done
  what=$renderer
  [ -z "$mode" ] || what="$renderer --cuda-mode $mode"
  print_score_table "$part" "Score table: render ($what, ${size}x$size, ms per frame, best of $runs)" \
    "Scene Name" "Ref Time (T_ref)" "Your Time (T)" 9
  seeds=$(awk -F '\t' -v part="$part" '$1 == part { printf "%s%s %s", sep, $2, $3; sep = ", " }' "$scores_tsv")
  echo "Check seeds (replay: render -r $renderer${mode:+ --cuda-mode $mode} -s $size -S SEED -c SCENE): $seeds"
  echo
  printf 'Check seeds: %s\n\n' "$seeds" >>"$results_part"
}

rung_suffix=""

grade_render() {
  local mode
  if [ -n "$ref_render" ]; then reference_runs render "$(render_reference_name)" "$ref_render" || return; fi
  if [ "$ladder" = 0 ]; then
    grade_render_rung "$cuda_mode"
    return
  fi
  for mode in "${render_rungs[@]}"; do grade_render_rung "$mode" || return; done
  print_ladder_table "Ladder: render ${size}x$size, ms per frame per scene, best of $runs, against $(render_reference_name)" \
    "$scenes" render 9 "${render_rungs[@]}"
}

