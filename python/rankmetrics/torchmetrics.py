"""torchmetrics' (1.9) multilabel ranking metrics, ``multilabel_auroc`` and
``multilabel_average_precision`` (exact curves) and ``retrieval_normalized_dcg``, with its
argument order (``preds`` first) and names; torch is not needed: tensors (detached from
autograd and brought to the CPU as they are read), numpy arrays and lists are read through
``__array__``.

torchmetrics computes in the dtype of ``preds``: float32 predictions (torch's default) go
through its float32 sigmoid when any score is outside [0, 1] (saturating to 1.0 above about
16.6), float64 predictions through the float64 one, float16 and bfloat16 ones through the
float32 sigmoid rounded to their own precision. rankmetrics follows the dtype the same way,
and the CPU kernel too (``sigmoid="torch-cpu"``: torch's vector kernels compute most elements
of a tensor with another ``exp``, which can tie or untie neighbouring logits). The ranking
loss orders tied scores as torch's CPU argsort does; LRAP is torchmetrics' float32 value.

>>> import numpy as np
>>> from rankmetrics.torchmetrics import multilabel_coverage_error
>>> target = [[1, 0]]
>>> multilabel_coverage_error(np.array([[20.0, 18.0]], dtype=np.float64), target, num_labels=2)
1.0
>>> multilabel_coverage_error(np.array([[20.0, 18.0]], dtype=np.float32), target, num_labels=2)
2.0
>>> multilabel_coverage_error(np.array([[10.0, 9.0]], dtype=np.float16), target, num_labels=2)
2.0
"""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _core, _input
from ._torch_input import curve_average, kernel, multilabel_batch, retrieval_types, untracked
from ._torch_modules import (
    MultilabelAUROC,
    MultilabelAveragePrecision,
    MultilabelCoverageError,
    MultilabelRankingAveragePrecision,
    MultilabelRankingLoss,
)
from ._torch_retrieval_modules import (
    RetrievalMAP,
    RetrievalMRR,
    RetrievalNormalizedDCG,
    RetrievalPrecision,
    RetrievalRecall,
)
from .exceptions import ParameterError, RankmetricsError

__all__ = [
    "MultilabelAUROC",
    "MultilabelAveragePrecision",
    "MultilabelCoverageError",
    "MultilabelRankingAveragePrecision",
    "MultilabelRankingLoss",
    "RetrievalMAP",
    "RetrievalMRR",
    "RetrievalNormalizedDCG",
    "RetrievalPrecision",
    "RetrievalRecall",
    "multilabel_auroc",
    "multilabel_average_precision",
    "multilabel_coverage_error",
    "multilabel_ranking_average_precision",
    "multilabel_ranking_loss",
    "retrieval_average_precision",
    "retrieval_normalized_dcg",
    "retrieval_precision",
    "retrieval_recall",
    "retrieval_reciprocal_rank",
]


def _multilabel(
    metric: str,
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int],
    ties: Optional[str],
    sigmoid: str,
    torch_threads: Optional[int],
    threads: Optional[int],
    **params: Any,
) -> Any:
    s, y, dtype, order = multilabel_batch(preds, target, num_labels, ignore_index)
    per_label = params.get("average") == "none"
    if per_label:
        params["average"] = "macro"  # whose terms are the labels' values
    params.update(dtype=dtype, memory_order=order, **kernel(sigmoid, torch_threads))
    m = _core.lookup("torchmetrics", metric, ties, params)
    if per_label:
        return _core.run_per_label(m, y, s, None)
    if s.shape[0] == 0 and y.shape == s.shape and metric in _NO_ROWS:
        # torchmetrics on 0 rows: LRAP 0/0, the ranking loss its "(0.0, 1)"; coverage raises
        # (the minimum of an empty tensor), as the crate does for every metric.
        return _NO_ROWS[metric]
    return _core.run(m, y, s, None, threads)


