"""torchmetrics' stateful multilabel metrics (``torchmetrics.classification.MultilabelRankingLoss``
and its kin) as training loops call them: ``update`` with each batch, ``compute`` at the end,
``reset``, ``forward`` (calling the object) for a batch's own value; each batch's sigmoid
decided on that batch, as torchmetrics' ``update`` decides it. The state is an exact
:class:`rankmetrics.Accumulator`: picklable, copyable, and mergeable with another module's
(``merge_state``) when that module numbers its rows after this one's (``first_row``)."""

from __future__ import annotations

import copy
import warnings
from typing import Any, Dict, Optional

import numpy as np

from . import _core, _input
from ._torch_input import check_num_labels, curve_average, kernel, multilabel_batch
from .exceptions import IncompatibleStateError, ParameterError, RankmetricsError


class _Module:
    """What the five modules share; each names its registry metric and its rules for an empty
    batch and for ``compute`` before ``update``."""

    _metric = ""
    # torchmetrics on a batch of 0 rows: "raise" (coverage: the minimum of an empty tensor),
    # "count one row" (the ranking loss's "(0.0, 1)"), else nothing is added.
    _empty_batch = "nothing"
    # compute() before update(): NaN (the ranking metrics' 0/0), or torchmetrics' error; and
    # after batches of 0 rows only.
    _before_update_error: Optional[str] = None
    _no_rows_error: Optional[str] = None
    # average="none": compute() gives each label's value.
    _per_label = False

    def __init__(
        self,
        num_labels: int,
        ignore_index: Optional[int] = None,
        validate_args: bool = True,
        *,
        ties: Optional[str] = None,
        sigmoid: str = "torch-cpu",
        torch_threads: Optional[int] = None,
        first_row: int = 0,
        **params: Any,
    ) -> None:
        check_num_labels(num_labels)
        if ignore_index is not None:
            raise NotImplementedError("ignore_index is not reproduced by rankmetrics")
        self.num_labels = num_labels
        self._config: Dict[str, Any] = {"ties": ties, **kernel(sigmoid, torch_threads), **params}
        self._first_row = first_row
        # Built at the first batch of rows: the preset depends on the preds' dtype.
        self._acc: Optional[_core.Accumulator] = None
        self._dtype: Optional[str] = None
        self._updated = False

    def reset(self) -> None:
        """Forgets every batch, as torchmetrics' ``reset``."""
        self._acc, self._dtype, self._updated = None, None, False

    def update(self, preds: Any, target: Any) -> None:
        """Adds a batch (``preds`` probabilities or logits, ``target`` 0/1), checked as
        torchmetrics checks it; its sigmoid is decided on this batch alone."""
        s, y, dtype, order = multilabel_batch(preds, target, self.num_labels, None)
        self._add(s, y, dtype, order)

    def compute(self) -> Any:
        """The metric over every batch added (per label: an array)."""
        if not self._updated:
            warnings.warn(
                f"The ``compute`` method of metric {type(self).__name__} was called before the "
                "``update`` method which may lead to errors, as metric states have not yet been updated.",
                UserWarning,
                stacklevel=2,
            )
        if self._acc is None:
            error = self._no_rows_error if self._updated else self._before_update_error
            if error is not None:
                raise RankmetricsError(error, "Input", {"input": "preds"})
            return float("nan")
        if self._per_label:
            return self._acc.per_label()
        return self._acc.value()

    def forward(self, preds: Any, target: Any) -> Any:
        """The batch's own value, as torchmetrics' ``forward`` returns it; the batch is added."""
        s, y, dtype, order = multilabel_batch(preds, target, self.num_labels, None)
        alone = self._empty()
        alone._add(s, y, dtype, order)
        self._add(s, y, dtype, order)
        return alone.compute()

    __call__ = forward

    def merge_state(self, other: "_Module") -> None:
        """Adds the batches of ``other``, a module of the same class and parameters whose rows
        come after this one's (made with ``first_row`` past them): the value is then that of
        one module given every batch. Raises :class:`IncompatibleStateError` otherwise, and
        changes nothing."""
        if type(other) is not type(self) or other._settings() != self._settings():
            raise IncompatibleStateError(
                f"cannot merge {other!r} into {self!r}: another metric or other parameters", "State", {}
            )
        self._updated |= other._updated
        if other._acc is None:
            return
        if self._acc is None:
            self._acc, self._dtype = copy.copy(other._acc), other._dtype
            return
        if other._dtype != self._dtype:
            raise IncompatibleStateError(
                f"cannot merge batches of {other._dtype} preds into batches of {self._dtype} preds", "State", {}
            )
        self._acc.merge(other._acc)

    def _settings(self) -> Any:
        return (self.num_labels, self._config, self._per_label)

    def _empty(self) -> "_Module":
        """A module of the same class and parameters, without batches."""
        fresh = object.__new__(type(self))
        fresh.__dict__.update(self.__dict__)
        fresh._config = dict(self._config)
        fresh._acc, fresh._dtype, fresh._updated = None, None, False
        return fresh

    def _add(self, s: np.ndarray, y: np.ndarray, dtype: str, order: str) -> None:
        """Adds a checked batch; ``order`` is how its preds lay in memory (torch's vector
        sigmoid runs over each batch's memory)."""
        if s.shape[0] == 0 and self._empty_batch == "raise":
            raise RankmetricsError(
                "min(): Expected reduction dim to be specified for input.numel() == 0.", "Input", {"input": "preds"}
            )
        if self._empty_batch == "count one row" and not _has_ranked_row(y):
            # torchmetrics' ranking loss counts a batch without a row it ranks (every row's
            # labels all 0 or all 1, or no row) as one row of loss 0: so does its first row
            # alone (a row of zeros for a batch of none).
            s, y = (s[:1], y[:1]) if s.shape[0] else (np.zeros((1, y.shape[1]), s.dtype), np.zeros((1, y.shape[1])))
        if s.shape[0] == 0:
            self._updated = True  # torchmetrics adds nothing; the dtype is not fixed yet
            return
        acc = self._acc
        if acc is None:
            config = dict(self._config)
            preset = _core.lookup("torchmetrics", self._metric, config.pop("ties"), {"dtype": dtype, **config})
            acc = _core.Accumulator(preset.accumulator(self._first_row, False, True))
        elif dtype != self._dtype:
            raise ParameterError(
                f"preds of dtype {dtype} after batches of {self._dtype}: one module takes one preds dtype",
                "InvalidParam",
                {"parameter": "preds", "value": dtype},
            )
        # On error nothing is added.
        acc._inner.update(_input.labels(y), _input.scores(s), None, 1, order)
        self._acc, self._dtype, self._updated = acc, dtype, True

    def __copy__(self) -> "_Module":
        twin = self._empty()
        twin._acc, twin._dtype, twin._updated = copy.copy(self._acc), self._dtype, self._updated
        return twin

    def __deepcopy__(self, memo: Any) -> "_Module":
        return self.__copy__()

    def __repr__(self) -> str:
        rows = self._acc.rows() if self._acc is not None else []
        return f"{type(self).__name__}(num_labels={self.num_labels}, rows={rows!r})"


