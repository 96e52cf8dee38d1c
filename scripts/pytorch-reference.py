#!/usr/bin/env python3
"""PyTorch's speed on the net of `xiangqi-zero bench nn` / `bench train`, so that their
ratios to PyTorch come from the same run on the same machine (they run this script when
python3 has torch).

The net mirrors src/nn/model.rs layer by layer: a 3x3 conv stem, BLOCKS residual blocks
of CHANNELS (conv-BN-ReLU, conv-BN, add, ReLU), a policy head (1x1 conv to 2 planes,
BN, ReLU, linear to the labels) and a win/draw/loss value head (1x1 conv to 1 plane, BN,
ReLU, linear to 64, ReLU, linear to 3); convs without bias, batch-norm eps 1e-5 and
momentum 0.1 as burn's. The loss mirrors src/nn/loss.rs: policy cross-entropy against
soft targets, weighted per sample, plus the mean value cross-entropy; Adam as burn's
(betas 0.9/0.999, eps 1e-5, L2 weight decay added to the gradient).

Timing mirrors `timed_rate` in src/cli/bench.rs: one warm-up step, then RUNS runs of at
least half a second each; the median run is reported (the upper one of an even count).

Output, one JSON object a line:
  {"torch": VERSION, "threads": N, "parameters": N, "running_stats": N}
  {"forward_batch": B, "positions_per_s": X}      (one per --forward-batches entry)
  {"train_batch": B, "samples_per_s": X}

The net's shape is an argument (bench passes its own, so the script never goes stale;
P is the input planes `bench nn` prints):

  python3 scripts/pytorch-reference.py --threads 2 --runs 7 --planes P --height 10 \
      --width 9 --policy 2086 --blocks 6 --channels 64
"""

import argparse
import json

import torch
import torch.nn.functional as F
from reference_timing import timed_rate
from torch import nn

# src/nn/model.rs: VALUE_HIDDEN and POLICY_PLANES.
VALUE_HIDDEN = 64
POLICY_PLANES = 2


class ConvBn(nn.Module):
    def __init__(self, inputs, outputs, kernel):
        super().__init__()
        self.conv = nn.Conv2d(inputs, outputs, kernel, padding=kernel // 2, bias=False)
        self.bn = nn.BatchNorm2d(outputs, eps=1e-5, momentum=0.1)

    def forward(self, x):
        return self.bn(self.conv(x))


class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.first = ConvBn(channels, channels, 3)
        self.second = ConvBn(channels, channels, 3)

    def forward(self, x):
        y = F.relu(self.first(x))
        return F.relu(self.second(y) + x)


class Net(nn.Module):
    def __init__(self, planes, height, width, policy_size, blocks, channels):
        super().__init__()
        cells = height * width
        self.stem = ConvBn(planes, channels, 3)
        self.blocks = nn.Sequential(*[ResBlock(channels) for _ in range(blocks)])
        self.policy_conv = ConvBn(channels, POLICY_PLANES, 1)
        self.policy_fc = nn.Linear(POLICY_PLANES * cells, policy_size)
        self.value_conv = ConvBn(channels, 1, 1)
        self.value_fc1 = nn.Linear(cells, VALUE_HIDDEN)
        self.value_fc2 = nn.Linear(VALUE_HIDDEN, 3)

    def forward(self, x):
        x = self.blocks(F.relu(self.stem(x)))
        policy = F.relu(self.policy_conv(x)).flatten(1)
        value = F.relu(self.value_conv(x)).flatten(1)
        value = F.relu(self.value_fc1(value))
        return self.policy_fc(policy), self.value_fc2(value)


def loss(policy_logits, value_logits, policy_target, policy_weight, value_target):
    def cross_entropy(logits, target):
        return -(target * F.log_softmax(logits, dim=1)).sum(dim=1)

    weighted = cross_entropy(policy_logits, policy_target) * policy_weight
    policy = weighted.sum() / policy_weight.sum().clamp_min(1e-6)
    return policy + cross_entropy(value_logits, value_target).mean()




def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--planes", type=int, required=True)
    parser.add_argument("--height", type=int, required=True)
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--policy", type=int, required=True)
    parser.add_argument("--blocks", type=int, required=True)
    parser.add_argument("--channels", type=int, required=True)
    parser.add_argument("--forward-batches", default="1,16,64,256", help="comma-separated; empty for none")
    parser.add_argument("--train-batch", type=int, default=256)
    parser.add_argument("--weight-decay", type=float, default=0.0)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    net = Net(args.planes, args.height, args.width, args.policy, args.blocks, args.channels)
    parameters = sum(p.numel() for p in net.parameters())
    running_stats = sum(b.numel() for name, b in net.named_buffers() if name.endswith(("running_mean", "running_var")))
    print(
        json.dumps(
            {
                "torch": torch.__version__,
                "threads": torch.get_num_threads(),
                "parameters": parameters,
                "running_stats": running_stats,
            }
        ),
        flush=True,
    )

    def positions(batch):
        # Sparse 0/1 planes, as encoded positions are.
        return (torch.rand(batch, args.planes, args.height, args.width) < 0.1).float()

    net.eval()
    with torch.inference_mode():
        for batch in [int(b) for b in args.forward_batches.split(",") if b]:
            x = positions(batch)
            rate = timed_rate(args.runs, batch, lambda: net(x))
            print(json.dumps({"forward_batch": batch, "positions_per_s": rate}), flush=True)

    # One Adam step a batch, with the targets of `bench nn`: a one-hot policy, a won
    # outcome, every policy weight 1.
    net.train()
    batch = args.train_batch
    optimizer = torch.optim.Adam(
        net.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-5, weight_decay=args.weight_decay
    )
    x = positions(batch)
    policy_target = torch.zeros(batch, args.policy)
    policy_target[torch.arange(batch), torch.arange(batch) % args.policy] = 1.0
    value_target = torch.tensor([1.0, 0.0, 0.0]).repeat(batch, 1)
    policy_weight = torch.ones(batch)

    def train_step():
        optimizer.zero_grad(set_to_none=True)
        policy_logits, value_logits = net(x)
        loss(policy_logits, value_logits, policy_target, policy_weight, value_target).backward()
        optimizer.step()

    rate = timed_rate(args.runs, batch, train_step)
    print(json.dumps({"train_batch": batch, "samples_per_s": rate}), flush=True)


if __name__ == "__main__":
    main()
