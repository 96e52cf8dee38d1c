#!/usr/bin/env bash
# The GPU path exercised where there is no GPU: burn's wgpu backend on Mesa's software
# Vulkan driver (lavapipe, Debian's mesa-vulkan-drivers). It
#   1. builds with `--features wgpu` (in target/wgpu, apart from the CPU build),
#   2. trains two generations of a micro config on the wgpu device,
#   3. asks the trained net's value and policy for a few positions through `serve`'s
#      analysis, once on the CPU (our own forward pass) and once on wgpu (burn's kernels),
#      and compares them: every value and policy share within 1e-3.
#
#   scripts/gpu-check.sh                    # lavapipe (installed with apt-get if missing)
#   DEVICE=wgpu:0 scripts/gpu-check.sh      # the first discrete GPU instead
#   FEATURE=cuda DEVICE=cuda:0 scripts/gpu-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FEATURE=${FEATURE:-wgpu}
DEVICE=${DEVICE:-wgpu:cpu}
if [ "$DEVICE" = wgpu:cpu ] && ! ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends mesa-vulkan-drivers libvulkan1
fi
export CARGO_TARGET_DIR=target/$FEATURE
cargo build --release --features "$FEATURE"
bin=$CARGO_TARGET_DIR/release/xiangqi-zero

work=$(mktemp -d)
servers=()
# Mesa's Vulkan drivers want a runtime directory; a private one quiets their complaint.
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$work}
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The micro config of the tests: seconds a generation.
cp tests/micro.toml "$work/micro.toml"
echo "== training two generations on $DEVICE"
"$bin" train --config "$work/micro.toml" --run "$work/run" --device "$DEVICE"
net=$work/run/models/gen0002.safetensors

# One server per device, each offering the net as its only engine.
port=18650
for device in cpu "$DEVICE"; do
  port=$((port + 1))
  "$bin" serve --addr "127.0.0.1:$port" --db "$work/$port.sqlite3" \
    --engine "net=net(device=$device):$net" >"$work/serve-$port.log" 2>&1 &
  servers+=($!)
done
for p in 18651 18652; do
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$p/" && break; sleep 0.2; done
done

echo "== the net's value and policy, CPU against $DEVICE"
for moves in "" h2e2 h2e2,h9g7 b0c2,b9c7,h0g2,c6c5; do
  curl -sf "http://127.0.0.1:18651/api/analysis?moves=$moves" >"$work/cpu.json"
  curl -sf "http://127.0.0.1:18652/api/analysis?moves=$moves" >"$work/gpu.json"
  python3 - "$work/cpu.json" "$work/gpu.json" "${moves:-start}" <<'EOF'
import json, sys
cpu, gpu = (json.load(open(path))["net"] for path in sys.argv[1:3])
shares = lambda net: {p["move"]: p["share"] for p in net["policy"]}
diffs = [abs(a - b) for a, b in zip(cpu["wdl"], gpu["wdl"])]
c, g = shares(cpu), shares(gpu)
diffs += [abs(c[m] - g[m]) for m in set(c) & set(g)]
# A move listed on one side only (the list stops below 2%) must be just under it there.
diffs += [max(0.0, shares_[m] - 0.02) for shares_ in (c, g) for m in set(c) ^ set(g) if m in shares_]
print(f"{sys.argv[3]:>28}: wdl {cpu['wdl']} vs {gpu['wdl']}, largest difference {max(diffs):.2e}")
sys.exit(0 if max(diffs) <= 1e-3 else 1)
EOF
done
echo "gpu-check: the $DEVICE outputs match the CPU's within 1e-3"
