"""Accumulators that keep each label's runs (``state="runs"``): shards merged in any order,
pickled or not, give bitwise the one-shot value, which scikit-learn itself gives too; what runs
cannot give exactly is refused; the engines ship runs where they are exact."""

from __future__ import annotations

import copy
import itertools
import pickle
from typing import Any, Optional

import numpy as np
import pytest
import sklearn.metrics
from conftest import parameterless_metrics
from test_state import bits, outcome  # the same comparison as the row-keeping accumulators'

import rankmetrics
from rankmetrics import _distributed

RNG = np.random.default_rng(11)
N, L = 41, 5
Y = (RNG.random((N, L)) < 0.4).astype(np.uint8)
Y[:, 0] = np.arange(N) % 2
# Four score levels: ties everywhere.
S = RNG.integers(0, 4, size=(N, L)) / 4
W = RNG.random(N) + 0.05

ALL = parameterless_metrics()
TIES = [None, "max", "min", "average", "expected", "optimistic", "pessimistic", "first", "random:3"]
CUTS = [(0, 7, 8, N), (0, 20, N), (0, 1, 2, 3, N)]


def runs(
    convention: str, metric: str, ties: Optional[str], first_row: int = 0, **params: Any
) -> rankmetrics.Accumulator:
    return rankmetrics.accumulator(
        convention=convention, metric=metric, ties=ties, first_row=first_row, state="runs", **params
    )


def refused(f: Any) -> bool:
    try:
        f()
    except rankmetrics.ParameterError as e:
        if e.kind == "NotExactInRuns":
            return True
        raise
    return False


