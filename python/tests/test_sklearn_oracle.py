"""scikit-learn itself as the oracle for rankmetrics.sklearn: random inputs with heavy ties,
weights (zeros included), degenerate rows, k, ignore_ties and every average give the same
value (to 1e-12, relative to max(1, |value|)); where scikit-learn's value depends on its
unstable sort (dcg/ndcg with ignore_ties=True and tied scores), it lies in rankmetrics' own
interval over tie orders. Bad inputs: whenever one raises, so does the other."""

from __future__ import annotations

import warnings
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest

import rankmetrics
from rankmetrics import sklearn as rs

sk = pytest.importorskip("sklearn.metrics")

N_CASES = 1000
TOL = 1e-12


def close(a: Any, b: Any) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return False
    both_nan = np.isnan(a) & np.isnan(b)
    diff = np.abs(a - b) <= TOL * np.maximum(1.0, np.abs(b))
    return bool(np.all(both_nan | diff))


def random_case(rng: np.random.Generator, graded: bool = False) -> Tuple[np.ndarray, np.ndarray, Any]:
    n = int(rng.integers(1, 12))
    labels = int(rng.integers(2, 9))
    density = rng.choice([0.0, 0.2, 0.5, 1.0]) if rng.random() < 0.1 else rng.uniform(0.1, 0.7)
    y = rng.random((n, labels)) < density
    if graded:
        y = y * rng.integers(0, 4, size=(n, labels))
    else:
        kind = rng.integers(0, 4)
        y = [y, y.astype(np.int64), y.astype(np.float64), y.astype(np.uint8)][kind]
        if rng.random() < 0.05:  # {-1, 1} indicators
            y = np.where(y != 0, 1, -1)
    steps = int(rng.choice([2, 3, 5, 10, 1000]))
    s = np.round(rng.random((n, labels)) * steps) / steps
    if rng.random() < 0.2:
        s = s * 40 - 20  # logits-like spread
    w = None
    if rng.random() < 0.4:
        w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.7], size=n)
        if w.sum() == 0:
            w[0] = 1.0
    return y, s, w


