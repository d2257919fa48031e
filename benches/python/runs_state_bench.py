#!/usr/bin/env python3
"""A label-wise metric's shard states, rows against runs: bytes shipped and wall time of an
evaluation in 8 shards (update, pickle, unpickle, merge in row order, value), on shape B
(100,000 x 100, continuous scores) and shape C (the same size, 11 distinct scores), drawn by
gen_data.py.

    python benches/python/runs_state_bench.py [--repeats 3]

Prints, per shape and metric, the pickled bytes of the 8 shard states and the median wall
time for ``state="rows"`` and ``state="runs"``, and checks that both values are the bits of
rankmetrics.evaluate on all the rows.
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_data  # noqa: E402

import rankmetrics  # noqa: E402

METRICS = ["roc_auc_score", "average_precision_score"]
SHARDS = 8


def sharded(y: np.ndarray, s: np.ndarray, metric: str, state: str):
    """The value and the shards' pickled bytes of an evaluation in SHARDS shards."""
    shards = []
    for k in range(SHARDS):
        a, b = k * len(y) // SHARDS, (k + 1) * len(y) // SHARDS
        acc = rankmetrics.accumulator(convention="sklearn", metric=metric, state=state, first_row=a)
        acc.update(y[a:b], s[a:b])
        shards.append(pickle.dumps(acc))
    total = pickle.loads(shards[0])
    for p in shards[1:]:
        total.merge(pickle.loads(p))
    return total.value(), sum(map(len, shards))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    for shape in ("B", "C"):
        n, L, density, q, graded = gen_data.SHAPES[shape]
        arrs = gen_data.make(shape, n, L, density, q, graded, gen_data.SEED)
        y, s = arrs["y_true"], arrs["y_score"]
        for metric in METRICS:
            one = np.float64(rankmetrics.evaluate(y, s, convention="sklearn", metric=metric)).tobytes()
            line = [f"{shape} {metric}:"]
            for state in ("rows", "runs"):
                times = []
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    value, size = sharded(y, s, metric, state)
                    times.append(time.perf_counter() - t0)
                    assert np.float64(value).tobytes() == one, (shape, metric, state)
                line.append(f"{state} {size / 1e6:.2f} MB {statistics.median(times):.2f} s")
            print(" | ".join(line) + " | bitwise the one-process value")


if __name__ == "__main__":
    main()
