"""torchmetrics' retrieval modules (``torchmetrics.retrieval.RetrievalPrecision`` and its kin)
as training loops call them: ``update(preds, target, indexes)`` with each batch, ``compute``
at the end, ``reset``, ``forward`` (calling the object) for a batch's own value. As
torchmetrics, the modules keep every document; ``compute`` groups them into queries by
``indexes`` (the crate's ``Preset.query_values``: torch's CPU sort of the indexes, each query
valued by the functional, ``empty_target_action`` for queries without a relevant document),
then reduces the values by ``aggregation``."""

from __future__ import annotations

import sys
import warnings
from typing import Any, Callable, Dict, List, Optional, Union

import numpy as np

from . import _core, _input
from ._rankmetrics import aggregate_query_values
from ._torch_input import retrieval_types, untracked
from .exceptions import IncompatibleStateError, ParameterError, RankmetricsError, UndefinedMetricError

_ACTIONS = ("error", "skip", "neg", "pos")
_AGGREGATIONS = ("mean", "median", "min", "max")


class _RetrievalModule:
    """What the five retrieval modules share; each names its registry metric, whether its
    targets are binary, and how its ``top_k`` reaches the metric."""

    _metric = ""
    _binary = True

    def __init__(
        self,
        empty_target_action: str = "neg",
        ignore_index: Optional[int] = None,
        top_k: Optional[int] = None,
        aggregation: Union[str, Callable[..., Any]] = "mean",
        *,
        ties: Optional[str] = None,
    ) -> None:
        self._init(empty_target_action, ignore_index, aggregation, ties)
        self._params: Dict[str, Any] = {"top_k": self._checked_top_k(top_k)}

    @staticmethod
    def _checked_top_k(top_k: Any) -> Any:
        """The constructor's check of ``top_k`` (NDCG's and recall's: None or a positive
        integer, a bool taken as the integer it is), and the value kept."""
        _positive_top_k(top_k)
        return None if top_k is None else int(top_k)

    def _init(
        self,
        empty_target_action: str,
        ignore_index: Optional[int],
        aggregation: Union[str, Callable[..., Any]],
        ties: Optional[str],
    ) -> None:
        """The base class's arguments, checked in torchmetrics' order (before ``top_k``)."""
        if empty_target_action not in _ACTIONS:
            raise ParameterError(
                f"Argument `empty_target_action` received a wrong value `{empty_target_action}`.",
                "InvalidParam",
                {"parameter": "empty_target_action", "value": empty_target_action},
            )
        if ignore_index is not None and not isinstance(ignore_index, int):
            raise ParameterError(
                "Argument `ignore_index` must be an integer or None.",
                "InvalidParam",
                {"parameter": "ignore_index", "value": ignore_index},
            )
        if not (aggregation in _AGGREGATIONS or callable(aggregation)):
            raise ParameterError(
                "Argument `aggregation` must be one of `mean`, `median`, `min`, `max` or a custom callable function"
                f"which takes tensor of values, but got {aggregation}.",
                "InvalidParam",
                {"parameter": "aggregation", "value": aggregation},
            )
        self.empty_target_action = empty_target_action
        self.ignore_index = ignore_index
        self.aggregation = aggregation
        self.ties = ties
        self._params = {}
        self.reset()

    def reset(self) -> None:
        """Forgets every batch, as torchmetrics' ``reset``."""
        self._indexes: List[np.ndarray] = []
        self._preds: List[np.ndarray] = []
        self._target: List[np.ndarray] = []

    def update(self, preds: Any, target: Any, indexes: Any) -> None:
        """Adds a batch: ``preds`` (floating point, cast to float32), ``target`` (0/1; gains for
        NDCG) and ``indexes`` (int64, the query of each document), of one shape, flattened;
        checked as torchmetrics checks them, entries whose target is ``ignore_index`` removed
        first."""
        i, s, y = self._batch(preds, target, indexes)
        self._indexes.append(i)
        self._preds.append(s)
        self._target.append(y)

    def compute(self) -> float:
        """The metric over every batch added: each query's value, reduced by
        ``aggregation``; 0.0 if every query was skipped."""
        if not self._indexes:
            warnings.warn(
                f"The ``compute`` method of metric {type(self).__name__} was called before the "
                "``update`` method which may lead to errors, as metric states have not yet been updated.",
                UserWarning,
                stacklevel=2,
            )
            raise RankmetricsError("No samples to concatenate", "Input", {"input": "preds"})
        return self._value(np.concatenate(self._indexes), np.concatenate(self._preds), _cat_targets(self._target))

    def forward(self, preds: Any, target: Any, indexes: Any) -> float:
        """The batch's own value, as torchmetrics' ``forward`` returns it; the batch is added."""
        i, s, y = self._batch(preds, target, indexes)
        value = self._value(i, s, y)
        self._indexes.append(i)
        self._preds.append(s)
        self._target.append(y)
        return value

    __call__ = forward

    def merge_state(self, other: "_RetrievalModule") -> None:
        """Adds the documents of ``other``, a module of the same class and parameters, before
        this one's, as torchmetrics' ``merge_state`` does (the order its sort of the indexes
        sees them in, which can move tied scores). Raises :class:`IncompatibleStateError`
        otherwise, and changes nothing."""
        if type(other) is not type(self) or other._settings() != self._settings():
            raise IncompatibleStateError(
                f"cannot merge {other!r} into {self!r}: another metric or other parameters", "State", {}
            )
        # torchmetrics' merge_state puts the incoming documents first.
        self._indexes = other._indexes + self._indexes
        self._preds = other._preds + self._preds
        self._target = other._target + self._target

    def _settings(self) -> Any:
        return (self.empty_target_action, self.ignore_index, self.aggregation, self.ties, self._params)

    def _batch(self, preds: Any, target: Any, indexes: Any) -> Any:
        """``(indexes, preds, target)`` flattened and checked in torchmetrics' order: as int64,
        float32 or float64, and torchmetrics' float32 or int64 target."""
        if indexes is None:
            raise RankmetricsError("Argument `indexes` cannot be None", "Input", {"input": "indexes"})
        i = _input.as_array(untracked(indexes)[0], "indexes")
        s = _input.as_array(untracked(preds)[0], "preds")
        y = _input.as_array(untracked(target)[0], "target")
        if not i.shape == s.shape == y.shape:
            raise RankmetricsError(
                "`indexes`, `preds` and `target` must be of the same shape", "ShapeMismatch", {"input": "indexes"}
            )
        if i.dtype.newbyteorder("=") != np.dtype(np.int64):
            raise RankmetricsError("`indexes` must be a tensor of long integers", "Input", {"input": "indexes"})
        if self.ignore_index is not None:
            kept = y != self.ignore_index
            i, s, y = i[kept], s[kept], y[kept]
        if i.ndim == 0 or i.size == 0:
            raise RankmetricsError(
                "`indexes`, `preds` and `target` must be non-empty and non-scalar tensors",
                "Input",
                {"input": "indexes"},
            )
        retrieval_types(s, y, self._binary)
        for name, values in (("preds", s), ("target", y)):
            flat = values.reshape(-1)
            bad = np.flatnonzero(~np.isfinite(flat)) if flat.dtype.kind == "f" else np.zeros(0, dtype=np.intp)
            if bad.size:
                # A deliberate difference: torchmetrics has no such check.
                at = int(bad[0])
                raise RankmetricsError(
                    f"{name} at flat position {at} of this batch is {flat[at]}, not a finite number",
                    "NonFiniteScore" if name == "preds" else "InvalidLabel",
                    {"input": name, "position": at},
                )
        # torchmetrics keeps floating targets as float32, others as int64; the crate casts the
        # preds to float32 (once it has refused what is not finite in the preds' own dtype).
        return (
            np.ascontiguousarray(i.reshape(-1), dtype=np.int64),
            np.ascontiguousarray(s.reshape(-1), dtype=np.float64 if s.dtype == np.float64 else np.float32),
            np.ascontiguousarray(y.reshape(-1), dtype=np.float32 if y.dtype.kind == "f" else np.int64),
        )

    # Whether a top_k beyond any query's documents is every document (not for precision,
    # which divides by top_k).
    _huge_k_is_all = True

    def _top_k(self, i: np.ndarray, y: np.ndarray) -> Optional[int]:
        """The registry's ``top_k`` (None: every document of a query). A ``top_k`` that
        torchmetrics' constructor lets through but torch's ``topk`` can refuse (a bool, a
        float, a negative number) is tried on each query in torchmetrics' order, raising
        where torch raises."""
        top_k = self._params.get("top_k")
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 0):
            _, query, counts = np.unique(i, return_inverse=True, return_counts=True)
            sums = np.bincount(query.reshape(-1), weights=y, minlength=len(counts))
            for n, total in zip(counts.tolist(), sums.tolist()):
                if total == 0:
                    if self.empty_target_action == "error":
                        raise _empty_query_error({})
                    continue
                _check_topk(min(top_k or n, n))
            return None  # min(top_k, n) was every query's n
        if not top_k or (self._huge_k_is_all and top_k > 2**32):
            return None
        return top_k

    def _value(self, i: np.ndarray, s: np.ndarray, y: np.ndarray) -> float:
        top_k = self._top_k(i, y)
        params = {k: v for k, v in self._params.items() if k != "top_k"}
        metric = _core.lookup(
            "torchmetrics", self._metric, self.ties, {"top_k": top_k, "arithmetic": "float32", **params}
        )
        try:
            values = metric.query_values(i, y, s, self.empty_target_action)
        except UndefinedMetricError as e:
            if e.kind != "DegenerateRow":
                raise
            raise _empty_query_error(e.details) from None
        if callable(self.aggregation):
            if not len(values):
                return 0.0
            values32 = values.astype(np.float32)
            torch = sys.modules.get("torch")
            arg = torch.from_numpy(values32) if torch is not None else values32
            return float(self.aggregation(arg, dim=None))
        return aggregate_query_values(values.tolist(), self.aggregation)

    def __repr__(self) -> str:
        documents = sum(len(i) for i in self._indexes)
        return f"{type(self).__name__}(documents={documents})"


