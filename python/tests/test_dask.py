"""rankmetrics.dask: the value over row chunks merged in a tree is bitwise the one-process
value, for row-wise presets of every convention under several tie policies and for label-wise
ones, whatever the chunking."""

from __future__ import annotations

import numpy as np
import pytest

import rankmetrics

da = pytest.importorskip("dask.array")
rmdask = pytest.importorskip("rankmetrics.dask")

METRICS = [
    ("sklearn", ["coverage_error", "label_ranking_average_precision_score", "label_ranking_loss", "ndcg_score", "roc_auc_score", "average_precision_score"]),
    ("torchmetrics", ["multilabel_coverage_error", "multilabel_ranking_loss"]),
    ("mldr", ["average_precision", "coverage", "macro_auc", "micro_auc"]),
    ("mulan", ["AveragePrecision", "RankingLoss", "MacroAUC", "MeanAveragePrecision"]),
    ("rankmetrics", ["coverage", "average_precision", "ndcg", "precision_at_k"]),
]


def data(seed: int, n: int = 997, labels: int = 9):
    rng = np.random.default_rng(seed)
    y = rng.random((n, labels)) < 0.3
    s = np.round(rng.random((n, labels)), 1)  # heavy ties
    w = rng.choice([0.0, 1.0, 2.5], size=n)
    return y, s, w


@pytest.mark.parametrize("chunks", [997, 300, 143, (1, 500, 496)])
@pytest.mark.parametrize("convention,metrics", METRICS)
def test_chunks_merge_to_the_one_process_bits(chunks, convention, metrics) -> None:
    y, s, w = data(1)
    ties = None if convention != "rankmetrics" else "expected"
    got = rmdask.evaluate(da.from_array(y, chunks=(chunks, -1)), da.from_array(s, chunks=(chunks, -1)),
                          metrics=metrics, convention=convention, ties=ties, split_every=3)
    for metric in metrics:
        want = rankmetrics.evaluate(y, s, convention=convention, metric=metric, ties=ties)
        assert np.float64(got[metric]).tobytes() == np.float64(want).tobytes(), (metric, got[metric], want)


@pytest.mark.parametrize("ties", ["max", "min", "first", "last", "random:5", "pessimistic"])
def test_weighted_under_every_policy(ties) -> None:
    y, s, w = data(2)
    metrics = ["label_ranking_loss", "coverage_error", "roc_auc_score"]
    got = rmdask.evaluate(da.from_array(y, chunks=(211, -1)), da.from_array(s, chunks=(211, -1)),
                          da.from_array(w, chunks=211), metrics=metrics, convention="sklearn", ties=ties)
    for metric in metrics:
        want = rankmetrics.evaluate(y, s, convention="sklearn", metric=metric, ties=ties, sample_weight=w)
        assert np.float64(got[metric]).tobytes() == np.float64(want).tobytes(), (metric, ties)


def test_refuses_what_it_cannot_do_exactly() -> None:
    y, s, _ = data(3)
    with pytest.raises(ValueError, match="rows only"):
        rmdask.evaluate(da.from_array(y, chunks=(100, 3)), da.from_array(s, chunks=(100, 3)), metrics=["coverage"])
    with pytest.raises(ValueError, match="row chunks"):
        rmdask.evaluate(da.from_array(y, chunks=(100, -1)), da.from_array(s, chunks=(200, -1)), metrics=["coverage"])
    with pytest.raises(rankmetrics.ParameterError):
        rmdask.evaluate(da.from_array(y), da.from_array(s), metrics=["no_such_metric"])
    bad = s.copy()
    bad[500, 2] = np.nan
    with pytest.raises(rankmetrics.RankmetricsError) as e:
        rmdask.evaluate(da.from_array(y, chunks=(300, -1)), da.from_array(bad, chunks=(300, -1)), metrics=["coverage"])
    assert (e.value.row, e.value.column) == (500, 2)  # the global row

