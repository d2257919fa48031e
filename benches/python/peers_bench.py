#!/usr/bin/env python3
"""Times rankmetrics (the Python package, in process) and its peers on one shape of gen_data.py,
side by side in one process: nDCG@10, P@5 and MAP against ranx and pytrec_eval, LRAP, coverage
and ranking loss against torchmetrics (CPU, float32 scores as it computes).

Each library gets its own objects built before the clock starts (ranx's Qrels and Run, whose
JIT is warmed by one call; pytrec_eval's RelevanceEvaluator and run dictionary; torch
tensors); the time is the median of --repeats calls after one warm-up call. Prints one line per
(library, metric): ``SHAPE GROUP LIBRARY METRIC MEDIAN_SECONDS VALUE``. benches/compare_peers.sh
runs it in several processes and prints the table.

Usage: BENCH_DATA=DIR NUMBA_NUM_THREADS=1 python3 peers_bench.py SHAPE [--groups retrieval,torch]
       [--repeats 3] [--rm-repeats 15] [--ties last]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers_common as pc  # noqa: E402


def timed(repeats, f):
    value = f()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), float(value)


def retrieval(shape, y_true, y_score, args, emit):
    import pytrec_eval

    import rankmetrics

    y, s = pc.with_relevant(y_true, y_score)
    queries, qrels, run = pc.trec_dicts(y, s)
    ranx_qrels, ranx_run = pc.ranx_objects(qrels, run)
    for name, (ours, params, ranx_name, trec_name) in pc.RETRIEVAL.items():
        f = getattr(rankmetrics, ours)
        emit("retrieval", "rankmetrics", name,
             *timed(args.rm_repeats, lambda: f(y, s, ties=args.ties, **params)))
        emit("retrieval", "ranx", name,
             *timed(args.repeats, lambda: pc.ranx_evaluate(ranx_qrels, ranx_run, ranx_name)))
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {trec_name})
        emit("retrieval", "pytrec_eval", name,
             *timed(args.repeats, lambda: pc.trec_evaluate(evaluator, run, trec_name)))


def torch_group(shape, y_true, y_score_f32, args, emit):
    import torch
    from torchmetrics.functional import classification as tm

    from rankmetrics import torchmetrics as rt

    torch.set_num_threads(1)
    preds, target = torch.from_numpy(y_score_f32), torch.from_numpy(y_true)
    l = y_true.shape[1]
    for name, fn in pc.TORCH.items():
        ours, theirs = getattr(rt, fn), getattr(tm, fn)
        emit("torch", "rankmetrics", name,
             *timed(args.rm_repeats, lambda: ours(y_score_f32, y_true, num_labels=l)))
        emit("torch", "torchmetrics", name,
             *timed(args.repeats, lambda: theirs(preds, target, num_labels=l)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shape")
    p.add_argument("--groups", default="retrieval,torch")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--rm-repeats", type=int, default=15)
    p.add_argument("--ties", default="last", help="rankmetrics' tie policy for the retrieval group")
    args = p.parse_args()
    y_true, y_score, y_score_f32 = pc.load(args.shape)

    def emit(group, lib, metric, median, value):
        print(f"{args.shape} {group} {lib} {metric} {median:.6f} {value!r}", flush=True)

    groups = args.groups.split(",")
    if "torch" in groups:
        torch_group(args.shape, y_true, y_score_f32, args, emit)
    if "retrieval" in groups:
        retrieval(args.shape, y_true, y_score, args, emit)


if __name__ == "__main__":
    main()
