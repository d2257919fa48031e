"""rankmetrics.torchmetrics on inputs as torch users pass them: tensors out of a model
(tracked by autograd, half precision), 2-D retrieval inputs, and the edge inputs where
torchmetrics returns a value or raises. The expected values are torchmetrics 1.9.0's own
(torch 2.15, CPU), as scripts/oracle-torchmetrics checks them live; torch is not needed here:
a stand-in tensor class has the methods that rankmetrics calls.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import rankmetrics
from rankmetrics import torchmetrics
from rankmetrics.exceptions import RankmetricsError


class FakeTensor:
    """What rankmetrics reads of a torch tensor: ``detach()``, ``cpu()``, ``float()``, a
    ``dtype`` named as torch names it, and ``__array__``, which refuses while the tensor is
    tracked by autograd (as torch does) and for bfloat16 (which numpy lacks)."""

    def __init__(self, values: Any, dtype: str, requires_grad: bool = False) -> None:
        self.values = np.asarray(values, dtype=np.float32 if dtype == "torch.bfloat16" else None)
        self.dtype = dtype
        self.requires_grad = requires_grad

    def detach(self) -> "FakeTensor":
        return FakeTensor(self.values, self.dtype)

    def cpu(self) -> "FakeTensor":
        return self

    def float(self) -> "FakeTensor":
        return FakeTensor(self.values.astype(np.float32), "torch.float32")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if self.dtype == "torch.bfloat16":
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self.values if dtype is None else self.values.astype(dtype)


def test_tracked_tensors_are_read_detached() -> None:
    preds = FakeTensor(np.array([[0.9, 0.5, 0.1], [0.2, 0.3, 0.8]], dtype=np.float32), "torch.float32", True)
    target = [[0, 1, 0], [1, 0, 1]]
    assert torchmetrics.multilabel_ranking_loss(preds, target, num_labels=3) == torchmetrics.multilabel_ranking_loss(
        preds.values, target, num_labels=3
    )


def test_float16_logits_take_the_half_precision_sigmoid() -> None:
    """torchmetrics: sigmoid(10) and sigmoid(9) are both 1.0 in float16, so coverage 2.0;
    in float32 they stay apart (1.0)."""
    target = [[1, 0]]
    logits = np.array([[10.0, 9.0]], dtype=np.float16)
    assert torchmetrics.multilabel_coverage_error(logits, target, num_labels=2) == 2.0
    assert torchmetrics.multilabel_coverage_error(logits.astype(np.float32), target, num_labels=2) == 1.0
    assert torchmetrics.multilabel_coverage_error(FakeTensor(logits, "torch.float16"), target, num_labels=2) == 2.0


def test_bfloat16_tensors_are_widened_and_take_the_bfloat16_sigmoid() -> None:
    """bfloat16 keeps 8 significant bits: sigmoid(3.0) and sigmoid(3.015625) round to one value
    (torchmetrics: coverage 2.0 with the relevant label second)."""
    preds = FakeTensor([[3.0, 3.015625, -2.0]], "torch.bfloat16")
    target = [[0, 1, 0]]
    assert torchmetrics.multilabel_coverage_error(preds, target, num_labels=3) == 2.0
    assert torchmetrics.multilabel_coverage_error(preds.values, target, num_labels=3) == 1.0


@pytest.mark.parametrize(
    "preds",
    [[[1, 0, 1]], np.array([[True, False, True]]), FakeTensor(np.array([[1, 0, 1]]), "torch.int64")],
    ids=["list of ints", "bool", "int64 tensor"],
)
def test_integer_and_bool_preds_are_refused(preds: Any) -> None:
    for f in (
        torchmetrics.multilabel_coverage_error,
        torchmetrics.multilabel_ranking_average_precision,
        torchmetrics.multilabel_ranking_loss,
    ):
        with pytest.raises(RankmetricsError, match="Expected preds tensor to be floating point"):
            f(preds, [[1, 0, 0]], num_labels=3)


def test_zero_rows_give_what_torchmetrics_gives() -> None:
    preds, target = np.zeros((0, 3), dtype=np.float32), np.zeros((0, 3), dtype=np.int64)
    assert math.isnan(torchmetrics.multilabel_ranking_average_precision(preds, target, num_labels=3))
    assert torchmetrics.multilabel_ranking_loss(preds, target, num_labels=3) == 0.0
    with pytest.raises(RankmetricsError):  # torchmetrics: the minimum of an empty tensor
        torchmetrics.multilabel_coverage_error(preds, target, num_labels=3)


def test_retrieval_inputs_of_any_shape_are_one_query() -> None:
    """torchmetrics flattens a 2-D call into one query of 4 documents: 0.7853209376335144,
    in its float32 arithmetic, to the bit."""
    preds, target = [[0.9, 0.1], [0.1, 0.9]], [[1, 0], [1, 0]]
    got = torchmetrics.retrieval_normalized_dcg(preds, target)
    assert got == 0.7853209376335144
    assert got == torchmetrics.retrieval_normalized_dcg(np.ravel(preds), np.ravel(target))


def test_ndcg_is_computed_in_float32() -> None:
    """torchmetrics' retrieval_normalized_dcg(torch.linspace(1, 0, 11), [0]*10 + [1]) is
    0.2789425849914551; the exact value is 0.2789429456511298 (the registry's default)."""
    preds, target = np.linspace(1, 0, 11, dtype=np.float32), [0] * 10 + [1]
    assert torchmetrics.retrieval_normalized_dcg(preds, target) == 0.2789425849914551
    exact = rankmetrics.evaluate([target], [preds], convention="torchmetrics", metric="retrieval_normalized_dcg")
    assert exact == 0.2789429456511298


def test_retrieval_edge_inputs() -> None:
    with pytest.raises(RankmetricsError, match="same shape"):
        torchmetrics.retrieval_normalized_dcg([0.2, 0.5], [[1, 0]])
    with pytest.raises(RankmetricsError, match="non-empty"):
        torchmetrics.retrieval_normalized_dcg(np.zeros(0), np.zeros(0, dtype=np.int64))
    with pytest.raises(RankmetricsError, match="tensor of floats"):
        torchmetrics.retrieval_normalized_dcg(np.array([1, 0, 2]), [1, 0, 0])
    with pytest.raises(RankmetricsError, match="booleans, integers or floats"):
        torchmetrics.retrieval_normalized_dcg([0.2, 0.5], np.array([1, 0], dtype=np.uint8))
    # A bool top_k is the int it is, as torchmetrics' check takes it: top_k=True is top_k=1.
    assert torchmetrics.retrieval_normalized_dcg([0.2, 0.5], [1, 0], top_k=True) == 0.0


def test_binary_retrieval_edge_inputs() -> None:
    """torchmetrics 1.9.0 raises on targets outside [0, 1] and on a bool top_k for topk; a
    relevant document scored at most 0 never counts; fractions in [0, 1], which torchmetrics
    takes, are refused here (a deliberate difference)."""
    preds = [0.9, 0.8, -0.2]
    with pytest.raises(RankmetricsError, match="`binary` values"):
        torchmetrics.retrieval_recall(preds, [2, 0, 1])
    with pytest.raises(RankmetricsError, match="does not take the fractions"):
        torchmetrics.retrieval_recall(preds, [0.5, 0, 1])
    with pytest.raises(RankmetricsError, match="not bool"):
        torchmetrics.retrieval_precision(preds, [1, 0, 1], top_k=True)
    assert torchmetrics.retrieval_recall(preds, [1, 0, 1], top_k=True) == 0.5  # argsort[:True]
    assert torchmetrics.retrieval_recall(preds, [1, 0, 1]) == 0.5
    assert torchmetrics.retrieval_precision([0.9, 0.8, 0.7], [1, 0, 1], top_k=5) == float(np.float32(0.4))
    assert torchmetrics.retrieval_average_precision([0.9, 0.8, 0.7], [1, 0, 1], top_k=1) == 1.0
    assert torchmetrics.retrieval_average_precision([0.9, 0.8, 0.7], [1, 0, 1], top_k=0) == float(
        np.float32((1 + np.float32(2 / 3)) / 2)
    )
    with pytest.raises(RankmetricsError, match="non-negative"):
        torchmetrics.retrieval_reciprocal_rank([0.9, 0.8], [1, 0], top_k=-1)


@pytest.mark.parametrize(
    "layout,coverage,lrap",
    [("c", 12.5, 0.5208333134651184), ("f", 13.0, 0.2708333432674408), ("strided", 12.5, 0.5208333134651184)],
)
def test_the_vector_sigmoid_follows_the_tensors_memory_order(layout: str, coverage: float, lrap: float) -> None:
    """Two float32 logits one step apart at row 1, labels 10 and 11 of a 2 x 24 tensor: on
    AVX-512 torch's vector sigmoid ties them in Fortran order (elements 21 and 23, in the
    first block of 32), not in C order (34 and 35, left over) nor in a strided view (one at a
    time). torchmetrics 1.9.0's values on torch 2.15 (p.t().contiguous().t(), big[:, ::2])."""
    p = np.full((2, 24), -5.0, dtype=np.float32)
    p[1, 10], p[1, 11] = -1.0408391952514648, -1.0408390760421753
    t = np.zeros((2, 24), dtype=np.int64)
    t[1, 11] = t[0, 3] = 1
    if layout == "f":
        p = np.asfortranarray(p)
    elif layout == "strided":
        big = np.full((2, 48), -5.0, dtype=np.float32)
        big[:, ::2] = p
        p = big[:, ::2]
    preds = FakeTensor(p, "torch.float32")
    kernel = {"num_labels": 24, "sigmoid": "avx512"}
    assert torchmetrics.multilabel_coverage_error(preds, t, **kernel) == coverage
    assert torchmetrics.multilabel_ranking_average_precision(preds, t, **kernel) == lrap
    module = torchmetrics.MultilabelCoverageError(**kernel)
    module.update(np.ascontiguousarray(p), t)  # a batch of its own, in C order
    module.update(preds, t)
    assert module.compute() == (12.5 + coverage) / 2
