"""Exact evaluation of dask arrays: one pass over the row chunks, each chunk's accumulator
states (numbered from the chunk's first row) merged in a tree, bitwise the value of
:func:`rankmetrics.evaluate` on the same rows in the same order.

Needs dask (``pip install "dask[array]"``); rankmetrics itself does not depend on it.

>>> import numpy as np, dask.array as da, rankmetrics
>>> from rankmetrics import dask as rmdask
>>> rng = np.random.default_rng(0)
>>> y, s = rng.random((1000, 8)) < 0.3, np.round(rng.random((1000, 8)), 1)
>>> values = rmdask.evaluate(da.from_array(y, chunks=(300, 8)), da.from_array(s, chunks=(300, 8)),
...                          metrics=["label_ranking_loss", "roc_auc_score"], convention="sklearn")
>>> values["label_ranking_loss"] == rankmetrics.evaluate(y, s, convention="sklearn", metric="label_ranking_loss")
True
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from . import _core

__all__ = ["evaluate"]


def _chunk_states(y: Any, s: Any, w: Any, first_row: int, specs: List[Dict[str, Any]]) -> List[bytes]:
    """The pickled states of every metric on one chunk (runs on a worker)."""
    states = []
    for spec in specs:
        acc = _core.accumulator(first_row=first_row, **spec)
        acc.update(y, s, w)
        states.append(acc.__getstate__())
    return states


def _merge(a: List[bytes], b: List[bytes]) -> List[bytes]:
    """Two lists of states merged metric by metric (rows are placed by their numbers, so the
    merge is exact whatever the tree)."""
    out = []
    for x, y in zip(a, b):
        left, right = _core.Accumulator.__new__(_core.Accumulator), _core.Accumulator.__new__(_core.Accumulator)
        left.__setstate__(x)
        right.__setstate__(y)
        left.merge(right)
        out.append(left.__getstate__())
    return out


def evaluate(
    y_true: Any,
    y_score: Any,
    sample_weight: Any = None,
    *,
    metrics: Sequence[str],
    convention: str = "rankmetrics",
    ties: Optional[str] = None,
    split_every: int = 8,
    **params: Any,
) -> Dict[str, float]:
    """Evaluates ``metrics`` of ``convention`` on dask arrays chunked by rows.

    Parameters
    ----------
    y_true, y_score : dask.array.Array of shape (n_samples, n_labels)
        Labels and scores, chunked along rows only, with the same row chunks (numpy arrays
        are accepted too).
    sample_weight : dask.array.Array of shape (n_samples,), default=None
        Weights, chunked as the rows.
    metrics : sequence of str
        Metric names of ``convention`` (as :func:`rankmetrics.evaluate` takes them).
    convention, ties, **params
        As for :func:`rankmetrics.evaluate`; ``params`` apply to every metric that takes them.
    split_every : int, default=8
        How many states each node of the merge tree combines.

    Returns
    -------
    dict
        ``{metric: value}``, each bitwise :func:`rankmetrics.evaluate`'s on the same rows.

    Raises
    ------
    ValueError
        If the arrays are chunked along labels or their row chunks differ.
    RankmetricsError
        As :func:`rankmetrics.evaluate`, for the first bad row.
    """
    import dask
    import dask.array as da

    y, s = da.asarray(y_true), da.asarray(y_score)
    if y.ndim != 2 or s.ndim != 2:
        raise ValueError("y_true and y_score must be 2-D (samples, labels)")
    if len(y.chunks[1]) != 1 or len(s.chunks[1]) != 1:
        raise ValueError("chunk y_true and y_score along rows only: .rechunk({1: -1})")
    if y.chunks[0] != s.chunks[0]:
        raise ValueError(f"y_true and y_score have different row chunks: {y.chunks[0]} and {s.chunks[0]}")
    w = None if sample_weight is None else da.asarray(sample_weight)
    if w is not None and w.chunks[0] != y.chunks[0]:
        w = w.rechunk({0: y.chunks[0]})
    specs = []
    for metric in metrics:
        keys = set(_core.param_keys(convention, metric))
        specs.append(dict(convention=convention, metric=metric, ties=ties,
                          **{k: v for k, v in params.items() if k in keys}))
    # Validate the names before any work is scheduled.
    for spec in specs:
        _core.accumulator(**spec)
    y_blocks, s_blocks = y.to_delayed().ravel(), s.to_delayed().ravel()
    w_blocks = [None] * len(y_blocks) if w is None else list(w.to_delayed().ravel())
    starts = [0]
    for n in y.chunks[0][:-1]:
        starts.append(starts[-1] + n)
    level = [
        dask.delayed(_chunk_states)(yb, sb, wb, first, specs)
        for yb, sb, wb, first in zip(y_blocks, s_blocks, w_blocks, starts)
    ]
    if not level:  # no rows: the metrics' own error (no samples)
        return {spec["metric"]: _core.accumulator(**spec).value() for spec in specs}
    while len(level) > 1:
        groups = [level[i : i + split_every] for i in range(0, len(level), split_every)]
        level = [_merge_group(g) for g in groups]
    (states,) = dask.compute(level[0])
    out = {}
    for spec, state in zip(specs, states):
        acc = _core.Accumulator.__new__(_core.Accumulator)
        acc.__setstate__(state)
        out[spec["metric"]] = acc.value()
    return out


def _merge_group(group: List[Any]) -> Any:
    import dask

    merged = group[0]
    for other in group[1:]:
        merged = dask.delayed(_merge)(merged, other)
    return merged
