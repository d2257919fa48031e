"""rankmetrics: multilabel ranking metrics with explicit tie policies.

Reproduces scikit-learn, torchmetrics, mldr and MULAN exactly (``rankmetrics.sklearn``,
``rankmetrics.torchmetrics``, ``rankmetrics.mldr``, ``rankmetrics.mulan``), adds every tie
policy (``ties=``), the exact expected value over tie orders and the optimistic–pessimistic
interval, compares every convention side by side (:func:`compare`) and finds which
convention produced a reported value (:func:`identify`).

>>> import rankmetrics
>>> y_true = [[1, 0, 0], [0, 0, 1]]
>>> y_score = [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]
>>> rankmetrics.sklearn.label_ranking_average_precision_score(y_true, y_score)
0.41666666666666663
>>> rankmetrics.evaluate([[1, 0]], [[0.5, 0.5]], metric="average_precision", ties="expected")
0.75
"""

from . import metrics, mldr, mulan, sklearn, torchmetrics
from ._compare import Comparison, compare
from ._core import (
    CONVENTIONS,
    TIE_POLICIES,
    Accumulator,
    accumulator,
    evaluate,
    metric_names,
    param_keys,
    per_sample,
    set_micro_pool_cells,
)
from ._identify import Identification, Match, identify
from ._rankmetrics import __version__
from .exceptions import (
    IncompatibleStateError,
    OutOfMemoryError,
    ParameterError,
    RankmetricsError,
    UndefinedMetricError,
    UnprovenIntervalEndWarning,
)
from .metrics import (  # rankmetrics' own metrics, at the top level too
    average_precision,
    coverage,
    dcg,
    error_set_size,
    inverse_propensities,
    is_error,
    label_average_precision,
    ndcg,
    ndcg_at_k,
    one_error,
    precision_at_k,
    psndcg_at_k,
    psprecision_at_k,
    ranking_loss,
    recall_at_k,
    roc_auc,
)

__all__ = [
    "__version__",
    "CONVENTIONS",
    "TIE_POLICIES",
    "Accumulator",
    "IncompatibleStateError",
    "OutOfMemoryError",
    "ParameterError",
    "RankmetricsError",
    "UndefinedMetricError",
    "UnprovenIntervalEndWarning",
    "Comparison",
    "Identification",
    "Match",
    "accumulator",
    "compare",
    "identify",
    "evaluate",
    "metric_names",
    "param_keys",
    "per_sample",
    "set_micro_pool_cells",
    "sklearn",
    "torchmetrics",
    "mldr",
    "mulan",
    "metrics",
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
