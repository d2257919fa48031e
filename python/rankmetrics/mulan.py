"""MULAN's ranking measures (``mulan.evaluation.measure``), named as MULAN names them.

Row-wise measures take ``weka="3.7"`` (default) or ``"3.9"``: the Weka version whose
tolerance rules (``Utils.eq``/``gr``: scores within 1e-6 are tied) the measure follows. The
interpolated measures take ``num_recall_levels`` (MULAN's default 10).

>>> from rankmetrics import mulan
>>> mulan.AveragePrecision([[0, 0, 1, 1, 1]], [[0.4, 0.5, 0.1, 0.2, 0.3]])
0.4777777777777778
"""

from __future__ import annotations

from typing import Any, Optional

from . import _core

__all__ = [
    "AveragePrecision",
    "Coverage",
    "ErrorSetSize",
    "GeometricMeanAverageInterpolatedPrecision",
    "GeometricMeanAveragePrecision",
    "IsError",
    "MacroAUC",
    "MacroAUCPR",
    "MeanAverageInterpolatedPrecision",
    "MeanAveragePrecision",
    "MicroAUC",
    "OneError",
    "RankingLoss",
]


def _run(
    metric: str,
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    ties: Optional[str],
    threads: Optional[int],
    **params: Any,
) -> float:
    return _core.run(_core.lookup("mulan", metric, ties, params), y_true, y_score, sample_weight, threads)


def AveragePrecision(
    y_true: Any,
    y_score: Any,
    *,
    weka: str = "3.7",
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``AveragePrecision``: average precision of the ranking (MULAN's sum in column order).

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.AveragePrecision([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    0.9167
    """
    return _run("AveragePrecision", y_true, y_score, sample_weight, ties, threads, weka=weka)


def Coverage(
    y_true: Any,
    y_score: Any,
    *,
    weka: str = "3.7",
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``Coverage``: coverage (ranks from 0).

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.Coverage([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    1.5
    """
    return _run("Coverage", y_true, y_score, sample_weight, ties, threads, weka=weka)


def OneError(
    y_true: Any,
    y_score: Any,
    *,
    weka: str = "3.7",
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``OneError``: one-error.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.OneError([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    0.0
    """
    return _run("OneError", y_true, y_score, sample_weight, ties, threads, weka=weka)


def IsError(
    y_true: Any,
    y_score: Any,
    *,
    weka: str = "3.7",
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``IsError``: is-error.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.IsError([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    0.5
    """
    return _run("IsError", y_true, y_score, sample_weight, ties, threads, weka=weka)


def ErrorSetSize(
    y_true: Any,
    y_score: Any,
    *,
    weka: str = "3.7",
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``ErrorSetSize``: error-set size.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.ErrorSetSize([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    0.5
    """
    return _run("ErrorSetSize", y_true, y_score, sample_weight, ties, threads, weka=weka)


def RankingLoss(
    y_true: Any,
    y_score: Any,
    *,
    weka: str = "3.7",
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``RankingLoss``: ranking loss.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.RankingLoss([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    0.25
    """
    return _run("RankingLoss", y_true, y_score, sample_weight, ties, threads, weka=weka)


def MacroAUC(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """MULAN's ``MacroAUC``: rOC AUC per label, averaged.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.MacroAUC([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    nan
    """
    return _run("MacroAUC", y_true, y_score, sample_weight, ties, threads)


def MicroAUC(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """MULAN's ``MicroAUC``: rOC AUC of all cells pooled.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.MicroAUC([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    0.75
    """
    return _run("MicroAUC", y_true, y_score, sample_weight, ties, threads)


def MeanAveragePrecision(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """MULAN's ``MeanAveragePrecision``: average precision per label, averaged.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.MeanAveragePrecision([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    1.0
    """
    return _run("MeanAveragePrecision", y_true, y_score, sample_weight, ties, threads)


def GeometricMeanAveragePrecision(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """MULAN's ``GeometricMeanAveragePrecision``: average precision per label, geometric mean.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.GeometricMeanAveragePrecision([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    1.0
    """
    return _run("GeometricMeanAveragePrecision", y_true, y_score, sample_weight, ties, threads)


def MeanAverageInterpolatedPrecision(
    y_true: Any,
    y_score: Any,
    *,
    num_recall_levels: int = 10,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``MeanAverageInterpolatedPrecision``: interpolated average precision per label, averaged.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.MeanAverageInterpolatedPrecision([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    1.0
    """
    return _run(
        "MeanAverageInterpolatedPrecision",
        y_true,
        y_score,
        sample_weight,
        ties,
        threads,
        num_recall_levels=num_recall_levels,
    )


def GeometricMeanAverageInterpolatedPrecision(
    y_true: Any,
    y_score: Any,
    *,
    num_recall_levels: int = 10,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """MULAN's ``GeometricMeanAverageInterpolatedPrecision``: interpolated average precision per label, geometric mean.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.GeometricMeanAverageInterpolatedPrecision([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    1.0
    """
    return _run(
        "GeometricMeanAverageInterpolatedPrecision",
        y_true,
        y_score,
        sample_weight,
        ties,
        threads,
        num_recall_levels=num_recall_levels,
    )


def MacroAUCPR(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """MULAN's ``MacroAUCPR``: area under the precision-recall curve per label (Weka's ThresholdCurve), averaged.

    ``sample_weight`` (an extension: MULAN has none) weights the per-sample values; ``ties``
    replaces MULAN's tie rule.

    Examples
    --------
    >>> from rankmetrics import mulan
    >>> round(mulan.MacroAUCPR([[1, 0, 1], [0, 1, 1]], [[0.9, 0.5, 0.2], [0.3, 0.8, 0.6]]), 4)
    1.0
    """
    return _run("MacroAUCPR", y_true, y_score, sample_weight, ties, threads)
