#!/bin/sh
# with_xvfb.sh COMMAND...: runs COMMAND with DISPLAY set to a private Xvfb
# server. Xvfb picks a free display number itself (-displayfd) and writes it
# once it accepts clients, so parallel runs cannot race for a number the way
# xvfb-run -a can; -noreset keeps it from resetting (and refusing clients for
# a moment) each time its last client leaves. Exit status: COMMAND's, or 1 when Xvfb does not start.
set -u
dir=$(mktemp -d) || exit 1
Xvfb -displayfd 3 -noreset -screen 0 320x240x24 -nolisten tcp 3>"$dir/display" 2>"$dir/log" &
server=$!
tries=0
until [ -s "$dir/display" ]; do
  if ! kill -0 "$server" 2>/dev/null || [ "$tries" -ge 200 ]; then
    echo "with_xvfb.sh: Xvfb did not start: $(tail -n 1 "$dir/log")" >&2
    kill "$server" 2>/dev/null
    rm -rf "$dir"
    exit 1
  fi
  tries=$((tries + 1))
  sleep 0.05
done
DISPLAY=":$(head -n 1 "$dir/display")" "$@"
status=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$dir"
exit "$status"
