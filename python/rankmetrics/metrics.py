"""rankmetrics' own metrics: every rule a keyword, every tie policy, per-sample values.

Row-wise metrics take the degenerate-row rules ``no_relevant`` and ``all_relevant`` (what a
sample with no relevant label, or only relevant labels, gives: ``"formula"`` (the metric's
formula, when it has a value), a number, ``"skip"`` (left out of the mean) or ``"reject"``
(an error)), ``grouping`` (``"exact"`` ties, or a tolerance), ``labels`` (which label values
are accepted: ``"binary"``, ``"nonzero"``, ...) and ``per_sample=True`` for one value per
sample (NaN for skipped rows). ``ties`` is any of ``rankmetrics.TIE_POLICIES``, ``"max"`` by
default; ``"expected"``, ``"optimistic"`` and ``"pessimistic"`` give the exact expected value
over tie orders and the ends of the interval.

>>> import rankmetrics
>>> y_true, y_score = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]
>>> [round(rankmetrics.average_precision(y_true, y_score, ties=t), 4)
...  for t in ("pessimistic", "expected", "optimistic")]
[0.4583, 0.6597, 0.9167]
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _core, _input
from ._rankmetrics import inverse_propensities as _inverse_propensities
from .exceptions import ParameterError

__all__ = [
    "average_precision",
    "coverage",
    "dcg",
    "error_set_size",
    "inverse_propensities",
    "is_error",
    "label_average_precision",
    "ndcg",
    "ndcg_at_k",
    "one_error",
    "precision_at_k",
    "psndcg_at_k",
    "psprecision_at_k",
    "ranking_loss",
    "recall_at_k",
    "roc_auc",
]

Value = Union[float, np.ndarray]


def _own(
    name: str,
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    ties: Optional[str],
    threads: Optional[int],
    per_sample: bool,
    **params: Any,
) -> Value:
    m = _core.lookup("rankmetrics", name, ties, params)
    if per_sample:
        if sample_weight is not None:
            raise TypeError("per_sample=True gives unweighted per-sample values: drop sample_weight")
        return _core.run_per_sample(m, y_true, y_score, threads)
    return _core.run(m, y_true, y_score, sample_weight, threads)


_COMMON = """
    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        True labels (0/1 or booleans{gains}).
    y_score : array-like of shape (n_samples, n_labels)
        Scores; higher ranks first.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ties : str, default=None
        Tie policy (default ``"max"``).
    threads : int, default=None
        Threads (None: one; -1: every core); the value is the same for any count.
    per_sample : bool, default=False
        Return one value per sample (NaN where the row is skipped) instead of the mean.
    **rules
        {rules}
