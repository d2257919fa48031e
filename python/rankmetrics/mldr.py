"""mldr's (0.4.2, R) ranking measures with mldr's names, arguments and defaults
(``ties_method``, ``undefined_value``, ``na_rm`` for R's ``na.rm``). R's ``NA`` results are
NaN here; ``undefined_value=None`` is R's ``NA``.

mldr fails with "subscript out of bounds" on one-label inputs for ``average_precision`` and
``coverage``; rankmetrics returns the value instead.

>>> from rankmetrics import mldr
>>> mldr.coverage([[1, 0]], [[0.5, 0.5]])  # ties_method="last"
1.0
>>> mldr.coverage([[1, 0]], [[0.5, 0.5]], ties_method="first")
0.0
"""

from __future__ import annotations

from typing import Any, Optional

from . import _core

__all__ = [
    "average_precision",
    "coverage",
    "example_auc",
    "macro_auc",
    "micro_auc",
    "one_error",
    "ranking_loss",
]


def _run(
    metric: str,
    true_labels: Any,
    predictions: Any,
    sample_weight: Any,
    ties: Optional[str],
    threads: Optional[int],
    **params: Any,
) -> float:
    return _core.run(_core.lookup("mldr", metric, ties, params), true_labels, predictions, sample_weight, threads)


def _undefined(value: Optional[float]) -> str:
    return "NA" if value is None else repr(float(value))


def average_precision(
    true_labels: Any,
    predictions: Any,
    ties_method: str = "last",
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """mldr's ``average_precision(true_labels, predictions, ties_method = "last")``.

    ``ties_method`` is R's ``rank()`` rule: ``"average"``, ``"first"``, ``"last"``,
    ``"random"``, ``"max"`` or ``"min"``. ``sample_weight`` (an extension) weights the
    per-sample values.

    Examples
    --------
    >>> from rankmetrics import mldr
    >>> mldr.average_precision([[0, 1, 0]], [[0.5, 0.5, 0.1]])
    1.0
    """
    return _run("average_precision", true_labels, predictions, sample_weight, ties, threads, ties_method=ties_method)


def coverage(
    true_labels: Any,
    predictions: Any,
    ties_method: str = "last",
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """mldr's ``coverage(true_labels, predictions, ties_method = "last")`` (ranks from 0).

    Examples
    --------
    >>> from rankmetrics import mldr
    >>> mldr.coverage([[0, 1, 0]], [[0.5, 0.5, 0.1]], ties_method="max")
    1.0
    """
    return _run("coverage", true_labels, predictions, sample_weight, ties, threads, ties_method=ties_method)


def one_error(
    true_labels: Any,
    predictions: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """mldr's ``one_error(true_labels, predictions)``.

    Examples
    --------
    >>> from rankmetrics import mldr
    >>> mldr.one_error([[0, 1, 0]], [[0.5, 0.9, 0.1]])
    0.0
    """
    return _run("one_error", true_labels, predictions, sample_weight, ties, threads)


def ranking_loss(
    true_labels: Any,
    predictions: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """mldr's ``ranking_loss(true_labels, predictions)``.

    Examples
    --------
    >>> from rankmetrics import mldr
    >>> mldr.ranking_loss([[0, 1, 0]], [[0.5, 0.9, 0.1]])
    0.0
    """
    return _run("ranking_loss", true_labels, predictions, sample_weight, ties, threads)


def macro_auc(
    true_labels: Any,
    predictions: Any,
    undefined_value: Optional[float] = 0.5,
    na_rm: bool = False,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """mldr's ``macro_auc(true_labels, predictions, undefined_value = 0.5, na.rm = FALSE)``:
    pROC's AUC per label with its automatic direction.

    Examples
    --------
    >>> from rankmetrics import mldr
    >>> mldr.macro_auc([[1, 0], [0, 0]], [[0.9, 0.1], [0.2, 0.8]])
    0.75
    >>> mldr.macro_auc([[1, 0], [0, 0]], [[0.9, 0.1], [0.2, 0.8]], undefined_value=None)
    nan
    """
    return _run(
        "macro_auc",
        true_labels,
        predictions,
        sample_weight,
        ties,
        threads,
        undefined_value=_undefined(undefined_value),
        na_rm=na_rm,
    )


def example_auc(
    true_labels: Any,
    predictions: Any,
    undefined_value: Optional[float] = 0.5,
    na_rm: bool = False,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """mldr's ``example_auc(true_labels, predictions, undefined_value = 0.5, na.rm = FALSE)``:
    pROC's AUC per sample.

    Examples
    --------
    >>> from rankmetrics import mldr
    >>> mldr.example_auc([[1, 0], [0, 0]], [[0.9, 0.1], [0.2, 0.8]])
    0.75
    """
    return _run(
        "example_auc",
        true_labels,
        predictions,
        sample_weight,
        ties,
        threads,
        undefined_value=_undefined(undefined_value),
        na_rm=na_rm,
    )


def micro_auc(
    true_labels: Any,
    predictions: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """mldr's ``micro_auc(true_labels, predictions)``: pROC's AUC of all cells pooled (an
    error with a single class, as pROC's "'response' must have two levels").

    Examples
    --------
    >>> from rankmetrics import mldr
    >>> mldr.micro_auc([[1, 0], [0, 0]], [[0.9, 0.1], [0.2, 0.8]])
    1.0
    """
    return _run("micro_auc", true_labels, predictions, sample_weight, ties, threads)