def _cat_targets(batches: List[np.ndarray]) -> np.ndarray:
    """The batches' targets as torch.cat joins them: float32 if any batch is floating, else
    int64."""
    floating = any(t.dtype.kind == "f" for t in batches)
    return np.concatenate(batches).astype(np.float32 if floating else np.int64, copy=False)


def _empty_query_error(details: Dict[str, Any]) -> RankmetricsError:
    return RankmetricsError(
        "`compute` method was provided with a query with no positive target.", "DegenerateRow", details
    )


def _check_topk(k: Any) -> None:
    """torch's ``topk`` refusals of ``k``: not an int (a bool, a float), or negative."""
    if isinstance(k, bool) or not isinstance(k, int):
        raise ParameterError(
            f"topk(): argument 'k' (position 1) must be int, not {type(k).__name__}",
            "InvalidParam",
            {"parameter": "top_k", "value": k},
        )
    if k < 0:
        raise ParameterError("selected index k out of range", "InvalidParam", {"parameter": "top_k", "value": k})


def _positive_top_k(top_k: Any) -> None:
    """The constructor check of NDCG's, precision's and recall's ``top_k``."""
    if top_k is not None and not (isinstance(top_k, int) and top_k > 0):
        raise ParameterError(
            "`top_k` has to be a positive integer or None", "InvalidParam", {"parameter": "top_k", "value": top_k}
        )


