"""What the engine front doors (``rankmetrics.spark``, ``rankmetrics.dask``, ``rankmetrics.ray``)
share: the three input layouts read from Arrow tables into dense row blocks, one partition's
accumulator states numbered from its first row of the whole data, and the driver's merge in
partition order.

A partition's work runs on a worker and returns a :class:`PartitionResult` (plain data,
pickled): its states, row and label counts, and the first error met, which the driver raises.
Errors travel as results, not as worker exceptions, so the driver raises the error of the
first bad partition in row order, typed and naming the partition and the global row, as the
one-process evaluation names the first bad row.

>>> import pyarrow as pa
>>> from rankmetrics import _distributed as dist
>>> layout = dist.Layout.of(y_true="labels", y_score="scores")
>>> specs = dist.metric_specs(["coverage"], "rankmetrics", None, {})
>>> part = pa.table({"labels": [[1, 0], [0, 1]], "scores": [[0.5, 0.5], [0.9, 0.1]]})
>>> results = [dist.partition_result([part], 0, 0, layout, specs)]
>>> dist.finish(results, specs)
{'coverage': 1.0}
>>> import rankmetrics
>>> rankmetrics.evaluate([[1, 0], [0, 1]], [[0.5, 0.5], [0.9, 0.1]], metric="coverage")
1.0
"""

from __future__ import annotations

import numbers
import pickle
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from .exceptions import ParameterError, RankmetricsError

FORMAT_VERSION = 1
"""The version of a partition's result (the accumulator states inside carry their own)."""

BLOCK_CELLS = 1 << 22
"""Rows of the sparse and long layouts are written out densely this many cells at a time."""

MetricItem = Union[str, Tuple[str, Mapping[str, Any]]]


def metric_specs(
    metrics: Sequence[MetricItem],
    convention: str,
    ties: Optional[str],
    params: Mapping[str, Any],
    weighted: bool = False,
) -> List[Dict[str, Any]]:
    """One accumulator spec per metric: a name (``params`` given to it when it takes them) or
    a ``(name, {param: value})`` pair, whose parameters may also set the metric's own
    ``convention`` and ``ties``; checked here, before any work is scheduled.

    A label-wise metric's partitions ship each label's runs (distinct scores with their
    relevant and irrelevant counts) where runs give the value exactly, and the rows
    otherwise: with sample weights (``weighted``), under the tie policies that order ties by
    position, for the ``samples`` average and pROC's automatic direction."""
    if isinstance(metrics, str) or not metrics:
        raise TypeError("metrics must be a non-empty list of metric names or (name, params) pairs")
    specs: List[Dict[str, Any]] = []
    taken: set = set()
    for item in metrics:
        if isinstance(item, str):
            name, own, key = item, {}, item
        else:
            name, own = item[0], dict(item[1])
            key = f"{name}({', '.join(f'{k}={v!r}' for k, v in own.items())})"
        conv = own.get("convention", convention)
        keys = set(_core.param_keys(conv, name))
        taken |= keys & set(params)
        shared = {k: v for k, v in params.items() if k in keys and k not in own}
        spec = {"convention": convention, "metric": name, "ties": ties, **shared, **own}
        # Bad names and values raise here, on the driver (from either accumulator).
        if not weighted and _keeps_runs(spec):
            spec["state"] = "runs"
        else:
            _core.accumulator(**spec)
        specs.append({"key": key, "spec": spec})
    names = [s["key"] for s in specs]
    if len(set(names)) != len(names):
        raise TypeError(f"a metric is listed twice: {names}")
    unused = sorted(set(params) - taken)
    if unused:
        # As rankmetrics.evaluate refuses a parameter its metric does not take.
        raise ParameterError(
            f"no metric of {names} takes the parameter(s) {', '.join(unused)}", "UnknownParam", {"parameter": unused[0]}
        )
    return specs


