#!/usr/bin/env python3
"""ONNX Runtime on a net exported by `xiangqi-zero export --format onnx`: its outputs
checked against ours, and its speed for `xiangqi-zero bench nn`, so that the ratio comes
from the same run on the same machine (`bench nn` and `export` run this script when
python3 has onnxruntime: `pip install onnxruntime`).

The inputs come from an .npz file that xiangqi-zero writes: `planes`, encoded positions
`[N, planes, height, width]`, and for --check also `policy` and `value`, our own outputs
for them. ONNX Runtime runs with its best CPU settings: every graph optimisation (batch-norm
folded into the convs, fused activations), THREADS intra-op threads, sequential execution.

With --precision int8, the model is first quantized by ONNX Runtime's own static
quantization (`quantize_static`: QDQ, weights int8 per output channel, activations uint8,
calibrated on the same positions; it needs the `onnx` package: `pip install onnx`), and
that model is timed: int8 beside our int8.

Timing mirrors `timed_rate` in src/cli/bench.rs: one warm-up call, then RUNS runs of at
least half a second each; the median run is reported (the upper one of an even count).

Output, one JSON object a line:
  {"onnxruntime": VERSION, "threads": N, "precision": "fp32"|"int8"}
  {"forward_batch": B, "positions_per_s": X}        (one per --forward-batches entry)
  {"policy_max_diff": X, "value_max_diff": Y}       (with --check)

  python3 scripts/onnxruntime-reference.py --model net.onnx --inputs positions.npz \
      --threads 2 --runs 5 --forward-batches 1,16,64,256 [--check] [--precision int8]
"""

import argparse
import json

import numpy as np
import onnxruntime as ort
from reference_timing import timed_rate


class Positions:
    """The calibration positions, one at a time, as `quantize_static` reads them."""

    def __init__(self, planes):
        self.rows = iter(planes)

    def get_next(self):
        row = next(self.rows, None)
        return None if row is None else {"planes": row[None]}


def quantized(model, planes):
    """`model` quantized to int8 by ONNX Runtime's static quantization, calibrated on
    `planes`; the path of the quantized file, written beside it."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    path = model[: -len(".onnx")] + "-int8.onnx" if model.endswith(".onnx") else model + "-int8"
    quantize_static(
        model,
        path,
        Positions(planes),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
    )
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--forward-batches", default="")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--precision", choices=["fp32", "int8"], default="fp32")
    args = parser.parse_args()

    data = np.load(args.inputs)
    planes = data["planes"].astype(np.float32)
    model = quantized(args.model, planes) if args.precision == "int8" else args.model

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    print(json.dumps({"onnxruntime": ort.__version__, "threads": args.threads, "precision": args.precision}), flush=True)
    if args.check:
        policy, value = session.run(["policy", "value"], {"planes": planes})
        diff = lambda ours, theirs: float(np.max(np.abs(ours - theirs)))
        print(
            json.dumps({"policy_max_diff": diff(data["policy"], policy), "value_max_diff": diff(data["value"], value)}),
            flush=True,
        )
    for batch in [int(b) for b in args.forward_batches.split(",") if b]:
        x = np.ascontiguousarray(planes[np.arange(batch) % len(planes)])
        rate = timed_rate(args.runs, batch, lambda: session.run(["policy", "value"], {"planes": x}))
        print(json.dumps({"forward_batch": batch, "positions_per_s": rate}), flush=True)


if __name__ == "__main__":
    main()
