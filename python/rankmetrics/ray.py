"""Exact evaluation of a Ray Dataset: its blocks, in the dataset's order, each give their
accumulator states (one Ray task per block, numbered from the block's first row of the whole
dataset); the driver merges them in block order. The values are bitwise those of
:func:`rankmetrics.evaluate` on the same rows in the dataset's order.

Needs ray[data] and pyarrow (``pip install "rankmetrics-ties[ray]"``), with rankmetrics installed
where the workers run.

The example is :func:`evaluate`'s (it starts a local Ray instance).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from . import _distributed, _grid
from ._compare import Comparison
from ._distributed import Layout, MetricItem
from .exceptions import RankmetricsError

__all__ = ["evaluate", "compare", "Evaluate"]


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
    return _values(ds, layout, _distributed.metric_specs(metrics, convention, ties, params, sample_weight is not None))


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
    return _grid.through(lambda specs: _values(ds, layout, specs, errors=True), sample_weight is not None)


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


def _empty_result() -> Dict[str, Any]:
    return {"version": _distributed.FORMAT_VERSION, "partition": 0, "first_row": None, "rows": 0,
            "labels": None, "scores": None, "states": None, "error": None}


def _first_error(a: Dict[str, Any], b: Dict[str, Any]) -> Dict[str, Any]:
    """Of two results holding an error, the one whose error names the lower row."""
    def row(r: Dict[str, Any]) -> float:
        found = getattr(r["error"], "row", None) if r["error"] is not None else None
        return float("inf") if found is None else float(found)

    return a if row(a) <= row(b) else b


def _combined(a: Dict[str, Any], b: Dict[str, Any]) -> Dict[str, Any]:
    """Two partial results as one: each metric's states merged (exact in any order, as the
    crate's merge contract says), or the first error met."""
    if a["error"] is not None or b["error"] is not None:
        return _first_error(a, b) if a["error"] is not None and b["error"] is not None else (
            a if a["error"] is not None else b)
    if a["states"] is None:
        return b
    if b["states"] is None:
        return a
    # As finish() refuses them: other label counts, or float32 and float64 scores mixed.
    for field, what, kind, _ in _distributed.AGREEING:
        if a.get(field) is not None and b.get(field) is not None and a[field] != b[field]:
            error = RankmetricsError(f"blocks with {a[field]} and {b[field]} {what}", kind,
                                     {"expected": a[field], "found": b[field]})
            return dict(a, error=error)
    states = _distributed.merge_states(a["states"], b["states"])
    if isinstance(states, RankmetricsError):
        return dict(a, error=states)
    return dict(a, rows=a["rows"] + b["rows"], labels=a["labels"] or b["labels"],
                scores=a.get("scores") or b.get("scores"), states=states)


def _aggregate_values(result: Dict[str, Any], specs: List[Dict[str, Any]]) -> Dict[str, float]:
    if result["error"] is not None:
        raise result["error"]
    if result["states"] is None:
        raise RankmetricsError("no rows", "NoSamples")
    return _distributed.values([spec["key"] for spec in specs], result["states"], errors=False)


def _consecutive(table: Any, row_number: Optional[str]) -> List[Any]:
    """``table``'s rows sorted by their numbers and cut where the numbers skip, each piece
    numbered consecutively, as a partition's rows must be (numbers that are not integers are
    left as they are, for the partition's checks to name; so is the error
    :func:`~rankmetrics._distributed.arrow_table` met, e.g. a missing column)."""
    import numpy as np

    if row_number is None or isinstance(table, RankmetricsError) or table.num_rows == 0:
        return [table]
    numbers = table.column(row_number).to_numpy(zero_copy_only=False)
    if numbers.dtype.kind not in "iu":
        return [table]
    order = np.argsort(numbers, kind="stable")
    table = table.take(order)
    cuts = np.flatnonzero(np.diff(numbers[order].astype(np.int64)) != 1) + 1
    bounds = [0, *cuts.tolist(), table.num_rows]
    return [table.slice(a, b - a) for a, b in zip(bounds, bounds[1:])]


