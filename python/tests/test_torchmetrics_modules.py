"""rankmetrics.torchmetrics' module classes: update/compute/reset/forward as torchmetrics'
modules, their state exact, picklable and mergeable. The values torchmetrics 1.9.0 gives are
quoted where a rule is its own (measured live: scripts/oracle-torchmetrics)."""

from __future__ import annotations

import copy
import math
import pickle
import warnings

import numpy as np
import pytest

from rankmetrics import IncompatibleStateError, torchmetrics
from rankmetrics.exceptions import ParameterError, RankmetricsError

RNG = np.random.default_rng(7)
Y = (RNG.random((30, 6)) < 0.4).astype(np.int64)
S = RNG.random((30, 6))
MODULES = [
    (torchmetrics.MultilabelCoverageError, torchmetrics.multilabel_coverage_error, {}),
    (
        torchmetrics.MultilabelRankingAveragePrecision,
        torchmetrics.multilabel_ranking_average_precision,
        {},
    ),
    (torchmetrics.MultilabelRankingLoss, torchmetrics.multilabel_ranking_loss, {}),
    (torchmetrics.MultilabelAUROC, torchmetrics.multilabel_auroc, {"average": "micro"}),
    (torchmetrics.MultilabelAveragePrecision, torchmetrics.multilabel_average_precision, {"average": "weighted"}),
]


@pytest.mark.parametrize("module,function,params", MODULES)
def test_batches_give_the_functional_value_of_their_rows(module, function, params) -> None:
    m = module(num_labels=6, **params)
    for start in range(0, 30, 7):
        m.update(S[start : start + 7], Y[start : start + 7])
    assert m.compute() == function(S, Y, num_labels=6, **params)
    m.reset()
    m.update(S[:5], Y[:5])
    assert m.compute() == function(S[:5], Y[:5], num_labels=6, **params)


@pytest.mark.parametrize("module,function,params", MODULES)
def test_forward_gives_the_batch_value_and_adds_the_batch(module, function, params) -> None:
    m = module(num_labels=6, **params)
    assert m(S[:10], Y[:10]) == function(S[:10], Y[:10], num_labels=6, **params)
    assert m.forward(S[10:], Y[10:]) == function(S[10:], Y[10:], num_labels=6, **params)
    assert m.compute() == function(S, Y, num_labels=6, **params)


@pytest.mark.parametrize("module,function,params", MODULES)
def test_state_pickles_copies_and_merges_exactly(module, function, params) -> None:
    a, b = module(num_labels=6, **params), module(num_labels=6, first_row=12, **params)
    a.update(S[:12], Y[:12])
    b.update(S[12:], Y[12:])
    b = pickle.loads(pickle.dumps(b))
    twin = copy.deepcopy(a)
    a.merge_state(b)
    assert a.compute() == function(S, Y, num_labels=6, **params)
    assert twin.compute() == function(S[:12], Y[:12], num_labels=6, **params)  # untouched
    # Rows numbered alike overlap: refused, nothing changed.
    c = module(num_labels=6, **params)
    c.update(S[:3], Y[:3])
    with pytest.raises(IncompatibleStateError):
        twin.merge_state(c)
    assert twin.compute() == function(S[:12], Y[:12], num_labels=6, **params)
    other = torchmetrics.MultilabelRankingLoss if module is not torchmetrics.MultilabelRankingLoss else module
    with pytest.raises(IncompatibleStateError):
        twin.merge_state(other(num_labels=5 if other is module else 6))


def test_batches_of_0_rows_give_what_torchmetrics_gives() -> None:
    """torchmetrics 1.9.0 after one batch of 0 rows: LRAP NaN (forward too), AUROC an
    IndexError; the batch fixes no dtype."""
    empty, none = np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    lrap = torchmetrics.MultilabelRankingAveragePrecision(num_labels=3)
    assert math.isnan(lrap(empty, none)) and math.isnan(lrap.compute())
    lrap.update(np.array([[0.9, 0.5, 0.1]], dtype=np.float32), [[0, 0, 1]])
    assert lrap.compute() == float(np.float32(1 / 3))
    auroc = torchmetrics.MultilabelAUROC(num_labels=3)
    auroc.update(empty, none)
    with pytest.raises(RankmetricsError, match="out of bounds"):
        auroc.compute()
    # A failed update adds nothing and fixes nothing.
    loss = torchmetrics.MultilabelRankingLoss(num_labels=2)
    with pytest.raises(RankmetricsError):
        loss.update(np.array([[0.2, 0.9]], dtype=np.float32), [[2, 0]])
    loss.update(np.array([[0.2, 0.9]]), [[1, 0]])
    assert loss.compute() == 1.0


def test_lrap_module_is_in_float32() -> None:
    m = torchmetrics.MultilabelRankingAveragePrecision(num_labels=3)
    m.update([[0.9, 0.5, 0.1]], [[0, 0, 1]])
    assert m.compute() == float(np.float32(1 / 3))