class RetrievalPrecision(_RetrievalModule):
    """``torchmetrics.retrieval.RetrievalPrecision``: the mean over queries of
    :func:`rankmetrics.torchmetrics.retrieval_precision`.

    Parameters
    ----------
    empty_target_action : {"neg", "pos", "skip", "error"}, default="neg"
        A query without a relevant document scores 0 ("neg"), 1 ("pos"), is left out
        ("skip") or raises ("error").
    ignore_index : int, default=None
        Documents whose target equals it are removed.
    top_k : int, default=None
        The number of top documents of each query (None: all its documents).
    adaptive_k : bool, default=False
        Divide by a query's documents where ``top_k`` exceeds them.
    aggregation : {"mean", "median", "min", "max"} or callable, default="mean"
        How the queries' float32 values are reduced (torch's float32 mean; its lower median);
        a callable gets them (a torch tensor when torch is loaded, else a numpy array) and
        ``dim=None``.
    ties : str, default=None
        Replaces torch's order of tied scores by a tie policy.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import RetrievalPrecision
    >>> metric = RetrievalPrecision(top_k=1)
    >>> metric.update([0.9, 0.2, 0.8, 0.1], [1, 0, 0, 1], indexes=np.array([0, 0, 1, 1]))
    >>> metric.compute()
    0.5
    """

    _metric = "retrieval_precision"

    def __init__(
        self,
        empty_target_action: str = "neg",
        ignore_index: Optional[int] = None,
        top_k: Optional[int] = None,
        adaptive_k: bool = False,
        aggregation: Union[str, Callable[..., Any]] = "mean",
        *,
        ties: Optional[str] = None,
    ) -> None:
        self._init(empty_target_action, ignore_index, aggregation, ties)
        _positive_top_k(top_k)
        if not isinstance(adaptive_k, bool):
            raise ParameterError(
                "`adaptive_k` has to be a boolean", "InvalidParam", {"parameter": "adaptive_k", "value": adaptive_k}
            )
        self._params = {"top_k": top_k, "adaptive_k": adaptive_k}

    _huge_k_is_all = False


