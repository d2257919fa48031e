"""rankmetrics.ray on a local Ray instance (2 CPUs) over Parquet (11 files, heavy ties): every
preset of every convention under every tie policy, weighted; the sparse and long layouts;
empty blocks; and the failures (label counts that differ, a bad value, a task that raises).

Ray reads the files in an order of its own, so the datasets are sorted by their ``row``
column (the order Ray documents for ``sort``): the one-process values are those of the rows as
drawn, an oracle that owes nothing to how rankmetrics.ray takes the blocks. Where a dataset is
not sorted, the order is Ray's own iteration of the materialised dataset (``iter_rows``)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import rankmetrics

pytest.importorskip("pyarrow")
ray = pytest.importorskip("ray")
import engine_cases as cases  # noqa: E402

from rankmetrics import ray as rmray  # noqa: E402

SOURCES = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    # Workers start outside python/ (whose rankmetrics lacks the compiled module).
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("ray"))
    try:
        ray.init(
            num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": {"PYTHONSAFEPATH": "1"}}
        )
    finally:
        os.chdir(here)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def tied():
    return cases.data(0)


@pytest.fixture(scope="module")
def dense(cluster, tied, tmp_path_factory):
    y, s, w = tied
    # Sorted: the rows in the order they were drawn (Ray's order of the files may change from
    # one read to the next).
    return (
        ray.data.read_parquet(cases.write_dense(str(tmp_path_factory.mktemp("dense")), y, s, w))
        .sort("row")
        .materialize()
    )


def iteration_order(ds) -> np.ndarray:
    """The rows' numbers in the order Ray iterates the dataset."""
    return np.array([r["row"] for r in ds.select_columns(["row"]).iter_rows()], dtype=np.int64)


def test_workers_import_the_installed_package(cluster) -> None:
    path = ray.get(ray.remote(lambda: __import__("rankmetrics").__file__).remote())
    assert not path.startswith(str(SOURCES)), path


def test_every_preset_and_policy_weighted(dense, tied) -> None:
    y, s, w = tied
    assert dense.num_blocks() > 1
    want = cases.items(y, s, w)
    cases.assert_bitwise(rmray.evaluate(dense, metrics=[i for i, _ in want.values()], sample_weight="w"), want)


def test_label_wise_runs_unweighted(dense, tied) -> None:
    y, s, _ = tied
    want = cases.runs_items(y, s)
    cases.assert_bitwise(rmray.evaluate(dense, metrics=[i for i, _ in want.values()]), want)


def test_aggregate_combines_blocks_in_any_order_to_the_same_bits(dense, tied) -> None:
    y, s, w = tied
    want = cases.items(y, s, w, policies=[None, "first", "random:5", "expected"])
    agg = rmray.Evaluate(row_number="row", metrics=[i for i, _ in want.values()], sample_weight="w")
    cases.assert_bitwise(dense.repartition(9).aggregate(agg)["rankmetrics"], want)
    runs = cases.runs_items(y, s)
    agg = rmray.Evaluate(row_number="row", metrics=[i for i, _ in runs.values()], name="unweighted")
    # Blocks of rows in random order: each block is cut where its numbers skip.
    cases.assert_bitwise(dense.random_shuffle(seed=3).repartition(4).aggregate(agg)["unweighted"], runs)


def test_aggregate_refuses_rows_seen_twice_and_names_a_bad_row(dense, cluster) -> None:
    agg = rmray.Evaluate(row_number="row", metrics=["coverage_error"], convention="sklearn")
    with pytest.raises(rankmetrics.IncompatibleStateError, match="in both"):
        dense.union(dense).aggregate(agg)
    bad = ray.data.from_items(
        [{"row": i, "labels": [1, 0], "scores": [0.5, v]} for i, v in enumerate([0.1, 0.2, float("nan"), 0.3])]
    ).repartition(2)
    with pytest.raises(Exception, match="row 2"):
        bad.aggregate(agg)


