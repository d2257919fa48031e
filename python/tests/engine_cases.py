"""What the engine tests (test_spark, test_dask, test_ray) share: tied data written as Parquet
in the three layouts, every preset of every convention under every tie policy, and the
one-process values the engines' values must equal to the bit."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Tuple

import numpy as np

import rankmetrics

# Rows per file, strictly decreasing: Spark orders the files of a scan by size (largest first),
# so each file is one partition and the partitions hold the rows in the order they were drawn.
FILE_ROWS = [380, 330, 290, 250, 220, 180, 140, 110, 79, 20, 1]
N = sum(FILE_ROWS)
LABELS = 12
TOP_K = 5
POLICIES = [None, "max", "min", "average", "first", "last", "random:5", "expected", "optimistic", "pessimistic"]
LABELWISE = [("rankmetrics", "roc_auc"), ("rankmetrics", "label_average_precision")]
# Presets with a required parameter (the inverse propensities), which these cases do not give.
NEEDS_PARAMS = {("rankmetrics", "psprecision_at_k"), ("rankmetrics", "psndcg_at_k")}


def data(seed: int = 0, n: int = N, labels: int = LABELS) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels, scores with heavy ties (11 distinct values) and weights (zeros among them)."""
    rng = np.random.default_rng(seed)
    y = (rng.random((n, labels)) < 0.3).astype(np.uint8)
    s = np.round(rng.random((n, labels)), 1)
    w = rng.choice([0.0, 1.0, 2.5], size=n)
    return y, s, w


def _bits(x: float) -> bytes:
    return np.float64(x).tobytes()


def one_process(item: Tuple[str, Dict[str, Any]], y: np.ndarray, s: np.ndarray, w: Any) -> float:
    name, params = item
    acc = rankmetrics.accumulator(metric=name, **params)
    acc.update(y, s, w)
    return acc.value()


def items(
    y: np.ndarray, s: np.ndarray, w: Any, policies: List[Any] = POLICIES
) -> Dict[str, Tuple[Tuple[str, Dict[str, Any]], float]]:
    """Every preset of every convention (and rankmetrics' label-wise metrics) under every tie
    policy, with its one-process value; the few that have no value on this data (refused
    policies, undefined results) are left out, and must stay few."""
    out: Dict[str, Tuple[Tuple[str, Dict[str, Any]], float]] = {}
    names = [
        (c, m) for c in rankmetrics.CONVENTIONS for m in rankmetrics.metric_names(c) if (c, m) not in NEEDS_PARAMS
    ] + LABELWISE
    left_out = 0
    for convention, metric in names:
        for ties in policies:
            item = (metric, {"convention": convention, "ties": ties})
            try:
                value = one_process(item, y, s, w)
            except rankmetrics.RankmetricsError:
                left_out += 1
                continue
            key = f"{metric}(convention={convention!r}, ties={ties!r})"
            out[key] = (item, value)
    assert len(out) > 10 * left_out, (len(out), left_out)
    return out


def runs_items(y: np.ndarray, s: np.ndarray) -> Dict[str, Tuple[Tuple[str, Dict[str, Any]], float]]:
    """The label-wise metrics whose unweighted states are each label's runs (not the rows)
    through the engines, under every policy runs take, with their one-process values."""
    out = {}
    for key, (item, value) in items(y, s, None).items():
        name, params = item
        try:
            runs = rankmetrics.accumulator(metric=name, state="runs", **params)
        except rankmetrics.ParameterError as e:
            assert e.kind == "NotExactInRuns", e
            continue
        if runs != rankmetrics.accumulator(metric=name, **params):  # label-wise: runs, not rows
            out[key] = (item, value)
    assert len(out) >= 40, sorted(out)
    return out


def assert_bitwise(got: Dict[str, float], want: Dict[str, Tuple[Any, float]]) -> None:
    assert set(got) == set(want)
    bad = [(k, got[k], v) for k, (_, v) in want.items() if _bits(got[k]) != _bits(v)]
    assert not bad, bad[:5]


def _splits(n_rows: List[int]) -> List[Tuple[int, int]]:
    ends = np.cumsum(n_rows)
    return [(int(e - k), int(e)) for k, e in zip(n_rows, ends)]


