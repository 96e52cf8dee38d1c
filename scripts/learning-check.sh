#!/usr/bin/env bash
# Does training learn? Trains GAME's tiny config from scratch for MINUTES minutes, then
# plays the final net against the last bootstrap generation (the last one trained on the
# material search's games: does the net's own self-play add to them?), against
# `alphabeta:depth=1` and against generation 0 (the random net), at each fixed search budget of
# SIMS (simulations per move; default "800 100": the budget of play, where the rules' help
# in the search decides most games, and a small one, where the net's own value and policy
# weigh more), printing W/D/L and Elo with its 95% interval.
#
#   scripts/learning-check.sh xiangqi 30       # 108 games per match (about 1.5 h of matches)
#   SIMS=100 scripts/learning-check.sh banqi 30 200     # one budget, 200 games per match
#   SEED=2 RUN=checkpoints/lc-seed2 scripts/learning-check.sh xiangqi 30   # another seed
#   GENERATIONS=18 scripts/learning-check.sh xiangqi 90 40   # a fixed number of generations
#                                            # (the same run on a machine busy with other work)
#   scripts/learning-check.sh gauge          # the 2-hour gauge (below)
#
# The gauge (`gauge [MINUTES [GAMES]]`, 120 minutes and 108 games unless given): the default
# long recipe (configs/xiangqi-small.toml) from scratch, its final net then played head to
# head against the shipped net (assets/nets/xiangqi.safetensors) at 800 simulations a side,
# each side with its own play settings: the one figure a change of recipe is judged by
# (docs/learning.md). Its run goes to checkpoints/gauge/ unless RUN= says.
#
# The config is configs/GAME-tiny.toml (CONFIG= another), its `seed` replaced by SEED when
# given (self-play's noise and move choices: one seed's result is one sample of the
# recipe). The run goes to checkpoints/learning-check-GAME/ (RUN= another; replaced); the
# match games to its eval-final/ directory. RESUME=1 goes on with a check cut short (a
# session's end, a lost machine): the run for what its own clock leaves of MINUTES, from
# its directory or its snapshot beside it (scripts/train-within.sh), the matches from
# where they were.
set -euo pipefail

usage="usage: scripts/learning-check.sh xiangqi|banqi MINUTES [GAMES], or gauge [MINUTES [GAMES]]"
game=${1:?$usage}
gauge=""
if [ "$game" = gauge ]; then
  gauge=1 game=xiangqi
  set -- gauge "${2:-120}" "${3:-108}"
  CONFIG=${CONFIG:-configs/xiangqi-small.toml} SIMS=${SIMS:-800} RUN=${RUN:-checkpoints/gauge}
fi
minutes=${2:?$usage}
# 108 games: Xiangqi's 54 built-in openings, each with both colours. Two deterministic
# players replay the same game from the same opening, so that is as many distinct games as
# a match between nets has; 40 gave intervals of ±100 Elo, too wide to tell a net from
# its bootstrap net (docs/experiments.md, twenty-sixth session).
games=${3:-108}
budgets=${SIMS:-800 100}
config=${CONFIG:-configs/$game-tiny.toml}
run=${RUN:-checkpoints/learning-check-$game}
# BIN= another build of xiangqi-zero (a copy kept apart while the tree is rebuilt).
bin=${BIN:-target/release/xiangqi-zero}

cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then cargo build --release --quiet; fi
source scripts/train-within.sh
# The config without evaluations during the run (all the time goes to training): a
# config over it that changes only that, and the seed when one is given. When the time is
# up the run finishes the file it is writing and stops, as on Ctrl-C.
text=$(
  echo "base = \"$(realpath "$config")\""
  if [ -n "${SEED:-}" ]; then echo "seed = $SEED"; fi
  printf '\n[evaluation]\nevery = 0'
)
echo "$config"
train_within "$run" "$minutes" "$text" "$bin"

# The run's own copy of its config has every key written out (its base's included).
config="$run/config.toml"
# The matches are played under the rules the net was trained under, to the end those
# rules give (no-capture / no-progress limits and repetitions end stalled games), not
# cut by the arena's default 400-ply limit: a young Banqi net that leads by a few
# pieces often needs longer to run down the last ones and flip the hidden.
repetition=$(sed -n 's/^repetition *= *"\([a-z-]*\)".*/\1/p' "$config")
generation=$(sed -n 's/.*"generation": *\([0-9]*\).*/\1/p' "$run/state.json")
# The nets search with the rules' help the config trains them with (quiet leaves, rules
# priors and values: docs/learning.md), as the in-run evaluations do.
help=""
if grep -q '^quiet_leaves *= *true' "$config"; then help+=",quiet_leaves=1"; fi
rules=$(sed -n 's/^rules_prior *= *\([0-9.]*\).*/\1/p' "$config")
if [ -n "$rules" ]; then help+=",rules_prior=$rules"; fi
material=$(sed -n 's/^rules_value *= *\([0-9.]*\).*/\1/p' "$config")
if [ -n "$material" ]; then help+=",rules_value=$material"; fi
# The gauge plays its net with the settings the shipped net records it plays best with, so
# that the two nets differ in their weights alone.
if [ -n "$gauge" ]; then
  help=$("$bin" export --info assets/nets/xiangqi.safetensors | sed -n 's/^plays best with: net(\(.*\))$/,\1/p')
fi
final=$(printf '%s/models/gen%04d.safetensors' "$run" "$generation")
bootstrap=$(sed -n 's/^bootstrap_generations *= *\([0-9]*\).*/\1/p' "$config")
for sims in $budgets; do
  # The two matches the issue's marks read come first; generation 0 last.
  opponents=()
  if [ -n "$gauge" ]; then
    opponents=("net(sims=$sims):assets/nets/xiangqi.safetensors")
  elif [ -n "$bootstrap" ] && [ "$bootstrap" -gt 0 ] && [ "$bootstrap" -lt "$generation" ]; then
    opponents+=("net(sims=$sims$help):$(printf '%s/models/gen%04d.safetensors' "$run" "$bootstrap")")
  fi
  if [ -z "$gauge" ]; then
    opponents+=("alphabeta:depth=1" "net(sims=$sims$help):$run/models/gen0000.safetensors")
  fi
  echo
  echo "final net: $final (generation $generation), $sims simulations per move"
  for opponent in "${opponents[@]}"; do
    echo
    echo "== generation $generation vs $opponent"
    "$bin" eval --game "$game" --a "net(sims=$sims$help):$final" --b "$opponent" \
      --games "$games" --concurrency 2 --max-plies 3000 ${repetition:+--repetition "$repetition"} --resume --out "$run/eval-final/sims$sims-$(echo "$opponent" | tr -c 'a-z0-9=\n' '-')"
  done
done
