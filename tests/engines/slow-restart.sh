#!/usr/bin/env bash
# A fake engine like Fairy-Stockfish on a busy machine: it never answers `go` in UCI (so
# it loses on time and is restarted), once restarted it answers `uci` only after 3 s, and
# on `ucci` it switches to UCCI, where it answers `go` with a move in other coordinates.
marker="${TMPDIR:-/tmp}/slow-restart-$PPID"
restarted=0
[ -e "$marker" ] && restarted=1
touch "$marker"
mode=uci
while read -r line; do
  case "$line" in
    uci) [ "$restarted" = 1 ] && sleep 3; echo "id name slow-restart"; echo "uciok" ;;
    ucci) mode=ucci; echo "ucciok" ;;
    isready) echo "readyok" ;;
    go*) [ "$mode" = ucci ] && echo "bestmove z9z0" ;;
    quit) exit 0 ;;
  esac
done
