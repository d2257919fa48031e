"""scikit-learn's ranking metrics (1.9.1), drop-in: the same names, signatures, defaults,
values and errors, far faster, plus a keyword-only ``ties=`` that replaces scikit-learn's tie
rule and keeps its other rules.

Change one import line::

    from sklearn.metrics import label_ranking_average_precision_score   # before
    from rankmetrics.sklearn import label_ranking_average_precision_score  # after

Every input scikit-learn rejects raises a ``ValueError`` here too (a
:class:`~rankmetrics.RankmetricsError`). Not reproduced: partial AUC (``max_fpr``) and the
multiclass uses of ``roc_auc_score`` and ``average_precision_score`` (they raise
``NotImplementedError``); negative sample weights and ``log_base <= 1`` are refused where
scikit-learn computes a number that is no weighted mean or discount; ``average="weighted"`` on
a ``{-1, 1}`` indicator is refused (scikit-learn weights labels by column sums that count the
-1s, which can be negative); and ``roc_auc_score`` and ``average_precision_score`` refuse a
``y_score`` with fewer columns than ``y_true``, where scikit-learn silently scores only the
first columns.

>>> from rankmetrics.sklearn import coverage_error
>>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
2.5
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _core
from . import _sklearn_checks as checks
from .exceptions import UndefinedMetricWarning

__all__ = [
    "UndefinedMetricWarning",
    "average_precision_score",
    "coverage_error",
    "dcg_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "ndcg_score",
    "roc_auc_score",
]


def _evaluate(
    metric: str,
    y_true: np.ndarray,
    y_score: Any,
    sample_weight: Any,
    ties: Optional[str],
    threads: Optional[int],
    **params: Any,
) -> float:
    m = _core.lookup("sklearn", metric, ties, params)
    return _core.run(m, y_true, y_score, sample_weight, threads)


def _rowwise_inputs(
    y_true: Any, y_score: Any, sample_weight: Any, *, ensure_2d: bool, allow_binary_2d: bool
) -> Tuple[np.ndarray, np.ndarray, Optional[np.ndarray]]:
    y = checks.check_array(y_true, "y_true", ensure_2d=ensure_2d)
    s = checks.check_array(y_score, "y_score", ensure_2d=ensure_2d)
    w = checks.sample_weight(sample_weight)
    checks.check_consistent_length(y, s, w)
    y_type, values = checks.target(y)
    if y_type != "multilabel-indicator" and not (allow_binary_2d and y_type == "binary" and y.ndim == 2):
        raise checks.fail(f"{y_type} format is not supported", input="y_true")
    if y.shape != s.shape:
        raise checks.fail("y_true and y_score have different shape")
    return checks.relevant_nonzero(y, values), s, w


def coverage_error(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """Coverage error, as ``sklearn.metrics.coverage_error``.

    How far down the ranking one must go to cover every true label, averaged over samples
    (ranks from 1; a sample without a true label counts 0). scikit-learn counts every label
    scored at least as high as the lowest-scored true label (ties resolved pessimistically,
    ``ties="max"``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        True binary labels in binary indicator format.
    y_score : array-like of shape (n_samples, n_labels)
        Target scores.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ties : str, default=None
        Replaces scikit-learn's tie rule (see ``rankmetrics.TIE_POLICIES``).
    threads : int, default=None
        Threads (None: one; -1: every core); the value is the same for any count.

    Returns
    -------
    float

    Examples
    --------
    >>> from rankmetrics.sklearn import coverage_error
    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[1, 0, 0], [0, 1, 1]])
    1.5
    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[1, 0, 0], [0, 1, 1]], ties="optimistic")
    1.0
    """
    y, s, w = _rowwise_inputs(y_true, y_score, sample_weight, ensure_2d=True, allow_binary_2d=False)
    return _evaluate("coverage_error", y, s, w, ties, threads)


def label_ranking_average_precision_score(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """Label ranking average precision (LRAP), as
    ``sklearn.metrics.label_ranking_average_precision_score``.

    For each true label, the fraction of labels ranked at or above it that are true, averaged
    over true labels and samples; samples with no true label or only true labels count 1.

    Parameters
    ----------
    y_true : {array-like, sparse matrix} of shape (n_samples, n_labels)
        True binary labels in binary indicator format (scipy.sparse CSR accepted).
    y_score : array-like of shape (n_samples, n_labels)
        Target scores.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ties : str, default=None
        Replaces scikit-learn's tie rule (``"max"`` ranks).
    threads : int, default=None
        Threads (None: one; -1: every core).

    Returns
    -------
    float

    Examples
    --------
    >>> from rankmetrics.sklearn import label_ranking_average_precision_score
    >>> y_true = [[1, 0, 0], [0, 0, 1]]
    >>> y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    >>> label_ranking_average_precision_score(y_true, y_score)
    0.41666666666666663
    """
    y, s, w = _rowwise_inputs(y_true, y_score, sample_weight, ensure_2d=False, allow_binary_2d=True)
    return _evaluate("label_ranking_average_precision_score", y, s, w, ties, threads)


def label_ranking_loss(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, ties: Optional[str] = None, threads: Optional[int] = None
) -> float:
    """Ranking loss, as ``sklearn.metrics.label_ranking_loss``.

    The fraction of (true, false) label pairs ordered wrongly, averaged over samples; a pair
    with tied scores counts as wrong (``ties="max"``); samples with no true or no false label
    count 0.

    Parameters
    ----------
    y_true : {array-like, sparse matrix} of shape (n_samples, n_labels)
        True binary labels in binary indicator format (scipy.sparse CSR accepted).
    y_score : array-like of shape (n_samples, n_labels)
        Target scores.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ties : str, default=None
        Replaces scikit-learn's tie rule.
    threads : int, default=None
        Threads (None: one; -1: every core).

    Returns
    -------
    float

    Examples
    --------
    >>> from rankmetrics.sklearn import label_ranking_loss
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    >>> label_ranking_loss([[1, 0]], [[0.5, 0.5]], ties="expected")
    0.5
    """
    y, s, w = _rowwise_inputs(y_true, y_score, sample_weight, ensure_2d=False, allow_binary_2d=False)
    return _evaluate("label_ranking_loss", y, s, w, ties, threads)


def _dcg_inputs(
    y_true: Any, y_score: Any, sample_weight: Any, k: Any, ignore_ties: Any, *, ndcg: bool
) -> Tuple[np.ndarray, np.ndarray, Optional[np.ndarray]]:
    checks.check_k(k)
    checks.check_bool("ignore_ties", ignore_ties)
    y = checks.check_array(y_true, "y_true", ensure_2d=False)
    s = checks.check_array(y_score, "y_score", ensure_2d=False)
    w = checks.sample_weight(sample_weight)
    checks.check_consistent_length(y, s, w)
    if ndcg:
        if y.min() < 0:
            raise checks.fail("ndcg_score should not be used on negative y_true values.", input="y_true")
        if y.ndim > 1 and y.shape[1] <= 1:
            raise checks.fail(
                f"Computing NDCG is only meaningful when there is more than 1 document. Got {y.shape[1]} instead.",
                input="y_true",
            )
    y_type = checks.type_of_target(y)
    supported = ("multilabel-indicator", "continuous-multioutput", "multiclass-multioutput")
    if y_type not in supported:
        raise checks.fail(f"Only {supported} formats are supported. Got {y_type} instead", input="y_true")
    return y, s, w


def dcg_score(
    y_true: Any,
    y_score: Any,
    *,
    k: Optional[int] = None,
    log_base: float = 2,
    sample_weight: Any = None,
    ignore_ties: bool = False,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """Discounted cumulative gain, as ``sklearn.metrics.dcg_score``.

    Gains ``y_true`` summed along the ranking by ``y_score`` with discount
    ``1 / log_base(1 + rank)``, over the top ``k``; tied scores share the mean of their
    discounts (McSherry and Najork), or, with ``ignore_ties=True``, follow scikit-learn's
    unstable sort order.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        True relevance (gains).
    y_score : array-like of shape (n_samples, n_labels)
        Target scores.
    k : int, default=None
        Only the highest ``k`` scores count (None: all).
    log_base : float, default=2
        Base of the logarithm in the discount.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ignore_ties : bool, default=False
        Rank without looking for ties (faster in scikit-learn; the order of tied scores is
        then numpy's argsort order).
    ties : str, default=None
        Replaces the tie rule (and ``ignore_ties``).
    threads : int, default=None
        Threads (None: one; -1: every core).

    Returns
    -------
    float

    Examples
    --------
    >>> from rankmetrics.sklearn import dcg_score
    >>> dcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]])
    9.49...
    """
    y, s, w = _dcg_inputs(y_true, y_score, sample_weight, k, ignore_ties, ndcg=False)
    return _evaluate("dcg_score", y, s, w, ties, threads, k=k, log_base=float(log_base), ignore_ties=bool(ignore_ties))


def ndcg_score(
    y_true: Any,
    y_score: Any,
    *,
    k: Optional[int] = None,
    sample_weight: Any = None,
    ignore_ties: bool = False,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> float:
    """Normalized discounted cumulative gain, as ``sklearn.metrics.ndcg_score``.

    DCG divided by the DCG of the ideal ranking; a sample whose gains are all 0 counts 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        True relevance (non-negative gains).
    y_score : array-like of shape (n_samples, n_labels)
        Target scores.
    k : int, default=None
        Only the highest ``k`` scores count (None: all).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ignore_ties : bool, default=False
        Rank without looking for ties (scikit-learn's unstable sort order).
    ties : str, default=None
        Replaces the tie rule (and ``ignore_ties``).
    threads : int, default=None
        Threads (None: one; -1: every core).

    Returns
    -------
    float

    Examples
    --------
    >>> from rankmetrics.sklearn import ndcg_score
    >>> ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]])
    0.69...
    >>> ndcg_score([[1, 0, 0]], [[0.5, 0.5, 0.1]], ties="expected")
    0.81546487678572...
    """
    y, s, w = _dcg_inputs(y_true, y_score, sample_weight, k, ignore_ties, ndcg=True)
    return _evaluate("ndcg_score", y, s, w, ties, threads, k=k, ignore_ties=bool(ignore_ties))


def _labelwise(
    metric: str,
    y_true: Any,
    y_score: Any,
    average: Optional[str],
    sample_weight: Any,
    ties: Optional[str],
    threads: Optional[int],
    positive: Any,
) -> Union[float, np.ndarray]:
    """roc_auc_score and average_precision_score: binary 1-D input as one column, multilabel
    indicators label by label; ``average=None`` gives one value per label."""
    checks.check_average(average)
    y_raw = np.asarray(y_true) if not hasattr(y_true, "tocsr") else None
    if y_raw is not None and y_raw.ndim == 1 and y_raw.dtype.kind in "OUS":
        # Binary labels named by strings: the positive class is compared as given.
        classes = np.unique(y_raw)
        if len(classes) > 2:
            raise NotImplementedError(
                f"rankmetrics.sklearn.{metric} reproduces the binary and multilabel uses; the multiclass use is not reproduced"
            )
        s = checks.check_array(y_score, "y_score", ensure_2d=False)
        w = checks.sample_weight(sample_weight)
        checks.check_consistent_length(y_raw, s, w)
        pos = positive(tuple(classes.tolist()))
        column = (y_raw == pos).view(np.uint8).reshape(-1, 1)
        return _evaluate(metric, column, s.reshape(-1, 1), w, ties, threads, average="macro")
    y = checks.check_array(y_true, "y_true", ensure_2d=False)
    s = checks.check_array(y_score, "y_score", ensure_2d=False)
    w = checks.sample_weight(sample_weight)
    y_type, values = checks.target(y)
    # scikit-learn's binary ROC AUC answers NaN for one class before it looks at the weights.
    one_class_auc = metric == "roc_auc_score" and y_type == "binary" and len(values or ()) < 2
    if w is not None and w.size and not np.any(w != 0) and not one_class_auc:
        raise checks.fail("Sample weights must contain at least one non-zero number.", input="sample_weight")
    if y_type == "binary":
        if s.ndim == 2 and s.shape[1] > 2 and metric == "roc_auc_score":
            raise NotImplementedError(
                "rankmetrics.sklearn.roc_auc_score reproduces the binary and multilabel uses; "
                "multiclass ROC AUC (multi_class='ovr'/'ovo') is not reproduced"
            )
        if s.ndim != 1 and not (s.ndim == 2 and s.shape[1] == 1):
            raise checks.fail(f"y should be a 1d array, got an array of shape {s.shape} instead.", input="y_score")
        checks.check_consistent_length(y, s, w)
        pos = positive(values)
        column = (np.asarray(y).reshape(-1) == pos).view(np.uint8).reshape(-1, 1)
        return _evaluate(metric, column, s.reshape(-1, 1), w, ties, threads, average="macro")
    if y_type != "multilabel-indicator":
        if y_type == "multiclass":
            raise NotImplementedError(
                f"rankmetrics.sklearn.{metric} reproduces the binary and multilabel uses; the "
                "multiclass use is not reproduced"
            )
        raise checks.fail(f"{y_type} format is not supported", input="y_true")
    checks.check_consistent_length(y, s, w)
    if s.ndim != 2 or s.shape != y.shape:
        raise checks.fail(f"y_true and y_score have different shape ({y.shape} and {s.shape})")
    if average == "weighted" and y.dtype.kind in "if" and y.min() < 0:
        raise checks.fail(
            "average='weighted' on a {-1, 1} indicator: scikit-learn weights each label by the sum "
            "of its y_true column, -1s included, which can be negative or zero (its value can "
            "then leave [0, 1]); rankmetrics refuses it. Pass y_true as 0/1 (y_true == 1).",
            input="y_true",
        )
    y = _indicator(y, values)
    if average is not None:
        return _evaluate(metric, y, s, w, ties, threads, average=average)
    return _core.run_per_label(_core.lookup("sklearn", metric, ties, {"average": "macro"}), y, s, w)


_WARNING: Optional[type] = None


def _undefined_warning() -> type:
    """rankmetrics' UndefinedMetricWarning, also a subclass of scikit-learn's when scikit-learn
    is installed, so that code catching scikit-learn's warning catches it (imported only when a
    warning is due)."""
    global _WARNING
    if _WARNING is None:
        try:
            from sklearn.exceptions import UndefinedMetricWarning as Sklearn  # type: ignore[import-untyped,unused-ignore]
        except ImportError:
            _WARNING = UndefinedMetricWarning
        else:
            _WARNING = type("UndefinedMetricWarning", (UndefinedMetricWarning, Sklearn), {"__module__": __name__})
    return _WARNING


def _indicator(y: np.ndarray, values: Optional[Tuple[float, ...]]) -> np.ndarray:
    """A multilabel indicator for the binary metrics (``values``: ``two_values(y)``): {0, 1},
    or {-1, 1} read as 1 positive; other pairs are ambiguous, as in scikit-learn."""
    found = set(np.asarray(values).tolist()) if values is not None else set()
    if found <= {0, 1}:
        return y
    if found <= {-1, 1}:
        return (y == 1).view(np.uint8)
    raise checks.fail(
        f"y_true takes value in {sorted(found)} and pos_label is not specified: either make "
        "y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly.",
        input="y_true",
    )


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: Optional[str] = "macro",
    sample_weight: Any = None,
    max_fpr: Optional[float] = None,
    multi_class: str = "raise",
    labels: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> Union[float, np.ndarray]:
    """Area under the ROC curve, as ``sklearn.metrics.roc_auc_score`` (binary and multilabel
    uses).

    Tied scores count half (the trapezoid between thresholds, ``ties="average"``). A label
    with a single class gives NaN, with an :class:`UndefinedMetricWarning`, as in
    scikit-learn.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels: binary, or a multilabel indicator.
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
        Target scores.
    average : {"micro", "macro", "samples", "weighted"} or None, default="macro"
        How per-label values are averaged; None returns one value per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    max_fpr : None
        Partial AUC is not reproduced: only None (or 1) is accepted.
    multi_class : str, default="raise"
        Multiclass ROC AUC is not reproduced (raises ``NotImplementedError``).
    labels : None
        Only used by the multiclass use.
    ties : str, default=None
        Replaces the tie rule (``"average"``).
    threads : int, default=None
        Threads (None: one; -1: every core).

    Returns
    -------
    float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> from rankmetrics.sklearn import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc_score([[1, 0], [0, 1], [1, 1]], [[0.9, 0.1], [0.9, 0.8], [0.3, 0.8]], average=None)
    array([0.25, 1.  ])
    """
    if max_fpr is not None and max_fpr != 1:
        raise NotImplementedError("partial AUC (max_fpr) is not reproduced by rankmetrics")

    def positive(values: Any) -> Any:
        # One class: the column is all negative and the preset gives NaN, with scikit-learn's
        # warning (below).
        return max(values) if values is not None and len(values) == 2 else None

    if (
        multi_class != "raise"
        and checks.type_of_target(checks.check_array(y_true, "y_true", ensure_2d=False)) == "multiclass"
    ):
        raise NotImplementedError("multiclass ROC AUC is not reproduced by rankmetrics")
    value = _labelwise("roc_auc_score", y_true, y_score, average, sample_weight, ties, threads, positive)
    if np.any(np.isnan(value)):
        warnings.warn(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            _undefined_warning(),
            stacklevel=2,
        )
    return value


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: Optional[str] = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
    ties: Optional[str] = None,
    threads: Optional[int] = None,
) -> Union[float, np.ndarray]:
    """Average precision, as ``sklearn.metrics.average_precision_score`` (binary and
    multilabel uses).

    The step-wise area under the precision-recall curve, thresholds at distinct scores (tied
    scores enter together).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels: binary, or a multilabel indicator.
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
        Target scores.
    average : {"micro", "macro", "samples", "weighted"} or None, default="macro"
        How per-label values are averaged; None returns one value per label.
    pos_label : int, float, bool or str, default=1
        The positive class of binary ``y_true`` (fixed to 1 for multilabel input).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    ties : str, default=None
        Replaces the tie rule.
    threads : int, default=None
        Threads (None: one; -1: every core).

    Returns
    -------
    float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> from rankmetrics.sklearn import average_precision_score
    >>> average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.83...
    """
    named_classes = np.asarray(y_true).dtype.kind in "OUS" if not hasattr(y_true, "tocsr") else False
    y_check = None if named_classes else checks.check_array(y_true, "y_true", ensure_2d=False)
    if y_check is not None and checks.type_of_target(y_check) == "multilabel-indicator" and pos_label != 1:
        raise checks.fail(
            "Parameter pos_label is fixed to 1 for multilabel-indicator y_true. Do not set "
            "pos_label or set pos_label to 1."
        )

    def positive(values: Any) -> Any:
        present = [] if values is None else list(values)
        if len(present) == 2 and pos_label not in present:
            raise checks.fail(f"pos_label={pos_label} is not a valid label. It should be one of {np.array(present)}")
        return pos_label

    value = _labelwise("average_precision_score", y_true, y_score, average, sample_weight, ties, threads, positive)
    if _no_positive(y_true, pos_label):
        warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds", UserWarning, stacklevel=2
        )
    return value


def _no_positive(y_true: Any, pos_label: Any) -> bool:
    """Whether some label (or the binary problem) has no positive sample, for which
    scikit-learn's precision-recall curve warns."""
    y = np.asarray(y_true.toarray() if hasattr(y_true, "toarray") else y_true)
    if y.ndim == 1:
        return not bool(np.any(y == pos_label))
    return not bool(np.all(np.any(y == 1, axis=0)))