_NO_ROWS = {"multilabel_ranking_average_precision": float("nan"), "multilabel_ranking_loss": 0.0}


def multilabel_coverage_error(
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
    sigmoid: str = "torch-cpu",
    torch_threads: Optional[int] = None,
    threads: Optional[int] = None,
) -> float:
    """``torchmetrics.functional.classification.multilabel_coverage_error``.

    Parameters
    ----------
    preds : array-like of shape (n_samples, num_labels)
        Probabilities or logits (a sigmoid is applied when any value is outside [0, 1]).
    target : array-like of shape (n_samples, num_labels)
        0/1 labels.
    num_labels : int
    ignore_index : None
        Not reproduced (only None).
    validate_args : bool
        Inputs are always validated.
    ties : str, default=None
        Replaces torchmetrics' tie rule.
    sigmoid : {"torch-cpu", "scalar", "avx2", "avx512"}, default="torch-cpu"
        Which of torch's CPU kernels computes the sigmoid on logits: the one torch picks on this
        machine (``ATEN_CPU_CAPABILITY`` when set, else the CPU's), the one-element formula,
        or the vector kernels of AVX2 and AVX-512 builds (they compute most elements with
        another ``exp``, which can split or merge ties between neighbouring logits).
    torch_threads : int, default=None
        torch's threads, which split a tensor of 32,768 or more scores into chunks; None:
        ``torch.get_num_threads()`` when torch is loaded, else 1.
    threads : int, default=None

    Examples
    --------
    >>> from rankmetrics.torchmetrics import multilabel_coverage_error
    >>> multilabel_coverage_error([[0.9, 0.5, 0.1]], [[0, 0, 1]], num_labels=3)
    3.0
    """
    return _multilabel(
        "multilabel_coverage_error",
        preds,
        target,
        num_labels,
        ignore_index,
        ties,
        sigmoid,
        torch_threads,
        threads,
    )


def multilabel_ranking_average_precision(
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
    sigmoid: str = "torch-cpu",
    torch_threads: Optional[int] = None,
    threads: Optional[int] = None,
) -> float:
    """``torchmetrics.functional.classification.multilabel_ranking_average_precision``, in its
    float32 arithmetic to the bit (each row's mean by torch's float32 sum, the rows added into
    a float32 running total); ``rankmetrics.evaluate`` gives the exact mean unless
    ``arithmetic="float32"``.

    Parameters are as for :func:`multilabel_coverage_error`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import multilabel_ranking_average_precision
    >>> multilabel_ranking_average_precision([[0.9, 0.5, 0.1]], [[0, 0, 1]], num_labels=3)
    0.3333...
    """
    return _multilabel(
        "multilabel_ranking_average_precision",
        preds,
        target,
        num_labels,
        ignore_index,
        ties,
        sigmoid,
        torch_threads,
        threads,
        arithmetic="float32",
    )


def multilabel_ranking_loss(
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
    sigmoid: str = "torch-cpu",
    torch_threads: Optional[int] = None,
    threads: Optional[int] = None,
) -> float:
    """``torchmetrics.functional.classification.multilabel_ranking_loss``.

    Parameters are as for :func:`multilabel_coverage_error`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import multilabel_ranking_loss
    >>> multilabel_ranking_loss([[0.9, 0.5, 0.1]], [[0, 0, 1]], num_labels=3)
    1.0
    """
    return _multilabel(
        "multilabel_ranking_loss",
        preds,
        target,
        num_labels,
        ignore_index,
        ties,
        sigmoid,
        torch_threads,
        threads,
    )


