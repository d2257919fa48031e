#!/usr/bin/env python3
"""Wall time of an evaluation through Spark (local[2]) and Dask (processes scheduler, 2
workers) against rankmetrics.evaluate in one process, on shape B (100,000 x 100, drawn by
gen_data.py) written as Parquet in 8 files of list columns.

    python benches/python/engines_bench.py [--repeats 3] [--metrics sklearn:coverage_error,...]

Needs rankmetrics with its spark and dask extras. Prints, per engine, the median wall time of
an evaluation (reading the Parquet included; the engine's start-up is timed apart) and its
ratio to the one-process time (arrays already in memory), and checks the values are the
same bits. Writes into $BENCH_DATA (default target/bench-data).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_data  # noqa: E402

DEFAULT_METRICS = ["coverage_error", "label_ranking_average_precision_score", "label_ranking_loss", "ndcg_score"]


def timed(f, repeats):
    times, value = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        value = f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), value


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--metrics", default=",".join(DEFAULT_METRICS), help="scikit-learn convention names")
    ap.add_argument("--files", type=int, default=8)
    args = ap.parse_args()
    metrics = args.metrics.split(",")

    import pyarrow as pa
    import pyarrow.parquet as pq

    import rankmetrics

    n, L, density, q, graded = gen_data.SHAPES["B"]
    arrs = gen_data.make("B", n, L, density, q, graded, gen_data.SEED)
    y, s = arrs["y_true"], arrs["y_score"]
    out = os.environ.get("BENCH_DATA", os.path.join(os.getcwd(), "target", "bench-data"))
    path = os.path.join(out, "B_parquet")
    os.makedirs(path, exist_ok=True)
    for i, rows in enumerate(np.array_split(np.arange(n), args.files)):
        pq.write_table(pa.table({"labels": list(y[rows]), "scores": list(s[rows])}),
                       os.path.join(path, f"part-{i:03d}.parquet"))

    one, want = timed(lambda: {m: rankmetrics.evaluate(y, s, convention="sklearn", metric=m) for m in metrics},
                      args.repeats)
    print(f"shape B {n} x {L}, metrics {metrics}, {args.files} Parquet files, median of {args.repeats}")
    print(f"one process (rankmetrics.evaluate, arrays in memory): {one:.3f} s")

    def same(got):
        return all(np.float64(got[m]).tobytes() == np.float64(want[m]).tobytes() for m in metrics)

    # Dask: processes scheduler, 2 workers.
    import dask
    import dask.dataframe as dd

    from rankmetrics import dask as rmdask

    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # One pool of 2 worker processes for every run (dask would otherwise start one per call);
    # its start-up (the first run, spawning and importing) is timed apart.
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
    with dask.config.set(scheduler="processes", pool=pool):
        frame = dd.read_parquet(path)
        startup, _ = timed(lambda: rmdask.evaluate(frame, metrics=metrics, convention="sklearn"), 1)
        t, got = timed(lambda: rmdask.evaluate(frame, metrics=metrics, convention="sklearn"), args.repeats)
        # What dask alone takes to read the partitions in its worker processes.
        reading, _ = timed(lambda: frame.map_partitions(len).compute(), args.repeats)
        # List columns as Arrow arrays instead of numpy object arrays of arrays.
        arrow = dd.read_parquet(path, dtype_backend="pyarrow")
        t_arrow, got_arrow = timed(lambda: rmdask.evaluate(arrow, metrics=metrics, convention="sklearn"), args.repeats)
        reading_arrow, _ = timed(lambda: arrow.map_partitions(len).compute(), args.repeats)
    pool.shutdown()
    print(f"dask reading the partitions alone (map_partitions(len), same pool): {reading:.3f} s")
    print(f"dask, read_parquet(dtype_backend='pyarrow'): {t_arrow:.3f} s  ({t_arrow / one:.1f}x one process)  "
          f"same bits: {same(got_arrow)}; reading alone {reading_arrow:.3f} s")
    print(f"dask (processes, 2 workers, {frame.npartitions} partitions; first run with the pool's start-up "
          f"{startup:.1f} s apart): {t:.3f} s  ({t / one:.1f}x one process)  same bits: {same(got)}")

    # Spark local[2].
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from rankmetrics import spark as rmspark

    here = os.getcwd()
    os.chdir(tempfile.mkdtemp())
    t0 = time.perf_counter()
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    startup = time.perf_counter() - t0
    os.chdir(here)
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.read.parquet(path)
    t, got = timed(lambda: rmspark.evaluate(df, metrics=metrics, convention="sklearn"), args.repeats)
    print(f"spark (local[2], {df.rdd.getNumPartitions()} partitions; session start-up {startup:.1f} s apart): "
          f"{t:.3f} s  ({t / one:.1f}x one process)  same bits: {same(got)}")
    spark.stop()


if __name__ == "__main__":
    main()
