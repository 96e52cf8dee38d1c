#!/usr/bin/env bash
# A fake UCCI engine that, like ElephantEye, exits unless its first line is `ucci`, then
# answers every `go` with the central cannon.
read -r first
[ "$first" = "ucci" ] || exit 1
echo "id name eleeye-like"
echo "ucciok"
while read -r line; do
  case "$line" in
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score 12 pv h2e2"; echo "bestmove h2e2" ;;
    quit) echo "bye"; exit 0 ;;
  esac
done
