"""torchmetrics' (1.9) multilabel ranking metrics and ``retrieval_normalized_dcg``, with its
argument order (``preds`` first) and names; torch is not needed: tensors on the CPU, numpy
arrays and lists are read through ``__array__``.

torchmetrics computes in the dtype of ``preds``: float32 predictions (torch's default) go
through its float32 sigmoid when any score is outside [0, 1] (saturating to 1.0 above about
16.6), float64 predictions through the float64 one. rankmetrics follows the array's dtype
the same way.

>>> import numpy as np
>>> from rankmetrics.torchmetrics import multilabel_coverage_error
>>> target = [[1, 0]]
>>> multilabel_coverage_error(np.array([[20.0, 18.0]], dtype=np.float64), target, num_labels=2)
1.0
>>> multilabel_coverage_error(np.array([[20.0, 18.0]], dtype=np.float32), target, num_labels=2)
2.0
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _core, _input
from .exceptions import ParameterError

__all__ = [
    "multilabel_coverage_error",
    "multilabel_ranking_average_precision",
    "multilabel_ranking_loss",
    "retrieval_normalized_dcg",
]


def _multilabel(
    metric: str,
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int],
    ties: Optional[str],
    threads: Optional[int],
) -> float:
    if ignore_index is not None:
        raise NotImplementedError("ignore_index is not reproduced by rankmetrics")
    s = _input.scores(preds, "preds")
    y = _input.labels(target, "target")
    if not isinstance(num_labels, int) or num_labels < 2:
        raise ParameterError(
            f"Expected argument `num_labels` to be an integer larger than 1, but got {num_labels}",
            "InvalidParam",
            {"parameter": "num_labels", "value": num_labels},
        )
    if s.shape[1] != num_labels:
        raise ParameterError(
            f"Expected both `target.shape[1]` and `preds.shape[1]` to be equal to the number of "
            f"labels but got {y.shape[1]} and {s.shape[1]} and expected {num_labels}",
            "InvalidParam",
            {"parameter": "num_labels", "value": num_labels},
        )
    m = _core.lookup("torchmetrics", metric, ties, {})
    return _core.run(m, y, s, None, threads)


def multilabel_coverage_error(
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
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
    threads : int, default=None

    Examples
    --------
    >>> from rankmetrics.torchmetrics import multilabel_coverage_error
    >>> multilabel_coverage_error([[0.9, 0.5, 0.1]], [[0, 0, 1]], num_labels=3)
    3.0
    """
    return _multilabel("multilabel_coverage_error", preds, target, num_labels, ignore_index, ties, threads)


def multilabel_ranking_average_precision(
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """``torchmetrics.functional.classification.multilabel_ranking_average_precision``.

    Parameters are as for :func:`multilabel_coverage_error`.

    Examples
    --------
    >>> from rankmetrics.torchmetrics import multilabel_ranking_average_precision
    >>> multilabel_ranking_average_precision([[0.9, 0.5, 0.1]], [[0, 0, 1]], num_labels=3)
    0.3333...
    """
    return _multilabel("multilabel_ranking_average_precision", preds, target, num_labels, ignore_index, ties, threads)


def multilabel_ranking_loss(
    preds: Any,
    target: Any,
    num_labels: int,
    ignore_index: Optional[int] = None,
    validate_args: bool = True,
    *,
    ties: Optional[str] = None,
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
    return _multilabel("multilabel_ranking_loss", preds, target, num_labels, ignore_index, ties, threads)


def retrieval_normalized_dcg(
    preds: Any, target: Any, top_k: Optional[int] = None, *, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """``torchmetrics.functional.retrieval_normalized_dcg`` for one query (1-D inputs), or
    its mean over queries (2-D inputs, one query per row).

    Parameters
    ----------
    preds : array-like of shape (n_documents,) or (n_queries, n_documents)
        Scores.
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
    """
    s, y = np.asarray(preds), np.asarray(target)
    if s.ndim == 1:
        s, y = s.reshape(1, -1), y.reshape(1, -1)
    m = _core.lookup("torchmetrics", "retrieval_normalized_dcg", ties, {"top_k": top_k})
    return _core.run(m, y, s, None, threads)
