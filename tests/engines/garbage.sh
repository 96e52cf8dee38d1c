#!/usr/bin/env bash
# A fake UCI engine that answers `go` with nonsense and an impossible move.
while read -r line; do
  case "$line" in
    uci) echo "id name garbage"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth banana score cp"; echo "%%%"; echo "bestmove z9z0" ;;
    quit) exit 0 ;;
  esac
done
