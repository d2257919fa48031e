"""Exact evaluation of dask DataFrames and dask arrays: one pass over the partitions (or row
chunks), each one's accumulator states numbered from its first row of the whole data, merged
in partition order, bitwise the value of :func:`rankmetrics.evaluate` on the same rows in the
same order.

Needs dask (``pip install "rankmetrics-ties[dask]"``: dask's ``array`` and ``dataframe`` parts, and
pyarrow); rankmetrics itself does not depend on it.

>>> import numpy as np, dask.array as da, rankmetrics
>>> from rankmetrics import dask as rmdask
>>> rng = np.random.default_rng(0)
>>> y, s = rng.random((1000, 8)) < 0.3, np.round(rng.random((1000, 8)), 1)
>>> values = rmdask.evaluate(da.from_array(y, chunks=(300, 8)), da.from_array(s, chunks=(300, 8)),
...                          metrics=["label_ranking_loss", "roc_auc_score"], convention="sklearn")
>>> values["label_ranking_loss"] == rankmetrics.evaluate(y, s, convention="sklearn", metric="label_ranking_loss")
True

A DataFrame whose columns hold each row's labels and scores as lists, read from Parquet:

>>> import tempfile, pyarrow as pa, pyarrow.parquet as pq, dask.dataframe as dd
>>> path = tempfile.mkdtemp() + "/predictions.parquet"
>>> pq.write_table(pa.table({"labels": list(y), "scores": list(s)}), path, row_group_size=300)
>>> frame = dd.read_parquet(path, split_row_groups=True)  # a partition per row group
>>> values = rmdask.evaluate(frame, y_true="labels", y_score="scores", metrics=["coverage_error"],
...                          convention="sklearn")
>>> values["coverage_error"] == rankmetrics.evaluate(y, s, convention="sklearn", metric="coverage_error")
True
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import _core, _distributed, _grid
from ._compare import Comparison
from ._distributed import Layout, MetricItem
from .exceptions import RankmetricsError

__all__ = ["evaluate", "compare"]


# A chunk's bad input travels as a result (the error), not as a task's exception: the scheduler
# raises the exception of whichever task fails first in time, and the merge tree keeps the
# error of the leftmost chunk, the first bad row's, as one process reports it.
States = Union[List[bytes], RankmetricsError]


def _chunk_states(y: Any, s: Any, w: Any, first_row: int, specs: List[Dict[str, Any]]) -> States:
    """The pickled states of every metric on one chunk, or its input's error (runs on a
    worker)."""
    states = []
    try:
        for spec in specs:
            acc = _core.accumulator(first_row=first_row, **spec)
            acc.update(y, s, w)
            states.append(acc.__getstate__())
    except RankmetricsError as e:
        return e
    return states


def _merge(a: States, b: States) -> States:
    """Two lists of states merged metric by metric (rows are placed by their numbers, so the
    merge is exact whatever the tree); the left one's error first, then the right one's."""
    if isinstance(a, RankmetricsError):
        return a
    if isinstance(b, RankmetricsError):
        return b
    return _distributed.merge_states(a, b)


def _is_frame(x: Any) -> bool:
    return hasattr(x, "to_delayed") and hasattr(x, "columns") and hasattr(x, "npartitions")


def evaluate(
    df: Any,
    y_score: Any = None,
    sample_weight: Any = None,
    *,
    y_true: str = "labels",
    metrics: Sequence[MetricItem],
    convention: str = "rankmetrics",
    ties: Optional[str] = None,
    n_labels: Optional[int] = None,
    sample_id: Optional[str] = None,
    label_id: Optional[str] = None,
    row_number: Optional[str] = None,
    split_every: int = 8,
    **params: Any,
) -> Dict[str, float]:
    """Evaluates ``metrics`` of ``convention`` on a dask DataFrame, or on dask arrays chunked by
    rows, bitwise as :func:`rankmetrics.evaluate` on the same rows in partition order.

    Parameters
    ----------
    df : dask.dataframe.DataFrame, or dask.array.Array of shape (n_samples, n_labels)
        A DataFrame in one of the layouts :func:`rankmetrics.spark.evaluate` describes (dense
        list columns, sparse top-k predictions, long records sorted by sample id), with the
        same keywords. Or the labels as a dask array chunked along rows only (numpy arrays are
        accepted too), with ``y_score`` the scores chunked alike and ``sample_weight`` the
        weights.
    y_score, sample_weight : str, or dask.array.Array
        For a DataFrame, column names (``y_score`` defaults to ``"scores"``; a pair of names for
        the sparse layout); for arrays, the arrays.
    y_true, n_labels, sample_id, label_id, row_number
        For a DataFrame, as :func:`rankmetrics.spark.evaluate` takes them. Without
        ``row_number``, each partition's rows are counted in the same graph as its states
        (the data is read once).
    metrics : sequence of str or (str, dict)
        Metric names of ``convention`` (as :func:`rankmetrics.accumulator` takes them), or
        ``(name, {param: value})`` pairs (key ``"name(param=value)"``; DataFrames only).
    convention, ties, **params
        As for :func:`rankmetrics.evaluate`; ``params`` apply to every metric that takes them.
    split_every : int, default=8
        For arrays: how many states each node of the merge tree combines.

    Returns
    -------
    dict
        ``{metric: value}``, each bitwise :func:`rankmetrics.evaluate`'s on the same rows.

    Raises
    ------
    ValueError
        If the arrays are chunked along labels or their row chunks differ.
    RankmetricsError
        As :func:`rankmetrics.evaluate`, for the first bad row: arrays, the error of the first
        chunk in row order that has one (every chunk is evaluated, in parallel or not, before it
        is raised), its row counted in the whole data; DataFrames, the first bad partition's
        error, naming the partition in ``details["partition"]``, as
        :func:`rankmetrics.spark.evaluate`.

    Examples
    --------
    Top-2 predictions (the sparse layout), on dask's synchronous scheduler:

    >>> import dask, pandas as pd, dask.dataframe as dd, rankmetrics
    >>> from rankmetrics import dask as rmdask
    >>> with dask.config.set({"dataframe.convert-string": False}):
    ...     frame = dd.from_pandas(pd.DataFrame({"relevant": [[0], [2], [1, 2]],
    ...                                          "top": [[0, 1], [1, 2], [2, 0]],
    ...                                          "top_scores": [[0.9, 0.4], [0.8, 0.7], [0.6, 0.5]]}),
    ...                            npartitions=2)
    >>> with dask.config.set(scheduler="sync"):
    ...     rmdask.evaluate(frame, y_true="relevant", y_score=("top", "top_scores"), n_labels=3,
    ...                     metrics=["coverage_error", "label_ranking_loss"], convention="sklearn")
    {'coverage_error': 2.0, 'label_ranking_loss': 0.3333333333333333}

    The same rows written out densely (labels outside the top-2 score the lowest finite
    float64, below every predicted one), in one process:

    >>> import numpy as np
    >>> low = np.finfo(np.float64).min
    >>> y, s = [[1, 0, 0], [0, 0, 1], [0, 1, 1]], [[0.9, 0.4, low], [low, 0.8, 0.7], [0.5, low, 0.6]]
    >>> rankmetrics.evaluate(y, s, convention="sklearn", metric="label_ranking_loss")
    0.3333333333333333
    """
    if not _is_frame(df) and not all(isinstance(m, str) for m in metrics):
        raise TypeError("for arrays, metrics are names (pairs with parameters are for DataFrames)")
    run = _runner(df, y_score, sample_weight, y_true=y_true, n_labels=n_labels, sample_id=sample_id,
                  label_id=label_id, row_number=row_number, split_every=split_every)
    return run(_distributed.metric_specs(metrics, convention, ties, params, sample_weight is not None), False)


def compare(
    df: Any,
    y_score: Any = None,
    sample_weight: Any = None,
    *,
    y_true: str = "labels",
    n_labels: Optional[int] = None,
    sample_id: Optional[str] = None,
    label_id: Optional[str] = None,
    row_number: Optional[str] = None,
    split_every: int = 8,
) -> Comparison:
    """The grid of :func:`rankmetrics.compare` (every metric concept under every tie policy
    and toolkit convention, with the tie analysis) on a dask DataFrame or dask arrays, every
    cell bitwise that of :func:`rankmetrics.compare` on the same rows in partition order: the
    grid's presets evaluated in one graph, as :func:`evaluate` evaluates ``metrics``.

    ``df``, ``y_score``, ``sample_weight``, ``y_true``, ``n_labels``, ``sample_id``,
    ``label_id``, ``row_number`` and ``split_every`` are :func:`evaluate`'s; the grid and the
    errors are those :func:`rankmetrics.spark.compare` describes.

    Examples
    --------
    >>> import dask, numpy as np, dask.array as da, rankmetrics
    >>> from rankmetrics import dask as rmdask
    >>> y, s = np.array([[1, 0, 1], [0, 1, 0]]), np.array([[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]])
    >>> with dask.config.set(scheduler="sync"):
    ...     grid = rmdask.compare(da.from_array(y, chunks=(1, 3)), da.from_array(s, chunks=(1, 3)))
    >>> grid.value("ranking loss", "sklearn"), grid.interval("ranking loss")
    (1.0, (0.25, 1.0))
    >>> grid.to_dict() == rankmetrics.compare(y, s).to_dict()
    True
    """
    run = _runner(df, y_score, sample_weight, y_true=y_true, n_labels=n_labels, sample_id=sample_id,
                  label_id=label_id, row_number=row_number, split_every=split_every)
    return _grid.through(lambda specs: run(specs, True), sample_weight is not None)


def _runner(df: Any, y_score: Any, sample_weight: Any, *, y_true: str, n_labels: Optional[int],
            sample_id: Optional[str], label_id: Optional[str], row_number: Optional[str],
            split_every: int) -> Callable[[List[Dict[str, Any]], bool], Dict[str, Any]]:
    """The evaluation of checked specs (and whether an undefined value is returned as its
    error) on a DataFrame or on arrays; the layout's keywords are checked here."""
    if _is_frame(df):
        if sample_weight is not None and not isinstance(sample_weight, str):
            raise TypeError("for a DataFrame, sample_weight is a column name")
        layout = Layout.of(y_true=y_true, y_score="scores" if y_score is None else y_score,
                           sample_weight=sample_weight, n_labels=n_labels, sample_id=sample_id,
                           label_id=label_id, row_number=row_number)
        return lambda specs, errors: _evaluate_frame(df, layout, specs, errors)
    if y_score is None:
        raise TypeError("evaluate(y_true_array, y_score_array, ...) needs y_score, or give a DataFrame")
    return lambda specs, errors: _evaluate_arrays(df, y_score, sample_weight, specs, errors, split_every)