def test_a_batch_without_a_ranked_row_counts_once_in_the_ranking_loss() -> None:
    """torchmetrics 1.9.0: one row of loss 1, then 5 rows without a relevant label: 0.5
    (scikit-learn's mean over the 6 rows is 1/6). A batch of 0 rows counts once too."""
    m = torchmetrics.MultilabelRankingLoss(num_labels=3)
    m.update([[0.1, 0.5, 0.9]], [[1, 0, 0]])
    m.update(np.zeros((5, 3)), np.zeros((5, 3), dtype=np.int64))
    assert m.compute() == 0.5
    m.update(np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64))
    assert m.compute() == 1 / 3
    # The 5 rows took one row number, the batch of none one more: a module merged after them
    # starts at row 3.
    assert m._acc is not None and m._acc.rows() == [(0, 3)]
    later = torchmetrics.MultilabelRankingLoss(num_labels=3, first_row=3)
    later.update([[0.9, 0.5, 0.1]], [[1, 0, 0]])
    m.merge_state(later)
    assert m.compute() == 1 / 4
    with pytest.raises(RankmetricsError, match="numel"):  # torchmetrics: min() of 0 elements
        torchmetrics.MultilabelCoverageError(num_labels=3).update(np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64))


def test_compute_before_update_warns_as_torchmetrics() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert math.isnan(torchmetrics.MultilabelRankingLoss(num_labels=2).compute())
        with pytest.raises(RankmetricsError, match="No samples to concatenate"):
            torchmetrics.MultilabelAUROC(num_labels=2).compute()
    assert len(caught) == 2 and "before the ``update`` method" in str(caught[0].message)


def test_each_batch_decides_its_own_sigmoid() -> None:
    """Logits in one batch, probabilities in the next: torchmetrics applies the sigmoid to the
    first batch only, as each update decides it."""
    m = torchmetrics.MultilabelCoverageError(num_labels=2)
    m.update(np.array([[20.0, 18.0]], dtype=np.float32), [[1, 0]])  # sigmoid: both 1.0, tied
    m.update(np.array([[0.9, 0.8]], dtype=np.float32), [[1, 0]])
    assert m.compute() == 1.5


def test_what_is_refused() -> None:
    with pytest.raises(ParameterError, match="larger than 1"):
        torchmetrics.MultilabelRankingLoss(num_labels=1)
    with pytest.raises(NotImplementedError):
        torchmetrics.MultilabelRankingLoss(num_labels=2, ignore_index=-1)
    with pytest.raises(NotImplementedError):
        torchmetrics.MultilabelAUROC(num_labels=2, thresholds=10)
    m = torchmetrics.MultilabelRankingLoss(num_labels=2)
    m.update(np.array([[0.2, 0.9]], dtype=np.float32), [[1, 0]])
    with pytest.raises(ParameterError, match="one preds dtype"):
        m.update(np.array([[0.2, 0.9]]), [[1, 0]])
    with pytest.raises(ParameterError, match="number of labels"):
        m.update(np.array([[0.2, 0.9, 0.1]], dtype=np.float32), [[1, 0, 0]])
    assert repr(m) == "MultilabelRankingLoss(num_labels=2, rows=[(0, 1)])"


def test_average_none_gives_each_labels_value_as_torchmetrics() -> None:
    """torchmetrics 1.9.0's per-label values (run live on these inputs): probabilities with
    ties, float32 logits (the sigmoid decided on the whole input), a label without positives
    (0.0), and a module over a batch of probabilities then one of logits."""
    rng = np.random.default_rng(3)
    p = np.round(rng.random((12, 4)), 1)
    t = (rng.random((12, 4)) < 0.4).astype(np.int64)
    t[:, 3] = 0
    logits = rng.normal(0, 3, (12, 4)).astype(np.float32)
    expected = {
        (torchmetrics.multilabel_auroc, "p"): [0.46296295523643494, 0.2857142686843872, 0.4259259104728699, 0.0],
        (torchmetrics.multilabel_average_precision, "p"): [
            0.2777777910232544,
            0.5104617476463318,
            0.23888888955116272,
            0.0,
        ],
        (torchmetrics.multilabel_auroc, "logits"): [0.25925925374031067, 0.5428571105003357, 0.2962963283061981, 0.0],
    }
    for (function, what), values in expected.items():
        for average in ("none", None):
            got = function(p if what == "p" else logits, t, num_labels=4, average=average)
            np.testing.assert_allclose(got, values, rtol=1e-6)
        macro = function(p if what == "p" else logits, t, num_labels=4)
        assert macro == pytest.approx(float(np.mean(values)), rel=1e-6)
    module = torchmetrics.MultilabelAveragePrecision(num_labels=4, average="none")
    module.update(p[:6].astype(np.float32), t[:6])
    module.update(logits[6:], t[6:])
    module_values = [0.31666669249534607, 0.4783188998699188, 0.31060606241226196, 0.0]
    np.testing.assert_allclose(module.compute(), module_values, rtol=1e-6)
    with pytest.raises(IncompatibleStateError):
        module.merge_state(torchmetrics.MultilabelAveragePrecision(num_labels=4, first_row=12))
