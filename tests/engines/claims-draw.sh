#!/usr/bin/env bash
# A fake engine that answers every `go` without a move, as ElephantEye does at its 50-move
# rule: `nobestmove` in UCCI, `bestmove (none)` in UCI. It claims the game drawn.
read -r first
case "$first" in
  ucci) echo "ucciok"; none="nobestmove" ;;
  uci) echo "uciok"; none="bestmove (none)" ;;
  *) exit 1 ;;
esac
while read -r line; do
  case "$line" in
    isready) echo "readyok" ;;
    go*) echo "$none" ;;
    quit) exit 0 ;;
  esac
done
