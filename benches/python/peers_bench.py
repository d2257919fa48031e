#!/usr/bin/env python3
"""Times rankmetrics (the Python package, in process) and its peers on one shape of gen_data.py,
side by side in one process: nDCG@10, P@5 and MAP against ranx and pytrec_eval, LRAP, coverage
and ranking loss against torchmetrics (CPU, float32 scores as it computes), nDCG@10, LRAP,
coverage and ranking loss against scikit-learn (float64 scores, every row;
``rankmetrics.sklearn``'s functions of the same names).

Each library gets its own objects built before the clock starts (ranx's Qrels and Run, whose JIT
is warmed by one call; pytrec_eval's RelevanceEvaluator and run dictionary; torch tensors;
scikit-learn reads the numpy arrays); the time is the median of --repeats calls after one
warm-up call, or the warm-up call alone when it took over --max-seconds (scikit-learn's and
torchmetrics' LRAP on the tall shape E, a Python loop over its million rows; never ranx, whose
first call compiles). Prints one line per (library, metric): ``SHAPE GROUP LIBRARY METRIC
MEDIAN_SECONDS VALUE``. benches/compare_peers.sh runs it in several processes and prints the
table.

Usage: BENCH_DATA=DIR NUMBA_NUM_THREADS=1 python3 peers_bench.py SHAPE
       [--groups retrieval,torch,sklearn] [--max-seconds 20]
       [--repeats 3] [--rm-repeats 15] [--ties last]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers_common as pc  # noqa: E402


def timed(repeats, max_seconds, f):
    """The median time of `repeats` calls of `f` after one warm-up call, and its value. A call
    over `max_seconds` is timed once: the warm-up call is the time (a call that long is not
    changed by warming up)."""
    t = time.perf_counter()
    value = f()
    first = time.perf_counter() - t
    if first > max_seconds:
        return first, float(value)
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
             *timed(args.rm_repeats, args.max, lambda: f(y, s, ties=args.ties, **params)))
        # ranx's first call compiles the metric (its JIT): always warmed up, however long.
        emit("retrieval", "ranx", name,
             *timed(args.repeats, float("inf"),
                    lambda: pc.ranx_evaluate(ranx_qrels, ranx_run, ranx_name)))
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {trec_name})
        emit("retrieval", "pytrec_eval", name,
             *timed(args.repeats, args.max, lambda: pc.trec_evaluate(evaluator, run, trec_name)))


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
             *timed(args.rm_repeats, args.max, lambda: ours(y_score_f32, y_true, num_labels=l)))
        emit("torch", "torchmetrics", name,
             *timed(args.repeats, args.max, lambda: theirs(preds, target, num_labels=l)))


def sklearn_group(shape, y_true, y_score, args, emit):
    import warnings

    from sklearn import metrics as M

    from rankmetrics import sklearn as rs

    # Warnings are silenced for scikit-learn's group only, not for the groups run after it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (fn, params) in pc.SKLEARN.items():
            ours, theirs = getattr(rs, fn), getattr(M, fn)
            emit("sklearn", "rankmetrics", name,
                 *timed(args.rm_repeats, args.max, lambda: ours(y_true, y_score, **params)))
            emit("sklearn", "scikit-learn", name,
                 *timed(args.repeats, args.max, lambda: theirs(y_true, y_score, **params)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shape")
    p.add_argument("--groups", default="retrieval,torch,sklearn")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--rm-repeats", type=int, default=15)
    p.add_argument("--ties", default="last", help="rankmetrics' tie policy for the retrieval group")
    p.add_argument("--max-seconds", dest="max", type=float, default=20.0,
                   help="a call longer than this is timed once")
    args = p.parse_args()
    y_true, y_score, y_score_f32 = pc.load(args.shape)

    def emit(group, lib, metric, median, value):
        print(f"{args.shape} {group} {lib} {metric} {median:.6f} {value!r}", flush=True)

    groups = args.groups.split(",")
    if "torch" in groups:
        torch_group(args.shape, y_true, y_score_f32, args, emit)
    if "sklearn" in groups:
        sklearn_group(args.shape, y_true, y_score, args, emit)
    if "retrieval" in groups:
        retrieval(args.shape, y_true, y_score, args, emit)


if __name__ == "__main__":
    main()