try:  # Ray is optional: without it, Evaluate is not defined (and evaluate() fails on use).
    from ray.data.aggregate import AggregateFnV2 as _AggregateFnV2
except ImportError:  # pragma: no cover - the tests run with Ray installed
    _AggregateFnV2 = object  # type: ignore[misc,assignment]


class Evaluate(_AggregateFnV2):  # type: ignore[misc,valid-type]
    """``metrics`` as a Ray aggregation: ``ds.aggregate(Evaluate(...))``.

    Each block gives its accumulator states, numbered by the ``row_number`` column (Ray
    tells a block nothing of where it starts, so the rows must carry their numbers), and
    Ray combines them in any order: every merge is exact in any order, so the value is
    bitwise :func:`rankmetrics.evaluate` on the rows in row-number order. A row number
    seen twice, or blocks of different label counts, raise; so does a bad value, naming
    its row. A block's rows may come in any order: each consecutively numbered piece gives its
    states (so a shuffled dataset, whose pieces are single rows, costs a state per row). Row
    numbers need not start at 0 or follow each other; they decide the draws of
    ``ties="random:SEED"``. Not per group: Ray's ``groupby`` hands an ``AggregateFnV2`` the
    group key and one column only (filter the dataset per group instead).

    Parameters are those of :func:`evaluate` (``row_number`` required), plus ``name``,
    the output column's name. The output is ``{metric: value}``.

    Examples
    --------
    >>> import os, tempfile, ray, rankmetrics
    >>> from rankmetrics import ray as rmray
    >>> here = os.getcwd()
    >>> os.chdir(tempfile.mkdtemp())  # Ray puts the driver's directory first on the workers' path
    >>> _ = ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    >>> os.chdir(here)
    >>> y, s = [[1, 0, 1], [0, 1, 0], [1, 1, 0]], [[0.5, 0.5, 0.1], [0.2, 0.9, 0.4], [0.3, 0.3, 0.3]]
    >>> rows = [{"row": i, "labels": a, "scores": b} for i, (a, b) in enumerate(zip(y, s))]
    >>> ds = ray.data.from_items(rows).repartition(2)
    >>> agg = rmray.Evaluate(row_number="row", metrics=["roc_auc_score"], convention="sklearn")
    >>> ds.aggregate(agg)["rankmetrics"] == {"roc_auc_score": rankmetrics.evaluate(
    ...     y, s, convention="sklearn", metric="roc_auc_score")}
    True
    >>> ray.shutdown()
    """

    def __init__(self, *, row_number: str, y_true: str = "labels", y_score: Any = "scores",
                 sample_weight: Optional[str] = None, metrics: Sequence[MetricItem],
                 convention: str = "rankmetrics", ties: Optional[str] = None,
                 n_labels: Optional[int] = None, sample_id: Optional[str] = None,
                 label_id: Optional[str] = None, name: str = "rankmetrics", **params: Any) -> None:
        self._layout = Layout.of(y_true=y_true, y_score=y_score, sample_weight=sample_weight,
                                 n_labels=n_labels, sample_id=sample_id, label_id=label_id,
                                 row_number=row_number)
        self._specs = _distributed.metric_specs(metrics, convention, ties, params, sample_weight is not None)
        super().__init__(name, zero_factory=_empty_result, on=None, ignore_nulls=False)

    def aggregate_block(self, block: Any) -> Dict[str, Any]:
        # Ray may hand over several blocks' rows at once: each consecutively numbered piece
        # gives its states, merged here as Ray merges blocks.
        result = _empty_result()
        for piece in _consecutive(_distributed.arrow_table(block, self._layout), self._layout.row_number):
            part = _distributed.partition_result([piece], 0, None, self._layout, self._specs)
            result = _combined(result, part)
        return result

    def combine(self, current_accumulator: Dict[str, Any], new: Dict[str, Any]) -> Dict[str, Any]:
        return _combined(current_accumulator, new)

    def finalize(self, accumulator: Dict[str, Any]) -> Dict[str, float]:  # type: ignore[override]
        return _aggregate_values(accumulator, self._specs)