def _keeps_runs(spec: Dict[str, Any]) -> bool:
    """Whether the metric of ``spec`` can keep runs instead of rows, to the same bits."""
    try:
        _core.accumulator(**spec, state="runs")
    except ParameterError as e:
        if e.kind == "NotExactInRuns":
            return False
        raise
    return True


def _error(message: str, partition: int, **details: Any) -> RankmetricsError:
    return RankmetricsError(f"partition {partition}: {message}", "Input", {"partition": partition, **details})


class Layout:
    """Which columns hold the rows, and how (built by :meth:`of` from the front doors' keywords).

    - ``"dense"``: ``y_true`` and ``y_score`` are list columns, one entry per label.
    - ``"sparse"``: ``y_true`` lists each row's relevant label indices; ``y_score`` is a pair
      of list columns, the row's top-k label indices and their scores; ``n_labels`` labels.
      Labels outside the top-k get the most negative finite score of the scores' type
      (``numpy.finfo(dtype).min``): below every scored label, tied with each other.
    - ``"long"``: one record per (sample, label): ``sample_id``, ``label_id`` (in
      ``[0, n_labels)``), ``y_true`` (relevance) and ``y_score``; samples sorted by id. A
      label without a record has relevance 0 and the missing score of the sparse layout.
    """

    def __init__(
        self,
        kind: str,
        y_true: str,
        y_score: Tuple[str, ...],
        sample_weight: Optional[str],
        n_labels: Optional[int],
        sample_id: Optional[str],
        label_id: Optional[str],
        row_number: Optional[str],
    ) -> None:
        self.kind, self.y_true, self.y_score = kind, y_true, y_score
        self.sample_weight, self.n_labels = sample_weight, n_labels
        self.sample_id, self.label_id, self.row_number = sample_id, label_id, row_number

    @classmethod
    def of(
        cls,
        *,
        y_true: str = "labels",
        y_score: Any = "scores",
        sample_weight: Optional[str] = None,
        n_labels: Optional[int] = None,
        sample_id: Optional[str] = None,
        label_id: Optional[str] = None,
        row_number: Optional[str] = None,
    ) -> "Layout":
        """The layout the keywords describe (``sample_id`` given: long; ``y_score`` a pair of
        columns: sparse; otherwise dense)."""
        if not isinstance(y_true, str):
            raise TypeError(f"y_true must be a column name; got {y_true!r}")
        if sample_id is not None:
            kind = "long"
            if label_id is None or not isinstance(y_score, str):
                raise TypeError("the long layout needs sample_id=, label_id= and one y_score column")
            if row_number is not None:
                raise TypeError("the long layout numbers rows by sorted sample id; row_number= does not apply")
            scores: Tuple[str, ...] = (y_score,)
        elif isinstance(y_score, (tuple, list)):
            kind = "sparse"
            if len(y_score) != 2 or not all(isinstance(c, str) for c in y_score):
                raise TypeError("the sparse layout's y_score is a pair (label indices column, scores column)")
            scores = (y_score[0], y_score[1])
        elif isinstance(y_score, str):
            kind = "dense"
            scores = (y_score,)
        else:
            raise TypeError(f"y_score must be a column name or a pair of them; got {y_score!r}")
        if kind != "dense":
            if isinstance(n_labels, bool) or not isinstance(n_labels, (int, np.integer)) or n_labels < 1:
                raise TypeError(f"the {kind} layout needs n_labels= (a positive int); got {n_labels!r}")
            n_labels = int(n_labels)
        elif n_labels is not None:
            raise TypeError("n_labels= is for the sparse and long layouts (dense rows carry their length)")
        return cls(kind, y_true, scores, sample_weight, n_labels, sample_id, label_id, row_number)

    def columns(self) -> List[str]:
        """The columns the evaluation reads."""
        cols = [self.sample_id, self.label_id, self.row_number, self.y_true, *self.y_score, self.sample_weight]
        return list(dict.fromkeys(c for c in cols if c is not None))


