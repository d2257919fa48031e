"""rankmetrics.dask on a dask.distributed LocalCluster of 2 worker processes (the scheduler
dask-jobqueue and other cluster managers give a client): the DataFrame and array paths give
the one-process bits, and the first bad row's error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import rankmetrics

pytest.importorskip("pyarrow")
dd = pytest.importorskip("dask.dataframe")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
import engine_cases as cases  # noqa: E402

from rankmetrics import dask as rmdask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def test_workers_import_the_installed_package(client) -> None:
    paths = set(client.run(lambda: __import__("rankmetrics").__file__).values())
    assert len(paths) == 1 and not any(p.startswith(str(Path(__file__).resolve().parents[1])) for p in paths), paths


def test_frame_and_arrays_give_the_one_process_bits(client, tmp_path) -> None:
    y, s, w = cases.data(0)
    frame = dd.read_parquet(cases.write_dense(str(tmp_path / "dense"), y, s, w))
    want = cases.items(y, s, w, policies=[None, "first", "random:5"])
    cases.assert_bitwise(rmdask.evaluate(frame, metrics=[i for i, _ in want.values()], sample_weight="w"), want)
    cases.assert_same_grid(rmdask.compare(frame, sample_weight="w"), rankmetrics.compare(y, s, w))
    got = rmdask.evaluate(
        da.from_array(y, chunks=(300, -1)),
        da.from_array(s, chunks=(300, -1)),
        metrics=["label_ranking_loss", "roc_auc_score"],
        convention="sklearn",
        ties="random:5",
    )
    for metric, value in got.items():
        one = rankmetrics.evaluate(y, s, convention="sklearn", metric=metric, ties="random:5")
        assert np.float64(value).tobytes() == np.float64(one).tobytes(), metric


def test_the_first_bad_row_is_raised(client) -> None:
    y, s, _ = cases.data(1, n=900)
    bad = s.copy()
    bad[350, 2] = np.nan  # the second chunk
    bad[820, 0] = np.inf  # the last one
    with pytest.raises(rankmetrics.RankmetricsError) as e:
        rmdask.evaluate(da.from_array(y, chunks=(100, -1)), da.from_array(bad, chunks=(100, -1)), metrics=["coverage"])
    assert (e.value.kind, e.value.row, e.value.column) == ("NonFiniteScore", 350, 2)
