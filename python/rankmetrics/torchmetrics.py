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

import sys
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _core, _input
from .exceptions import ParameterError, RankmetricsError

__all__ = [
    "multilabel_auroc",
    "multilabel_average_precision",
    "multilabel_coverage_error",
    "multilabel_ranking_average_precision",
    "multilabel_ranking_loss",
    "retrieval_normalized_dcg",
]


def _untracked(x: Any) -> Tuple[Any, Optional[str]]:
    """``x`` as numpy can read it, and torch's dtype name where numpy has no such dtype.

    A torch tensor (recognised by its methods; torch is not imported) is detached from
    autograd and brought to the CPU, as a model's output needs before numpy reads it; a
    bfloat16 tensor, which numpy lacks, is widened to float32 (exactly) and named
    ``"bfloat16"``.
    """
    detach, cpu = getattr(x, "detach", None), getattr(x, "cpu", None)
    if callable(detach) and callable(cpu) and hasattr(x, "dtype"):
        x = x.detach().cpu()
        if str(x.dtype) == "torch.bfloat16":
            return x.float(), "bfloat16"
    return x, None


def _preds(preds: Any) -> Tuple[np.ndarray, str]:
    """``preds`` as a numpy array, and the torch dtype torchmetrics computes its sigmoid in.

    Integer and boolean preds are refused, as torchmetrics refuses them.
    """
    preds, dtype = _untracked(preds)
    shown = str(getattr(preds, "dtype", ""))
    s = _input.as_array(preds, "preds")
    if dtype is None:
        names = {np.dtype(np.float16): "float16", np.dtype(np.float32): "float32", np.dtype(np.float64): "float64"}
        dtype = names.get(s.dtype.newbyteorder("="))
    if dtype is None:
        if s.dtype.kind in "biu":
            raise RankmetricsError(
                "Expected preds tensor to be floating point, but received input with dtype "
                f"{shown if shown.startswith('torch.') else s.dtype}",
                "Input",
                {"input": "preds"},
            )
        dtype = "float64"
    return s, dtype


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
) -> float:
    if ignore_index is not None:
        raise NotImplementedError("ignore_index is not reproduced by rankmetrics")
    preds, dtype = _preds(preds)
    s = _input.scores(preds, "preds")
    y = _input.labels(_untracked(target)[0], "target")
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
    m = _core.lookup("torchmetrics", metric, ties, {"dtype": dtype, **_kernel(sigmoid, torch_threads), **params})
    if s.shape[0] == 0 and y.shape == s.shape and metric in _NO_ROWS:
        # torchmetrics on 0 rows: LRAP 0/0, the ranking loss its "(0.0, 1)"; coverage raises
        # (the minimum of an empty tensor), as the crate does for every metric.
        return _NO_ROWS[metric]
    return _core.run(m, y, s, None, threads)


def _kernel(sigmoid: str, torch_threads: Optional[int]) -> Dict[str, Any]:
    """The registry's ``sigmoid`` and ``torch_threads``: torch's threads are its own count when
    torch is loaded (``torch.get_num_threads()``), else 1, unless given."""
    if torch_threads is None:
        torch = sys.modules.get("torch")
        get = getattr(torch, "get_num_threads", None)
        torch_threads = int(get()) if callable(get) else 1
    return {"sigmoid": sigmoid, "torch_threads": torch_threads}


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


def _curve_average(average: Optional[str], thresholds: Any) -> str:
    """The ``average`` that the crate's preset takes; what is not reproduced raises."""
    if thresholds is not None:
        raise NotImplementedError("binned curves (thresholds) are not reproduced: only thresholds=None")
    if average is None or average == "none":
        raise NotImplementedError("per-label values (average='none') are not reproduced: use macro, micro or weighted")
    if average not in ("macro", "micro", "weighted"):
        raise ParameterError(
            f"Expected argument `average` to be one of ('micro', 'macro', 'weighted', 'none', None) but got {average}",
            "InvalidParam",
            {"parameter": "average", "value": average},
        )
    return average


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
) -> float:
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
    average : {"macro", "micro", "weighted"}, default="macro"
        ``"none"`` (one value per label) is not reproduced.
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
    """
    average = _curve_average(average, thresholds)
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
) -> float:
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
    average = _curve_average(average, thresholds)
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
    preds, _ = _untracked(preds)
    target, _ = _untracked(target)
    s, y = _input.as_array(preds, "preds"), _input.as_array(target, "target")
    if s.shape != y.shape:
        raise RankmetricsError("`preds` and `target` must be of the same shape", "ShapeMismatch", {"input": "target"})
    if s.ndim == 0 or s.size == 0:
        raise RankmetricsError(
            "`preds` and `target` must be non-empty and non-scalar tensors", "Input", {"input": "preds"}
        )
    # torchmetrics checks the target's dtype first.
    if y.dtype.kind not in "bf" and y.dtype.newbyteorder("=") not in (np.dtype(np.int64), np.dtype(np.int32)):
        raise RankmetricsError(
            "`target` must be a tensor of booleans, integers or floats", "Input", {"input": "target"}
        )
    if s.dtype.kind not in "f":
        raise RankmetricsError("`preds` must be a tensor of floats", "Input", {"input": "preds"})
    if isinstance(top_k, bool):  # torchmetrics' check takes a bool as the int it is
        top_k = int(top_k)
    m = _core.lookup("torchmetrics", "retrieval_normalized_dcg", ties, {"top_k": top_k, "arithmetic": "float32"})
    return _core.run(m, y.reshape(1, -1), s.reshape(1, -1), None, threads)
