#!/usr/bin/env python3
"""rankmetrics through Python against scikit-learn (same process) and the Rust library's own
time (examples/bench_npy.rs, a separate process) on the data of gen_data.py.

For each shape and metric: the median of --repeats calls (after one warm-up) of
  * rankmetrics.sklearn.<function>  (the drop-in: scikit-learn's input checks, then the crate),
  * rankmetrics.evaluate(...)       (the registry path: the crate's own checks only),
  * sklearn.metrics.<function>      (extrapolated from a slice when above --max-seconds),
and bench_npy's median for the same metric. Prints a Markdown table with the ratios; every
time comes from one run of this script, so the ratios share the machine's state.

Usage: BENCH_DATA=DIR python3 python_bench.py [--shapes B,C] [--metrics lrap,...] [--repeats 5]
Needs the package installed (scripts/test makes .venv with it) and cargo on PATH.
"""
import os
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn import metrics as M

import rankmetrics
from rankmetrics import sklearn as R

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name -> (drop-in call, registry call, scikit-learn call, extrapolation model)
METRICS = {
    "coverage_error": (
        lambda d: R.coverage_error(d["y_true"], d["y_score"]),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="coverage_error"),
        lambda d: M.coverage_error(d["y_true"], d["y_score"]), "linear"),
    "lrap": (
        lambda d: R.label_ranking_average_precision_score(d["y_true"], d["y_score"]),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="label_ranking_average_precision_score"),
        lambda d: M.label_ranking_average_precision_score(d["y_true"], d["y_score"]), "linear"),
    "label_ranking_loss": (
        lambda d: R.label_ranking_loss(d["y_true"], d["y_score"]),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="label_ranking_loss"),
        lambda d: M.label_ranking_loss(d["y_true"], d["y_score"]), "linear"),
    "ndcg": (
        lambda d: R.ndcg_score(d["y_true"], d["y_score"]),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="ndcg_score"),
        lambda d: M.ndcg_score(d["y_true"], d["y_score"]), "linear"),
    "ndcg@10": (
        lambda d: R.ndcg_score(d["y_true"], d["y_score"], k=10),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="ndcg_score", k=10),
        lambda d: M.ndcg_score(d["y_true"], d["y_score"], k=10), "linear"),
    "roc_auc_macro": (
        lambda d: R.roc_auc_score(d["y_true"], d["y_score"]),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="roc_auc_score"),
        lambda d: M.roc_auc_score(d["y_true"], d["y_score"]), "nlogn"),
    "roc_auc_micro": (
        lambda d: R.roc_auc_score(d["y_true"], d["y_score"], average="micro"),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="roc_auc_score", average="micro"),
        lambda d: M.roc_auc_score(d["y_true"], d["y_score"], average="micro"), "nlogn"),
    "ap_macro": (
        lambda d: R.average_precision_score(d["y_true"], d["y_score"]),
        lambda d: rankmetrics.evaluate(d["y_true"], d["y_score"], convention="sklearn", metric="average_precision_score"),
        lambda d: M.average_precision_score(d["y_true"], d["y_score"]), "nlogn"),
}


def median_time(fn, d, repeats):
    fn(d)  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(d)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), max(times)


def rust_times(shape, metrics, repeats):
    """bench_npy's medians (one thread, the library called directly on the .npy data)."""
    cmd = ["cargo", "run", "--quiet", "--release", "--all-features", "--example", "bench_npy", "--",
           bc.DATA, shape, "--metrics", ",".join(metrics), "--repeats", str(repeats)]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True,
                         env={**os.environ, "RAYON_NUM_THREADS": "1"}).stdout
    times = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == shape:
            times[parts[1]] = float(parts[2])
    return times


def main():
    args = bc.parse_args("-", list(METRICS))
    names = args.metrics.split(",")
    warnings.simplefilter("ignore")
    print(f"rankmetrics {rankmetrics.__version__}, scikit-learn {sklearn.__version__}, numpy {np.__version__}, "
          f"one thread, median of {args.repeats} (min–max)\n")
    for shape in args.shapes.split(","):
        d = bc.load(shape)
        rust = rust_times(shape, names, args.repeats)
        n = d["y_true"].shape[0]
        print(f"### Shape {shape}: {d['y_true'].shape[0]:,} × {d['y_true'].shape[1]:,}\n")
        print("| metric | scikit-learn (s) | rankmetrics.sklearn (s) | × faster | rankmetrics.evaluate (s) | Rust library (s) | drop-in / Rust | evaluate / Rust |")
        print("|---|---|---|---|---|---|---|---|")
        for name in names:
            dropin, registry, reference, model = METRICS[name]
            t_drop, lo_d, hi_d = median_time(dropin, d, args.repeats)
            t_reg, _, _ = median_time(registry, d, args.repeats)
            sk = bc.run_combo(reference, d, n, args, model)
            t_sk = sk["median_s"]
            mark = " (extrapolated)" if sk.get("extrapolated") else ""
            t_rust = rust.get(name)
            rust_cols = (f"{t_rust:.4f} | {t_drop / t_rust:.2f} | {t_reg / t_rust:.2f}" if t_rust else "– | – | –")
            print(f"| {name} | {t_sk:.3f}{mark} | {t_drop:.4f} ({lo_d:.4f}–{hi_d:.4f}) | {t_sk / t_drop:.0f}× | "
                  f"{t_reg:.4f} | {rust_cols} |")
        print()


if __name__ == "__main__":
    main()
