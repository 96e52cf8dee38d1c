#!/usr/bin/env bash
# Two recipes side by side at an equal budget, the way a change of recipe is kept or
# dropped (docs/learning.md): each trains from scratch for MINUTES on a core of its own
# (`taskset`, one self-play thread, one rayon thread, the same seed, no evaluations during
# the run), then the change's final net plays the baseline's head to head at 800
# simulations a side, both with the shipped net's play settings, under the training rules,
# GAMES games (108: the 54 built-in openings with both colours). The Elo printed is the
# change's over the baseline's.
#
#   scripts/recipe-pair.sh configs/xiangqi-small.toml change.toml        # 120 minutes, 108 games
#   scripts/recipe-pair.sh BASELINE.toml CHANGE.toml 60 54
#
# CHANGE.toml is usually `base = "/abs/path/configs/xiangqi-small.toml"` and the keys it
# changes. Needs two cores. The runs go to checkpoints/pair-baseline and
# checkpoints/pair-change (RUN=PREFIX, relative to the repository, for PREFIX-baseline and
# PREFIX-change; replaced), the match to PREFIX-change/eval-pair/. RESUME=1 goes on with a
# pair cut short (a session's end, a lost machine): each run for what its own clock leaves
# of MINUTES, from its directory or, where that is gone, its snapshot beside it
# (scripts/train-within.sh), then the match from where it was. MATCH_ONLY=1 plays the match
# alone. BIN= another build of xiangqi-zero (a copy kept apart while the tree is rebuilt).
set -euo pipefail

usage="usage: scripts/recipe-pair.sh BASELINE.toml CHANGE.toml [MINUTES [GAMES]]"
baseline=$(realpath "${1:?$usage}")
change=$(realpath "${2:?$usage}")
minutes=${3:-120}
games=${4:-108}
if [ -n "${BIN:-}" ]; then BIN=$(realpath "$BIN"); fi
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/xiangqi-zero}
if [ -z "${BIN:-}" ]; then cargo build --release --quiet; fi
prefix=${RUN:-checkpoints/pair}

if [ -z "${MATCH_ONLY:-}" ]; then
  source scripts/train-within.sh
  core=0 pids=()
  for side in baseline change; do
    run="$prefix-$side"
    config=$baseline
    if [ "$side" = change ]; then config=$change; fi
    # The recipe as given, on one self-play thread, without evaluations during the run.
    text=$(printf 'base = "%s"\n\n[selfplay]\nthreads = 1\n\n[evaluation]\nevery = 0' "$config")
    echo "$config on core $core into $run (log: $run.log)"
    mkdir -p "$(dirname "$run")"
    if [ -z "${RESUME:-}" ]; then : > "$run.log"; fi
    train_within "$run" "$minutes" "$text" env RAYON_NUM_THREADS=1 taskset -c "$core" "$bin" >> "$run.log" 2>&1 &
    pids+=($!)
    core=$((core + 1))
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || { echo "a run failed: see $prefix-baseline.log and $prefix-change.log" >&2; exit 1; }
  done
fi

# Each run's newest net, or a clear stop where a run has none.
nets=()
for side in change baseline; do
  run="$prefix-$side"
  generation=$(sed -n 's/.*"generation": *\([0-9]*\).*/\1/p' "$run/state.json" 2>/dev/null || true)
  net=$(printf '%s/models/gen%04d.safetensors' "$run" "${generation:-0}")
  [ -n "$generation" ] && [ -f "$net" ] || { echo "no final net in $run" >&2; exit 1; }
  nets+=("$net")
  if [ -f "$run.log" ]; then tail -n 2 "$run.log"; fi
done
help=$("$bin" export --info assets/nets/xiangqi.safetensors | sed -n 's/^plays best with: net(\(.*\))$/,\1/p')
repetition=$(sed -n 's/^repetition *= *"\([a-z-]*\)".*/\1/p' "$prefix-change/config.toml")
"$bin" eval --game xiangqi --a "net(sims=800$help):${nets[0]}" \
  --b "net(sims=800$help):${nets[1]}" --games "$games" --concurrency 2 \
  --max-plies 3000 ${repetition:+--repetition "$repetition"} --out "$prefix-change/eval-pair" --resume