def _table(part: Any, columns: List[str]) -> Any:
    """A partition (pyarrow Table or RecordBatch, pandas DataFrame) as a pyarrow Table of
    ``columns``."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    if isinstance(part, RankmetricsError):  # met by arrow_table in an earlier task
        raise part
    if isinstance(part, pa.RecordBatch):
        part = pa.Table.from_batches([part])
    names = list(part.column_names if isinstance(part, pa.Table) else part.columns)
    missing = [c for c in columns if c not in names]
    if missing:
        raise RankmetricsError(f"no column {missing[0]!r}; the data has {names}", "Input", {"input": missing[0]})
    if not isinstance(part, pa.Table):
        # from_pandas=False: a NaN score stays a NaN (reported as such), not a null.
        return pa.table({c: _arrow_column(part[c], c) for c in columns})
    return part.select(columns)


def _arrow_column(values: Any, name: str) -> Any:
    """A pandas column as an Arrow array; one Arrow cannot type (entries of mixed types, e.g. a
    string among numbers) is refused naming its first row that does not convert alone."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    try:
        return pa.array(values, from_pandas=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError) as e:
        entries = list(values)
        kind = pa.array(entries[:1], from_pandas=False).type if entries else None
        row = next((i for i, v in enumerate(entries) if not _converts(v, kind)), 0)
        raise RankmetricsError(
            f"{name} holds values of different types: record {row} of the partition does not convert ({e})",
            "Input",
            {"input": name, "record": row},
        ) from e


def _converts(value: Any, kind: Any) -> bool:
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    try:
        pa.array([value], type=kind, from_pandas=False)
        return True
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return False


def arrow_table(part: Any, layout: Layout) -> Any:
    """A partition as a pyarrow Table of the columns ``layout`` reads, or the error met (a
    missing column, values Arrow cannot type), which :func:`partition_rows` and
    :func:`partition_result` report as that partition's."""
    try:
        return _table(part, layout.columns())
    except RankmetricsError as e:
        return e


def _with_row(e: RankmetricsError, first_row: Optional[int], layout: Layout) -> RankmetricsError:
    """An error naming a record of its partition (``details["record"]``), given the row of the
    whole data when records are rows (dense and sparse layouts) and the first row is known."""
    record = e.details.get("record")
    if record is None or "row" in e.details or first_row is None or layout.kind == "long":
        return e
    row = first_row + record
    return type(e)(f"{e} (row {row})", e.kind, {**e.details, "row": row})


def _flat(table: Any, name: str, partition: int, first_row: int) -> Any:
    """A column as one Arrow array, with no null entry."""
    col = table.column(name).combine_chunks()
    if col.null_count:
        row = int(np.flatnonzero(np.asarray(col.is_null()))[0])
        raise _error(f"{name} is null at row {first_row + row}", partition, input=name, row=first_row + row)
    return col