"""


def _doc(
    summary: str, example: str, rules: str = "no_relevant, all_relevant, grouping, labels", gains: str = ""
) -> str:
    return summary + "\n" + _COMMON.format(rules=rules, gains=gains) + "\n    Examples\n    --------\n" + example


def coverage(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("coverage", y_true, y_score, sample_weight, ties, threads, per_sample, **rules)


coverage.__doc__ = _doc(
    "Coverage: how far down the ranking the last relevant label is (ranks from 0, or from 1\n    with ``one_based=True``).",
    "    >>> import rankmetrics\n    >>> rankmetrics.coverage([[1, 0, 1]], [[0.9, 0.5, 0.5]], ties='expected')\n    1.5\n",
    "one_based, no_relevant, all_relevant, grouping, labels",
)


def average_precision(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("average_precision", y_true, y_score, sample_weight, ties, threads, per_sample, **rules)


average_precision.__doc__ = _doc(
    "Label ranking average precision (LRAP): for each relevant label, the fraction of the\n    labels ranked at or above it that are relevant.",
    "    >>> import rankmetrics\n    >>> rankmetrics.average_precision([[1, 0]], [[0.5, 0.5]], ties='pessimistic')\n    0.5\n",
)


def ranking_loss(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("ranking_loss", y_true, y_score, sample_weight, ties, threads, per_sample, **rules)


ranking_loss.__doc__ = _doc(
    "Ranking loss: the fraction of (relevant, irrelevant) label pairs ranked wrongly.",
    "    >>> import rankmetrics\n    >>> rankmetrics.ranking_loss([[1, 0], [0, 1]], [[0.5, 0.5], [0.1, 0.9]], per_sample=True, ties='expected')\n    array([0.5, 0. ])\n",
)


def one_error(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("one_error", y_true, y_score, sample_weight, ties, threads, per_sample, **rules)


one_error.__doc__ = _doc(
    "One-error: 1 when the top-ranked label is not relevant.",
    "    >>> import rankmetrics\n    >>> rankmetrics.one_error([[1, 0]], [[0.5, 0.5]], ties='expected')\n    0.5\n",
)


def is_error(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("is_error", y_true, y_score, sample_weight, ties, threads, per_sample, **rules)


is_error.__doc__ = _doc(
    "Is-error: 1 when the ranking is not perfect (some irrelevant label above a relevant one).",
    "    >>> import rankmetrics\n    >>> rankmetrics.is_error([[1, 0, 1]], [[0.9, 0.5, 0.1]])\n    1.0\n",
)


def error_set_size(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("error_set_size", y_true, y_score, sample_weight, ties, threads, per_sample, **rules)


error_set_size.__doc__ = _doc(
    "Error-set size: how many irrelevant labels rank above the lowest-ranked relevant one.",
    "    >>> import rankmetrics\n    >>> rankmetrics.error_set_size([[1, 0, 1]], [[0.9, 0.5, 0.1]])\n    1.0\n",
)


def dcg(
    y_true: Any,
    y_score: Any,
    *,
    k: Optional[int] = None,
    log_base: float = 2,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("dcg", y_true, y_score, sample_weight, ties, threads, per_sample, k=k, log_base=log_base, **rules)


dcg.__doc__ = _doc(
    "Discounted cumulative gain over the top ``k`` (all when None), discount\n    ``1 / log_base(1 + rank)``.",
    "    >>> import rankmetrics\n    >>> rankmetrics.dcg([[3, 0, 1]], [[0.9, 0.5, 0.1]])\n    3.5\n",
    "no_relevant, all_relevant, grouping",
    "; graded gains",
)


def ndcg(
    y_true: Any,
    y_score: Any,
    *,
    k: Optional[int] = None,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("ndcg", y_true, y_score, sample_weight, ties, threads, per_sample, k=k, **rules)


ndcg.__doc__ = _doc(
    "Normalised DCG: DCG over the ideal ranking's DCG. Under ``ties='max'`` (the default) a\n    tie group takes its best discount for every member, which no ordering gives: use\n    ``'expected'`` or the interval ends to stay inside what orderings give.",
    "    >>> import rankmetrics\n    >>> rankmetrics.ndcg([[1, 0, 1]], [[0.5, 0.5, 0.5]], ties='expected')\n    0.8710...\n",
    "no_relevant, all_relevant, grouping",
    "; graded gains",
)


def precision_at_k(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 5,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("precision_at_k", y_true, y_score, sample_weight, ties, threads, per_sample, k=k, **rules)


precision_at_k.__doc__ = _doc(
    "P@k: the fraction of the top ``k`` labels that are relevant.",
    "    >>> import rankmetrics\n    >>> rankmetrics.precision_at_k([[1, 0, 1]], [[0.9, 0.5, 0.1]], k=2)\n    0.5\n",
)


def recall_at_k(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 5,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("recall_at_k", y_true, y_score, sample_weight, ties, threads, per_sample, k=k, **rules)


recall_at_k.__doc__ = _doc(
    "R@k: the fraction of the relevant labels in the top ``k``.",
    "    >>> import rankmetrics\n    >>> rankmetrics.recall_at_k([[1, 0, 1]], [[0.9, 0.5, 0.1]], k=2)\n    0.5\n",
)


def ndcg_at_k(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 5,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
    per_sample: bool = False,
    **rules: Any,
) -> Value:
    return _own("ndcg_at_k", y_true, y_score, sample_weight, ties, threads, per_sample, k=k, **rules)


ndcg_at_k.__doc__ = _doc(
    "nDCG@k for binary labels, as extreme-classification papers report it (ideal DCG over\n    min(k, relevant labels)).",
    "    >>> import rankmetrics\n    >>> rankmetrics.ndcg_at_k([[1, 0, 1]], [[0.9, 0.5, 0.1]], k=2)\n    0.6131...\n",
)


def _labelwise_metric(
    name: str,
    y_true: Any,
    y_score: Any,
    average: str,
    sample_weight: Any,
    ties: str,
    undefined: Union[str, float],
    threads: Optional[int],
) -> float:
    _given(average=average, undefined=undefined)
    m = _core.lookup("rankmetrics", name, ties, {"average": average, "undefined": undefined})
    return _core.run(m, y_true, y_score, sample_weight, threads)


def _given(**values: Any) -> None:
    """A keyword set to ``None`` is refused: the registry would take it for "not given" and
    use its default (scikit-learn's ``average=None``, per-label scores, is not this)."""
    for key, value in values.items():
        if value is None:
            raise ParameterError(
                f"{key}=None: give a value (the default is the keyword's default)",
                "InvalidParam",
                {"parameter": key, "value": None},
            )


def roc_auc(
    y_true: Any,
    y_score: Any,
    *,
    average: str = "macro",
    sample_weight: Any = None,
    ties: str = "average",
    undefined: Union[str, float] = "nan",
    threads: Optional[int] = None,
) -> float:
    """ROC AUC of each label's column (``"macro"``, ``"weighted"``), of each sample's row
    (``"samples"``) or of all cells pooled (``"micro"``), under any tie policy.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples, n_labels)
        0/1 labels and scores.
    average : {"macro", "micro", "weighted", "samples"}, default="macro"
        Over what AUC is computed and averaged.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ties : str, default="average"
        Tie policy (``"average"``: a tied pair counts half).
    undefined : {"nan", "skip", "error"} or float, default="nan"
        What a column (or row) with a single class gives: NaN, left out of the mean, an
        error, or this number.
    threads : int, default=None
        Worker threads (the value is the same to the bit whatever the number).

    Examples
    --------
    >>> import rankmetrics
    >>> rankmetrics.roc_auc([[1, 0], [0, 1], [1, 1]], [[0.9, 0.1], [0.9, 0.8], [0.3, 0.8]])
    0.625
    >>> rankmetrics.roc_auc([[1], [0]], [[0.5], [0.5]], ties="optimistic")
    1.0
    """
    return _labelwise_metric("roc_auc", y_true, y_score, average, sample_weight, ties, undefined, threads)


def label_average_precision(
    y_true: Any,
    y_score: Any,
    *,
    average: str = "macro",
    sample_weight: Any = None,
    ties: str = "max",
    undefined: Union[str, float] = "nan",
    threads: Optional[int] = None,
) -> float:
    """Average precision of each label's column (``"macro"``, ``"weighted"``), of each
    sample's row (``"samples"``) or of all cells pooled (``"micro"``), under any tie policy.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples, n_labels)
        0/1 labels and scores.
    average : {"macro", "micro", "weighted", "samples"}, default="macro"
        Over what AP is computed and averaged.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ties : str, default="max"
        Tie policy (``"max"``: tied items enter the precision-recall curve together).
    undefined : {"nan", "skip", "error"} or float, default="nan"
        What a column (or row) without a relevant item gives.
    threads : int, default=None
        Worker threads (the value is the same to the bit whatever the number).

    Examples
    --------
    >>> import rankmetrics
    >>> rankmetrics.label_average_precision([[1, 0], [0, 1], [1, 1]], [[0.9, 0.1], [0.9, 0.8], [0.3, 0.8]])
    0.7916...
    """
    return _labelwise_metric(
        "label_average_precision", y_true, y_score, average, sample_weight, ties, undefined, threads
    )


def inverse_propensities(label_frequencies: Sequence[float], n: int, *, A: float = 0.55, B: float = 1.5) -> np.ndarray:
    """Inverse propensities of the labels (Jain et al., 2016):
    ``1 + (log n - 1) (B + 1)^A e^(-A log(N_l + B))``, from each label's count ``N_l`` in ``n`` training samples. A=0.55, B=1.5 are the general defaults
    (Wikipedia-LSHTC: 0.5, 0.4; Amazon: 0.6, 2.6).

    Examples
    --------
    >>> import rankmetrics
    >>> rankmetrics.inverse_propensities([10, 0, 1000], 1000).round(4)
    array([3.5521, 8.8242, 1.2187])
    """
    freqs = np.ascontiguousarray(label_frequencies, dtype=np.float64)
    return np.array(_inverse_propensities(freqs.tolist(), int(n), float(A), float(B)))


def _propensity(
    name: str,
    y_true: Any,
    y_score: Any,
    k: int,
    inv_propensities: Any,
    sample_weight: Any,
    ties: str,
    threads: Optional[int],
    per_sample: bool,
) -> Value:
    _given(k=k, inv_propensities=inv_propensities)
    # Any array-like (a list, a pandas Series, a tensor), one number per label.
    props = np.ascontiguousarray(inv_propensities, dtype=np.float64).ravel()
    m = _core.lookup("rankmetrics", name, ties, {"k": k, "inv_propensities": props})
    if per_sample:
        return m.per_sample(_input.labels(y_true), _input.scores(y_score), _input.threads(threads))
    return _core.run(m, y_true, y_score, sample_weight, threads)


def psprecision_at_k(
    y_true: Any,
    y_score: Any,
    inv_propensities: Any,
    *,
    k: int = 5,
    sample_weight: Any = None,
    ties: str = "max",
    threads: Optional[int] = None,
    per_sample: bool = False,
) -> Value:
    """Propensity-scored precision at k (PSP@k): relevant labels in the top ``k`` weighted by
    their inverse propensity, over ``k``.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples, n_labels)
        0/1 labels and scores.
    inv_propensities : array-like of shape (n_labels,)
        One inverse propensity per label (:func:`inverse_propensities`).
    k : int, default=5
    sample_weight, ties, threads, per_sample
        As for the other metrics.

    Examples
    --------
    >>> import rankmetrics
    >>> rankmetrics.psprecision_at_k([[1, 0, 1]], [[0.9, 0.5, 0.1]], [2.0, 1.0, 4.0], k=1)
    2.0
    """
    return _propensity(
        "psprecision_at_k", y_true, y_score, k, inv_propensities, sample_weight, ties, threads, per_sample
    )


def psndcg_at_k(
    y_true: Any,
    y_score: Any,
    inv_propensities: Any,
    *,
    k: int = 5,
    sample_weight: Any = None,
    ties: str = "max",
    threads: Optional[int] = None,
    per_sample: bool = False,
) -> Value:
    """Propensity-scored nDCG at k (PSnDCG@k).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples, n_labels)
        0/1 labels and scores.
    inv_propensities : array-like of shape (n_labels,)
        One inverse propensity per label (:func:`inverse_propensities`).
    k : int, default=5
    sample_weight, ties, threads, per_sample
        As for the other metrics.

    Examples
    --------
    >>> import rankmetrics
    >>> rankmetrics.psndcg_at_k([[1, 0, 1]], [[0.9, 0.5, 0.1]], [2.0, 1.0, 4.0], k=1)
    2.0
    """
    return _propensity("psndcg_at_k", y_true, y_score, k, inv_propensities, sample_weight, ties, threads, per_sample)
