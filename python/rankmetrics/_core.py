"""Metrics by name (the registry of ``rankmetrics eval``), per-sample values and
accumulators: the functions every other module of the package calls."""

from __future__ import annotations

import warnings
from typing import Any, List, Mapping, Optional, Tuple

import numpy as np

from . import _input
from ._rankmetrics import Accumulator as _Accumulator
from ._rankmetrics import Metric, metric_names, param_keys
from ._rankmetrics import set_micro_pool_cells as _set_micro_pool_cells
from .exceptions import ParameterError, UnprovenIntervalEndWarning

CONVENTIONS: Tuple[str, ...] = ("rankmetrics", "sklearn", "torchmetrics", "mldr", "mulan")
"""The conventions: rankmetrics' own metrics and the four toolkits it reproduces."""

TIE_POLICIES: Tuple[str, ...] = (
    "max",
    "min",
    "average",
    "first",
    "last",
    "random:SEED",
    "expected",
    "optimistic",
    "pessimistic",
)
"""The tie policies ``ties=`` takes (``random:SEED`` with an integer seed, e.g. ``random:7``)."""


def _param_value(value: Any) -> str:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (list, tuple, np.ndarray)):
        # A list of numbers (``inv_propensities``): comma-separated, each float's shortest
        # round-trip text, so the crate reads back the same bits.
        numbers = np.ascontiguousarray(value, dtype=np.float64).ravel()
        return ",".join(repr(float(x)) for x in numbers)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, float) and np.isnan(value):
        return "NaN"
    return str(value)


