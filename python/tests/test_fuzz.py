"""Random inputs of every shape (0 rows, 0 columns, one column, huge declared shapes through
zero-stride views), dtype and special value (NaN, ±inf, -0.0, subnormals, ±1e308) in scores,
labels, weights and parameters, through every convention × metric, per_sample, the sklearn
functions, the other toolkit modules and accumulators: never a crash, only a value or one of
the package's exceptions (RankmetricsError / ValueError / TypeError / NotImplementedError).
A PanicException (a BaseException) or SystemError fails the test."""

from __future__ import annotations

import copy
import pickle
import warnings
from typing import Any, Callable, List, Optional

import numpy as np
import pytest
from conftest import parameterless_metrics
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankmetrics
from rankmetrics import mldr, mulan, sklearn, torchmetrics

ALLOWED = (rankmetrics.RankmetricsError, ValueError, TypeError, NotImplementedError)

settings.register_profile(
    "rankmetrics-fuzz",
    max_examples=250,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FUZZ = settings.get_profile("rankmetrics-fuzz")

ALL = parameterless_metrics()
SPECIAL = [
    0.0,
    -0.0,
    1.0,
    0.5,
    -1.0,
    2.0,
    np.nan,
    np.inf,
    -np.inf,
    5e-324,
    2.2250738585072014e-308 / 2,
    1e308,
    -1e308,
    1e-300,
    3.4e38,
    16.7,
    -88.8,
]
LABEL_DTYPES = [
    np.bool_,
    np.uint8,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
]
SCORE_DTYPES = [np.float32, np.float64, np.float16, np.int64, np.int8, np.bool_, np.uint64]
TIES = [
    None,
    "max",
    "min",
    "average",
    "first",
    "last",
    "random:0",
    "random:18446744073709551615",
    "expected",
    "optimistic",
    "pessimistic",
    "bogus",
    "random:",
    "random:-1",
    "",
]
PARAM_VALUES = [
    None,
    0,
    1,
    2,
    3,
    -1,
    2**31,
    2**64,
    10**30,
    0.5,
    1.0,
    -0.0,
    np.nan,
    np.inf,
    True,
    False,
    "",
    "x",
    "NA",
    "3.9",
    "3.7",
    "float32",
    "micro",
    "samples",
    "skip",
    "reject",
    "formula",
    "exact",
    "1e-6",
    "binary",
    "nonzero",
    "max",
    "average",
]


def _guard(f: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f()
        except ALLOWED as e:
            return e


@st.composite
def matrices(draw: Any) -> Any:
    """(y_true, y_score, sample_weight) of one shape, any dtypes, any special values."""
    kind = draw(st.sampled_from(["small", "small", "small", "empty", "huge"]))
    if kind == "small":
        n, L = draw(st.integers(0, 7)), draw(st.integers(0, 7))
    elif kind == "empty":
        n, L = draw(st.sampled_from([(0, 0), (0, 5), (5, 0), (0, 1), (1, 0)]))
    else:
        n, L = draw(st.sampled_from([(2**40, 0), (0, 2**40), (2**50, 0), (1, 2**16), (2**16, 1), (3, 2**12)]))
    y_dtype = draw(st.sampled_from(LABEL_DTYPES))
    s_dtype = draw(st.sampled_from(SCORE_DTYPES))
    label_pool = [0, 1] * 4 + draw(st.lists(st.sampled_from(SPECIAL + [3, -2, 255]), max_size=3))
    score_pool = draw(
        st.lists(st.sampled_from(SPECIAL) | st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=6)
    )

    def fill(pool: List[Any], dtype: Any, shape: Any) -> np.ndarray:
        cells = int(np.prod(shape)) if all(d < 2**20 for d in shape) else 0
        if cells and cells <= 64:
            vals = [draw(st.sampled_from(pool)) for _ in range(cells)]
            base = np.array(vals, dtype=np.float64).reshape(shape)
        else:
            base = np.full(shape if cells else (1, 1), draw(st.sampled_from(pool)), dtype=np.float64)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = base.astype(dtype)
        if not cells or cells > 64:
            out = np.broadcast_to(out.reshape(1, 1) if out.size == 1 else out, shape)
        return out

    y = fill(label_pool, y_dtype, (n, L))
    s = fill(score_pool, s_dtype, (n, L))
    layout = draw(st.sampled_from(["as is", "F", "reversed", "list", "byteswapped"]))
    if n * L <= 64 and n < 2**20 and L < 2**20:
        if layout == "F":
            y, s = np.asfortranarray(y), np.asfortranarray(s)
        elif layout == "reversed":
            y, s = y[::-1, ::-1], s[::-1, ::-1]
        elif layout == "list":
            y, s = y.tolist(), s.tolist()
        elif layout == "byteswapped":
            y, s = y.astype(y.dtype.newbyteorder("S")), s.astype(s.dtype.newbyteorder("S"))
    w_kind = draw(st.sampled_from(["none", "none", "good", "special", "wrong length", "2-D"]))
    w: Optional[Any] = None
    if w_kind == "good" and n < 2**20:
        w = np.linspace(0.1, 2.0, n)
    elif w_kind == "special" and n < 2**20:
        w = np.array([draw(st.sampled_from(SPECIAL + [0.0, 0.0])) for _ in range(n)])
    elif w_kind == "wrong length":
        w = np.ones(draw(st.integers(0, 9)))
    elif w_kind == "2-D":
        w = np.ones((min(n, 9), 2))
    return y, s, w


@st.composite
def params(draw: Any, convention: str, metric: str) -> dict:
    keys = rankmetrics.param_keys(convention, metric) + ["bogus_key"]
    chosen = draw(st.lists(st.sampled_from(keys), max_size=3, unique=True))
    return {k: draw(st.sampled_from(PARAM_VALUES)) for k in chosen}


@FUZZ
@given(data=matrices(), pick=st.data())
def test_evaluate_every_metric(data: Any, pick: Any) -> None:
    y, s, w = data
    ties = pick.draw(st.sampled_from(TIES))
    for convention, metric in ALL:
        p = pick.draw(st.just({}) | params(convention, metric))
        _guard(
            lambda: rankmetrics.evaluate(y, s, convention=convention, metric=metric, sample_weight=w, ties=ties, **p)
        )
        _guard(lambda: rankmetrics.per_sample(y, s, convention=convention, metric=metric, ties=ties, **p))


@FUZZ
@given(data=matrices(), pick=st.data())
def test_named_functions(data: Any, pick: Any) -> None:
    y, s, w = data
    ties = pick.draw(st.sampled_from(TIES[:4] + [None] * 4))
    L = np.shape(s)[1] if np.ndim(s) == 2 else 0
    for f in (sklearn.coverage_error, sklearn.label_ranking_average_precision_score, sklearn.label_ranking_loss):
        _guard(lambda: f(y, s, sample_weight=w, ties=ties))
    k = pick.draw(st.sampled_from([None, 1, 3, 0, -1, 2.5, True, 2**70]))
    _guard(
        lambda: sklearn.dcg_score(
            y,
            s,
            k=k,
            log_base=pick.draw(st.sampled_from([2, 10, 1, 0.5, -1, np.nan])),
            sample_weight=w,
            ignore_ties=pick.draw(st.booleans()),
            ties=ties,
        )
    )
    _guard(
        lambda: sklearn.ndcg_score(
            y, s, k=k, sample_weight=w, ignore_ties=pick.draw(st.sampled_from([True, False, 1, None]))
        )
    )
    for f in (sklearn.roc_auc_score, sklearn.average_precision_score):
        average = pick.draw(st.sampled_from(["macro", "micro", "weighted", "samples", None, "bogus"]))
        _guard(lambda: f(y, s, average=average, sample_weight=w, ties=ties))
        # The binary (1-D) use.
        if np.ndim(y) == 2 and np.shape(y)[1] >= 1 and np.shape(y)[0] < 2**20:
            _guard(lambda: f(np.asarray(y)[:, 0], np.asarray(s)[:, 0], sample_weight=w))
    for f in (
        torchmetrics.multilabel_coverage_error,
        torchmetrics.multilabel_ranking_average_precision,
        torchmetrics.multilabel_ranking_loss,
    ):
        _guard(lambda: f(s, y, num_labels=pick.draw(st.sampled_from([L, 2, 1, 0, -1, L + 1])), ties=ties))
    _guard(lambda: torchmetrics.retrieval_normalized_dcg(s, y, top_k=k))
    if np.ndim(y) == 2 and np.shape(y)[0] >= 1 and np.shape(y)[0] < 2**20:
        _guard(lambda: torchmetrics.retrieval_normalized_dcg(np.asarray(s)[0], np.asarray(y)[0]))
    for name in mldr.__all__:
        _guard(lambda: getattr(mldr, name)(y, s, sample_weight=w))
    _guard(
        lambda: mldr.macro_auc(
            y,
            s,
            undefined_value=pick.draw(st.sampled_from([None, 0.5, np.nan, np.inf, -1e308])),
            na_rm=pick.draw(st.booleans()),
        )
    )
    _guard(lambda: mldr.coverage(y, s, ties_method=pick.draw(st.sampled_from(["random", "first", "x", "max"]))))
    for name in mulan.__all__:
        _guard(lambda: getattr(mulan, name)(y, s, sample_weight=w))
    _guard(
        lambda: mulan.MeanAverageInterpolatedPrecision(
            y, s, num_recall_levels=pick.draw(st.sampled_from([0, 1, 2, 10, 10**9, -1]))
        )
    )
    for f in (rankmetrics.roc_auc, rankmetrics.label_average_precision):
        _guard(
            lambda: f(
                y,
                s,
                average=pick.draw(st.sampled_from(["macro", "micro", "weighted", "samples", "x"])),
                sample_weight=w,
                ties=pick.draw(st.sampled_from(["max", "min", "average", "expected", "random:1", "x"])),
                undefined=pick.draw(st.sampled_from(["nan", "skip", "error", 0.5, np.nan, np.inf, "x"])),
            )
        )
    L = L if L < 2**20 else 3  # inverse propensities are real arrays: keep them small
    props = pick.draw(
        st.sampled_from([np.ones(max(L, 1)), np.full(max(L, 1), np.nan), np.ones(L + 1), np.zeros(L), -np.ones(L)])
    )
    for f in (rankmetrics.psprecision_at_k, rankmetrics.psndcg_at_k):
        _guard(lambda: f(y, s, props, k=pick.draw(st.sampled_from([1, 5, 0, 2**40, -1, 2**64, 2.5])), sample_weight=w))
        _guard(lambda: f(y, s, props, per_sample=True))
    _guard(
        lambda: rankmetrics.inverse_propensities(
            pick.draw(st.sampled_from([[1, 0, 5], [np.nan], [-1.0], [], [1e308]])),
            pick.draw(st.sampled_from([0, 1, 100, 2**40, -1, 2**64])),
        )
    )


@FUZZ
@given(first=matrices(), second=matrices(), pick=st.data())
def test_accumulators(first: Any, second: Any, pick: Any) -> None:
    convention, metric = pick.draw(st.sampled_from(ALL))
    ties = pick.draw(st.sampled_from(TIES[:6] + [None] * 3))
    first_row = pick.draw(st.sampled_from([0, 1, 7, 2**40, 2**62, -1, 2**64, 1.5]))
    acc = _guard(lambda: rankmetrics.accumulator(convention=convention, metric=metric, ties=ties, first_row=first_row))
    if not isinstance(acc, rankmetrics.Accumulator):
        return
    other = _guard(
        lambda: rankmetrics.accumulator(
            convention=convention, metric=metric, ties=ties, first_row=pick.draw(st.sampled_from([0, 3, 2**40]))
        )
    )
    (y, s, w), (y2, s2, w2) = first, second
    _guard(lambda: acc.update(y, s, w))
    _guard(lambda: other.update(y2, s2, w2))
    _guard(lambda: acc.update(y2, s2, w2, threads=pick.draw(st.sampled_from([None, 2]))))
    _guard(acc.value)
    _guard(acc.rows)
    before = copy.copy(acc)
    result = _guard(lambda: acc.merge(other))
    if isinstance(result, BaseException):
        assert acc == before, "a refused merge changed the state"
    twin = pickle.loads(pickle.dumps(acc))
    assert twin == acc
    a, b = _guard(acc.value), _guard(twin.value)
    if isinstance(a, float):
        assert np.float64(a).view(np.uint64) == np.float64(b).view(np.uint64)
    _guard(acc.reset)
    _guard(acc.value)


@pytest.mark.parametrize("shape", [(2**40, 0), (0, 2**40), (2**50, 0), (2**31 + 1, 0), (1, 2**18), (2**18, 1)])
def test_huge_declared_shapes(shape: Any) -> None:
    """Zero-stride views declaring far more rows or columns than memory holds: with an empty
    dimension, an error at once (nothing allocated for the declared rows); with one row or
    one column of 2**18 cells, a value or an error."""
    y = np.broadcast_to(np.uint8(1), shape)
    s = np.broadcast_to(np.float32(0.5), shape)
    w = np.broadcast_to(1.0, shape[:1]) if shape[0] < 2**20 else None
    for convention, metric in ALL:
        r = _guard(lambda: rankmetrics.evaluate(y, s, convention=convention, metric=metric, sample_weight=w))
        if 0 in shape:
            assert isinstance(r, rankmetrics.RankmetricsError), (convention, metric, r)
        r = _guard(lambda: rankmetrics.per_sample(y, s, convention=convention, metric=metric))
        if 0 in shape:
            assert isinstance(r, rankmetrics.RankmetricsError), (convention, metric, r)
        acc = rankmetrics.accumulator(convention=convention, metric=metric)
        _guard(lambda: acc.update(y, s, w))
        _guard(acc.value)
        assert pickle.loads(pickle.dumps(acc)) == acc


BAD_PARAMETERS = {
    "convention": lambda: rankmetrics.evaluate([[1, 0]], [[0.5, 0.1]], convention="bogus", metric="coverage"),
    "ties": lambda: rankmetrics.evaluate([[1, 0]], [[0.5, 0.1]], metric="coverage", ties="bogus"),
    "metric": lambda: rankmetrics.evaluate([[1, 0]], [[0.5, 0.1]], metric="bogus"),
    "param": lambda: rankmetrics.evaluate([[1, 0]], [[0.5, 0.1]], metric="coverage", bogus=1),
    "metric_names": lambda: rankmetrics.metric_names("bogus"),
    "average": lambda: rankmetrics.roc_auc([[1, 0]], [[0.5, 0.1]], average="bogus"),
    "undefined": lambda: rankmetrics.roc_auc([[1, 0]], [[0.5, 0.1]], undefined="bogus"),
    "labelwise ties": lambda: rankmetrics.label_average_precision([[1, 0]], [[0.5, 0.1]], ties="bogus"),
    "negative k": lambda: rankmetrics.psprecision_at_k([[1, 0]], [[0.5, 0.1]], [1.0, 1.0], k=-1),
    "huge k": lambda: rankmetrics.psndcg_at_k([[1, 0]], [[0.5, 0.1]], [1.0, 1.0], k=2**64),
    "negative first_row": lambda: rankmetrics.accumulator(metric="coverage", first_row=-1),
    "huge first_row": lambda: rankmetrics.accumulator(metric="coverage", first_row=2**64),
    "negative n": lambda: rankmetrics.inverse_propensities([1, 2], -1),
}


@pytest.mark.parametrize("name", list(BAD_PARAMETERS))
def test_bad_parameters_raise_parameter_error(name: str) -> None:
    """Every bad parameter is a ParameterError (documented for evaluate's convention, metric
    and parameters), never a bare ValueError or pyo3's OverflowError."""
    with pytest.raises(rankmetrics.ParameterError):
        BAD_PARAMETERS[name]()


def test_rows_numbered_past_the_largest_index() -> None:
    acc = rankmetrics.accumulator(metric="coverage", first_row=2**64 - 1)
    try:
        acc.update([[1, 0]], [[0.5, 0.1]])
    except rankmetrics.RankmetricsError:
        return  # refusing the batch is a fine answer
    assert acc.rows() == [(2**64 - 1, 2**64)] or pickle.loads(pickle.dumps(acc)) == acc