def _lists(table: Any, name: str, partition: int, first_row: int) -> Tuple[np.ndarray, np.ndarray]:
    """A list column as (values, lengths), values with no null."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    col = _flat(table, name, partition, first_row)
    if not (pa.types.is_list(col.type) or pa.types.is_large_list(col.type) or pa.types.is_fixed_size_list(col.type)):
        raise _error(f"{name} must be a list column; it holds {col.type}", partition, input=name)
    lengths = np.asarray(col.value_lengths(), dtype=np.int64)
    values = col.flatten()
    if values.null_count:
        at = int(np.flatnonzero(np.asarray(values.is_null()))[0])
        row = int(np.searchsorted(np.cumsum(lengths), at, side="right"))
        raise _error(f"{name} has a null entry at row {first_row + row}", partition, input=name, row=first_row + row)
    return values.to_numpy(zero_copy_only=False), lengths


def _scalars(table: Any, name: str, partition: int, first_row: int) -> np.ndarray:
    return _flat(table, name, partition, first_row).to_numpy(zero_copy_only=False)


def _numbers(values: np.ndarray, lengths: Optional[np.ndarray], name: str, partition: int, first_row: int) -> None:
    """Refuses a column that does not hold numbers. An Arrow column has one type: the row named
    is the first with an entry (``lengths``: entries per row; None for one per row)."""
    if values.dtype.kind in "biuf" or (values.size and isinstance(values[0], numbers.Number)):
        return  # (Arrow's decimals are numpy objects: converted to float64 like any number)
    filled = np.flatnonzero(lengths) if lengths is not None else np.zeros(1, dtype=np.int64)
    row = first_row + (int(filled[0]) if filled.size else 0)
    found = type(values[0]).__name__ if values.size else str(values.dtype)
    raise _error(f"{name} must hold numbers; at row {row} it holds {found}", partition, input=name, row=row)


def _missing_score(dtype: np.dtype) -> np.floating:
    return np.finfo(dtype).min  # type: ignore[no-any-return]


def _score_dtype(values: np.ndarray) -> np.dtype:
    return np.dtype(np.float32) if values.dtype in (np.float16, np.float32) else np.dtype(np.float64)


def _dense(table: Any, layout: Layout, partition: int, first_row: int):  # type: ignore[no-untyped-def]
    """Blocks (y, s, w) of the dense layout, and the label count."""
    y, ylen = _lists(table, layout.y_true, partition, first_row)
    s, slen = _lists(table, layout.y_score[0], partition, first_row)
    n = table.num_rows
    _numbers(y, ylen, layout.y_true, partition, first_row)
    _numbers(s, slen, layout.y_score[0], partition, first_row)
    labels = int(ylen[0]) if n else None
    for name, lengths in ((layout.y_true, ylen), (layout.y_score[0], slen)):
        bad = np.flatnonzero(lengths != labels)
        if bad.size:
            row = int(bad[0])
            raise _error(
                f"{name} has {lengths[row]} entries at row {first_row + row}; the partition's first row has {labels}",
                partition,
                input=name,
                row=first_row + row,
                expected=labels,
                found=int(lengths[row]),
            )
    w = _weights(table, layout, partition, first_row)
    if not n:
        return [], None
    return [(y.reshape(n, int(ylen[0])), s.reshape(n, int(ylen[0])), w)], labels


def _weights(table: Any, layout: Layout, partition: int, first_row: int) -> Optional[np.ndarray]:
    if layout.sample_weight is None:
        return None
    w = _scalars(table, layout.sample_weight, partition, first_row)
    _numbers(w, None, layout.sample_weight, partition, first_row)
    return np.asarray(w, dtype=np.float64)


def _check_indices(
    idx: np.ndarray, rows: np.ndarray, n_labels: int, name: str, partition: int, first_row: int
) -> np.ndarray:
    """Label indices as int64, each in [0, n_labels) and at most once per row."""
    if idx.dtype.kind not in "iu":
        row = first_row + (int(rows[0]) if rows.size else 0)
        found = type(idx[0]).__name__ if idx.dtype.kind == "O" and idx.size else str(idx.dtype)
        raise _error(
            f"{name} must hold integer label indices; at row {row} it holds {found}", partition, input=name, row=row
        )
    idx = idx.astype(np.int64, copy=False)
    bad = np.flatnonzero((idx < 0) | (idx >= n_labels))
    if bad.size:
        row = first_row + int(rows[bad[0]])
        raise _error(
            f"{name} holds label {idx[bad[0]]} at row {row}, outside [0, {n_labels})",
            partition,
            input=name,
            row=row,
            value=int(idx[bad[0]]),
        )
    key = rows.astype(np.int64) * n_labels + idx
    order = np.argsort(key, kind="stable")
    dup = np.flatnonzero(np.diff(key[order]) == 0)
    if dup.size:
        at = order[dup[0] + 1]
        row = first_row + int(rows[at])
        raise _error(
            f"{name} lists label {idx[at]} twice at row {row}", partition, input=name, row=row, value=int(idx[at])
        )
    return idx


def _block_rows(n_labels: int) -> int:
    return max(1, BLOCK_CELLS // n_labels)


def _sparse(table: Any, layout: Layout, partition: int, first_row: int):  # type: ignore[no-untyped-def]
    """Blocks (y, s, w) of the sparse (top-k) layout."""
    n, L = table.num_rows, int(layout.n_labels)  # type: ignore[arg-type]
    rel, rlen = _lists(table, layout.y_true, partition, first_row)
    top, tlen = _lists(table, layout.y_score[0], partition, first_row)
    sc, slen = _lists(table, layout.y_score[1], partition, first_row)
    bad = np.flatnonzero(tlen != slen)
    if bad.size:
        row = first_row + int(bad[0])
        raise _error(
            f"{layout.y_score[0]} and {layout.y_score[1]} differ in length at row {row}",
            partition,
            input=layout.y_score[1],
            row=row,
        )
    rel_rows, top_rows = np.repeat(np.arange(n), rlen), np.repeat(np.arange(n), tlen)
    rel = _check_indices(rel, rel_rows, L, layout.y_true, partition, first_row)
    top = _check_indices(top, top_rows, L, layout.y_score[0], partition, first_row)
    _numbers(sc, slen, layout.y_score[1], partition, first_row)
    dtype = _score_dtype(sc)
    w = _weights(table, layout, partition, first_row)
    blocks = []
    rel_ends, top_ends = np.concatenate([[0], np.cumsum(rlen)]), np.concatenate([[0], np.cumsum(tlen)])
    step = _block_rows(L)
    for a in range(0, n, step):
        b = min(n, a + step)
        y = np.zeros((b - a, L), dtype=np.uint8)
        r = slice(rel_ends[a], rel_ends[b])
        y[rel_rows[r] - a, rel[r]] = 1
        s = np.full((b - a, L), _missing_score(dtype), dtype=dtype)
        t = slice(top_ends[a], top_ends[b])
        s[top_rows[t] - a, top[t]] = sc[t]
        blocks.append((y, s, None if w is None else w[a:b]))
    return blocks, L


def long_samples(table: Any, layout: Layout, partition: int) -> Tuple[int, Any, Any]:
    """The long layout's (samples, first id, last id) of a partition, checking that ids never
    decrease (records of a sample together, samples in id order)."""
    ids = _flat(table, layout.sample_id, partition, 0)  # type: ignore[arg-type]
    n = len(ids)
    if n == 0:
        return 0, None, None
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
    import pyarrow.compute as pc  # type: ignore[import-untyped,unused-ignore]

    try:
        down = np.asarray(pc.less(ids[1:], ids[:-1]).fill_null(False))
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError) as e:
        raise _error(
            f"{layout.sample_id} holds {ids.type}, which does not sort: give sample ids of a "
            "number, string or date type",
            partition,
            input=layout.sample_id,
        ) from e
    if down.any():
        at = int(np.flatnonzero(down)[0]) + 1
        raise _error(
            f"{layout.sample_id} decreases at record {at} ({ids[at - 1].as_py()!r} then "
            f"{ids[at].as_py()!r}); sort the records by sample id",
            partition,
            input=layout.sample_id,
        )
    changes = np.asarray(pc.not_equal(ids[1:], ids[:-1]))
    return int(changes.sum()) + 1, ids[0].as_py(), ids[n - 1].as_py()


def _long(table: Any, layout: Layout, partition: int, first_row: int):  # type: ignore[no-untyped-def]
    """Blocks (y, s, w) of the long layout: one row per sample, in id order."""
    import pyarrow.compute as pc  # type: ignore[import-untyped,unused-ignore]

    samples, _, _ = long_samples(table, layout, partition)
    L = int(layout.n_labels)  # type: ignore[arg-type]
    if samples == 0:
        return [], L
    ids = table.column(layout.sample_id).combine_chunks()
    starts = np.concatenate([[0], np.flatnonzero(np.asarray(pc.not_equal(ids[1:], ids[:-1]))) + 1])
    counts = np.diff(np.concatenate([starts, [len(ids)]]))
    sample = np.repeat(np.arange(samples), counts)
    label = _check_indices(
        _scalars(table, layout.label_id, partition, first_row),  # type: ignore[arg-type]
        sample,
        L,
        layout.label_id,  # type: ignore[arg-type]
        partition,
        first_row,
    )
    rel = _scalars(table, layout.y_true, partition, first_row)
    sc = _scalars(table, layout.y_score[0], partition, first_row)
    _numbers(rel, counts, layout.y_true, partition, first_row)
    _numbers(sc, counts, layout.y_score[0], partition, first_row)
    dtype = _score_dtype(sc)
    w = None
    if layout.sample_weight is not None:
        per_record = _scalars(table, layout.sample_weight, partition, first_row)
        _numbers(per_record, counts, layout.sample_weight, partition, first_row)
        per_record = np.asarray(per_record, dtype=np.float64)
        w = per_record[starts]
        differ = np.flatnonzero(~((per_record == w[sample]) | (np.isnan(per_record) & np.isnan(w[sample]))))
        if differ.size:
            row = first_row + int(sample[differ[0]])
            raise _error(
                f"{layout.sample_weight} differs between the records of the sample at row {row}",
                partition,
                input=layout.sample_weight,
                row=row,
            )
    ydtype = np.float64 if rel.dtype.kind == "f" else np.int64
    blocks = []
    step = _block_rows(L)
    for a in range(0, samples, step):
        b = min(samples, a + step)
        r = slice(starts[a], starts[b] if b < samples else len(ids))
        y = np.zeros((b - a, L), dtype=ydtype)
        y[sample[r] - a, label[r]] = rel[r]
        s = np.full((b - a, L), _missing_score(dtype), dtype=dtype)
        s[sample[r] - a, label[r]] = sc[r]
        blocks.append((y, s, None if w is None else w[a:b]))
    return blocks, L


_READERS = {"dense": _dense, "sparse": _sparse, "long": _long}


def partition_rows(parts: Iterable[Any], layout: Layout, partition: int) -> Dict[str, Any]:
    """A partition's row count (and, for the long layout, its first and last sample id): what
    the driver needs to number every partition's rows before the states are built."""
    out: Dict[str, Any] = {
        "version": FORMAT_VERSION,
        "partition": partition,
        "rows": 0,
        "first": None,
        "last": None,
        "error": None,
    }
    try:
        table = _concat(parts, [layout.sample_id] if layout.sample_id is not None else [], layout)
        if layout.kind == "long":
            out["rows"], out["first"], out["last"] = long_samples(table, layout, partition)
        else:
            out["rows"] = table.num_rows
    except RankmetricsError as e:
        out["error"] = _naming_partition(e, partition)
    return out


