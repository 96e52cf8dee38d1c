# Sourced by learning-check.sh and recipe-pair.sh: a training run held to a budget of
# minutes on its own clock (the `hours` of its state: the generations it completed), which
# goes on where it was cut when RESUME=1 is set.
#
#   train_within RUN MINUTES CONFIG_TEXT LAUNCHER...
#
# A fresh run (RUN and RUN.snapshot replaced) writes CONFIG_TEXT to RUN/budget.toml and
# trains it for MINUTES. With RESUME=1 and a run there (its directory, or only its snapshot
# beside it: `train --resume` restores it), the run goes on for what its clock leaves of
# MINUTES; a run that had them all (RUN.spent, written when a call lasted its full time)
# trains no more (restored from its snapshot if that is all there is). LAUNCHER is the
# command that runs xiangqi-zero (`taskset -c 0 BIN`, say). GENERATIONS= caps the
# generations (default: none).
train_within() {
  local run=$1 minutes=$2 config_text=$3
  shift 3
  local left=$minutes state args
  if [ -n "${RESUME:-}" ] && { [ -f "$run/state.json" ] || [ -f "$run.snapshot" ]; }; then
    state=$(cat "$run/state.json" 2>/dev/null || tar -xOf "$run.snapshot" state.json)
    left=$(sed -n 's/.*"hours": *\([0-9.eE+-]*\).*/\1/p' <<< "$state" |
      awk -v m="$minutes" '{ printf "%.2f", m - 60 * $1 }')
    if [ -e "$run.spent" ] || awk -v l="$left" 'BEGIN { exit !(l <= 0) }'; then
      echo "$run has had its $minutes minutes"
      touch "$run.spent"
      # Only its snapshot left: the run restored from it, with no generation more.
      if [ ! -f "$run/state.json" ]; then
        "$@" train --resume --run "$run" --generations "$(sed -n 's/.*"generation": *\([0-9]*\).*/\1/p' <<< "$state")"
      fi
      return 0
    fi
    echo "going on with $run: $left of its $minutes minutes left by its own clock"
    args=(--resume --run "$run")
  else
    rm -rf "$run" "$run.snapshot" "$run.spent"
    mkdir -p "$run"
    printf '%s\n' "$config_text" > "$run/budget.toml"
    echo "training for $minutes minutes into $run"
    args=(--config "$run/budget.toml" --run "$run")
  fi
  local started=$SECONDS
  "$@" train "${args[@]}" --generations "${GENERATIONS:-1000000}" --minutes "$left" || return
  # Stopped by its time limit, not cut short (a signal stops it the same way).
  if [ $((SECONDS - started)) -ge $((${left%.*} * 60)) ]; then touch "$run.spent"; fi
}
