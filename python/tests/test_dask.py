"""rankmetrics.dask: the value over row chunks merged in a tree is bitwise the one-process
value, for row-wise presets of every convention under several tie policies and for label-wise
ones, whatever the chunking."""

from __future__ import annotations

import os

import numpy as np
import pytest

import rankmetrics

da = pytest.importorskip("dask.array")
rmdask = pytest.importorskip("rankmetrics.dask")

METRICS = [
    (
        "sklearn",
        [
            "coverage_error",
            "label_ranking_average_precision_score",
            "label_ranking_loss",
            "ndcg_score",
            "roc_auc_score",
            "average_precision_score",
        ],
    ),
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
    got = rmdask.evaluate(
        da.from_array(y, chunks=(chunks, -1)),
        da.from_array(s, chunks=(chunks, -1)),
        metrics=metrics,
        convention=convention,
        ties=ties,
        split_every=3,
    )
    for metric in metrics:
        want = rankmetrics.evaluate(y, s, convention=convention, metric=metric, ties=ties)
        assert np.float64(got[metric]).tobytes() == np.float64(want).tobytes(), (metric, got[metric], want)


@pytest.mark.parametrize("ties", ["max", "min", "first", "last", "random:5", "pessimistic"])
def test_weighted_under_every_policy(ties) -> None:
    y, s, w = data(2)
    metrics = ["label_ranking_loss", "coverage_error", "roc_auc_score"]
    got = rmdask.evaluate(
        da.from_array(y, chunks=(211, -1)),
        da.from_array(s, chunks=(211, -1)),
        da.from_array(w, chunks=211),
        metrics=metrics,
        convention="sklearn",
        ties=ties,
    )
    for metric in metrics:
        want = rankmetrics.evaluate(y, s, convention="sklearn", metric=metric, ties=ties, sample_weight=w)
        assert np.float64(got[metric]).tobytes() == np.float64(want).tobytes(), (metric, ties)


def test_torchmetrics_chunks_that_decide_the_sigmoid_apart_are_refused() -> None:
    # torchmetrics applies its sigmoid to the whole input when any score lies outside [0, 1]:
    # a chunk of probabilities and a chunk of logits cannot be evaluated apart.
    y, s, _ = data(4, n=400)
    logits = s.copy()
    logits[200:] = logits[200:] * 8.0 - 4.0
    chunked = lambda a: da.from_array(a, chunks=(200, -1))  # noqa: E731
    with pytest.raises(rankmetrics.IncompatibleStateError, match="sigmoid"):
        rmdask.evaluate(chunked(y), chunked(logits), metrics=["multilabel_ranking_loss"], convention="torchmetrics")
    # Chunks that decide alike (all logits) give the one-process bits.
    all_logits = s * 8.0 - 4.0
    got = rmdask.evaluate(
        chunked(y), chunked(all_logits), metrics=["multilabel_ranking_loss"], convention="torchmetrics"
    )
    want = rankmetrics.evaluate(y, all_logits, convention="torchmetrics", metric="multilabel_ranking_loss")
    assert np.float64(got["multilabel_ranking_loss"]).tobytes() == np.float64(want).tobytes()


def test_refuses_what_it_cannot_do_exactly() -> None:
    y, s, _ = data(3)
    with pytest.raises(ValueError, match="rows only"):
        rmdask.evaluate(da.from_array(y, chunks=(100, 3)), da.from_array(s, chunks=(100, 3)), metrics=["coverage"])
    with pytest.raises(ValueError, match="row chunks"):
        rmdask.evaluate(da.from_array(y, chunks=(100, -1)), da.from_array(s, chunks=(200, -1)), metrics=["coverage"])
    with pytest.raises(rankmetrics.ParameterError):
        rmdask.evaluate(da.from_array(y), da.from_array(s), metrics=["no_such_metric"])
    # A parameter no metric takes is refused, as rankmetrics.evaluate refuses it; one that
    # some metric takes goes to those that take it.
    with pytest.raises(rankmetrics.ParameterError, match="top_k"):
        rmdask.evaluate(da.from_array(y), da.from_array(s), metrics=["ndcg_score"], convention="sklearn", top_k=3)
    got = rmdask.evaluate(da.from_array(y), da.from_array(s), metrics=["roc_auc", "precision_at_k"], k=3)
    assert got["precision_at_k"] == rankmetrics.evaluate(y, s, metric="precision_at_k", k=3)
    bad = s.copy()
    bad[500, 2] = np.nan
    with pytest.raises(rankmetrics.RankmetricsError) as e:
        rmdask.evaluate(da.from_array(y, chunks=(300, -1)), da.from_array(bad, chunks=(300, -1)), metrics=["coverage"])
    assert (e.value.row, e.value.column) == (500, 2)  # the global row


# DataFrames read from Parquet (a partition per file), on dask's processes scheduler with 2
# workers: the layouts and failures rankmetrics.spark is tested with.

dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("pyarrow")
import engine_cases as cases  # noqa: E402


@pytest.fixture(scope="module")
def processes():
    import dask

    with dask.config.set(scheduler="processes", num_workers=2):
        yield


@pytest.fixture(scope="module")
def tied():
    return cases.data(0)


@pytest.fixture(scope="module")
def frame(tied, tmp_path_factory):
    y, s, w = tied
    df = dd.read_parquet(cases.write_dense(str(tmp_path_factory.mktemp("dense")), y, s, w))
    assert df.npartitions == len(cases.FILE_ROWS)
    return df


def test_frame_workers_import_the_installed_package(processes) -> None:
    from pathlib import Path

    import dask

    path = dask.compute(dask.delayed(lambda: __import__("rankmetrics").__file__)())[0]
    assert not path.startswith(str(Path(__file__).resolve().parents[1])), path


def test_frame_every_preset_and_policy_weighted(processes, frame, tied) -> None:
    y, s, w = tied
    want = cases.items(y, s, w)
    got = rmdask.evaluate(frame, metrics=[item for item, _ in want.values()], sample_weight="w")
    cases.assert_bitwise(got, want)


def test_frame_label_wise_runs_unweighted(processes, frame, tied) -> None:
    y, s, _ = tied
    want = cases.runs_items(y, s)
    cases.assert_bitwise(rmdask.evaluate(frame, metrics=[item for item, _ in want.values()]), want)


def test_frame_row_number_and_sparse_and_long_layouts(processes, frame, tied, tmp_path) -> None:
    y, s, w = tied
    want = cases.items(y, s, None, policies=[None, "random:5"])
    cases.assert_bitwise(rmdask.evaluate(frame, metrics=[i for i, _ in want.values()], row_number="row"), want)
    # List columns as Arrow arrays (dtype_backend="pyarrow") give the same bits.
    arrow = dd.read_parquet(cases.write_dense(str(tmp_path / "dense"), y, s, w), dtype_backend="pyarrow")
    cases.assert_bitwise(rmdask.evaluate(arrow, metrics=[i for i, _ in want.values()]), want)
    path, dense_scores = cases.write_sparse(str(tmp_path / "sparse"), y, s, w)
    want = cases.items(y, dense_scores, w, policies=[None, "average"])
    got = rmdask.evaluate(
        dd.read_parquet(path),
        y_true="relevant",
        y_score=("top", "top_scores"),
        sample_weight="w",
        n_labels=cases.LABELS,
        metrics=[i for i, _ in want.values()],
    )
    cases.assert_bitwise(got, want)
    path, dense_scores = cases.write_long(str(tmp_path / "long"), y, s, w)
    want = cases.items(y, dense_scores, w, policies=[None, "first"])
    got = rmdask.evaluate(
        dd.read_parquet(path),
        sample_id="sample",
        label_id="label",
        y_true="rel",
        y_score="score",
        sample_weight="w",
        n_labels=cases.LABELS,
        metrics=[i for i, _ in want.values()],
    )
    cases.assert_bitwise(got, want)


def test_frame_empty_partitions_and_failures(processes, frame, tied, tmp_path) -> None:
    y, s, w = tied
    keep = np.repeat(np.arange(len(cases.FILE_ROWS)), cases.FILE_ROWS) % 3 != 1
    got = rmdask.evaluate(
        frame[frame.part % 3 != 1],
        metrics=["label_ranking_loss", "roc_auc_score"],
        convention="sklearn",
        sample_weight="w",
    )
    for metric in got:
        want = rankmetrics.evaluate(y[keep], s[keep], convention="sklearn", metric=metric, sample_weight=w[keep])
        assert np.float64(got[metric]).tobytes() == np.float64(want).tobytes()
    # A bad value: the partition and the row of the whole data.
    bad = s.copy()
    bad[1000, 4] = np.nan
    df = dd.read_parquet(cases.write_dense(str(tmp_path / "bad"), y, bad, w))
    with pytest.raises(rankmetrics.RankmetricsError) as e:
        rmdask.evaluate(df, metrics=["coverage"])
    assert (e.value.kind, e.value.row, e.value.column, e.value.details["partition"]) == ("NonFiniteScore", 1000, 4, 3)
    # Another label count in one partition.
    y2, s2, w2 = cases.data(2, n=10, labels=cases.LABELS - 1)
    cases.write_dense(str(tmp_path / "other"), y2, s2, w2, rows=[10])
    mixed = dd.concat([frame, dd.read_parquet(str(tmp_path / "other"))])
    with pytest.raises(rankmetrics.RankmetricsError, match="partition 11 has 11 labels") as e:
        rmdask.evaluate(mixed, metrics=["coverage"])
    assert e.value.kind == "ShapeMismatch"
    # Long records out of sample order across partitions.
    path, _ = cases.write_long(str(tmp_path / "long"), y, s, w)
    files = sorted(os.listdir(path))
    shuffled = dd.concat(
        [dd.read_parquet([os.path.join(path, f) for f in files[1:]]), dd.read_parquet(os.path.join(path, files[0]))]
    )
    with pytest.raises(rankmetrics.RankmetricsError, match="sort the records by sample id"):
        rmdask.evaluate(
            shuffled,
            sample_id="sample",
            label_id="label",
            y_true="rel",
            y_score="score",
            n_labels=cases.LABELS,
            metrics=["coverage"],
        )


def test_frame_a_worker_that_raises_fails_the_evaluation(processes, frame) -> None:
    def explode(part):
        if len(part) and part["part"].iloc[0] == 5:
            raise RuntimeError("worker lost its disk")
        return part

    with pytest.raises(RuntimeError, match="worker lost its disk"):
        rmdask.evaluate(frame.map_partitions(explode, meta=frame._meta), metrics=["coverage"])


# Inputs the engines refuse, typed, naming the partition and the row (the synchronous
# scheduler: the checks run in the code every engine shares).


@pytest.fixture
def sync():
    import dask

    with dask.config.set(scheduler="sync"):
        yield


def _frames(path, *tables):
    """A DataFrame of a partition per table, each read from its own Parquet file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = []
    for i, table in enumerate(tables):
        path.mkdir(exist_ok=True)
        pq.write_table(pa.table(table), str(path / f"part-{i}.parquet"))
        parts.append(dd.read_parquet(str(path / f"part-{i}.parquet")))
    return dd.concat(parts)


def test_frame_partitions_whose_score_types_differ_are_refused(sync, tmp_path) -> None:
    # float32 scores run torchmetrics' presets in float32 arithmetic: merged with a float64
    # partition's states they would not be the value of either type on all the rows.
    y, s, _ = data(5, n=40, labels=4)
    lists = lambda a: list(a)  # noqa: E731
    mixed = _frames(
        tmp_path / "mixed",
        {"labels": lists(y[:25]), "scores": lists(s[:25])},
        {"labels": lists(y[25:]), "scores": lists(s[25:].astype(np.float32))},
    )
    with pytest.raises(
        rankmetrics.RankmetricsError, match="partition 1 has float32 scores, partition 0 float64: cast"
    ) as e:
        rmdask.evaluate(mixed, metrics=["coverage"])
    assert (e.value.details["partition"], e.value.details["expected"], e.value.details["found"]) == (
        1,
        "float64",
        "float32",
    )
    # Integer scores are read as float64, as one process reads them: no refusal.
    ints = _frames(
        tmp_path / "ints",
        {"labels": lists(y[:25]), "scores": lists((s[:25] * 10).astype(np.int64))},
        {"labels": lists(y[25:]), "scores": lists(s[25:] * 10)},
    )
    got = rmdask.evaluate(ints, metrics=["label_ranking_loss"], convention="sklearn")
    assert got["label_ranking_loss"] == rankmetrics.evaluate(
        y, s * 10, convention="sklearn", metric="label_ranking_loss"
    )


def test_frame_values_of_the_wrong_type_are_refused_with_partition_and_row(sync, tmp_path) -> None:
    y, s, _ = data(6, n=30, labels=4)
    rel = [np.flatnonzero(r) for r in y]
    top = [np.argsort(-r, kind="stable")[:2] for r in s]
    scores = [np.take(r, t) for r, t in zip(s, top)]

    def refused(frame, match, partition, row, **layout):
        with pytest.raises(rankmetrics.RankmetricsError, match=match) as e:
            rmdask.evaluate(frame, metrics=["coverage"], **layout)
        assert type(e.value) is rankmetrics.RankmetricsError
        assert (e.value.details["partition"], e.value.row) == (partition, row), str(e.value)
        assert str(e.value).startswith(f"partition {partition}: ")

    sparse = dict(y_true="rel", y_score=("top", "top_scores"), n_labels=4)
    # Top-k scores as strings, in the second partition (rows 20 to 29).
    text = [[str(v) for v in r] for r in scores[20:]]
    frame = _frames(
        tmp_path / "sparse",
        {"rel": rel[:20], "top": top[:20], "top_scores": scores[:20]},
        {"rel": rel[20:], "top": top[20:], "top_scores": text},
    )
    refused(frame, "top_scores must hold numbers; at row 20 it holds str", 1, 20, **sparse)
    # Label indices as strings.
    frame = _frames(
        tmp_path / "labels",
        {"rel": rel[:20], "top": top[:20], "top_scores": scores[:20]},
        {"rel": [[str(v) for v in r] for r in rel[20:]], "top": top[20:], "top_scores": scores[20:]},
    )
    refused(
        frame,
        "rel must hold integer label indices; at row 2[0-9] it holds str",
        1,
        20 + min(i for i, r in enumerate(rel[20:]) if len(r)),
        **sparse,
    )
    # Weights as strings.
    frame = _frames(
        tmp_path / "w",
        {"labels": list(y[:20]), "scores": list(s[:20]), "w": ["1"] * 20},
        {"labels": list(y[20:]), "scores": list(s[20:]), "w": ["1"] * 10},
    )
    refused(frame, "w must hold numbers; at row 0", 0, 0, sample_weight="w")
    # Long layout: sample ids of another type in the second partition.
    long = dict(sample_id="sample", label_id="label", y_true="rel", y_score="score", n_labels=4)
    frame = _frames(
        tmp_path / "ids",
        {"sample": [1, 1, 2], "label": [0, 1, 0], "rel": [1, 0, 1], "score": [0.5, 0.2, 0.1]},
        {"sample": ["a", "b"], "label": [0, 1], "rel": [1, 0], "score": [0.5, 0.2]},
    )
    refused(frame, "sample ids .* do not compare", 1, 2, **long)
    # Long layout: label ids as strings, scores as strings.
    frame = _frames(
        tmp_path / "labelids",
        {"sample": [1, 1, 2], "label": [0, 1, 0], "rel": [1, 0, 1], "score": [0.5, 0.2, 0.1]},
        {"sample": [3, 4], "label": ["0", "1"], "rel": [1, 0], "score": [0.5, 0.2]},
    )
    refused(frame, "label must hold integer label indices; at row 2 it holds str", 1, 2, **long)
    frame = _frames(
        tmp_path / "scores",
        {"sample": [1, 1, 2], "label": [0, 1, 0], "rel": [1, 0, 1], "score": [0.5, 0.2, 0.1]},
        {"sample": [3, 4], "label": [0, 1], "rel": [1, 0], "score": ["0.5", "x"]},
    )
    refused(frame, "score must hold numbers; at row 2 it holds str", 1, 2, **long)
    # Decimals are numbers: read as float64, as one process reads them.
    import decimal

    frame = _frames(
        tmp_path / "decimal", {"labels": list(y), "scores": [[decimal.Decimal(str(v)) for v in r] for r in s]}
    )
    assert rmdask.evaluate(frame, metrics=["coverage"]) == {"coverage": rankmetrics.evaluate(y, s, metric="coverage")}


def test_frame_pandas_columns_of_mixed_types_are_refused_with_partition_and_row(sync) -> None:
    import dask
    import pandas as pd

    y, s, _ = data(7, n=30, labels=4)
    scores = [list(r) for r in s]
    scores[23] = [0.5, "high", 0.1, 0.2]  # an object column Arrow cannot type
    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.from_pandas(pd.DataFrame({"labels": [list(r) for r in y], "scores": scores}), npartitions=3)
    assert frame.npartitions == 3
    with pytest.raises(rankmetrics.RankmetricsError, match="scores holds values of different types") as e:
        rmdask.evaluate(frame, metrics=["coverage"])
    assert (e.value.details["partition"], e.value.details["record"], e.value.row) == (2, 3, 23)


def test_arrays_raise_the_first_bad_chunks_error_whatever_finishes_first() -> None:
    # Two bad chunks, the first one slow to load: on the threaded scheduler the second one
    # fails first in time; the error raised is still the first bad row's, as one process's.
    import time

    import dask

    y, s, _ = data(8, n=300, labels=5)
    bad = s.copy()
    bad[40, 1] = np.nan
    bad[250, 3] = np.inf

    def slow(a):
        time.sleep(1.0)
        return a

    first = da.from_delayed(dask.delayed(slow)(bad[:100]), shape=(100, 5), dtype=bad.dtype)
    scores = da.concatenate([first, da.from_array(bad[100:], chunks=(100, -1))])
    with dask.config.set(scheduler="threads", num_workers=3):
        with pytest.raises(rankmetrics.RankmetricsError) as e:
            rmdask.evaluate(da.from_array(y, chunks=(100, -1)), scores, metrics=["coverage"])
    with pytest.raises(rankmetrics.RankmetricsError) as one:
        rankmetrics.evaluate(y, bad, metric="coverage")
    assert (
        (e.value.kind, e.value.row, e.value.column)
        == (one.value.kind, one.value.row, one.value.column)
        == ("NonFiniteScore", 40, 1)
    )


def test_compare_grid_is_the_one_process_grid(sync, frame, tied) -> None:
    y, s, w = tied
    cases.assert_same_grid(rmdask.compare(frame, sample_weight="w"), rankmetrics.compare(y, s, w))
    # float32 scores (torchmetrics' column in float32, as in one process), dask arrays.
    s32 = s.astype(np.float32)
    got = rmdask.compare(da.from_array(y, chunks=(300, -1)), da.from_array(s32, chunks=(300, -1)), split_every=3)
    want = rankmetrics.compare(y, s32)
    assert want.to_dict() != rankmetrics.compare(y, s).to_dict()  # the type matters here
    cases.assert_same_grid(got, want)