def _concat(parts: Iterable[Any], columns: List[str], layout: Layout) -> Any:
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    tables = [_table(p, columns or layout.columns()) for p in parts]
    if not tables:
        return pa.table({c: pa.array([], pa.null()) for c in (columns or layout.columns())})
    return pa.concat_tables(tables, promote_options="permissive") if len(tables) > 1 else tables[0]


def partition_result(
    parts: Iterable[Any],
    partition: int,
    first_row: Optional[int],
    layout: Layout,
    specs: List[Dict[str, Any]],
    expected_rows: Optional[int] = None,
) -> Dict[str, Any]:
    """One partition's accumulator states, its rows numbered from ``first_row`` (or from its
    ``row_number`` column's first value); an error met is returned, not raised."""
    out: Dict[str, Any] = {
        "version": FORMAT_VERSION,
        "partition": partition,
        "first_row": first_row,
        "rows": 0,
        "labels": None,
        "scores": None,
        "states": None,
        "error": None,
    }
    try:
        table = _concat(parts, [], layout)
        n_records = table.num_rows
        if layout.row_number is not None:
            first_row = _row_numbers(table, layout, partition)
            out["first_row"] = first_row
        assert first_row is not None
        # An empty partition (e.g. filtered out) has no columns' types to read: no blocks.
        blocks, labels = _READERS[layout.kind](table, layout, partition, first_row) if n_records else ([], None)
        rows = sum(len(b[0]) for b in blocks)
        if expected_rows is not None and rows != expected_rows:
            raise RankmetricsError(
                f"partition {partition} has {rows} rows now but had {expected_rows} when counted: "
                "its partitioning is not deterministic (cache or checkpoint the data, or give row_number=)",
                "Input",
                {"partition": partition, "expected": expected_rows, "found": rows},
            )
        states = []
        for spec in specs:
            acc = _core.accumulator(first_row=first_row, **spec["spec"])
            for y, s, w in blocks:
                acc.update(y, s, w)
            states.append(acc.__getstate__())
        out.update(
            rows=rows,
            labels=labels if rows or n_records else None,
            states=states,
            scores=str(_score_dtype(blocks[0][1])) if blocks else None,
        )
    except RankmetricsError as e:
        out["error"] = _naming_partition(_with_row(e, first_row, layout), partition)
    return out