def params_list(params: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """Keyword parameters as the registry's (key, value) strings; ``None`` means "not given"."""
    return [(k, _param_value(v)) for k, v in params.items() if v is not None]


def lookup(convention: str, metric: str, ties: Optional[str], params: Mapping[str, Any]) -> Metric:
    """The metric ``metric`` of ``convention`` with ``params`` (errors as ``ParameterError``)."""
    if not isinstance(convention, str) or not isinstance(metric, str):
        raise TypeError("convention and metric must be strings")
    return Metric.preset(convention, metric, params_list(params), _input.ties(ties))


def run(metric: Metric, y_true: Any, y_score: Any, sample_weight: Any, threads: Optional[int]) -> float:
    """``metric`` evaluated on the coerced inputs; an :class:`UnprovenIntervalEndWarning` where
    the value, under optimistic or pessimistic, is not a proven end of the interval."""
    weights = _input.weights(sample_weight)
    value = metric.evaluate(_input.labels(y_true), _input.scores(y_score), weights, _input.threads(threads))
    _warn_if_unproven(metric, weights is not None)
    return value


def _warn_if_unproven(metric: Metric, weighted: bool) -> None:
    """The :class:`UnprovenIntervalEndWarning`, for the caller's caller."""
    why = metric.unproven_end(weighted)
    if why is not None:
        warnings.warn(
            UnprovenIntervalEndWarning(f"not a proven end of the interval over tie orders: {why}"),
            stacklevel=4,
        )


def run_per_label(metric: Metric, y_true: Any, y_score: Any, sample_weight: Any) -> np.ndarray:
    """``metric``'s per-label values on the coerced inputs (average=None), with :func:`run`'s
    warning."""
    weights = _input.weights(sample_weight)
    values = metric.per_label(_input.labels(y_true), _input.scores(y_score), weights)
    _warn_if_unproven(metric, weights is not None)
    return values


def run_per_sample(metric: Metric, y_true: Any, y_score: Any, threads: Optional[int]) -> np.ndarray:
    """``metric``'s per-row values on the coerced inputs (NaN where a row has no value)."""
    return metric.per_sample(_input.labels(y_true), _input.scores(y_score), _input.threads(threads))


def evaluate(
    y_true: Any,
    y_score: Any,
    *,
    convention: str = "rankmetrics",
    metric: str,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    **params: Any,
) -> float:
    """Evaluates a metric by name, as ``rankmetrics eval`` does.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        True labels (0/1, booleans; graded gains for DCG/NDCG). Lists, numpy arrays of any
        dtype, memory order or strides, objects with ``__array__`` (torch CPU tensors).
    y_score : array-like of shape (n_samples, n_labels)
        Scores; float32 is read as float32 (torchmetrics' presets then reproduce its float32
        arithmetic), float64 as float64, other types are converted to float64.
    convention : str, default="rankmetrics"
        ``"rankmetrics"``, ``"sklearn"``, ``"torchmetrics"``, ``"mldr"`` or ``"mulan"``.
    metric : str
        The metric's name in that convention (:func:`metric_names` lists them).
    sample_weight : array-like of shape (n_samples,), default=None
        Per-sample weights (applied even for toolkits that have none).
    ties : str, default=None
        A tie policy replacing the convention's tie rule (:data:`TIE_POLICIES`); None keeps it.
    threads : int, default=None
        Threads to use (None: one; -1: every core). The value is bitwise the same for any count.
    **params
        The metric's parameters, with the toolkit's names (:func:`param_keys` lists them);
        ``None`` means "not given".

    Returns
    -------
    float

    Raises
    ------
    RankmetricsError
        For bad input (its ``kind``, ``row`` and ``column`` say what and where).
    ParameterError
        For an unknown convention, metric or parameter, or a value it cannot take.

    Examples
    --------
    >>> import rankmetrics
    >>> y_true = [[1, 0, 0], [0, 0, 1]]
    >>> y_score = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]
    >>> rankmetrics.evaluate(y_true, y_score, convention="sklearn", metric="coverage_error")
    2.5
    >>> rankmetrics.evaluate([[1, 0]], [[0.5, 0.5]], metric="coverage", ties="expected")
    0.5
    """
    return run(lookup(convention, metric, ties, params), y_true, y_score, sample_weight, threads)


def per_sample(
    y_true: Any,
    y_score: Any,
    *,
    convention: str = "rankmetrics",
    metric: str,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    **params: Any,
) -> np.ndarray:
    """Each sample's value of a row-wise metric by name (for paired significance tests).

    Returns a float64 array of shape (n_samples,), NaN for the rows the metric leaves out.
    Label-wise and pooled metrics (AUCs, label AP) have no per-sample values: they raise
    :class:`ParameterError`.

    Examples
    --------
    >>> import rankmetrics
    >>> rankmetrics.per_sample([[1, 0], [0, 0]], [[0.5, 0.5], [0.1, 0.2]],
    ...                        convention="mulan", metric="AveragePrecision")
    array([0.5, nan])
    >>> [float(rankmetrics.per_sample([[1, 0]], [[0.5, 0.5]], metric="coverage", ties=t)[0])
    ...  for t in ("optimistic", "expected", "pessimistic")]
    [0.0, 0.5, 1.0]
    """
    return run_per_sample(lookup(convention, metric, ties, params), y_true, y_score, threads)


class Accumulator:
    """A metric evaluated in batches: ``update`` with batches of rows, ``merge`` shards,
    ``value`` at the end. Picklable (the exact state, versioned) and copyable.

    Merged shards give bitwise the value of one evaluation of their rows in row order; a
    merge that cannot be exact (another metric, rows seen twice) raises
    :class:`IncompatibleStateError` and changes nothing. Number a shard's rows with
    ``first_row`` (its first row's index in the whole data) so that shards merge in row
    order.

    Examples
    --------
    >>> import pickle, rankmetrics
    >>> y, s = [[1, 0, 1], [0, 1, 0], [1, 1, 0]], [[0.5, 0.5, 0.1], [0.2, 0.9, 0.4], [0.3, 0.3, 0.3]]
    >>> a = rankmetrics.accumulator(convention="mulan", metric="AveragePrecision")
    >>> b = rankmetrics.accumulator(convention="mulan", metric="AveragePrecision", first_row=1)
    >>> a.update(y[:1], s[:1]); b.update(y[1:], s[1:])
    >>> b = pickle.loads(pickle.dumps(b))  # e.g. sent back from a worker
    >>> a.merge(b)
    >>> a.value() == rankmetrics.evaluate(y, s, convention="mulan", metric="AveragePrecision")
    True
    >>> a.rows()
    [(0, 3)]
    """

    __slots__ = ("_inner",)

    def __init__(self, inner: _Accumulator) -> None:
        self._inner = inner

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None, *, threads: Optional[int] = None) -> None:
        """Adds a batch of rows (numbered after the rows already seen)."""
        self._inner.update(
            _input.labels(y_true),
            _input.scores(y_score),
            _input.weights(sample_weight),
            _input.threads(threads),
        )

    def merge(self, other: "Accumulator") -> None:
        """Merges ``other`` (a shard of the same metric) into this accumulator."""
        if not isinstance(other, Accumulator):
            raise TypeError(f"can only merge an Accumulator, not {type(other).__name__}")
        self._inner.merge(other._inner)

    def value(self) -> float:
        """The metric's value over every row seen."""
        return self._inner.value()

    def per_label(self) -> np.ndarray:
        """Each label's value over every row seen: the metric on that label's column alone
        (label-wise metrics not averaged over samples)."""
        return self._inner.per_label()

    def reset(self) -> None:
        """Forgets every row seen."""
        self._inner.reset()

    def rows(self) -> List[Tuple[int, int]]:
        """The rows seen, as ``(start, stop)`` ranges in row order."""
        return self._inner.rows()

    def __getstate__(self) -> bytes:
        return self._inner.__getstate__()

    def __setstate__(self, state: bytes) -> None:
        """Restores a pickled state, checked whole: a state of another version or one altered
        after it was pickled raises :class:`IncompatibleStateError` (kind ``"State"``)."""
        inner = _Accumulator()
        inner.__setstate__(state)
        self._inner = inner

    def __copy__(self) -> "Accumulator":
        return Accumulator(self._inner.__copy__())

    def __deepcopy__(self, memo: Any) -> "Accumulator":
        return self.__copy__()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Accumulator) and self._inner == other._inner

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Accumulator(rows={self.rows()!r})"