class RetrievalRecall(_RetrievalModule):
    """``torchmetrics.retrieval.RetrievalRecall``: the mean over queries of
    :func:`rankmetrics.torchmetrics.retrieval_recall`. Parameters as
    :class:`RetrievalPrecision` (without ``adaptive_k``).

    Examples
    --------
    >>> from rankmetrics.torchmetrics import RetrievalRecall
    >>> metric = RetrievalRecall(top_k=1)
    >>> metric.update([0.9, 0.2, 0.8, 0.7], [1, 1, 0, 1], indexes=np.array([0, 0, 1, 1]))
    >>> metric.compute()
    0.25
    """

    _metric = "retrieval_recall"


class RetrievalMAP(_RetrievalModule):
    """``torchmetrics.retrieval.RetrievalMAP``: the mean over queries of
    :func:`rankmetrics.torchmetrics.retrieval_average_precision`. Parameters as
    :class:`RetrievalRecall`; ``top_k`` None or 0 is every document.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import RetrievalMAP
    >>> metric = RetrievalMAP()
    >>> metric.update([0.9, 0.8, 0.7, 0.5, 0.6], [1, 0, 1, 0, 1], indexes=np.array([0, 0, 0, 1, 1]))
    >>> metric.compute()
    0.9166666865348816
    """

    _metric = "retrieval_average_precision"

    @staticmethod
    def _checked_top_k(top_k: Any) -> Any:
        # torchmetrics' check joins its conditions with `and`: it lets any int through.
        if top_k is not None and not isinstance(top_k, int) and top_k <= 0:
            raise ParameterError(
                f"Argument ``top_k`` has to be a positive integer or None, but got {top_k}",
                "InvalidParam",
                {"parameter": "top_k", "value": top_k},
            )
        return top_k


class RetrievalMRR(RetrievalMAP):
    """``torchmetrics.retrieval.RetrievalMRR``: the mean over queries of
    :func:`rankmetrics.torchmetrics.retrieval_reciprocal_rank`. Parameters as
    :class:`RetrievalMAP`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import RetrievalMRR
    >>> metric = RetrievalMRR()
    >>> metric.update([0.9, 0.8, 0.7, 0.5, 0.6], [0, 1, 1, 0, 1], indexes=np.array([0, 0, 0, 1, 1]))
    >>> metric.compute()
    0.75
    """

    _metric = "retrieval_reciprocal_rank"


class RetrievalNormalizedDCG(_RetrievalModule):
    """``torchmetrics.retrieval.RetrievalNormalizedDCG``: the mean over queries of
    :func:`rankmetrics.torchmetrics.retrieval_normalized_dcg`; targets are gains (a query whose
    gains sum to 0 is empty). Parameters as :class:`RetrievalRecall`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import RetrievalNormalizedDCG
    >>> metric = RetrievalNormalizedDCG()
    >>> metric.update([0.9, 0.1, 0.1, 0.9], [1, 0, 1, 0], indexes=np.array([0, 0, 1, 1]))
    >>> metric.compute()
    0.8154648542404175
    """

    _metric = "retrieval_normalized_dcg"
    _binary = False


__all__ = [
    "RetrievalMAP",
    "RetrievalMRR",
    "RetrievalNormalizedDCG",
    "RetrievalPrecision",
    "RetrievalRecall",
]