def _row_numbers(table: Any, layout: Layout, partition: int) -> int:
    """The first row number of a partition whose ``row_number`` column numbers its rows
    consecutively."""
    numbers = _scalars(table, layout.row_number, partition, 0)  # type: ignore[arg-type]
    if numbers.size == 0:
        return 0
    if numbers.dtype.kind not in "iu" or numbers[0] < 0:
        raise _error(
            f"{layout.row_number} must hold non-negative integer row numbers", partition, input=layout.row_number
        )
    first = int(numbers[0])
    gap = np.flatnonzero(numbers.astype(np.int64) != first + np.arange(numbers.size))
    if gap.size:
        raise _error(
            f"{layout.row_number} is not consecutive at record {int(gap[0])} of the partition "
            f"({int(numbers[gap[0]])}, expected {first + int(gap[0])})",
            partition,
            input=layout.row_number,
        )
    return first


def _naming_partition(e: RankmetricsError, partition: int) -> RankmetricsError:
    if e.details.get("partition") == partition:
        return e
    named = type(e)(f"partition {partition}: {e}", e.kind, {**e.details, "partition": partition})
    return named


def offsets(counts: Sequence[Dict[str, Any]], layout: Layout) -> List[int]:
    """Each partition's first row, from :func:`partition_rows` in partition order (raises the
    first partition's error, or the long layout's samples out of order across partitions)."""
    first, out = 0, []
    last: Optional[Tuple[int, Any]] = None
    for c in counts:
        if c["error"] is not None:
            raise _with_row(c["error"], first, layout)
        if layout.kind == "long" and c["rows"]:
            if last is not None:
                _after(last, c, first, layout)
            last = (c["partition"], c["last"])
        out.append(first)
        first += c["rows"]
    return out


