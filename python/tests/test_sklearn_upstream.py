"""scikit-learn's own tests of its ranking metrics (sklearn/metrics/tests/test_ranking.py, which
ships in its wheel), run with its seven functions replaced by rankmetrics.sklearn's.

Every upstream test that calls one of the seven (directly, through a helper of that module, or
as a parameter) is collected here; the ones that exercise behaviour rankmetrics deliberately
does not reproduce are listed in NOT_REPRODUCED with the reason, and must fail (strict xfail)."""

from __future__ import annotations

import inspect
from typing import Any, Dict

import pytest

from rankmetrics import sklearn as rs

upstream = pytest.importorskip("sklearn.metrics.tests.test_ranking")
import sklearn.metrics as skm  # noqa: E402

NAMES = (
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "dcg_score",
    "ndcg_score",
    "roc_auc_score",
    "average_precision_score",
)
ORIGINAL = {id(getattr(skm, n)): getattr(rs, n) for n in NAMES}

# Upstream tests of behaviour rankmetrics does not reproduce, with the reason.
MULTICLASS = "multiclass ROC AUC / AP (multi_class='ovr'/'ovo', labels=) is not reproduced: NotImplementedError"
NOT_REPRODUCED: Dict[str, str] = {
    "test_multiclass_ovo_roc_auc_toydata": MULTICLASS,
    "test_multiclass_ovo_roc_auc_toydata_binary": MULTICLASS,
    "test_multiclass_ovr_roc_auc_toydata": MULTICLASS,
    "test_perfect_imperfect_chance_multiclass_roc_auc": MULTICLASS,
    "test_micro_averaged_ovr_roc_auc": MULTICLASS,
    "test_roc_auc_score_multiclass_labels_error": MULTICLASS,
    "test_roc_auc_score_multiclass_error": MULTICLASS,
    "test_average_precision_score_multiclass_pos_label_errors": MULTICLASS,
    "test_multiclass_ranking_metrics_raise_for_incorrect_shape_of_y_score": MULTICLASS,
    "test_partial_roc_auc_score": "partial AUC (max_fpr) is not reproduced: NotImplementedError",
}

# The module's globals now name rankmetrics' functions: its tests and helpers call them.
for name in NAMES:
    setattr(upstream, name, getattr(rs, name))


def _uses_ours(fn: Any, seen: set) -> bool:
    """Whether `fn` (or a helper of the module it calls) names one of the seven."""
    if id(fn) in seen or not inspect.isfunction(fn):
        return False
    seen.add(id(fn))
    names = set(fn.__code__.co_names)
    if names & set(NAMES):
        return True
    return any(_uses_ours(vars(upstream).get(n), seen) for n in names if n.startswith("_"))


def _swap(value: Any) -> Any:
    if callable(value) and id(value) in ORIGINAL:
        return ORIGINAL[id(value)]
    if isinstance(value, (list, tuple)):
        return type(value)(_swap(v) for v in value)
    return value


def _collect() -> Dict[str, Any]:
    tests: Dict[str, Any] = {}
    for name, fn in vars(upstream).items():
        if not name.startswith("test_") or not inspect.isfunction(fn):
            continue
        marks = getattr(fn, "pytestmark", [])
        param_uses = False
        new_marks = []
        for mark in marks:
            if mark.name == "parametrize":
                argvalues = [_swap(v) for v in mark.args[1]]
                param_uses |= any(a is not b for a, b in zip(argvalues, mark.args[1]))
                mark = pytest.mark.parametrize(mark.args[0], argvalues, **mark.kwargs).mark
            new_marks.append(mark)
        if not (_uses_ours(fn, set()) or param_uses):
            continue
        fn.pytestmark = new_marks
        if name in NOT_REPRODUCED:
            fn = pytest.mark.xfail(strict=True, reason=NOT_REPRODUCED[name])(fn)
        tests[name] = fn
    return tests


globals().update(_collect())


@pytest.fixture
def global_random_seed() -> int:
    return 42