def multilabel_auroc(
    preds: Any,
    target: Any,
    num_labels: int,
    average: Optional[str] = "macro",
    thresholds: Any = None,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
    sigmoid: str = "torch-cpu",
    torch_threads: Optional[int] = None,
    threads: Optional[int] = None,
) -> Union[float, np.ndarray]:
    """``torchmetrics.functional.classification.multilabel_auroc`` with ``thresholds=None``
    (the exact curves): each label's ROC AUC, tied scores one threshold. A label without
    positives or without negatives scores 0.0 and counts in the macro mean (scikit-learn
    gives NaN); ``"weighted"`` weighs labels by their positives; ``"micro"`` pools every cell.

    Parameters
    ----------
    preds : array-like of shape (n_samples, num_labels)
        Probabilities or logits (a sigmoid is applied when any value is outside [0, 1]).
    target : array-like of shape (n_samples, num_labels)
        0/1 labels.
    num_labels : int
    average : {"macro", "micro", "weighted", "none"} or None, default="macro"
        ``"none"`` or None: one value per label (an array; the sigmoid decided on the whole
        input).
    thresholds : None
        Only None (binned curves are not reproduced).
    ignore_index : None
        Not reproduced (only None).
    validate_args : bool
        Inputs are always validated.
    ties : str, default=None
        Replaces torchmetrics' tie rule (tied scores count half).
    sigmoid, torch_threads
        As for :func:`multilabel_coverage_error`.
    threads : int, default=None

    Examples
    --------
    >>> from rankmetrics.torchmetrics import multilabel_auroc
    >>> multilabel_auroc([[0.9, 0.2], [0.1, 0.8]], [[1, 0], [0, 0]], num_labels=2)
    0.5
    >>> multilabel_auroc([[0.9, 0.2], [0.1, 0.8]], [[1, 0], [0, 0]], num_labels=2, average=None)
    array([1., 0.])
    """
    average = curve_average(average, thresholds)
    return _multilabel(
        "multilabel_auroc",
        preds,
        target,
        num_labels,
        ignore_index,
        ties,
        sigmoid,
        torch_threads,
        threads,
        average=average,
    )


def multilabel_average_precision(
    preds: Any,
    target: Any,
    num_labels: int,
    average: Optional[str] = "macro",
    thresholds: Any = None,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
    sigmoid: str = "torch-cpu",
    torch_threads: Optional[int] = None,
    threads: Optional[int] = None,
) -> Union[float, np.ndarray]:
    """``torchmetrics.functional.classification.multilabel_average_precision`` with
    ``thresholds=None``: each label's step-wise average precision, tied scores one threshold;
    a label without positives scores 0 and counts in the macro mean.

    Parameters are as for :func:`multilabel_auroc`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import multilabel_average_precision
    >>> multilabel_average_precision([[0.9, 0.2], [0.1, 0.8]], [[1, 0], [0, 0]], num_labels=2)
    0.5
    """
    average = curve_average(average, thresholds)
    return _multilabel(
        "multilabel_average_precision",
        preds,
        target,
        num_labels,
        ignore_index,
        ties,
        sigmoid,
        torch_threads,
        threads,
        average=average,
    )