def _after(last: Tuple[int, Any], c: Dict[str, Any], first: int, layout: Layout) -> None:
    """Refuses a long-layout partition whose first sample id is not above the last one of the
    partition before (``last``: its index and last id), or does not compare with it."""
    try:
        ascending = bool(last[1] < c["first"])
    except TypeError:  # e.g. int ids in one partition, strings in another
        raise RankmetricsError(
            f"partition {c['partition']}: its sample ids ({type(c['first']).__name__}, from row "
            f"{first}) do not compare with partition {last[0]}'s ({type(last[1]).__name__}); "
            "give every partition ids of one type",
            "Input",
            {"partition": c["partition"], "input": layout.sample_id, "row": first},
        ) from None
    if not ascending:
        raise RankmetricsError(
            f"partition {c['partition']}: its first sample id {c['first']!r} is not above "
            f"partition {last[0]}'s last one {last[1]!r}; sort the records by sample id "
            "across partitions",
            "Input",
            {"partition": c["partition"], "input": layout.sample_id},
        )


def dumps(result: Dict[str, Any]) -> bytes:
    """A partition's result as bytes, for engines that ship bytes."""
    return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes) -> Dict[str, Any]:
    """The partition result :func:`dumps` wrote (only from workers of this evaluation)."""
    result: Dict[str, Any] = pickle.loads(data)
    if not isinstance(result, dict) or result.get("version") != FORMAT_VERSION:
        raise RankmetricsError("a partition's result is not of this rankmetrics version", "State")
    return result


