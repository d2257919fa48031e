"""Accumulators: pickle/copy round trips, shards merged in any order giving bitwise the
one-shot value, refused merges changing nothing, reset(), corrupted pickles."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
from typing import Any, List, Optional, Tuple

import numpy as np
import pytest
from conftest import parameterless_metrics

import rankmetrics
from rankmetrics import _core
from rankmetrics._rankmetrics import Metric

RNG = np.random.default_rng(7)
N, L = 23, 6
Y = (RNG.random((N, L)) < 0.35).astype(np.uint8)
Y[0], Y[1] = 1, 0
Y[:, 0] = np.arange(N) % 2
S = np.round(RNG.normal(size=(N, L)) * 3) / 4
S[3] = 0.0
W = RNG.random(N) + 0.05

ALL = parameterless_metrics()
TIES = [None, "min", "average", "first", "expected", "random:7", "optimistic"]


def bits(x: float) -> int:
    return int(np.float64(x).view(np.uint64))


def outcome(f: Any) -> Tuple[str, Any]:
    """A value's bits, or the error's class and kind."""
    try:
        return "value", bits(f())
    except rankmetrics.RankmetricsError as e:
        return type(e).__name__, e.kind


def weighted(convention: str, metric: str) -> bool:
    # torchmetrics has no weights; every other preset takes them.
    return convention != "torchmetrics"


def make(convention: str, metric: str, ties: Optional[str], first_row: int = 0) -> rankmetrics.Accumulator:
    return rankmetrics.accumulator(convention=convention, metric=metric, ties=ties, first_row=first_row)


def supported(convention: str, metric: str, ties: Optional[str]) -> bool:
    try:
        rankmetrics.evaluate(Y[:4], S[:4], convention=convention, metric=metric, ties=ties)
    except rankmetrics.ParameterError:
        return False
    except rankmetrics.RankmetricsError:
        pass
    return True


CUTS = [(0, 5, 6, N), (0, 11, N), (0, 1, 2, 3, N)]


def shards(
    convention: str, metric: str, ties: Optional[str], cuts: Tuple[int, ...], w: Optional[np.ndarray]
) -> List[rankmetrics.Accumulator]:
    out = []
    for a, b in zip(cuts, cuts[1:]):
        acc = make(convention, metric, ties, first_row=a)
        acc.update(Y[a:b], S[a:b], None if w is None else w[a:b])
        out.append(acc)
    return out


@pytest.mark.parametrize("ties", TIES, ids=str)
@pytest.mark.parametrize("convention,metric", ALL, ids=[f"{c}-{m}" for c, m in ALL])
def test_shards_merge_to_the_one_shot_value(convention: str, metric: str, ties: Optional[str]) -> None:
    if not supported(convention, metric, ties):
        pytest.skip(f"{convention} {metric} takes no ties={ties}")
    for w in (None, W) if weighted(convention, metric) else (None,):
        want = outcome(
            lambda: rankmetrics.evaluate(Y, S, convention=convention, metric=metric, ties=ties, sample_weight=w)
        )
        # One accumulator fed batch by batch.
        acc = make(convention, metric, ties)
        for a, b in zip(CUTS[0], CUTS[0][1:]):
            acc.update(Y[a:b], S[a:b], None if w is None else w[a:b])
        assert outcome(acc.value) == want
        assert acc.rows() == [(0, N)]
        for cuts in CUTS:
            parts = shards(convention, metric, ties, cuts, w)
            orders = list(itertools.permutations(range(len(parts))))
            for order in orders[:: max(1, len(orders) // 8)]:
                total = copy.copy(parts[order[0]])
                for i in order[1:]:
                    total.merge(parts[i])
                assert total.rows() == [(0, N)], order
                assert outcome(total.value) == want, (cuts, order)
            # Pickled shards (as sent back from worker processes) merge the same.
            total = pickle.loads(pickle.dumps(parts[-1]))
            for p in reversed(parts[:-1]):
                total.merge(pickle.loads(pickle.dumps(p)))
            assert outcome(total.value) == want


LABELWISE = [
    ("roc_auc", "macro", "average"),
    ("roc_auc", "micro", "min"),
    ("roc_auc", "samples", "expected"),
    ("roc_auc", "weighted", "optimistic"),
    ("label_average_precision", "macro", "max"),
    ("label_average_precision", "micro", "expected"),
    ("label_average_precision", "samples", "pessimistic"),
]


@pytest.mark.parametrize("name,average,ties", LABELWISE)
def test_labelwise_shards(name: str, average: str, ties: str) -> None:
    m = Metric.preset("rankmetrics", name, [("average", average), ("undefined", "skip")], ties)
    want = outcome(lambda: m.evaluate(Y, S, W, 1))
    for cuts in CUTS:
        parts = []
        for a, b in zip(cuts, cuts[1:]):
            acc = _core.metric_accumulator(m, a)
            acc.update(Y[a:b], S[a:b], W[a:b])
            parts.append(acc)
        for order in list(itertools.permutations(range(len(parts))))[:6]:
            total = copy.deepcopy(parts[order[0]])
            for i in order[1:]:
                total.merge(parts[i])
            assert outcome(total.value) == want


@pytest.mark.parametrize("convention,metric", ALL, ids=[f"{c}-{m}" for c, m in ALL])
def test_round_trips(convention: str, metric: str) -> None:
    acc = make(convention, metric, None, first_row=4)
    acc.update(Y[4:15], S[4:15])
    want = outcome(acc.value)
    for twin in (
        pickle.loads(pickle.dumps(acc)),
        copy.copy(acc),
        copy.deepcopy(acc),
        pickle.loads(pickle.dumps(acc, protocol=0)),
    ):
        assert twin == acc
        assert twin is not acc
        assert twin.rows() == acc.rows() == [(4, 15)]
        assert outcome(twin.value) == want
    # The copies are independent.
    twin = copy.copy(acc)
    twin.update(Y[15:], S[15:])
    assert acc.rows() == [(4, 15)] and twin.rows() == [(4, N)]
    assert twin != acc
    assert outcome(acc.value) == want


@pytest.mark.parametrize("convention,metric", ALL, ids=[f"{c}-{m}" for c, m in ALL])
def test_refused_merges_change_nothing(convention: str, metric: str) -> None:
    a = make(convention, metric, None)
    a.update(Y[:10], S[:10])
    b = make(convention, metric, None, first_row=5)
    b.update(Y[5:12], S[5:12])
    before, before_value = copy.copy(a), outcome(a.value)
    with pytest.raises(rankmetrics.IncompatibleStateError) as e:
        a.merge(b)
    assert e.value.kind == "Overlap"
    assert a == before and outcome(a.value) == before_value and a.rows() == [(0, 10)]
    assert b.rows() == [(5, 12)]
    # The same rows twice.
    with pytest.raises(rankmetrics.IncompatibleStateError):
        a.merge(copy.copy(a))
    assert a == before
    # Another metric (or the same one with another tie rule) never merges.
    other = next(m for m in rankmetrics.metric_names(convention) if m != metric)
    c = make(convention, other, None, first_row=10)
    c.update(Y[10:], S[10:])
    with pytest.raises(rankmetrics.IncompatibleStateError):
        a.merge(c)
    assert a == before
    if supported(convention, metric, "optimistic"):
        d = make(convention, metric, "optimistic", first_row=10)
        d.update(Y[10:], S[10:])
        with pytest.raises(rankmetrics.IncompatibleStateError):
            a.merge(d)
        assert a == before
    e2 = make(
        "rankmetrics" if convention != "rankmetrics" else "mulan",
        "coverage" if convention != "rankmetrics" else "Coverage",
        None,
        first_row=10,
    )
    with pytest.raises(rankmetrics.IncompatibleStateError):
        a.merge(e2)
    with pytest.raises(TypeError):
        a.merge("not an accumulator")  # type: ignore[arg-type]
    assert a == before


def test_merging_different_shapes_is_refused() -> None:
    a = make("rankmetrics", "coverage", None)
    a.update(Y[:5], S[:5])
    b = make("rankmetrics", "coverage", None, first_row=5)
    b.update(Y[5:10, :3], S[5:10, :3])
    before = copy.copy(a)
    with pytest.raises(rankmetrics.RankmetricsError):
        a.merge(b)
    assert a == before
    # Weighted and unweighted shards.
    c = make("rankmetrics", "coverage", None, first_row=5)
    c.update(Y[5:10], S[5:10], W[5:10])
    with pytest.raises(rankmetrics.RankmetricsError):
        a.merge(c)
    assert a == before


@pytest.mark.parametrize("convention,metric", ALL, ids=[f"{c}-{m}" for c, m in ALL])
def test_reset(convention: str, metric: str) -> None:
    fresh = make(convention, metric, None, first_row=3)
    acc = make(convention, metric, None, first_row=3)
    acc.update(Y[3:9], S[3:9])
    want = outcome(acc.value)
    acc.reset()
    assert acc == fresh and acc.rows() == []
    assert outcome(acc.value) == outcome(fresh.value)
    acc.update(Y[3:9], S[3:9])
    assert acc.rows() == [(3, 9)] and outcome(acc.value) == want


def test_failed_update_changes_nothing() -> None:
    acc = make("sklearn", "label_ranking_loss", None)
    acc.update(Y[:5], S[:5])
    before = copy.copy(acc)
    bad = S[5:9].copy()
    bad[2, 3] = np.nan
    with pytest.raises(rankmetrics.RankmetricsError):
        acc.update(Y[5:9], bad)
    assert acc == before
    with pytest.raises(rankmetrics.RankmetricsError):
        acc.update(Y[5:9, :3], S[5:9, :3])
    assert acc == before
    acc.update(Y[5:], S[5:])
    assert bits(acc.value()) == bits(rankmetrics.evaluate(Y, S, convention="sklearn", metric="label_ranking_loss"))


def _state(convention: str = "sklearn", metric: str = "label_ranking_loss") -> bytes:
    acc = make(convention, metric, None, first_row=2)
    acc.update(Y[2:9], S[2:9], None if convention == "torchmetrics" else W[2:9])
    return pickle.dumps(acc)


# Errors about a state's contents: a state is checked whole when loaded, so one that loads
# never gives them later.
FOUND_LATE = {
    "InvalidLabel",
    "NonFiniteScore",
    "InvalidWeight",
    "WeightLength",
    "LabelWeightLength",
    "InvalidK",
    "InvalidLogBase",
    "InvalidLabelWeight",
    "NotExactInRuns",
    "TooFewLabels",
    "NoLabels",
    "ShapeMismatch",
    "Input",
}


def _survives(state: bytes) -> None:
    """Loading ``state`` (as unpickling does) raises IncompatibleStateError, or gives an
    accumulator whose value is not an error about its contents and whose every method returns
    or raises a package error (never a panic: a PanicException is no RankmetricsError and fails
    the test)."""
    acc = rankmetrics.accumulator(metric="coverage")
    try:
        acc.__setstate__(state)
    except rankmetrics.IncompatibleStateError:
        return
    try:
        acc.value()
    except rankmetrics.RankmetricsError as e:
        # scikit-learn's label-wise presets keep rows whose labels batches check one by one:
        # three distinct values across batches are the one-shot error, when the value is read.
        indicator = e.kind == "InvalidLabel" and "multilabel-indicator" in str(e.details.get("expected"))
        assert e.kind not in FOUND_LATE or indicator, f"{e.kind}: {e}"
        assert e.kind != "NoSamples" or acc.rows() == []
    for f in (
        acc.value,
        acc.rows,
        lambda: acc.update(Y[9:12], S[9:12]),
        acc.value,
        lambda: acc.merge(pickle.loads(_state())),
        lambda: pickle.dumps(acc),
        acc.reset,
        acc.value,
    ):
        try:
            f()
        except rankmetrics.RankmetricsError:
            pass


@pytest.mark.parametrize(
    "convention,metric",
    [
        ("sklearn", "label_ranking_loss"),
        ("mulan", "AveragePrecision"),
        ("sklearn", "roc_auc_score"),
        ("torchmetrics", "multilabel_coverage_error"),
        ("mldr", "macro_auc"),
        ("rankmetrics", "ndcg"),
    ],
)
def test_corrupted_state(convention: str, metric: str) -> None:
    acc = make(convention, metric, None, first_row=2)
    acc.update(Y[2:9], S[2:9], None if convention == "torchmetrics" else W[2:9])
    state = acc.__getstate__()
    # Not a state at all.
    for bad in (
        b"",
        b"{",
        b"null",
        b"[]",
        b"{}",
        b"\xff\xfe",
        state[:-1],
        state[: len(state) // 2],
        state + b"x",
        state.replace(b'"version":6', b'"version":7'),
        state.replace(b'"state"', b'"stat"', 1),
    ):
        with pytest.raises(rankmetrics.IncompatibleStateError):
            fresh = copy.copy(acc)
            fresh.__setstate__(bad)
    # Well-formed JSON with every number or list mutated, one at a time: refused, or a state
    # that never panics.
    doc = json.loads(state)
    paths: List[Tuple[Any, ...]] = []

    def walk(node: Any, path: Tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            paths.append(path)
            for i, v in enumerate(node):
                walk(v, path + (i,))
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            paths.append(path)
        elif isinstance(node, (str, bool)) or node is None:
            paths.append(path)

    walk(doc, ())
    mutations = [
        0,
        -1,
        1,
        2**63,
        2**64 - 1,
        2**70,
        10**6,
        [],
        [0],
        None,
        "x",
        True,
        4607182418800017408,
        9221120237041090560,
    ]
    for path in paths:
        for new in mutations:
            d = json.loads(state)
            node = d
            for k in path[:-1]:
                node = node[k]
            old = node[path[-1]]
            if isinstance(old, list) and isinstance(new, list) and old:
                new = old[:-1] if new == [] else old + old[-1:]
            node[path[-1]] = new
            _survives(json.dumps(d).encode())
    # Random byte flips of the state.
    rng = np.random.default_rng(1)
    raw = state
    for _ in range(200):
        b = bytearray(raw)
        for i in rng.integers(0, len(b), size=rng.integers(1, 4)):
            b[i] = int(rng.integers(0, 256))
        _survives(bytes(b))
