#!/usr/bin/env bash
# A fake engine that never completes a handshake: it reads and says nothing.
cat > /dev/null