# What every partition's result must agree on, and how a disagreement is reported: (field,
# what it counts, the error's kind, a hint). float32 scores run some presets in float32
# arithmetic (torchmetrics'): a merge of float32 and float64 partitions is not the value of the
# scores as one type.
AGREEING = (
    ("labels", "labels per row", "ShapeMismatch", ""),
    ("scores", "scores", "Input", ": cast the score column to one type"),
)


def restore(state: bytes) -> _core.Accumulator:
    """The accumulator a worker pickled as ``state`` (``acc.__getstate__()``)."""
    acc = _core.Accumulator.__new__(_core.Accumulator)
    acc.__setstate__(state)
    return acc


def merge_states(a: List[bytes], b: List[bytes]) -> Union[List[bytes], RankmetricsError]:
    """Two lists of states merged metric by metric (exact in any order and grouping, by the
    crate's merge contract), or the error of the first merge refused."""
    out = []
    try:
        for x, y in zip(a, b):
            left = restore(x)
            left.merge(restore(y))
            out.append(left.__getstate__())
    except RankmetricsError as e:
        return e
    return out


def values(keys: Sequence[str], states: Sequence[bytes], errors: bool) -> Dict[str, Any]:
    """``{key: value}`` of the merged ``states`` (with ``errors``, as :func:`value`)."""
    return {key: value(restore(state), errors) for key, state in zip(keys, states)}


def finish(
    results: Sequence[Dict[str, Any]],
    specs: List[Dict[str, Any]],
    partitions: Optional[int] = None,
    errors: bool = False,
) -> Dict[str, Any]:
    """The values: partition results checked and merged in partition order (with ``errors``,
    a metric whose value is undefined gets its error as its value, as a cell of
    :func:`rankmetrics.compare` does).

    Raises the first partition's error in partition order, refuses partitions whose label
    counts or score types (float32, float64) differ, and checks that every partition reported once (0 to ``partitions - 1``)
    and that the rows merged are every row from 0 on, once.
    """
    results = sorted(results, key=lambda r: r["partition"])
    seen = [r["partition"] for r in results]
    if seen != list(range(len(seen) if partitions is None else partitions)):
        raise RankmetricsError(
            f"the partitions reported are {seen}, not each of 0 to {(partitions or len(seen)) - 1} once", "State"
        )
    for r in results:
        if r["error"] is not None:
            raise r["error"]
    for field, what, kind, hint in AGREEING:
        seen_first = None
        for r in results:
            if r[field] is None:
                continue
            if seen_first is None:
                seen_first = r
            elif r[field] != seen_first[field]:
                raise RankmetricsError(
                    f"partition {r['partition']} has {r[field]} {what}, partition "
                    f"{seen_first['partition']} {seen_first[field]}{hint}",
                    kind,
                    {"partition": r["partition"], "expected": seen_first[field], "found": r[field]},
                )
    total = sum(r["rows"] for r in results)
    out: Dict[str, Any] = {}
    for i, spec in enumerate(specs):
        acc = _core.accumulator(**spec["spec"])
        for r in results:
            acc.merge(restore(r["states"][i]))
        if acc.rows() != ([(0, total)] if total else []):
            raise RankmetricsError(
                f"the partitions hold rows {acc.rows()}, not every row from 0 to {total} "
                "once (row_number= must number the rows 0, 1, ...)",
                "State",
            )
        out[spec["key"]] = value(acc, errors)
    return out


def value(acc: _core.Accumulator, errors: bool) -> Any:
    """``acc``'s value; with ``errors``, an undefined one's error instead of raising it."""
    try:
        return acc.value()
    except RankmetricsError as e:
        if not errors:
            raise
        return e
