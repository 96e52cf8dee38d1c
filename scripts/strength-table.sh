#!/usr/bin/env bash
# The strength table of a net: NET at 800 simulations (with the rules' help its file
# records, as `net:FILE` plays) against the fixed players a user can run, 108 games each
# (Xiangqi's 54 built-in openings with both colours; Banqi: 54 deals with both colours), and
# the same net without the rules' help against `alphabeta:depth=1` (where its file records
# any): how much of the strength the net itself has learned. Prints a Markdown row per
# match, with its command.
#
#   scripts/strength-table.sh xiangqi assets/nets/xiangqi.safetensors
#   scripts/strength-table.sh banqi assets/nets/banqi.safetensors
#   OPPONENTS="alphabeta:depth=4" scripts/strength-table.sh xiangqi NET   # only these
#
# Xiangqi's opponents are `alphabeta:depth=1…4`, Fairy-Stockfish at depths 3, 5 and 7
# where /usr/games/fairy-stockfish is installed (`apt-get install fairy-stockfish`), and
# ElephantEye at depths 1, 2 and 3 where ELEEYE names its binary (or `eleeye` is on the
# PATH; building it: docs/guide.md); Banqi's are its expectimax `alphabeta:depth=1…3`.
# Each match's games and log go to OUT (default /tmp/strength-GAME), one directory a match.
set -euo pipefail

game=${1:?usage: scripts/strength-table.sh xiangqi|banqi NET}
net=${2:?usage: scripts/strength-table.sh xiangqi|banqi NET}
out=${OUT:-/tmp/strength-$game}
games=${GAMES:-108}
sims=${SIMS:-800}
binary=${BINARY:-target/release/xiangqi-zero}
fsf=/usr/games/fairy-stockfish
if [ "$game" = xiangqi ]; then
  default="alphabeta:depth=1 alphabeta:depth=2 alphabeta:depth=3 alphabeta:depth=4"
  if [ -x "$fsf" ]; then
    default="$default uci(ranks=1,depth=3):$fsf uci(ranks=1,depth=5):$fsf uci(ranks=1,depth=7):$fsf"
  else
    echo "Fairy-Stockfish not found at $fsf: its rows are left out" >&2
  fi
  eleeye=${ELEEYE:-$(command -v eleeye || true)}
  if [ -x "$eleeye" ]; then
    default="$default ucci(depth=1):$eleeye ucci(depth=2):$eleeye ucci(depth=3):$eleeye"
  else
    echo "ElephantEye not found (ELEEYE, or eleeye on the PATH): its rows are left out" >&2
  fi
  repetition=asian
else
  default="alphabeta:depth=1 alphabeta:depth=2 alphabeta:depth=3"
  repetition=repeater-loses
fi
opponents=${OPPONENTS:-$default}
[ -x "$binary" ] || cargo build --release
mkdir -p "$out"

match() { # NAME A B WHICH
  local dir="$out/$1"
  local command="xiangqi-zero eval --game $game --a '$2' --b '$3' --games $games --concurrency 2 --max-plies 3000 --repetition $repetition"
  "$binary" eval --game "$game" --a "$2" --b "$3" --games "$games" --concurrency 2 --max-plies 3000 \
    --repetition "$repetition" --out "$dir" > "$dir.log" 2>&1
  local score elo
  score=$(grep -m1 '^net(' "$dir.log" | awk '{print $2 "–" $3 "–" $4 " (" $5 ")"}')
  elo=$(grep -o 'Elo difference (A − B): .*(95%)' "$dir.log" | sed 's/Elo difference (A − B): //; s/ (95%)//')
  echo "| $3 | $4 | $score | $elo | \`$command\` |"
}

echo "| against | the net | W–D–L (score) | Elo [95%] | command |"
echo "|---|---|---|---|---|"
i=0
for opponent in $opponents; do
  i=$((i + 1))
  match "$i" "net(sims=$sims):$net" "$opponent" "as its file records"
done
# A net that records no rules' help played its rows bare already.
if "$binary" export --info "$net" | grep "^plays best with:" | grep -q "quiet_leaves\|rules_prior\|rules_value\|rules_threats"; then
  match bare "net(sims=$sims,quiet_leaves=0,rules_prior=0,rules_value=0,rules_threats=0):$net" alphabeta:depth=1 "without the rules' help"
else
  echo "the net records no rules' help: its rows above are its bare ones" >&2
fi
