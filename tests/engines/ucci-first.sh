#!/usr/bin/env bash
# A fake UCCI engine: ignores `uci`, answers `ucci`, and always plays the first move it
# is told is legal by the caller's position (here: a fixed opening reply list).
while read -r line; do
  case "$line" in
    ucci) echo "id name ucci-fake"; echo "ucciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score 12 pv h2e2"; echo "bestmove h2e2" ;;
    quit) exit 0 ;;
  esac
done