def _has_ranked_row(y: np.ndarray) -> bool:
    """Whether some row has a relevant and an irrelevant label (torchmetrics' ranking-loss mask)."""
    relevant = (y == 1).sum(axis=1)
    return bool(np.any((relevant > 0) & (relevant < y.shape[1])))


class MultilabelCoverageError(_Module):
    """``torchmetrics.classification.MultilabelCoverageError``: coverage over the batches added.

    Parameters
    ----------
    num_labels : int
    ignore_index : None
        Not reproduced (only None).
    validate_args : bool
        Inputs are always validated.
    ties, sigmoid, torch_threads
        As for :func:`rankmetrics.torchmetrics.multilabel_coverage_error`.
    first_row : int, default=0
        The index of this module's first row among every module's (for :meth:`merge_state`).

    Examples
    --------
    >>> from rankmetrics.torchmetrics import MultilabelCoverageError
    >>> metric = MultilabelCoverageError(num_labels=3)
    >>> metric([[0.9, 0.5, 0.1]], [[0, 0, 1]])  # the batch's value
    3.0
    >>> metric.update([[0.9, 0.5, 0.1]], [[1, 0, 0]])
    >>> metric.compute()
    2.0
    """

    _metric = "multilabel_coverage_error"
    _empty_batch = "raise"