def call(fn: Callable[..., Any], *args: Any, **kw: Any) -> Tuple[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", fn(*args, **kw)
        except (ValueError, TypeError) as e:
            return "raise", e


ROWWISE = ["coverage_error", "label_ranking_average_precision_score", "label_ranking_loss"]


@pytest.mark.parametrize("name", ROWWISE)
def test_rowwise_against_sklearn(name: str) -> None:
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    ours, theirs = getattr(rs, name), getattr(sk, name)
    compared = 0
    for _ in range(N_CASES):
        y, s, w = random_case(rng)
        a, b = call(ours, y, s, sample_weight=w), call(theirs, y, s, sample_weight=w)
        assert a[0] == b[0], (name, y, s, w, a, b)
        if a[0] == "ok":
            assert close(a[1], b[1]), (name, y.tolist(), s.tolist(), w, a[1], b[1])
            compared += 1
    assert compared >= 0.9 * N_CASES


@pytest.mark.parametrize("name", ["dcg_score", "ndcg_score"])
def test_graded_against_sklearn(name: str) -> None:
    rng = np.random.default_rng(7 if name == "dcg_score" else 8)
    ours, theirs = getattr(rs, name), getattr(sk, name)
    in_range = 0
    for _ in range(N_CASES):
        y, s, w = random_case(rng, graded=True)
        kw: Dict[str, Any] = {}
        if rng.random() < 0.5:
            kw["k"] = int(rng.integers(1, y.shape[1] + 2))
        if name == "dcg_score" and rng.random() < 0.3:
            kw["log_base"] = float(rng.choice([2.0, 10.0, np.e]))
        ignore = bool(rng.random() < 0.3)
        a, b = (
            call(ours, y, s, sample_weight=w, ignore_ties=ignore, **kw),
            call(theirs, y, s, sample_weight=w, ignore_ties=ignore, **kw),
        )
        assert a[0] == b[0], (name, y, s, w, kw, a, b)
        if a[0] != "ok":
            continue
        if close(a[1], b[1]):
            continue
        # scikit-learn's ignore_ties order is its unstable argsort: inside our tie interval.
        assert ignore, (name, y.tolist(), s.tolist(), w, kw, a[1], b[1])
        lo = ours(y, s, sample_weight=w, ties="pessimistic", **kw)
        hi = ours(y, s, sample_weight=w, ties="optimistic", **kw)
        lo, hi = min(lo, hi), max(lo, hi)
        assert lo - 1e-12 <= b[1] <= hi + 1e-12, (name, y.tolist(), s.tolist(), kw, lo, hi, b[1])
        in_range += 1
    assert in_range < N_CASES // 2


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
@pytest.mark.parametrize("average", ["macro", "micro", "weighted", "samples", None])
def test_labelwise_against_sklearn(name: str, average: Any) -> None:
    rng = np.random.default_rng(len(name) * 31 + (hash(average) % 97))
    ours, theirs = getattr(rs, name), getattr(sk, name)
    for _ in range(N_CASES // 4):
        y, s, w = random_case(rng)
        a = call(ours, y, s, sample_weight=w, average=average)
        b = call(theirs, y, s, sample_weight=w, average=average)
        if average == "weighted" and np.min(y) < 0:
            assert a[0] == "raise"  # documented: supports that count -1s are refused
            continue
        assert a[0] == b[0], (name, average, y.tolist(), s.tolist(), w, a, b)
        if a[0] == "ok":
            assert close(a[1], b[1]), (name, average, y.tolist(), s.tolist(), w, a[1], b[1])


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
def test_binary_against_sklearn(name: str) -> None:
    rng = np.random.default_rng(11)
    ours, theirs = getattr(rs, name), getattr(sk, name)
    for _ in range(N_CASES // 2):
        n = int(rng.integers(1, 15))
        y = (rng.random(n) < rng.uniform(0, 1)).astype(int)
        if rng.random() < 0.3:
            y = np.where(y == 1, 5, 2)  # any two labels: the larger is positive (roc_auc)
        s = np.round(rng.random(n) * 4) / 4
        w = rng.choice([0.0, 1.0, 2.0], size=n) if rng.random() < 0.3 else None
        a, b = call(ours, y, s, sample_weight=w), call(theirs, y, s, sample_weight=w)
        assert a[0] == b[0], (name, y.tolist(), s.tolist(), w, a, b)
        if a[0] == "ok":
            assert close(a[1], b[1]), (name, y.tolist(), s.tolist(), w, a[1], b[1])


def bad_inputs() -> List[Tuple[str, Tuple[Any, ...], Dict[str, Any]]]:
    y = np.array([[1, 0, 1], [0, 1, 0]])
    s = np.array([[0.5, 0.2, 0.1], [0.3, 0.3, 0.9]])
    cases: List[Tuple[str, Tuple[Any, ...], Dict[str, Any]]] = []
    everything = ROWWISE + ["dcg_score", "ndcg_score", "roc_auc_score", "average_precision_score"]
    for name in everything:
        cases += [
            (name, (y[0], s[0]), {}),  # 1-D
            *([(name, (y, s[:, :2]), {})] if name in ROWWISE + ["dcg_score", "ndcg_score"] else []),
            (name, (y, s[:1]), {}),  # rows mismatch
            (name, (y, np.where(s > 0.4, np.nan, s)), {}),  # NaN score
            (name, (y, np.where(s > 0.4, np.inf, s)), {}),  # inf score
            (name, (np.where(y > 0, np.nan, y), s), {}),  # NaN label
            (name, (y, s), {"sample_weight": [1.0, 2.0, 3.0]}),  # weight length
            (name, (np.array([[0, 1, 2], [2, 1, 0]]), s), {}),  # multiclass-multioutput
            (name, (y * 0.5, s), {}),  # continuous
            (name, (np.zeros((0, 3)), np.zeros((0, 3))), {}),  # empty
            (name, (np.zeros((2, 0)), np.zeros((2, 0))), {}),  # no columns
            (name, (y[:, :1], s[:, :1]), {}),  # one column
            (name, ([[1, 0], [0, 1, 1]], s), {}),  # ragged
        ]
    for name in ["dcg_score", "ndcg_score"]:
        cases += [
            (name, (y, s), {"k": 0}),
            (name, (y, s), {"k": 1.5}),
            (name, (y, s), {"ignore_ties": "yes"}),
        ]
    cases += [
        ("ndcg_score", (-y, s), {}),
        ("roc_auc_score", (y, s), {"average": "bogus"}),
        ("average_precision_score", (y, s), {"average": "bogus"}),
        ("average_precision_score", (y, s), {"pos_label": 0}),
        ("average_precision_score", (np.array([2, 3, 2]), [0.1, 0.5, 0.2]), {}),
        ("roc_auc_score", (np.array([0, 1, 0]), [[0.1, 0.9], [0.5, 0.5], [0.2, 0.8]]), {}),
        ("roc_auc_score", (np.array([[0, 2, 0], [2, 0, 2]]), s), {}),
    ]
    return cases


@pytest.mark.parametrize("name,args,kw", bad_inputs())
def test_raises_where_sklearn_raises(name: str, args: Tuple[Any, ...], kw: Dict[str, Any]) -> None:
    a = call(getattr(rs, name), *args, **kw)
    b = call(getattr(sk, name), *args, **kw)
    assert a[0] == b[0], (name, args, kw, a, b)
    if a[0] == "ok":
        assert close(a[1], b[1]), (name, args, kw, a[1], b[1])


DOCUMENTED_DIFFERENCES = [
    # scikit-learn computes with negative weights; rankmetrics refuses them.
    ("label_ranking_loss", ([[1, 0], [0, 1]], [[0.5, 0.2], [0.1, 0.9]]), {"sample_weight": [1.0, -0.5]}, ValueError),
    # log_base <= 1 is no discount.
    ("dcg_score", ([[1, 0], [0, 1]], [[0.5, 0.2], [0.1, 0.9]]), {"log_base": 0.5}, ValueError),
    # Fewer score columns than labels: scikit-learn scores the first columns only.
    ("roc_auc_score", ([[1, 0, 1], [0, 1, 0]], [[0.5, 0.2], [0.3, 0.3]]), {}, ValueError),
    ("average_precision_score", ([[1, 0, 1], [0, 1, 0]], [[0.5, 0.2], [0.3, 0.3]]), {}, ValueError),
    # Label weights from {-1, 1} column sums.
    (
        "roc_auc_score",
        ([[1, -1], [-1, 1], [1, 1]], [[0.5, 0.2], [0.3, 0.3], [0.1, 0.9]]),
        {"average": "weighted"},
        ValueError,
    ),
    # Partial AUC and multiclass ROC AUC are not reproduced.
    ("roc_auc_score", ([0, 1, 1], [0.2, 0.4, 0.9]), {"max_fpr": 0.5}, NotImplementedError),
    (
        "roc_auc_score",
        ([0, 1, 2], [[0.2, 0.4, 0.4], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]]),
        {"multi_class": "ovr"},
        NotImplementedError,
    ),
]


@pytest.mark.parametrize("name,args,kw,error", DOCUMENTED_DIFFERENCES)
def test_documented_differences(name: str, args: Tuple[Any, ...], kw: Dict[str, Any], error: type) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(sk, name)(*args, **kw)  # scikit-learn gives a number
    with pytest.raises(error):
        getattr(rs, name)(*args, **kw)


def test_ties_extension_keeps_the_other_rules() -> None:
    y, s = [[1, 0, 0], [0, 0, 0]], [[0.5, 0.5, 0.1], [0.2, 0.2, 0.2]]
    # The row without a relevant label still counts 1 (scikit-learn's rule), whatever the policy.
    for t in rankmetrics.TIE_POLICIES:
        t = "random:3" if t == "random:SEED" else t
        v = rs.label_ranking_average_precision_score(y, s, ties=t)
        assert 0.75 <= v <= 1.0, (t, v)