def accumulator(
    *,
    convention: str = "rankmetrics",
    metric: str,
    ties: Optional[str] = None,
    first_row: int = 0,
    state: str = "rows",
    **params: Any,
) -> Accumulator:
    """An empty :class:`Accumulator` for a metric by name (as :func:`evaluate` takes it).

    Examples
    --------
    >>> import rankmetrics
    >>> acc = rankmetrics.accumulator(convention="sklearn", metric="label_ranking_loss")
    >>> acc.update([[1, 0]], [[0.5, 0.5]]); acc.update([[0, 1]], [[0.2, 0.8]])
    >>> acc.value()
    0.5

    rankmetrics' label-wise and propensity-scored metrics, which have no registry name, take
    the keywords of their functions (``roc_auc``, ``label_average_precision``:
    ``average``, ``undefined``; ``psprecision_at_k``, ``psndcg_at_k``: ``inv_propensities``,
    ``k``):

    >>> acc = rankmetrics.accumulator(metric="roc_auc", average="micro")
    >>> acc.update([[1, 0]], [[0.9, 0.1]]); acc.update([[0, 1]], [[0.8, 0.2]])
    >>> acc.value() == rankmetrics.roc_auc([[1, 0], [0, 1]], [[0.9, 0.1], [0.8, 0.2]], average="micro")
    True

    A label-wise metric's accumulator keeps the rows (``state="rows"``, 16 bytes a cell). With
    ``state="runs"`` it keeps each label's distinct scores with how many relevant and
    irrelevant rows hold each: far less where scores repeat, merged exactly in any order, and
    the same value to the bit. Runs refuse, with :class:`ParameterError`, what they cannot give
    exactly: the tie policies ``first``, ``last`` and ``random``, ``average="samples"``,
    pROC's automatic direction (mldr's AUCs) and sample weights; labels other than 0 and 1
    raise :class:`RankmetricsError` of kind ``InvalidLabel``.
    Row-wise metrics keep sums and counts either way.

    >>> runs = rankmetrics.accumulator(convention="sklearn", metric="roc_auc_score", state="runs")
    >>> runs.update([[1, 0], [0, 1]], [[0.5, 0.5], [0.5, 0.9]]); runs.update([[1, 1]], [[0.5, 0.5]])
    >>> runs.value() == rankmetrics.evaluate([[1, 0], [0, 1], [1, 1]], [[0.5, 0.5], [0.5, 0.9], [0.5, 0.5]],
    ...                                      convention="sklearn", metric="roc_auc_score")
    True
    >>> rankmetrics.accumulator(convention="mldr", metric="macro_auc", state="runs")
    Traceback (most recent call last):
    ...
    rankmetrics.exceptions.ParameterError: a per-label runs state cannot give this value exactly: the metric reads the scores of each class (pROC's automatic direction)
    """
    if state not in ("rows", "runs"):
        raise ParameterError(
            f'state={state!r}: expected "rows" or "runs"', "InvalidParam", {"parameter": "state", "value": state}
        )
    runs = state == "runs"
    return Accumulator(lookup(convention, metric, ties, params).accumulator(first_row, runs))


