"""Exceptions raised by rankmetrics.

Every exception is a :class:`RankmetricsError`, a subclass of :class:`ValueError` (so code
written for scikit-learn's ``ValueError`` keeps working), carrying what went wrong and where:

>>> import rankmetrics
>>> try:
...     rankmetrics.evaluate([[1, 0]], [[0.5, float("nan")]], metric="coverage")
... except rankmetrics.RankmetricsError as e:
...     print(e.kind, e.input, e.row, e.column)
NonFiniteScore y_score 0 1
"""

from __future__ import annotations

from typing import Any, Dict, Optional

__all__ = [
    "RankmetricsError",
    "ParameterError",
    "UndefinedMetricError",
    "IncompatibleStateError",
    "OutOfMemoryError",
    "UndefinedMetricWarning",
    "UnprovenIntervalEndWarning",
]


class RankmetricsError(ValueError):
    """Bad input: the message says what and where.

    Attributes
    ----------
    kind : str
        The error's kind, e.g. ``"NonFiniteScore"``, ``"InvalidLabel"``, ``"ShapeMismatch"``.
    input : str or None
        ``"y_true"``, ``"y_score"`` or ``"sample_weight"`` when the error is in one input.
    row, column : int or None
        The position of the offending value, when there is one.
    value : object or None
        The offending value, when there is one.
    details : dict
        Every field the error carries (``expected``, ``found``, ``parameter``, ...).

    Examples
    --------
    >>> e = RankmetricsError("y_true at row 2, column 0 is 2; expected 0 or 1", "InvalidLabel",
    ...                      {"input": "y_true", "row": 2, "column": 0, "value": 2.0})
    >>> (e.kind, e.row, e.column, isinstance(e, ValueError))
    ('InvalidLabel', 2, 0, True)
    """

    def __init__(self, message: str, kind: str = "Input", details: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.kind: str = kind
        self.details: Dict[str, Any] = dict(details or {})
        self.input: Optional[str] = self.details.get("input")
        self.row: Optional[int] = self.details.get("row")
        self.column: Optional[int] = self.details.get("column")
        self.value: Any = self.details.get("value")

    def __reduce__(self) -> Any:
        return (type(self), (str(self), self.kind, self.details))


class ParameterError(RankmetricsError, TypeError):
    """An unknown metric or convention, an unknown parameter, or a value it cannot take.

    It is also a :class:`TypeError`, as scikit-learn's ``InvalidParameterError`` is.

    Examples
    --------
    >>> import rankmetrics
    >>> try:
    ...     rankmetrics.evaluate([[1, 0]], [[0.5, 0.1]], convention="sklearn",
    ...                          metric="ndcg_score", kk=5)
    ... except rankmetrics.ParameterError as e:
    ...     print(e)
    sklearn ndcg_score takes no parameter "kk"; it takes: k, ignore_ties
    """


class UndefinedMetricError(RankmetricsError):
    """The metric has no value on this input under the chosen rules (a single class, weights
    summing to zero, a row the metric is configured to reject).

    Examples
    --------
    >>> import rankmetrics
    >>> try:
    ...     rankmetrics.evaluate([[1, 0]], [[0.5, 0.1]], metric="coverage", sample_weight=[0.0])
    ... except rankmetrics.UndefinedMetricError as e:
    ...     print(e.kind)
    ZeroTotalWeight
    """


class IncompatibleStateError(RankmetricsError):
    """Two accumulators cannot be merged exactly (another metric, overlapping rows), or a
    pickled state is not one this version reads: another version, or a state altered after it
    was pickled (kind ``"State"``). Unpickling checks a state whole (counts, row ranges, cells,
    runs, weights, the metric's parameters), so an altered state is refused by
    ``pickle.loads``, not later by ``value()`` or ``merge()``. Nothing was changed.

    Examples
    --------
    >>> import rankmetrics
    >>> a = rankmetrics.accumulator(metric="coverage")
    >>> b = rankmetrics.accumulator(metric="coverage")
    >>> a.update([[1, 0]], [[0.5, 0.1]]); b.update([[1, 0]], [[0.5, 0.1]])
    >>> try:
    ...     a.merge(b)  # both numbered their rows from 0: the same row twice
    ... except rankmetrics.IncompatibleStateError as e:
    ...     print(e.kind)
    Overlap
    """


class OutOfMemoryError(RankmetricsError, MemoryError):
    """The memory for a buffer as large as the input (a copy of the matrix, the micro
    averages' pool of cells) was refused. The call stopped with nothing changed (an
    accumulator keeps its state) and the process goes on: free memory, pass the rows to an
    accumulator in smaller batches, or lower the micro averages' pool with
    ``set_micro_pool_cells``. It is also a :class:`MemoryError`; ``details["bytes"]`` is the
    size asked for.

    Examples
    --------
    >>> e = OutOfMemoryError("out of memory: a buffer of 8000000000 bytes could not be allocated",
    ...                      "OutOfMemory", {"bytes": 8000000000})
    >>> (e.kind, e.details["bytes"], isinstance(e, MemoryError))
    ('OutOfMemory', 8000000000, True)
    """


class UndefinedMetricWarning(UserWarning):
    """A value is undefined (NaN) where scikit-learn warns with its own
    ``UndefinedMetricWarning``, e.g. ROC AUC of a label with a single class.

    Examples
    --------
    >>> import warnings
    >>> from rankmetrics.sklearn import roc_auc_score
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3])
    >>> value, caught[0].category.__name__
    (nan, 'UndefinedMetricWarning')
    """


class UnprovenIntervalEndWarning(UserWarning):
    """A value under ``ties="optimistic"`` or ``"pessimistic"`` is not a proven end of the
    interval over tie orders: it is the value of one ordering, inside the interval, where the
    ends have no proof (label-wise precision with sample weights; pROC's automatic direction).
    The message says why.

    Examples
    --------
    >>> import warnings
    >>> import rankmetrics
    >>> y, s = [[1, 0], [1, 1], [0, 1]], [[0.5, 0.5], [0.5, 0.2], [0.3, 0.3]]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = rankmetrics.evaluate(y, s, convention="sklearn", metric="average_precision_score",
    ...                                  ties="optimistic", sample_weight=[1, 2, 3])
    >>> caught[0].category.__name__, str(caught[0].message)[:47]
    ('UnprovenIntervalEndWarning', 'not a proven end of the interval over tie order')
    """
