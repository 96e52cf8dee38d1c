#!/usr/bin/env bash
# The strength table at equal time per move: the NNUE player (`nnue`), the policy-value
# net (`net`, its file's recorded play settings) and the classical alpha-beta
# (`alphabeta`), against each other and against Fairy-Stockfish 11.1, every player at MS
# milliseconds a move, GAMES games a match (108: the 54 built-in openings with both
# colours). A timed game needs a core to itself, so the matches run two at a time, each
# pinned to one core (`taskset`), its two players moving by turns. Prints a Markdown row
# per match, with its command.
#
#   scripts/equal-time.sh 100
#   RESIGN=3,600 scripts/equal-time.sh 1000     # lost games given up (`eval --resign`)
#   MATCHES="nnue:alphabeta nnue:fsf" scripts/equal-time.sh 100   # only these
#
# Each match's games and log go to OUT (default /tmp/equal-time-MS), one directory a match;
# run the same command again to go on with matches cut short (`eval --resume`). BIN=
# another build of xiangqi-zero. Needs /usr/games/fairy-stockfish for its rows
# (`apt-get install fairy-stockfish`); they are left out without it.
set -euo pipefail

ms=${1:?usage: scripts/equal-time.sh MS}
out=${OUT:-/tmp/equal-time-$ms}
games=${GAMES:-108}
bin=${BIN:-target/release/xiangqi-zero}
fsf=/usr/games/fairy-stockfish
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --quiet
mkdir -p "$out"

# The pairs, the NNUE's first; each half goes to one core.
matches=${MATCHES:-nnue:alphabeta nnue:fsf alphabeta:fsf nnue:net net:alphabeta net:fsf}
if [ ! -x "$fsf" ]; then
  echo "Fairy-Stockfish not found at $fsf: its rows are left out" >&2
  matches=$(tr ' ' '\n' <<< "$matches" | grep -v fsf | tr '\n' ' ')
fi
spec() { if [ "$1" = fsf ]; then echo "uci(ranks=1):$fsf"; else echo "$1"; fi; }
flags=(--movetime "$ms" --games "$games" --max-plies 600 ${RESIGN:+--resign "$RESIGN"})

# Plays the matches given on core $1, one after another.
play_on() {
  local core=$1
  shift
  for pair in "$@"; do
    local a b
    a=$(spec "${pair%%:*}") b=$(spec "${pair##*:}")
    taskset -c "$core" "$bin" eval --a "$a" --b "$b" "${flags[@]}" --resume --out "$out/${pair/:/-}" \
      > "$out/${pair/:/-}.log" 2>&1 || echo "$pair failed: see $out/${pair/:/-}.log" >&2
  done
}
read -ra all <<< "$matches"
first=() second=()
for i in "${!all[@]}"; do
  if [ $((i % 2)) = 0 ]; then first+=("${all[$i]}"); else second+=("${all[$i]}"); fi
done
play_on 0 "${first[@]}" &
play_on 1 "${second[@]}" &
wait

echo "| A against B, both at $ms ms a move | W–D–L (A's score) | Elo [95%] | command |"
echo "|---|---|---|---|"
for pair in "${all[@]}"; do
  log="$out/${pair/:/-}.log"
  a=$(spec "${pair%%:*}") b=$(spec "${pair##*:}")
  row=$(grep -A1 '^player ' "$log" | tail -1 | awk '{print $(NF-3) "–" $(NF-2) "–" $(NF-1) ", " $NF}')
  elo=$(sed -n 's/^Elo difference (A − B): \(.*\) (95%)$/\1/p' "$log")
  echo "| \`$a\` against \`$b\` | $row | $elo | \`xiangqi-zero eval --a '$a' --b '$b' ${flags[*]}\` |"
done