@pytest.mark.parametrize("ties", TIES, ids=str)
@pytest.mark.parametrize("convention,metric", ALL, ids=[f"{c}-{m}" for c, m in ALL])
def test_runs_merge_to_the_one_shot_value(convention: str, metric: str, ties: Optional[str]) -> None:
    try:
        rankmetrics.evaluate(Y[:4], S[:4], convention=convention, metric=metric, ties=ties)
    except rankmetrics.ParameterError:
        pytest.skip(f"{convention} {metric} takes no ties={ties}")
    except rankmetrics.RankmetricsError:
        pass
    if refused(lambda: runs(convention, metric, ties)):
        # Only the policies that order a tie by position, and what reads more than the ties.
        assert (
            ties in ("first", "random:3")
            or convention == "mldr"
            or "samples" in metric
            or rankmetrics.accumulator(convention=convention, metric=metric, ties=ties) is not None
        )
        return
    want = outcome(lambda: rankmetrics.evaluate(Y, S, convention=convention, metric=metric, ties=ties))
    for cuts in CUTS:
        parts = []
        for a, b in zip(cuts, cuts[1:]):
            acc = runs(convention, metric, ties, first_row=a)
            acc.update(Y[a:b], S[a:b])
            parts.append(acc)
        orders = list(itertools.permutations(range(len(parts))))
        for order in orders[:: max(1, len(orders) // 6)]:
            total = copy.copy(parts[order[0]])
            for i in order[1:]:
                total.merge(parts[i])
            assert total.rows() == [(0, N)]
            assert outcome(total.value) == want, (cuts, order)
        total = pickle.loads(pickle.dumps(parts[-1]))
        for p in reversed(parts[:-1]):
            total.merge(pickle.loads(pickle.dumps(p)))
        assert outcome(total.value) == want


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_runs_give_what_scikit_learn_gives(average: str) -> None:
    for metric, oracle in (
        ("roc_auc_score", sklearn.metrics.roc_auc_score),
        ("average_precision_score", sklearn.metrics.average_precision_score),
    ):
        parts = []
        for a, b in zip(CUTS[0], CUTS[0][1:]):
            acc = runs("sklearn", metric, None, first_row=a, average=average)
            acc.update(Y[a:b], S[a:b])
            parts.append(acc)
        total = parts[-1]
        for p in parts[:-1]:
            total.merge(p)
        want = oracle(Y, S, average=average)
        assert total.value() == pytest.approx(want, rel=1e-12, abs=1e-15), metric
        one = rankmetrics.evaluate(Y, S, convention="sklearn", metric=metric, average=average)
        assert bits(total.value()) == bits(one)


def test_typed_metrics_keep_runs() -> None:
    for name in ("roc_auc", "label_average_precision"):
        for average in ("macro", "micro", "weighted"):
            acc = rankmetrics.accumulator(metric=name, average=average, state="runs", ties="expected")
            acc.update(Y, S)
            rows = rankmetrics.accumulator(metric=name, average=average, ties="expected")
            rows.update(Y, S)
            assert bits(acc.value()) == bits(rows.value())
            assert acc != rows  # different states, the same value
        assert refused(lambda: rankmetrics.accumulator(metric=name, average="samples", state="runs"))


def test_what_runs_cannot_give_exactly_is_refused() -> None:
    acc = runs("sklearn", "roc_auc_score", None)
    before = copy.deepcopy(acc)
    with pytest.raises(rankmetrics.ParameterError) as e:
        acc.update(Y, S, W)
    assert e.value.kind == "NotExactInRuns" and "sample weights" in str(e.value)
    assert acc == before
    with pytest.raises(rankmetrics.RankmetricsError) as e2:
        acc.update([[1, 0], [2, 0]], [[0.5, 0.5], [0.1, 0.2]])
    assert (e2.value.kind, e2.value.row, e2.value.column) == ("InvalidLabel", 1, 0)
    assert acc == before
    for ties in ("first", "last", "random:5"):
        assert refused(lambda: runs("sklearn", "roc_auc_score", ties))
    assert refused(lambda: runs("mldr", "macro_auc", None))
    with pytest.raises(rankmetrics.ParameterError) as e3:
        rankmetrics.accumulator(metric="coverage", state="columns")
    assert e3.value.kind == "InvalidParam"


def test_runs_are_small_where_scores_repeat() -> None:
    rng = np.random.default_rng(3)
    y = (rng.random((5000, 20)) < 0.1).astype(np.uint8)
    s = np.round(rng.random((5000, 20)), 2)  # 101 distinct scores
    small, big = (
        runs("sklearn", "roc_auc_score", None),
        rankmetrics.accumulator(convention="sklearn", metric="roc_auc_score"),
    )
    small.update(y, s)
    big.update(y, s)
    assert bits(small.value()) == bits(big.value())
    assert len(pickle.dumps(small)) * 20 < len(pickle.dumps(big))  # 2,020 runs, 100,000 cells


def test_engines_ship_runs_where_they_are_exact() -> None:
    specs = _distributed.metric_specs(
        ["roc_auc_score", "coverage_error", ("average_precision_score", {"average": "samples"})], "sklearn", None, {}
    )
    assert [s["spec"].get("state") for s in specs] == ["runs", "runs", None]
    weighted = _distributed.metric_specs(["roc_auc_score"], "sklearn", None, {}, weighted=True)
    assert "state" not in weighted[0]["spec"]
    first = _distributed.metric_specs(["roc_auc_score"], "sklearn", "first", {})
    assert "state" not in first[0]["spec"]


def test_dask_label_wise_through_runs_is_the_one_process_value() -> None:
    da = pytest.importorskip("dask.array")
    import dask

    from rankmetrics import dask as rmdask

    names = ["roc_auc_score", "average_precision_score"]
    with dask.config.set(scheduler="synchronous"):
        got = rmdask.evaluate(
            da.from_array(Y, chunks=(9, L)), da.from_array(S, chunks=(9, L)), metrics=names, convention="sklearn"
        )
    for name in names:
        assert bits(got[name]) == bits(rankmetrics.evaluate(Y, S, convention="sklearn", metric=name))
