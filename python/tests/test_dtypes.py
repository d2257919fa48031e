"""The dtype and stride matrix: every label dtype, score dtype and memory layout gives
bitwise the value of the dense C-order arrays of the same values; inputs are never
modified; float32 scores are read as float32 (never upcast)."""

from __future__ import annotations

from typing import Any, Callable, Dict

import numpy as np
import pytest
import scipy.sparse

import rankmetrics
from rankmetrics import mldr, mulan, sklearn, torchmetrics

RNG = np.random.default_rng(20261123)
N, L = 13, 7
# Coarse scores (many ties), negative values, -0.0 next to 0.0; a row with every label
# relevant, one with none; the first column holds both classes (label-wise metrics).
Y = (RNG.random((N, L)) < 0.4).astype(np.int64)
Y[0] = 1
Y[1] = 0
Y[2:4, :] = [[1] * L, [0] * L]
Y[:, 0] = np.arange(N) % 2
Y[2, :], Y[3, :] = 1 - Y[3, :], Y[2, :].copy()
S = np.round(RNG.normal(size=(N, L)) * 2) / 4
S[4, :3] = [0.0, -0.0, 0.0]
W = RNG.random(N) + 0.1

LABEL_DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float32, np.float64]
SCORE_DTYPES = [np.float32, np.float64, np.float16, np.int64]


def _sliced(x: np.ndarray) -> np.ndarray:
    big = np.zeros((2 * x.shape[0], 3 * x.shape[1]), dtype=x.dtype)
    big[::2, ::3] = x
    return big[::2, ::3]


