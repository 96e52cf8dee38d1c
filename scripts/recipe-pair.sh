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
# checkpoints/pair-change (RUN=PREFIX for PREFIX-baseline, PREFIX-change; replaced), the
# match to PREFIX-change/eval-pair/; MATCH_ONLY=1 plays (or resumes) the match alone.
# BIN= another build of xiangqi-zero (a copy kept apart while the tree is rebuilt).
set -euo pipefail

usage="usage: scripts/recipe-pair.sh BASELINE.toml CHANGE.toml [MINUTES [GAMES]]"
baseline=$(realpath "${1:?$usage}")
change=$(realpath "${2:?$usage}")
minutes=${3:-120}
games=${4:-108}
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/xiangqi-zero}
if [ -z "${BIN:-}" ]; then cargo build --release --quiet; fi
prefix=${RUN:-checkpoints/pair}

if [ -z "${MATCH_ONLY:-}" ]; then
  core=0
  for side in baseline change; do
    run="$prefix-$side"
    config=$baseline
    if [ "$side" = change ]; then config=$change; fi
    rm -rf "$run" "$run.snapshot"
    mkdir -p "$run"
    # The recipe as given, on one self-play thread, without evaluations during the run.
    printf 'base = "%s"\n\n[selfplay]\nthreads = 1\n\n[evaluation]\nevery = 0\n' "$config" > "$run/pair.toml"
    echo "training $config for $minutes minutes on core $core into $run (log: $run.log)"
    RAYON_NUM_THREADS=1 taskset -c "$core" "$bin" train --config "$run/pair.toml" --run "$run" \
      --generations 1000000 --minutes "$minutes" > "$run.log" 2>&1 &
    core=$((core + 1))
  done
  wait
fi

final() {
  local generation
  generation=$(sed -n 's/.*"generation": *\([0-9]*\).*/\1/p' "$1/state.json")
  printf '%s/models/gen%04d.safetensors' "$1" "$generation"
}
help=$("$bin" export --info assets/nets/xiangqi.safetensors | sed -n 's/^plays best with: net(\(.*\))$/,\1/p')
repetition=$(sed -n 's/^repetition *= *"\([a-z-]*\)".*/\1/p' "$prefix-change/config.toml")
for side in baseline change; do tail -n 2 "$prefix-$side.log"; done
"$bin" eval --game xiangqi --a "net(sims=800$help):$(final "$prefix-change")" \
  --b "net(sims=800$help):$(final "$prefix-baseline")" --games "$games" --concurrency 2 \
  --max-plies 3000 ${repetition:+--repetition "$repetition"} --out "$prefix-change/eval-pair" --resume