def _first_row(firsts: List[int], partition: int) -> int:
    return firsts[partition]


def _result(part: Any, partition: int, first_row: Optional[int], layout: Layout,
            specs: List[Dict[str, Any]], expected_rows: Optional[int]) -> Dict[str, Any]:
    return _distributed.partition_result([part], partition, first_row, layout, specs, expected_rows)


def _evaluate_frame(df: Any, layout: Layout, specs: List[Dict[str, Any]], errors: bool) -> Dict[str, Any]:
    """One graph: per partition its row count and its states (numbered from the rows the
    partitions before it hold), then the merge in partition order on the client."""
    import dask

    # The frame's own partitions (partition i is df.partitions[i]): no column projection here,
    # which lets dask's optimiser fuse small partitions (the rows keep their order, but the
    # partitions an error names would not be the caller's).
    # Each partition becomes an Arrow table of the columns read (in the task that reads it): the
    # scheduler moves tables between processes, whose buffers pickle far faster than pandas'
    # object columns of arrays.
    parts = [dask.delayed(_distributed.arrow_table)(p, layout) for p in df.to_delayed()]
    if layout.row_number is None:
        counts = [dask.delayed(_distributed.partition_rows)([p], layout, i) for i, p in enumerate(parts)]
        firsts = dask.delayed(_distributed.offsets)(counts, layout)
        results = [dask.delayed(_result)(p, i, dask.delayed(_first_row)(firsts, i), layout, specs, None)
                   for i, p in enumerate(parts)]
    else:
        results = [dask.delayed(_result)(p, i, None, layout, specs, None) for i, p in enumerate(parts)]
    (computed,) = dask.compute(results)
    return _distributed.finish(computed, specs, len(parts), errors)


def _evaluate_arrays(y_true: Any, y_score: Any, sample_weight: Any, keyed: List[Dict[str, Any]], errors: bool,
                     split_every: int) -> Dict[str, Any]:
    """Dask arrays chunked by rows: per chunk, the states numbered from its first row, merged
    in a tree (``keyed``: :func:`_distributed.metric_specs`'s, checked before any work)."""
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
    specs, keys = [k["spec"] for k in keyed], [k["key"] for k in keyed]
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
        level = [dask.delayed(_no_states)(specs)]
    while len(level) > 1:
        groups = [level[i : i + split_every] for i in range(0, len(level), split_every)]
        level = [_merge_group(g) for g in groups]
    (states,) = dask.compute(level[0])
    if isinstance(states, RankmetricsError):
        raise states
    return _distributed.values(keys, states, errors)


def _no_states(specs: List[Dict[str, Any]]) -> List[bytes]:
    return [_core.accumulator(**spec).__getstate__() for spec in specs]


def _merge_group(group: List[Any]) -> Any:
    import dask

    merged = group[0]
    for other in group[1:]:
        merged = dask.delayed(_merge)(merged, other)
    return merged
