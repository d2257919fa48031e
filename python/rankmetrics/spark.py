"""Exact evaluation of a PySpark DataFrame: one ``mapInArrow`` pass builds each partition's
accumulator states, numbered from the partition's first row of the whole DataFrame; the driver
merges them in partition order. The values are bitwise those of :func:`rankmetrics.evaluate` on
the same rows in the order of the DataFrame's partitions.

Needs pyspark with pyarrow and pandas >= 2.2 (``pip install "rankmetrics-ties[spark]"``), and the
workers' Python (``PYSPARK_PYTHON``) must have rankmetrics installed.

The example is :func:`evaluate`'s (it starts a local Spark session).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from . import _distributed, _grid
from ._compare import Comparison
from ._distributed import Layout, MetricItem

__all__ = ["evaluate", "compare"]


def _results_function(layout: Layout, specs: List[Dict[str, Any]], firsts: Optional[List[int]],
                      counts: Optional[List[int]]) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The function ``mapInArrow`` runs per partition: one record, the pickled result."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
        from pyspark import TaskContext

        ctx = TaskContext.get()
        p = ctx.partitionId() if ctx is not None else 0
        if firsts is not None and p >= len(firsts):
            # More partitions than the count job saw (adaptive query execution may plan a
            # shuffled DataFrame's partitions anew for each job).
            raise _distributed._error(
                f"the count job saw {len(firsts)} partitions: the DataFrame's partitioning "
                "changed between the two jobs; cache() or checkpoint() it, or pass row_number=", p)
        result = _distributed.partition_result(
            batches, p, None if firsts is None else firsts[p], layout, specs,
            None if counts is None else counts[p])
        yield pa.RecordBatch.from_pydict({"result": [_distributed.dumps(result)]},
                                         schema=pa.schema([("result", pa.binary())]))

    return run


def _counts_function(layout: Layout) -> Callable[[Iterator[Any]], Iterator[Any]]:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
        from pyspark import TaskContext

        ctx = TaskContext.get()
        result = _distributed.partition_rows(batches, layout, ctx.partitionId() if ctx is not None else 0)
        yield pa.RecordBatch.from_pydict({"result": [_distributed.dumps(result)]},
                                         schema=pa.schema([("result", pa.binary())]))

    return run


def _counts(df: Any, layout: Layout, partitions: int) -> List[Dict[str, Any]]:
    """Rows per partition (a pass that reads no column but the long layout's sample ids)."""
    if layout.kind == "long":
        rows = df.select(layout.sample_id).mapInArrow(_counts_function(layout), "result binary").collect()
        return sorted((_distributed.loads(r.result) for r in rows), key=lambda c: c["partition"])
    from pyspark.sql import functions as F

    got = dict(df.select(F.spark_partition_id().alias("p")).groupBy("p").count().collect())
    return [{"partition": p, "rows": int(got.get(p, 0)), "first": None, "last": None, "error": None}
            for p in range(partitions)]


def evaluate(
    df: Any,
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
    """Evaluates ``metrics`` on a Spark DataFrame, bitwise as :func:`rankmetrics.evaluate` on
    its rows in partition order.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows, in one of three layouts:

        - dense: ``y_true`` and ``y_score`` are array columns with one entry per label;
        - sparse (top-k predictions): ``y_score=(indices_column, scores_column)``, each row's
          top-k label indices and their scores; ``y_true`` lists the relevant label indices;
          ``n_labels`` gives the label count. Labels outside the top-k score below every
          predicted one (``numpy.finfo(dtype).min``), tied with each other;
        - long: one record per (sample, label) with ``sample_id``, ``label_id`` (an int in
          ``[0, n_labels)``), ``y_true`` (relevance) and ``y_score``; records sorted by sample
          id within and across partitions (e.g. ``repartitionByRange(n, id)
          .sortWithinPartitions(id)``); the rows are the samples in id order.
    y_true, y_score, sample_weight : str
        Column names (``sample_weight``: a number per row, or per record, equal within a sample).
    metrics : sequence of str or (str, dict)
        Metric names of ``convention`` (as :func:`rankmetrics.accumulator` takes them), or
        ``(name, {param: value})`` pairs (the result's key is then ``"name(param=value)"``).
    convention, ties, **params
        As for :func:`rankmetrics.evaluate`; ``params`` apply to every metric that takes them.
    row_number : str, default=None
        A column numbering the rows 0, 1, ... (consecutive within each partition): the rows
        are numbered from it in one pass. Without it, a first job counts each partition's rows
        (reading no column for the dense and sparse layouts), and the evaluation checks the
        counts again, refusing data whose partitioning changed between the two.

    Returns
    -------
    dict
        ``{metric: value}``.

    Raises
    ------
    RankmetricsError
        For bad input: the first bad partition's error in row order, naming the partition
        (``details["partition"]``) and the row of the whole data; partitions with different
        label counts (``ShapeMismatch``).
    ParameterError
        For bad metric names or parameters (before any job runs).

    Examples
    --------
    >>> import os, sys
    >>> os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # doctest: +ELLIPSIS
    '...'
    >>> from pyspark.sql import SparkSession
    >>> from rankmetrics import spark as rmspark
    >>> spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
    ...          .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    >>> y, s = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.2, 0.9, 0.4]]
    >>> df = spark.createDataFrame(list(zip(y, s)), "labels array<int>, scores array<double>")
    >>> rmspark.evaluate(df, metrics=["label_ranking_loss", ("ndcg_score", {"k": 2})], convention="sklearn")
    {'label_ranking_loss': 0.5, 'ndcg_score(k=2)': 0.75}
    >>> import rankmetrics
    >>> rankmetrics.evaluate(y, s, convention="sklearn", metric="label_ranking_loss")
    0.5
    >>> spark.stop()
    """
    layout = Layout.of(y_true=y_true, y_score=y_score, sample_weight=sample_weight, n_labels=n_labels,
                       sample_id=sample_id, label_id=label_id, row_number=row_number)
    return _values(df, layout, _distributed.metric_specs(metrics, convention, ties, params, sample_weight is not None))


def compare(
    df: Any,
    *,
    y_true: str = "labels",
    y_score: Any = "scores",
    sample_weight: Optional[str] = None,
    n_labels: Optional[int] = None,
    sample_id: Optional[str] = None,
    label_id: Optional[str] = None,
    row_number: Optional[str] = None,
) -> Comparison:
    """The grid of :func:`rankmetrics.compare` (every metric concept under every tie policy
    and toolkit convention, with the tie analysis) on a Spark DataFrame, every cell bitwise
    that of :func:`rankmetrics.compare` on its rows in partition order: the grid's presets
    evaluated in one job, as :func:`evaluate` evaluates ``metrics``.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows, in one of the layouts :func:`evaluate` describes.
    y_true, y_score, sample_weight, n_labels, sample_id, label_id, row_number
        As :func:`evaluate` takes them.

    Returns
    -------
    rankmetrics.Comparison
        A cell whose value is undefined holds its error's message, as in one process.

    Raises
    ------
    RankmetricsError
        As :func:`evaluate`: bad input is raised (typed, naming the partition and the row),
        where one process's grid would show the error in every cell.

    Examples
    --------
    >>> import os, sys
    >>> os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # doctest: +ELLIPSIS
    '...'
    >>> from pyspark.sql import SparkSession
    >>> import rankmetrics
    >>> from rankmetrics import spark as rmspark
    >>> spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
    ...          .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    >>> y, s = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]
    >>> df = spark.createDataFrame(list(zip(y, s)), "labels array<int>, scores array<double>")
    >>> grid = rmspark.compare(df)
    >>> grid.value("ranking loss", "sklearn"), grid.interval("ranking loss")
    (1.0, (0.25, 1.0))
    >>> grid.to_dict() == rankmetrics.compare(y, s).to_dict()
    True
    >>> spark.stop()
    """
    layout = Layout.of(y_true=y_true, y_score=y_score, sample_weight=sample_weight, n_labels=n_labels,
                       sample_id=sample_id, label_id=label_id, row_number=row_number)
    return _grid.through(lambda specs: _values(df, layout, specs, errors=True), sample_weight is not None)


def _values(df: Any, layout: Layout, specs: List[Dict[str, Any]], errors: bool = False) -> Dict[str, Any]:
    """The metrics' values (with ``errors``: an undefined one's error as its value)."""
    df = df.select(*layout.columns())
    partitions = df.rdd.getNumPartitions()
    firsts = counts = None
    if layout.row_number is None:
        counted = _counts(df, layout, partitions)
        firsts = _distributed.offsets(counted, layout)
        counts = [c["rows"] for c in counted]
    rows = df.mapInArrow(_results_function(layout, specs, firsts, counts), "result binary").collect()
    results = [_distributed.loads(r.result) for r in rows]
    return _distributed.finish(results, specs, partitions, errors)