def metric_accumulator(metric: Metric, first_row: int = 0) -> Accumulator:
    """An empty :class:`Accumulator` for an already built metric."""
    return Accumulator(metric.accumulator(first_row))


__all__ = [
    "CONVENTIONS",
    "TIE_POLICIES",
    "Accumulator",
    "accumulator",
    "evaluate",
    "metric_names",
    "param_keys",
    "per_sample",
]


def set_micro_pool_cells(cells: Optional[int]) -> None:
    """Limit the cells the micro averages hold at once; ``None`` restores the default.

    The micro averages of ROC AUC and average precision (scikit-learn's ``average="micro"``,
    mldr's ``micro_auc``, MULAN's micro measures, and rankmetrics' own) rank the pooled cells of
    ``y_true`` and ``y_score`` from a copy of about 9–13 bytes a cell, sorted into pieces by
    score (up to ``2**17`` cells each, more only where many scores lie very close). A pool of
    more cells than the limit is copied one window of whole pieces at a time, each window in a
    pass over the input: the copy holds at most the larger of the limit and the largest piece,
    at the cost of one more pass over the input per window (with ``threads=``, each thread's
    rows have a copy of their own: up to that many times the limit). Values are the same bits
    whatever the limit. By default the copy holds up to
    ``2**25`` cells, or a quarter of the cells where that is more. Like scikit-learn's
    ``working_memory``, the setting holds for the whole process and every thread.

    Parameters
    ----------
    cells : int or None
        The most cells the copy holds at once (a positive integer), or None for the default.

    Raises
    ------
    ParameterError
        If ``cells`` is neither None nor a positive integer.

    Examples
    --------
    >>> import rankmetrics
    >>> y_true = [[1, 0], [0, 1], [1, 0]]
    >>> y_score = [[0.9, 0.4], [0.3, 0.8], [0.6, 0.5]]
    >>> auc = rankmetrics.sklearn.roc_auc_score(y_true, y_score, average="micro")
    >>> rankmetrics.set_micro_pool_cells(2)
    >>> rankmetrics.sklearn.roc_auc_score(y_true, y_score, average="micro") == auc
    True
    >>> rankmetrics.set_micro_pool_cells(None)
    """
    if cells is not None:
        positive = isinstance(cells, (int, np.integer)) and not isinstance(cells, (bool, np.bool_))
        if not positive or not 0 < int(cells) < 2**64:
            raise ParameterError(
                f"cells={cells!r}: expected a positive integer below 2**64 or None",
                "InvalidParam",
                {"parameter": "cells", "value": cells},
            )
        cells = int(cells)
    _set_micro_pool_cells(cells)