def retrieval_normalized_dcg(
    preds: Any, target: Any, top_k: Optional[int] = None, *, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """``torchmetrics.functional.retrieval_normalized_dcg``: the NDCG of one query, the
    documents being every element of ``preds`` (flattened in row-major order, as torchmetrics
    flattens a tensor of any shape). For one query per row, use :func:`rankmetrics.evaluate`
    with ``"retrieval_normalized_dcg"`` under ``"torchmetrics"``.

    Parameters
    ----------
    preds : array-like of any shape
        Scores (floating point; cast to float32, as torchmetrics does).
    target : array-like of the same shape
        Gains.
    top_k : int, default=None
        Only the highest ``top_k`` scores count (None: all).
    ties : str, default=None
        Replaces torchmetrics' tie rule (tied scores share their mean discount).
    threads : int, default=None

    Examples
    --------
    >>> from rankmetrics.torchmetrics import retrieval_normalized_dcg
    >>> retrieval_normalized_dcg([0.1, 0.2, 0.3, 4.0, 70.0], [10, 0, 0, 1, 5])
    0.695...
    >>> retrieval_normalized_dcg([[0.9, 0.1], [0.1, 0.9]], [[1, 0], [1, 0]])  # one query of 4
    0.785...
    """
    s, y = _query(preds, target, binary=False)
    if isinstance(top_k, bool):  # torchmetrics' check takes a bool as the int it is
        top_k = int(top_k)
    m = _core.lookup("torchmetrics", "retrieval_normalized_dcg", ties, {"top_k": top_k, "arithmetic": "float32"})
    return _core.run(m, y, s, None, threads)


def _query(preds: Any, target: Any, binary: bool) -> Tuple[np.ndarray, np.ndarray]:
    """``preds`` and ``target`` as one query (a row of every element, in row-major order),
    checked in torchmetrics' order and with its messages: shapes, emptiness, the target's
    dtype, the preds' dtype, binary targets (``binary``)."""
    preds, _ = untracked(preds)
    target, _ = untracked(target)
    s, y = _input.as_array(preds, "preds"), _input.as_array(target, "target")
    if s.shape != y.shape:
        raise RankmetricsError("`preds` and `target` must be of the same shape", "ShapeMismatch", {"input": "target"})
    if s.ndim == 0 or s.size == 0:
        raise RankmetricsError(
            "`preds` and `target` must be non-empty and non-scalar tensors", "Input", {"input": "preds"}
        )
    retrieval_types(s, y, binary)
    return s.reshape(1, -1), y.reshape(1, -1)


def _positive_k(top_k: Optional[int], n: int) -> int:
    """torchmetrics' check of precision's and recall's ``top_k``: None is every document."""
    if top_k is None:
        return n
    if not (isinstance(top_k, int) and top_k > 0):
        raise ParameterError(
            "`top_k` has to be a positive integer or None", "InvalidParam", {"parameter": "top_k", "value": top_k}
        )
    return int(top_k)


def _topk_k(top_k: Any) -> None:
    """torch's ``topk`` takes no ``bool`` for ``k``, which torchmetrics' checks let through."""
    if isinstance(top_k, bool):
        raise ParameterError(
            "topk(): argument 'k' (position 1) must be int, not bool",
            "InvalidParam",
            {"parameter": "top_k", "value": top_k},
        )


def _rank_k(top_k: Any, n: int) -> int:
    """torchmetrics' ``top_k = top_k or n`` of average precision and reciprocal rank: None and
    0 are every document; a negative or non-integer ``top_k`` fails in torch's ``topk``."""
    top_k = top_k or n
    _topk_k(top_k)
    if not isinstance(top_k, int) or top_k < 0:
        raise ParameterError(
            f"topk(): `top_k` must be a non-negative integer, got {top_k!r}",
            "InvalidParam",
            {"parameter": "top_k", "value": top_k},
        )
    return int(top_k)


def _retrieval(
    metric: str, s: np.ndarray, y: np.ndarray, top_k: int, ties: Optional[str], threads: Optional[int], **params: Any
) -> float:
    """The registry's ``metric`` on the one query ``(s, y)``."""
    m = _core.lookup("torchmetrics", metric, ties, {"top_k": top_k, "arithmetic": "float32", **params})
    return _core.run(m, y, s, None, threads)


def retrieval_precision(
    preds: Any,
    target: Any,
    top_k: Optional[int] = None,
    adaptive_k: bool = False,
    *,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """``torchmetrics.functional.retrieval_precision``: of one query, the documents being every
    element of ``preds`` (flattened in row-major order), the relevant documents among the
    ``top_k`` highest scores over ``top_k``. For one query per row, use
    :func:`rankmetrics.evaluate` with ``"retrieval_precision"`` under ``"torchmetrics"``.

    Scores are cast to float32; which tied documents are in the top ``top_k`` is decided as
    torch's CPU ``topk`` decides it; a relevant document scored at most 0 never counts; a query
    without a relevant document scores 0.

    Parameters
    ----------
    preds : array-like of any shape
        Scores (floating point).
    target : array-like of the same shape
        Relevance, 0 or 1 (bool, int32, int64 or floating point).
    top_k : int, default=None
        The number of top documents (None: all); the divisor, even beyond the documents.
    adaptive_k : bool, default=False
        Divide by the number of documents where ``top_k`` exceeds it.
    ties : str, default=None
        Replaces torch's order of tied scores by a tie policy (``"optimistic"`` and
        ``"pessimistic"`` bound the value over every order).
    threads : int, default=None

    Examples
    --------
    >>> from rankmetrics.torchmetrics import retrieval_precision
    >>> retrieval_precision([0.5, 0.5, 0.9, 0.1, 0.5], [1, 0, 0, 0, 1], top_k=2)
    0.5
    >>> retrieval_precision([0.5, 0.5, 0.9, 0.1, 0.5], [1, 0, 0, 0, 1], top_k=2, ties="pessimistic")
    0.0
    """
    if not isinstance(adaptive_k, bool):
        raise ParameterError(
            "`adaptive_k` has to be a boolean", "InvalidParam", {"parameter": "adaptive_k", "value": adaptive_k}
        )
    s, y = _query(preds, target, binary=True)
    n = s.shape[1]
    if top_k is None or (adaptive_k and top_k > n):
        top_k = n
    k = _positive_k(top_k, n)
    _topk_k(top_k)
    return _retrieval("retrieval_precision", s, y, k, ties, threads, adaptive_k=adaptive_k)


def retrieval_recall(
    preds: Any, target: Any, top_k: Optional[int] = None, *, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """``torchmetrics.functional.retrieval_recall``: of one query (every element of ``preds``),
    the relevant documents among the first ``top_k`` of torch's descending CPU ``argsort`` over
    the relevant documents. A relevant document scored at most 0 never counts; a query without
    a relevant document scores 0. Parameters as :func:`retrieval_precision`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import retrieval_recall
    >>> retrieval_recall([0.9, 0.8, -0.2], [1, 0, 1])
    0.5
    """
    s, y = _query(preds, target, binary=True)
    k = _positive_k(top_k, s.shape[1])
    return _retrieval("retrieval_recall", s, y, k, ties, threads)


def retrieval_average_precision(
    preds: Any, target: Any, top_k: Optional[int] = None, *, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """``torchmetrics.functional.retrieval_average_precision``: of one query (every element of
    ``preds``), over the relevant documents among torch's ``topk(top_k)``, the mean of the
    relevant documents up to each over its position, in float32; 0 without one. ``top_k`` None
    or 0 is every document, as in torchmetrics. A relevant document scored at most 0 never
    counts. Parameters as :func:`retrieval_precision`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import retrieval_average_precision
    >>> retrieval_average_precision([0.9, 0.8, 0.7], [1, 0, 1])
    0.8333333730697632
    """
    s, y = _query(preds, target, binary=True)
    k = _rank_k(top_k, s.shape[1])
    return _retrieval("retrieval_average_precision", s, y, k, ties, threads)


def retrieval_reciprocal_rank(
    preds: Any, target: Any, top_k: Optional[int] = None, *, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """``torchmetrics.functional.retrieval_reciprocal_rank``: of one query (every element of
    ``preds``), one over the position of the first relevant document in torch's
    ``topk(top_k)``; 0 without one. ``top_k`` as :func:`retrieval_average_precision`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import retrieval_reciprocal_rank
    >>> retrieval_reciprocal_rank([0.9, 0.8, 0.7], [0, 1, 1])
    0.5
    """
    s, y = _query(preds, target, binary=True)
    k = _rank_k(top_k, s.shape[1])
    return _retrieval("retrieval_reciprocal_rank", s, y, k, ties, threads)
