"""rankmetrics.torchmetrics' retrieval modules (RetrievalPrecision, RetrievalRecall,
RetrievalMAP, RetrievalMRR, RetrievalNormalizedDCG): documents grouped by ``indexes`` as
torchmetrics' ``compute`` groups them. The expected values are torchmetrics 1.9.0's on torch
2.15 (CPU), run live on the same inputs (scripts/oracle-torchmetrics runs thousands more)."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

from rankmetrics import IncompatibleStateError, torchmetrics
from rankmetrics.exceptions import ParameterError, RankmetricsError

PREDS = np.array([0.2, 0.5, 0.7, 0.1, 0.9, 0.3, 0.6], dtype=np.float32)
TARGET = np.array([1, 0, 0, 0, 1, 1, 0])
INDEXES = np.array([0, 0, 1, 1, 2, 2, 2])  # query 1 has no relevant document
MODULES = {
    "RetrievalPrecision": torchmetrics.RetrievalPrecision,
    "RetrievalRecall": torchmetrics.RetrievalRecall,
    "RetrievalMAP": torchmetrics.RetrievalMAP,
    "RetrievalMRR": torchmetrics.RetrievalMRR,
    "RetrievalNormalizedDCG": torchmetrics.RetrievalNormalizedDCG,
}
# torchmetrics' values on (PREDS, TARGET, INDEXES) for each empty_target_action.
EXPECTED = {
    "neg": {
        "RetrievalPrecision": 0.3888889253139496,
        "RetrievalRecall": 0.6666666865348816,
        "RetrievalMAP": 0.4444444477558136,
        "RetrievalMRR": 0.5,
        "RetrievalNormalizedDCG": 0.5168835520744324,
    },
    "pos": {
        "RetrievalPrecision": 0.7222222685813904,
        "RetrievalRecall": 1.0,
        "RetrievalMAP": 0.7777778506278992,
        "RetrievalMRR": 0.8333333134651184,
        "RetrievalNormalizedDCG": 0.8502168655395508,
    },
    "skip": {
        "RetrievalPrecision": 0.5833333730697632,
        "RetrievalRecall": 1.0,
        "RetrievalMAP": 0.6666666865348816,
        "RetrievalMRR": 0.75,
        "RetrievalNormalizedDCG": 0.7753252983093262,
    },
}


def _computed(module, *batches):
    for preds, target, indexes in batches:
        module.update(preds, target, indexes=indexes)
    return module.compute()


@pytest.mark.parametrize("action", sorted(EXPECTED))
@pytest.mark.parametrize("name", sorted(MODULES))
def test_empty_target_action_gives_torchmetrics_value(name: str, action: str) -> None:
    got = _computed(MODULES[name](empty_target_action=action), (PREDS, TARGET, INDEXES))
    assert got == EXPECTED[action][name]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_an_empty_query_under_error_raises_torchmetrics_message(name: str) -> None:
    with pytest.raises(ValueError, match="`compute` method was provided with a query with no positive target."):
        _computed(MODULES[name](empty_target_action="error"), (PREDS, TARGET, INDEXES))


def test_aggregations_are_torchs() -> None:
    # torch's lower median of [1/2, 0, 5/6] is 0.5; a callable gets the values and dim=None.
    expected = {"median": 0.5, "min": 0.0, "max": 0.8333333730697632}
    for aggregation, value in expected.items():
        assert _computed(torchmetrics.RetrievalMAP(aggregation=aggregation), (PREDS, TARGET, INDEXES)) == value
    total = torchmetrics.RetrievalMAP(aggregation=lambda x, dim: x.sum())
    assert _computed(total, (PREDS, TARGET, INDEXES)) == pytest.approx(1.3333333730697632)
    # Every query skipped: 0.0.
    skipped = torchmetrics.RetrievalMAP(empty_target_action="skip")
    assert _computed(skipped, (PREDS, np.zeros(7, dtype=np.int64), INDEXES)) == 0.0


def test_ignore_index_removes_documents_first() -> None:
    target = np.array([1, 0, -1, 0, 1, -1, 0])
    module = torchmetrics.RetrievalPrecision(ignore_index=-1, top_k=1)
    assert _computed(module, (PREDS, target, INDEXES)) == 0.3333333432674408


def test_the_sort_of_the_indexes_orders_tied_documents_as_torch() -> None:
    """Below 32,768 documents torch's unstable sort of the indexes reorders each query's
    documents (which moves tied scores across top_k); from 32,768 its radix sort keeps them."""
    for n, precision, average_precision in [
        (30_000, 0.31599998474121094, 0.38762640953063965),
        (40_000, 0.29100000858306885, 0.39144596457481384),
    ]:
        rng = np.random.default_rng(7)
        indexes = rng.integers(0, 50, n)
        preds = np.round(rng.random(n), 1).astype(np.float32)
        target = (rng.random(n) < 0.3).astype(np.int64)
        batch = (preds, target, indexes)
        assert _computed(torchmetrics.RetrievalPrecision(top_k=20), batch) == precision
        assert _computed(torchmetrics.RetrievalMAP(top_k=20), batch) == average_precision


def test_forward_gives_the_batch_value_and_adds_the_batch() -> None:
    first, second = (PREDS, TARGET, INDEXES), (PREDS[::-1].copy(), TARGET, INDEXES + 3)
    module = torchmetrics.RetrievalMAP()
    assert module(*first) == _computed(torchmetrics.RetrievalMAP(), first)
    assert module(*second) == _computed(torchmetrics.RetrievalMAP(), second)
    assert module.compute() == _computed(torchmetrics.RetrievalMAP(), first, second)
    module.reset()
    with pytest.warns(UserWarning, match="was called before the ``update`` method"):
        with pytest.raises(ValueError, match="No samples to concatenate"):
            module.compute()


def test_state_pickles_copies_and_merges() -> None:
    first, second = (PREDS, TARGET, INDEXES), (PREDS, TARGET[::-1].copy(), INDEXES)
    whole = _computed(torchmetrics.RetrievalPrecision(top_k=2), first, second)
    a, b = torchmetrics.RetrievalPrecision(top_k=2), torchmetrics.RetrievalPrecision(top_k=2)
    a.update(*first)
    b.update(*second)
    twin = copy.deepcopy(a)
    a.merge_state(b)
    assert a.compute() == whole
    assert pickle.loads(pickle.dumps(a)).compute() == whole
    assert twin.compute() == _computed(torchmetrics.RetrievalPrecision(top_k=2), first)
    with pytest.raises(IncompatibleStateError):
        a.merge_state(torchmetrics.RetrievalPrecision(top_k=3))
    with pytest.raises(IncompatibleStateError):
        a.merge_state(torchmetrics.RetrievalRecall(top_k=2))


def test_tie_policies_bound_the_value() -> None:
    preds = np.array([0.5, 0.5, 0.5, 0.5], dtype=np.float32)
    target, indexes = np.array([1, 0, 0, 1]), np.array([0, 0, 1, 1])
    values = {
        ties: _computed(torchmetrics.RetrievalPrecision(top_k=1, ties=ties), (preds, target, indexes))
        for ties in ("optimistic", "pessimistic")
    }
    assert values == {"optimistic": 1.0, "pessimistic": 0.0}


def test_what_torchmetrics_refuses_is_refused_with_its_message() -> None:
    module = torchmetrics.RetrievalPrecision()
    refused = [
        ((PREDS, TARGET, None), "Argument `indexes` cannot be None"),
        ((PREDS, TARGET, INDEXES.astype(np.int32)), "`indexes` must be a tensor of long integers"),
        ((PREDS, TARGET, INDEXES[:3]), "`indexes`, `preds` and `target` must be of the same shape"),
        ((np.float32(0.5), np.int64(1), np.int64(0)), "must be non-empty and non-scalar tensors"),
        ((PREDS, TARGET * 2, INDEXES), "`target` must contain `binary` values"),
        ((PREDS, TARGET.astype(np.uint8), INDEXES), "`target` must be a tensor of booleans, integers or floats"),
        ((TARGET, TARGET, INDEXES), "`preds` must be a tensor of floats"),
    ]
    for (preds, target, indexes), message in refused:
        with pytest.raises(RankmetricsError, match=message):
            module.update(preds, target, indexes)
    with pytest.raises(RankmetricsError, match="must be non-empty"):
        torchmetrics.RetrievalPrecision(ignore_index=0).update(PREDS, np.zeros(7, dtype=np.int64), INDEXES)
    # Nothing was added.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RankmetricsError, match="No samples to concatenate"):
            module.compute()
    constructors = [
        (lambda: torchmetrics.RetrievalPrecision(empty_target_action="bad"), "received a wrong value `bad`"),
        (lambda: torchmetrics.RetrievalPrecision(aggregation="sum"), "Argument `aggregation` must be one of"),
        (lambda: torchmetrics.RetrievalPrecision(ignore_index=0.5), "must be an integer or None"),
        (lambda: torchmetrics.RetrievalPrecision(top_k=0), "`top_k` has to be a positive integer or None"),
        (lambda: torchmetrics.RetrievalNormalizedDCG(top_k=-1), "`top_k` has to be a positive integer or None"),
        (lambda: torchmetrics.RetrievalPrecision(adaptive_k=1), "`adaptive_k` has to be a boolean"),
    ]
    for make, message in constructors:
        with pytest.raises(ParameterError, match=message):
            make()


def test_map_and_mrr_take_what_torchmetrics_takes_and_fail_where_it_fails() -> None:
    """torchmetrics' MAP and MRR constructors let any int through (0 is every document) and
    fail at the first query valued (torch's topk), not when every query is empty."""
    assert _computed(torchmetrics.RetrievalMAP(top_k=0), (PREDS, TARGET, INDEXES)) == EXPECTED["neg"]["RetrievalMAP"]
    with pytest.raises(ParameterError, match="selected index k out of range"):
        _computed(torchmetrics.RetrievalMRR(top_k=-1), (PREDS, TARGET, INDEXES))
    with pytest.raises(ParameterError, match="must be int, not float"):
        _computed(torchmetrics.RetrievalMAP(top_k=1.5), (PREDS, TARGET, INDEXES))
    empty = (PREDS, np.zeros(7, dtype=np.int64), INDEXES)
    assert _computed(torchmetrics.RetrievalMRR(top_k=-1), empty) == 0.0


def test_merge_state_puts_the_incoming_documents_first() -> None:
    """torchmetrics' merge_state builds incoming + local, which orders tied documents."""
    a, b = torchmetrics.RetrievalPrecision(top_k=1), torchmetrics.RetrievalPrecision(top_k=1)
    a.update(np.array([0.5], dtype=np.float32), np.array([1]), np.array([0]))
    b.update(np.array([0.5], dtype=np.float32), np.array([0]), np.array([0]))
    a.merge_state(b)
    assert a.compute() == 0.0  # torchmetrics' value: b's document comes first


def test_constructor_arguments_are_checked_in_torchmetrics_order() -> None:
    cases = [
        ({"empty_target_action": "bad", "top_k": -1}, "received a wrong value `bad`"),
        ({"aggregation": "sum", "adaptive_k": 3}, "Argument `aggregation` must be one of"),
        ({"ignore_index": 1.5, "top_k": 0}, "must be an integer or None"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ParameterError, match=message):
            torchmetrics.RetrievalPrecision(**kwargs)


def test_a_top_k_that_topk_refuses_fails_where_torch_fails() -> None:
    """MAP's top_k=3.0 is min(3.0, n) = n on queries of 2 documents, which torch's topk takes;
    an empty query under "error" met first raises its own error."""
    preds, indexes = np.array([0.2, 0.5, 0.7, 0.1], dtype=np.float32), np.array([0, 0, 1, 1])
    assert _computed(torchmetrics.RetrievalMAP(top_k=3.0), (preds, np.array([1, 0, 0, 1]), indexes)) == 0.5
    first_empty = (preds, np.array([0, 0, 0, 1]), indexes)
    with pytest.raises(RankmetricsError, match="query with no positive target"):
        _computed(torchmetrics.RetrievalMAP(top_k=-1, empty_target_action="error"), first_empty)


def test_non_finite_inputs_are_refused_at_update_with_their_place() -> None:
    preds = PREDS.copy()
    preds[4] = np.nan
    with pytest.raises(RankmetricsError, match="preds at flat position 4 of this batch is nan") as e:
        torchmetrics.RetrievalMAP().update(preds, TARGET, INDEXES)
    assert e.value.kind == "NonFiniteScore"


def test_floating_targets_sum_in_float32_as_torch() -> None:
    """NDCG gains [1e8, 1, -1e8] sum to 0 in float32: torchmetrics counts the query as empty
    (0.0 under "neg"); as int64 gains they sum to 1 and the query is valued."""
    preds, indexes = np.array([0.9, 0.5, 0.1], dtype=np.float32), np.zeros(3, dtype=np.int64)
    floating = np.array([1e8, 1.0, -1e8], dtype=np.float32)
    assert _computed(torchmetrics.RetrievalNormalizedDCG(), (preds, floating, indexes)) == 0.0
    integers = np.array([100_000_000, 1, -100_000_000])
    assert _computed(torchmetrics.RetrievalNormalizedDCG(), (preds, integers, indexes)) == 1.0
    # Batches of int and float targets join as float32, as torch.cat promotes them.
    mixed = torchmetrics.RetrievalMAP()
    mixed.update(PREDS[:4], TARGET[:4], INDEXES[:4])
    mixed.update(PREDS[4:], TARGET[4:].astype(np.float32), INDEXES[4:])
    assert mixed.compute() == EXPECTED["neg"]["RetrievalMAP"]
