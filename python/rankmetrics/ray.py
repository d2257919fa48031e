"""Exact evaluation of a Ray Dataset: its blocks, in the dataset's order, each give their
accumulator states (one Ray task per block, numbered from the block's first row of the whole
dataset); the driver merges them in block order. The values are bitwise those of
:func:`rankmetrics.evaluate` on the same rows in the dataset's order.

Needs ray[data] and pyarrow (``pip install "rankmetrics[ray]"``), with rankmetrics installed
where the workers run.

The example is :func:`evaluate`'s (it starts a local Ray instance).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from . import _distributed, _grid
from ._compare import Comparison
from ._distributed import Layout, MetricItem

__all__ = ["evaluate", "compare"]


def _rows(block: Any, layout: Layout, partition: int) -> Dict[str, Any]:
    return _distributed.partition_rows([block], layout, partition)


def _result(block: Any, partition: int, first_row: Optional[int], layout: Layout,
            specs: List[Dict[str, Any]], expected_rows: Optional[int]) -> Dict[str, Any]:
    return _distributed.partition_result([block], partition, first_row, layout, specs, expected_rows)


def _blocks(ds: Any, columns: List[str]) -> List[Any]:
    """The dataset's blocks, in its order, as object references to Arrow tables."""
    # A dataset executes with the DataContext it was created with (a copy of the current one
    # then, shared with the datasets derived from it), not with DataContext.get_current():
    # preserve_order is set on the dataset's own, for the blocks in the dataset's order, not
    # in the order tasks finish.
    options = ds.context.execution_options
    kept = options.preserve_order
    options.preserve_order = True
    try:
        return list(ds.select_columns(columns).to_arrow_refs())
    finally:
        options.preserve_order = kept


def evaluate(
    ds: Any,
    *,
    y_true: str = "labels",
    y_score: Any = "scores",
    sample_weight: Optional[str] = None,
    metrics: Sequence[MetricItem],
    convention: str = "rankmetrics",
    ties: Optional[str] = None,
    n_labels: Optional[int] = None,
    sample_id: Optional[str] = None,
    label_id: Optional[str] = None,
    row_number: Optional[str] = None,
    **params: Any,
) -> Dict[str, float]:
    """Evaluates ``metrics`` on a Ray Dataset, bitwise as :func:`rankmetrics.evaluate` on its
    rows in the dataset's order.

    The dataset is materialised in Ray's object store (spilled to disk when it does not fit),
    its blocks taken in order; a task per block counts its rows (unless ``row_number`` numbers
    them), a task per block builds its states, and the driver merges them in block order.

    Parameters
    ----------
    ds : ray.data.Dataset
        The rows, in one of the layouts :func:`rankmetrics.spark.evaluate` describes (dense
        list columns, sparse top-k predictions, long records sorted by sample id).
    y_true, y_score, sample_weight, metrics, convention, ties, n_labels, sample_id, label_id,
    row_number, **params
        As :func:`rankmetrics.spark.evaluate` takes them.

    Returns
    -------
    dict
        ``{metric: value}``.

    Raises
    ------
    RankmetricsError
        As :func:`rankmetrics.spark.evaluate` (the first bad block's error, naming the block as
        ``details["partition"]`` and the row of the whole dataset).

    Examples
    --------
    >>> import os, tempfile, ray, rankmetrics
    >>> from rankmetrics import ray as rmray
    >>> here = os.getcwd()
    >>> os.chdir(tempfile.mkdtemp())  # Ray puts the driver's directory first on the workers' path
    >>> _ = ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    >>> os.chdir(here)
    >>> y, s = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.2, 0.9, 0.4]]
    >>> ds = ray.data.from_items([{"labels": a, "scores": b} for a, b in zip(y, s)])
    >>> rmray.evaluate(ds, metrics=["label_ranking_loss", "coverage_error"], convention="sklearn")
    {'label_ranking_loss': 0.5, 'coverage_error': 2.0}
    >>> rankmetrics.evaluate(y, s, convention="sklearn", metric="label_ranking_loss")
    0.5
    >>> ray.shutdown()
    """
    layout = Layout.of(y_true=y_true, y_score=y_score, sample_weight=sample_weight, n_labels=n_labels,
                       sample_id=sample_id, label_id=label_id, row_number=row_number)
    return _values(ds, layout, _distributed.metric_specs(metrics, convention, ties, params))


def compare(
    ds: Any,
    *,
    y_true: str = "labels",
    y_score: Any = "scores",
    sample_weight: Optional[str] = None,
    n_labels: Optional[int] = None,
    sample_id: Optional[str] = None,
    label_id: Optional[str] = None,
    row_number: Optional[str] = None,
) -> Comparison:
    """The grid of :func:`rankmetrics.compare` on a Ray Dataset, every cell bitwise that of
    :func:`rankmetrics.compare` on its rows in the dataset's order: the grid's presets
    evaluated in one pass, as :func:`evaluate` evaluates ``metrics``.

    ``ds`` and the keywords are :func:`evaluate`'s; the grid and the errors are those
    :func:`rankmetrics.spark.compare` describes (a block is a partition).

    Examples
    --------
    >>> import os, tempfile, ray, rankmetrics
    >>> from rankmetrics import ray as rmray
    >>> here = os.getcwd()
    >>> os.chdir(tempfile.mkdtemp())  # Ray puts the driver's directory first on the workers' path
    >>> _ = ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    >>> os.chdir(here)
    >>> y, s = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]
    >>> ds = ray.data.from_items([{"labels": a, "scores": b} for a, b in zip(y, s)])
    >>> grid = rmray.compare(ds)
    >>> grid.value("ranking loss", "sklearn"), grid.interval("ranking loss")
    (1.0, (0.25, 1.0))
    >>> grid.to_dict() == rankmetrics.compare(y, s).to_dict()
    True
    >>> ray.shutdown()
    """
    layout = Layout.of(y_true=y_true, y_score=y_score, sample_weight=sample_weight, n_labels=n_labels,
                       sample_id=sample_id, label_id=label_id, row_number=row_number)
    return _grid.through(lambda specs: _values(ds, layout, specs, errors=True))


def _values(ds: Any, layout: Layout, specs: List[Dict[str, Any]], errors: bool = False) -> Dict[str, Any]:
    """The metrics' values (with ``errors``: an undefined one's error as its value)."""
    import ray

    blocks = _blocks(ds, layout.columns())
    firsts: List[Optional[int]] = [None] * len(blocks)
    counts: List[Optional[int]] = [None] * len(blocks)
    if layout.row_number is None:
        rows = ray.remote(_rows)
        counted = ray.get([rows.remote(b, layout, i) for i, b in enumerate(blocks)])
        firsts = list(_distributed.offsets(counted, layout))
        counts = [c["rows"] for c in counted]
    result = ray.remote(_result)
    results = ray.get([result.remote(b, i, firsts[i], layout, specs, counts[i]) for i, b in enumerate(blocks)])
    return _distributed.finish(results, specs, len(blocks), errors)
