# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # the settings are options.sh's, shared by every part
# grade.sh's cache of the serial renderer's times (the CPU renderer's reference).
# Sourced by scripts/grade.sh, after grade_lib.sh, options_lib.sh and run_lib.sh.

# ---------------------------------------------------------------- the cache

cache_state=""  # "", ok or off: the cache folder is checked once

# cache_ready: whether the cache can be written; a folder that cannot gives
# one line and the run goes on without the cache.
cache_ready() {
  [ "$use_cache" = 1 ] || return 1
  [ -z "$cache_state" ] || { [ "$cache_state" = ok ]; return; }
  cache_state=off
  if ! mkdir -p -- "$cache_dir/render" 2>/dev/null || [ ! -w "$cache_dir/render" ] ||
    ! touch -- "$cache_dir/render/.writable" 2>/dev/null; then
    warn "the cache folder $cache_dir cannot be written: grading without the cache"
    use_cache=0
    return 1
  fi
  rm -f -- "$cache_dir/render/.writable"
  remove_stale_temps
  cache_state=ok
}

# remove_stale_temps: temporary cache entries of runs that were killed
# outright (their process is gone).
remove_stale_temps() {
  local f pid
  for f in "$cache_dir"/render/.tmp-*; do
    [ -e "$f" ] || continue
    pid=${f##*.}
    [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && continue
    rm -f -- "$f"
  done
}

# cache_put SOURCE NAME: moves SOURCE into the cache as NAME through a
# temporary name in the cache folder itself, so the last step is an atomic
# rename and a cut-short copy is never found under NAME (the temporary file
# goes whatever stops the run).
cache_put() {
  local dir=$cache_dir/render tmp
  tmp=$dir/.tmp-$2.$$
  temp_files+=("$tmp")
  if ! mv -f -- "$1" "$tmp" 2>/dev/null || ! mv -f -- "$tmp" "$dir/$2" 2>/dev/null; then
    rm -f -- "$tmp" "$1"
    return 1
  fi
}

# clean_the_cache: --clean-cache.
clean_the_cache() {
  local dir=$cache_dir/render size
  rm -f -- "$cache_dir/judge-secret"
  if [ ! -d "$dir" ]; then
    echo "The cache $cache_dir is empty."
    return
  fi
  size=$(du -sh -- "$dir" 2>/dev/null | cut -f1)
  if ! rm -rf -- "$dir" 2>/dev/null; then
    warn "cannot empty the cache $cache_dir"
    exit 1
  fi
  echo "Emptied the cache $cache_dir (${size:-?})."
}