class MultilabelRankingAveragePrecision(_Module):
    """``torchmetrics.classification.MultilabelRankingAveragePrecision``: LRAP over the
    batches added, in torchmetrics' float32 arithmetic (each row's value in float32, a float32
    running total of the rows; torchmetrics adds each batch's own float32 total, so values over
    several batches can differ by float32 rounding).

    Parameters are as for :class:`MultilabelCoverageError`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import MultilabelRankingAveragePrecision
    >>> metric = MultilabelRankingAveragePrecision(num_labels=3)
    >>> metric.update([[0.9, 0.5, 0.1]], [[0, 0, 1]])
    >>> metric.update([[0.9, 0.5, 0.1]], [[1, 0, 0]])
    >>> metric.compute()
    0.6666666865348816
    """

    _metric = "multilabel_ranking_average_precision"

    def __init__(self, num_labels: int, ignore_index: Optional[int] = None, validate_args: bool = True, **kw: Any):
        super().__init__(num_labels, ignore_index, validate_args, arithmetic="float32", **kw)


class MultilabelRankingLoss(_Module):
    """``torchmetrics.classification.MultilabelRankingLoss``: ranking loss over the batches
    added. As torchmetrics, a batch in which no row has both a relevant and an irrelevant label
    counts as one row of loss 0, whatever its number of rows.

    Parameters are as for :class:`MultilabelCoverageError`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import MultilabelRankingLoss
    >>> metric = MultilabelRankingLoss(num_labels=3)
    >>> metric.update([[0.1, 0.5, 0.9]], [[1, 0, 0]])
    >>> metric.update([[0.0, 0.0, 0.0]] * 5, [[0, 0, 0]] * 5)  # counts as one row
    >>> metric.compute()
    0.5

    Such a batch takes one row number (its first row's; a batch of 0 rows, one more), which
    ``first_row`` of a module merged after this one counts.
    """

    _metric = "multilabel_ranking_loss"
    _empty_batch = "count one row"


class _Curve(_Module):
    _before_update_error = "No samples to concatenate"
    _no_rows_error = "index is out of bounds for dimension with size 0"

    def __init__(
        self,
        num_labels: int,
        average: Optional[str] = "macro",
        thresholds: Any = None,
        ignore_index: Optional[int] = None,
        validate_args: bool = True,
        **kw: Any,
    ) -> None:
        average = curve_average(average, thresholds)
        self._per_label = average == "none"
        # A per-label module keeps the macro preset's rows: its terms are the labels' values.
        super().__init__(num_labels, ignore_index, validate_args, average="macro" if self._per_label else average, **kw)


class MultilabelAUROC(_Curve):
    """``torchmetrics.classification.MultilabelAUROC`` with ``thresholds=None``: the exact
    multilabel AUROC over the batches added (see :func:`rankmetrics.torchmetrics.multilabel_auroc`).

    Parameters
    ----------
    num_labels : int
    average : {"macro", "micro", "weighted", "none"} or None, default="macro"
        ``"none"`` or None: ``compute`` gives one value per label (an array).
    thresholds : None
    ignore_index : None
    validate_args : bool
    ties, sigmoid, torch_threads, first_row
        As for :class:`MultilabelCoverageError`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import MultilabelAUROC
    >>> metric = MultilabelAUROC(num_labels=2)
    >>> metric.update([[0.9, 0.2]], [[1, 0]])
    >>> metric.update([[0.1, 0.8]], [[0, 0]])
    >>> metric.compute()
    0.5
    """

    _metric = "multilabel_auroc"


class MultilabelAveragePrecision(_Curve):
    """``torchmetrics.classification.MultilabelAveragePrecision`` with ``thresholds=None``: the
    exact multilabel average precision over the batches added (see
    :func:`rankmetrics.torchmetrics.multilabel_average_precision`). Parameters as
    :class:`MultilabelAUROC`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import MultilabelAveragePrecision
    >>> metric = MultilabelAveragePrecision(num_labels=2, average="micro")
    >>> metric.update([[0.9, 0.2], [0.1, 0.8]], [[1, 0], [0, 1]])
    >>> metric.compute()
    1.0
    """

    _metric = "multilabel_average_precision"


__all__ = [
    "MultilabelAUROC",
    "MultilabelAveragePrecision",
    "MultilabelCoverageError",
    "MultilabelRankingAveragePrecision",
    "MultilabelRankingLoss",
]