def _readonly(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    x.setflags(write=False)
    return x


def _unaligned(x: np.ndarray) -> np.ndarray:
    buf = np.zeros(x.nbytes + 1, dtype=np.uint8)
    out = np.ndarray(x.shape, dtype=x.dtype, buffer=buf[1:].data)
    out[...] = x
    return out


LAYOUTS: Dict[str, Callable[[np.ndarray], Any]] = {
    "C": np.ascontiguousarray,
    "F": np.asfortranarray,
    "transposed": lambda x: np.ascontiguousarray(x.T).T,
    "sliced": _sliced,
    "negative": lambda x: np.ascontiguousarray(x[::-1, ::-1])[::-1, ::-1],
    "byteswapped": lambda x: x.astype(x.dtype.newbyteorder(">" if np.little_endian else "<")),
    "readonly": _readonly,
    "unaligned": _unaligned,
    "list": lambda x: x.tolist(),
}

METRICS: Dict[str, Callable[..., Any]] = {
    "rankmetrics.coverage": lambda y, s: rankmetrics.coverage(y, s),
    "rankmetrics.average_precision/expected": lambda y, s: rankmetrics.average_precision(y, s, ties="expected"),
    "rankmetrics.ranking_loss/weighted": lambda y, s: rankmetrics.ranking_loss(y, s, sample_weight=W),
    "rankmetrics.ndcg/k=3": lambda y, s: rankmetrics.ndcg(y, s, k=3, ties="average"),
    "rankmetrics.precision_at_k/per_sample": lambda y, s: rankmetrics.precision_at_k(y, s, k=2, per_sample=True),
    "rankmetrics.roc_auc/macro": lambda y, s: rankmetrics.roc_auc(y, s),
    "rankmetrics.roc_auc/micro": lambda y, s: rankmetrics.roc_auc(y, s, average="micro", sample_weight=W),
    "rankmetrics.label_average_precision/samples": lambda y, s: rankmetrics.label_average_precision(
        y, s, average="samples", undefined="skip"
    ),
    "rankmetrics.psprecision_at_k": lambda y, s: rankmetrics.psprecision_at_k(y, s, np.linspace(1, 3, L), k=3),
    "per_sample mulan AveragePrecision": lambda y, s: rankmetrics.per_sample(
        y, s, convention="mulan", metric="AveragePrecision"
    ),
    "torchmetrics.coverage": lambda y, s: torchmetrics.multilabel_coverage_error(s, y, num_labels=L),
    "torchmetrics.ranking_loss": lambda y, s: torchmetrics.multilabel_ranking_loss(s, y, num_labels=L),
    "mldr.average_precision/average": lambda y, s: mldr.average_precision(y, s, ties_method="average"),
    "mldr.macro_auc": lambda y, s: mldr.macro_auc(y, s),
    "mulan.Coverage": lambda y, s: mulan.Coverage(y, s),
    "mulan.MacroAUCPR": lambda y, s: mulan.MacroAUCPR(y, s),
    "sklearn.coverage_error": lambda y, s: sklearn.coverage_error(y, s, sample_weight=W),
    "sklearn.lrap": lambda y, s: sklearn.label_ranking_average_precision_score(y, s),
    "sklearn.label_ranking_loss": lambda y, s: sklearn.label_ranking_loss(y, s),
    "sklearn.ndcg_score": lambda y, s: sklearn.ndcg_score(y, s, k=3),
    "sklearn.dcg_score/weighted": lambda y, s: sklearn.dcg_score(y, s, sample_weight=W),
    "sklearn.roc_auc_score/binary": lambda y, s: sklearn.roc_auc_score(
        y[:, :1] if isinstance(y, np.ndarray) else [r[:1] for r in y],
        s[:, :1] if isinstance(s, np.ndarray) else [r[:1] for r in s],
    ),
    "sklearn.average_precision_score/None": lambda y, s: sklearn.average_precision_score(y, s, average=None),
    "sklearn.roc_auc_score/micro": lambda y, s: sklearn.roc_auc_score(y, s, average="micro"),
    "sklearn.average_precision_score/samples": lambda y, s: sklearn.average_precision_score(y, s, average="samples"),
}


def bits(v: Any) -> Any:
    a = np.asarray(v, dtype=np.float64)
    return a.view(np.uint64).tolist()


def reference(metric: str, score_dtype: Any) -> Any:
    """The value on dense C-order arrays: float64 labels; float32 scores for float32 and
    float16 (read as float32), float64 otherwise."""
    s_dtype = np.float32 if score_dtype in (np.float32, np.float16) else np.float64
    s = np.ascontiguousarray(S.astype(score_dtype).astype(s_dtype))
    return METRICS[metric](np.ascontiguousarray(Y, dtype=np.float64), s)


def _scores(dtype: Any) -> np.ndarray:
    if dtype == np.int64:
        return np.round(S * 4).astype(np.int64)
    return S.astype(dtype)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("score_dtype", SCORE_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("label_dtype", LABEL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("metric", list(METRICS))
def test_same_bits_in_every_dtype_and_layout(metric: str, label_dtype: Any, score_dtype: Any, layout: str) -> None:
    if score_dtype == np.int64 and metric.startswith("torchmetrics."):
        # torchmetrics refuses integer preds (test_torchmetrics_inputs.py).
        with pytest.raises(rankmetrics.exceptions.RankmetricsError, match="floating point"):
            METRICS[metric](LAYOUTS[layout](Y.astype(label_dtype)), LAYOUTS[layout](_scores(score_dtype)))
        return
    if score_dtype == np.int64:
        s_ref = np.round(S * 4).astype(np.float64)
        want = METRICS[metric](np.ascontiguousarray(Y, dtype=np.float64), s_ref)
    else:
        want = reference(metric, score_dtype)
    y = Y.astype(label_dtype)
    s = _scores(score_dtype)
    y_in, s_in = LAYOUTS[layout](y), LAYOUTS[layout](s)
    y_copy = y_in.copy() if isinstance(y_in, np.ndarray) else list(map(list, y_in))
    s_copy = s_in.copy() if isinstance(s_in, np.ndarray) else list(map(list, s_in))
    got = METRICS[metric](y_in, s_in)
    assert bits(got) == bits(want), (got, want)
    # Inputs are never modified (nor their dtype or layout).
    if isinstance(y_in, np.ndarray):
        assert y_in.dtype == y_copy.dtype and np.array_equal(y_in, y_copy)
        assert s_in.dtype == s_copy.dtype and np.array_equal(s_in, s_copy, equal_nan=True)
        assert np.signbit(s_in).tolist() == np.signbit(s_copy).tolist()
    else:
        assert y_in == y_copy and s_in == s_copy


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("metric", ["label_ranking_average_precision_score", "label_ranking_loss"])
def test_sparse_y_true(metric: str, fmt: str) -> None:
    """scipy.sparse y_true (scikit-learn accepts CSR for these two) gives the dense value."""
    f = getattr(sklearn, metric)
    want = f(Y, S, sample_weight=W)
    got = f(scipy.sparse.csr_matrix(Y).asformat(fmt), S, sample_weight=W)
    assert bits(got) == bits(want)
    for dtype in (np.bool_, np.float64, np.int8):
        assert bits(f(scipy.sparse.csr_matrix(Y.astype(dtype)), S, sample_weight=W)) == bits(want)


@pytest.mark.parametrize("layout", ["C", "negative", "list", "byteswapped"])
def test_weights_in_any_layout(layout: str) -> None:
    want = rankmetrics.coverage(Y, S, sample_weight=W)
    w = {"C": W, "negative": W[::-1].copy()[::-1], "list": W.tolist(), "byteswapped": W.astype(">f8")}[layout]
    assert bits(rankmetrics.coverage(Y, S, sample_weight=w)) == bits(want)
    assert bits(rankmetrics.coverage(Y, S, sample_weight=W.astype(np.float32).astype(np.float64))) == bits(
        rankmetrics.coverage(Y, S, sample_weight=W.astype(np.float32))
    )


def test_zero_stride_views() -> None:
    """np.broadcast_to views (zero strides) read as the materialised arrays."""
    row_y, row_s = Y[5], S[5]
    y = np.broadcast_to(row_y, (N, L))
    s = np.broadcast_to(row_s, (N, L))
    for f in (rankmetrics.coverage, rankmetrics.average_precision, rankmetrics.ndcg):
        assert bits(f(y, s)) == bits(f(np.array(y), np.array(s)))
    assert bits(rankmetrics.roc_auc(np.broadcast_to(Y[:, :1], (N, 3)), np.broadcast_to(S[:, :1], (N, 3)))) == bits(
        rankmetrics.roc_auc(np.repeat(Y[:, :1], 3, 1), np.repeat(S[:, :1], 3, 1))
    )


def test_float32_scores_are_not_upcast() -> None:
    """torchmetrics' float32 sigmoid saturates 20 and 18 to 1.0: a tie, so coverage 2;
    float64 keeps them apart."""
    target = [[1, 0]]
    logits = [[20.0, 18.0]]
    for layout in ("C", "F", "negative", "sliced", "byteswapped"):
        s32 = LAYOUTS[layout](np.array(logits, dtype=np.float32))
        s64 = LAYOUTS[layout](np.array(logits, dtype=np.float64))
        assert torchmetrics.multilabel_coverage_error(s32, target, num_labels=2) == 2.0
        assert torchmetrics.multilabel_coverage_error(s64, target, num_labels=2) == 1.0
        assert rankmetrics.evaluate(target, s32, convention="torchmetrics", metric="multilabel_coverage_error") == 2.0
        assert rankmetrics.evaluate(target, s64, convention="torchmetrics", metric="multilabel_coverage_error") == 1.0
    # float16 is read as float32 (exactly representable), never as float64.
    s16 = np.array(logits, dtype=np.float16)
    assert torchmetrics.multilabel_coverage_error(s16, target, num_labels=2) == 2.0
    # Accumulators read the dtype the same way.
    acc = rankmetrics.accumulator(convention="torchmetrics", metric="multilabel_coverage_error")
    acc.update(target, np.array(logits, dtype=np.float32))
    assert acc.value() == 2.0


def test_float32_scores_rank_in_float32() -> None:
    """Two float64 scores that round to one float32 value tie in float32 only."""
    y = [[1, 0]]
    s = np.array([[1.0, 1.0 + 2.0**-30]])
    assert rankmetrics.coverage(y, s) == 1.0
    assert rankmetrics.coverage(y, s.astype(np.float32)) == 1.0  # tie, ties="max": rank 2 → 1 from 0
    assert rankmetrics.coverage(y, s.astype(np.float32), ties="min") == 0.0
    assert rankmetrics.coverage(y, s, ties="min") == 1.0