def write_dense(path: str, y: np.ndarray, s: np.ndarray, w: np.ndarray, rows: List[int] = FILE_ROWS) -> str:
    """One file per partition: list columns ``labels``, ``scores``; ``w``, ``row`` and
    ``part`` (the file's index)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(path, exist_ok=True)
    for i, (a, b) in enumerate(_splits(rows)):
        pq.write_table(
            pa.table(
                {
                    "labels": list(y[a:b]),
                    "scores": list(s[a:b]),
                    "w": w[a:b],
                    "row": np.arange(a, b),
                    "part": np.full(b - a, i),
                }
            ),
            os.path.join(path, f"part-{i:03d}.parquet"),
        )
    return path


def sparse(
    y: np.ndarray, s: np.ndarray, k: int = TOP_K
) -> Tuple[List[np.ndarray], List[np.ndarray], List[np.ndarray], np.ndarray]:
    """Each row's relevant labels, top-k labels (score order, ties by label) and their scores,
    and the dense scores they stand for (every other label at the lowest finite score)."""
    order = np.argsort(-s, axis=1, kind="stable")[:, :k]
    top_scores = np.take_along_axis(s, order, axis=1)
    dense = np.full_like(s, np.finfo(s.dtype).min)
    np.put_along_axis(dense, order, top_scores, axis=1)
    relevant = [np.flatnonzero(row) for row in y]
    return relevant, list(order), list(top_scores), dense


def write_sparse(path: str, y: np.ndarray, s: np.ndarray, w: np.ndarray) -> Tuple[str, np.ndarray]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    relevant, top, top_scores, dense = sparse(y, s)
    os.makedirs(path, exist_ok=True)
    for i, (a, b) in enumerate(_splits(FILE_ROWS)):
        pq.write_table(
            pa.table(
                {
                    "relevant": pa.array(relevant[a:b], pa.list_(pa.int32())),
                    "top": pa.array(top[a:b], pa.list_(pa.int64())),
                    "top_scores": list(top_scores[a:b]),
                    "w": w[a:b],
                    "row": np.arange(a, b),
                }
            ),
            os.path.join(path, f"part-{i:03d}.parquet"),
        )
    return path, dense


def write_long(path: str, y: np.ndarray, s: np.ndarray, w: np.ndarray, seed: int = 0) -> Tuple[str, np.ndarray]:
    """One record per (sample, label) for a random ~70% of the labels (in shuffled label order
    within a sample), sample ids 7, 10, 13, ...; the dense scores they stand for."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    # Relevant labels always have a record; others with probability 0.6.
    keep = (y == 1) | (rng.random(y.shape) < 0.6)
    keep[:, 0] |= ~keep.any(axis=1)  # every sample has a record
    dense = np.where(keep, s, np.finfo(s.dtype).min)
    os.makedirs(path, exist_ok=True)
    for i, (a, b) in enumerate(_splits(FILE_ROWS)):
        sample, label = [], []
        for r in range(a, b):
            labels = rng.permutation(np.flatnonzero(keep[r]))
            sample.extend([r] * len(labels))
            label.extend(labels)
        sample_arr, label_arr = np.array(sample, dtype=np.int64), np.array(label, dtype=np.int64)
        pq.write_table(
            pa.table(
                {
                    "sample": 7 + 3 * sample_arr,
                    "label": label_arr,
                    "rel": y[sample_arr, label_arr].astype(np.int64),
                    "score": s[sample_arr, label_arr],
                    "w": w[sample_arr],
                }
            ),
            os.path.join(path, f"part-{i:03d}.parquet"),
        )
    return path, dense


def assert_same_grid(got: Any, want: Any) -> None:
    """Two :class:`rankmetrics.Comparison` grids equal cell by cell, values to the bit (the
    undefined cells' messages too), and their tie analysis (interval, expected value, spread,
    columns outside the interval)."""

    def bits(x: Any) -> Any:
        if isinstance(x, float):
            return _bits(x)
        if isinstance(x, (tuple, list)):
            return [bits(v) for v in x]
        return x

    assert [r["metric"] for r in got.rows] == [r["metric"] for r in want.rows]
    for g, w in zip(got.rows, want.rows):
        for field in ("over", "interval", "expected", "spread", "outside"):
            assert bits(g[field]) == bits(w[field]), (g["metric"], field, g[field], w[field])
        assert [{k: bits(v) for k, v in c.items()} for c in g["cells"]] == [
            {k: bits(v) for k, v in c.items()} for c in w["cells"]
        ], g["metric"]
    assert sum(c["error"] is not None for r in want.rows for c in r["cells"]) < 10