def test_sparse_and_long_layouts(cluster, tied, tmp_path) -> None:
    y, s, w = tied
    path, dense_scores = cases.write_sparse(str(tmp_path / "sparse"), y, s, w)
    ds = ray.data.read_parquet(path).sort("row").materialize()
    want = cases.items(y, dense_scores, w, policies=[None, "average", "random:5"])
    got = rmray.evaluate(
        ds,
        y_true="relevant",
        y_score=("top", "top_scores"),
        sample_weight="w",
        n_labels=cases.LABELS,
        metrics=[i for i, _ in want.values()],
    )
    cases.assert_bitwise(got, want)
    path, dense_scores = cases.write_long(str(tmp_path / "long"), y, s, w)
    want = cases.items(y, dense_scores, w, policies=[None, "first"])
    # Records sorted by sample id, as the long layout needs (the rows: samples in id order).
    got = rmray.evaluate(
        ray.data.read_parquet(path).sort("sample"),
        sample_id="sample",
        label_id="label",
        y_true="rel",
        y_score="score",
        sample_weight="w",
        n_labels=cases.LABELS,
        metrics=[i for i, _ in want.values()],
    )
    cases.assert_bitwise(got, want)


def test_empty_blocks_and_failures(cluster, dense, tied, tmp_path) -> None:
    y, s, w = tied
    part = np.repeat(np.arange(len(cases.FILE_ROWS)), cases.FILE_ROWS)
    # Filtered from the files in Ray's order of reading them, not sorted.
    files = ray.data.read_parquet(cases.write_dense(str(tmp_path / "files"), y, s, w))
    some = files.filter(lambda r: r["part"] % 3 != 1).materialize()
    keep = iteration_order(some)
    assert set(part[keep]) == {0, 2, 3, 5, 6, 8, 9}
    got = rmray.evaluate(some, metrics=["label_ranking_loss", "roc_auc_score"], convention="sklearn", sample_weight="w")
    for metric in got:
        want = rankmetrics.evaluate(y[keep], s[keep], convention="sklearn", metric=metric, sample_weight=w[keep])
        assert np.float64(got[metric]).tobytes() == np.float64(want).tobytes()
    bad = s.copy()
    bad[1000, 4] = np.nan
    ds = ray.data.read_parquet(cases.write_dense(str(tmp_path / "bad"), y, bad, w)).sort("row").materialize()
    with pytest.raises(rankmetrics.RankmetricsError) as e:
        rmray.evaluate(ds, metrics=["coverage"])
    assert (e.value.kind, e.value.row, e.value.column) == ("NonFiniteScore", 1000, 4)
    assert str(e.value).startswith(f"partition {e.value.details['partition']}: ")
    y2, s2, w2 = cases.data(2, n=10, labels=cases.LABELS - 1)
    other = ray.data.read_parquet(cases.write_dense(str(tmp_path / "other"), y2, s2, w2, rows=[10]))
    with pytest.raises(rankmetrics.RankmetricsError, match=r"has 1[12] labels per row, partition \d+ 1[12]") as e:
        rmray.evaluate(dense.union(other), metrics=["coverage"])
    assert e.value.kind == "ShapeMismatch"


def test_a_task_that_raises_fails_the_evaluation(dense) -> None:
    def explode(batch):
        if (batch["part"] == 5).any():
            raise RuntimeError("worker lost its disk")
        return batch

    with pytest.raises(Exception, match="worker lost its disk"):
        rmray.evaluate(dense.map_batches(explode, batch_format="pandas"), metrics=["coverage"])


def test_compare_grid_is_the_one_process_grid(dense, tied) -> None:
    y, s, w = tied
    cases.assert_same_grid(rmray.compare(dense, sample_weight="w"), rankmetrics.compare(y, s, w))


def test_aggregate_names_a_missing_column(cluster) -> None:
    # A block without the scores column gives the typed error the one-process path gives,
    # naming the column, not an AttributeError from cutting an error into pieces.
    ds = ray.data.from_items([{"row": i, "labels": [1, 0]} for i in range(4)]).repartition(2)
    agg = rmray.Evaluate(row_number="row", metrics=["roc_auc_score"], convention="sklearn")
    with pytest.raises(rankmetrics.RankmetricsError, match="scores"):
        ds.aggregate(agg)
