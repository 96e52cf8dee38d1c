#!/usr/bin/env bash
# A fake UCI engine that completes the handshake and dies when asked to move.
while read -r line; do
  case "$line" in
    uci) echo "id name dies"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
