"""rankmetrics.spark on Spark local[2] over Parquet (a partition per file, 11 partitions,
heavy ties): every preset of every convention under every tie policy, weighted, in the dense
layout; the sparse and long layouts; numbering from a row-number column; empty partitions;
and the failures (label counts that differ, a bad value, a worker that raises)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import rankmetrics

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark")
import engine_cases as cases  # noqa: E402

from rankmetrics import spark as rmspark  # noqa: E402

SOURCES = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    from pyspark.sql import SparkSession

    # The workers must import the installed rankmetrics, never the sources beside the tests
    # (no compiled module there): they run this interpreter, outside python/, with the
    # interpreter's safe path.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONSAFEPATH"] = "1"
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("spark"))
    try:
        session = (
            SparkSession.builder.master("local[2]")
            .appName("rankmetrics-tests")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "2")
            # A partition per file (files are never packed together) ...
            .config("spark.sql.files.openCostInBytes", str(128 << 20))
            # ... read in several Arrow batches.
            .config("spark.sql.execution.arrow.maxRecordsPerBatch", "64")
            .getOrCreate()
        )
    finally:
        os.chdir(here)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def tied():
    return cases.data(0)


@pytest.fixture(scope="module")
def dense(spark, tied, tmp_path_factory):
    y, s, w = tied
    df = spark.read.parquet(cases.write_dense(str(tmp_path_factory.mktemp("dense")), y, s, w))
    assert df.rdd.getNumPartitions() == len(cases.FILE_ROWS)
    # The partitions hold the rows in the order they were drawn.
    assert [r.row for r in df.select("row").collect()] == list(range(cases.N))
    return df


def test_workers_import_the_installed_package(dense) -> None:
    def where(batches):
        import pyarrow as pa

        import rankmetrics as rm

        for _ in batches:
            pass
        yield pa.RecordBatch.from_pydict({"path": [rm.__file__]})

    paths = {r.path for r in dense.select("row").mapInArrow(where, "path string").collect()}
    assert paths and not any(p.startswith(str(SOURCES)) for p in paths), paths


def test_every_preset_and_policy_weighted_is_bitwise_one_process(dense, tied) -> None:
    y, s, w = tied
    want = cases.items(y, s, w)
    got = rmspark.evaluate(dense, metrics=[item for item, _ in want.values()], sample_weight="w")
    cases.assert_bitwise(got, want)


def test_label_wise_runs_unweighted_are_bitwise_one_process(dense, tied) -> None:
    y, s, _ = tied
    want = cases.runs_items(y, s)
    cases.assert_bitwise(rmspark.evaluate(dense, metrics=[item for item, _ in want.values()]), want)


def test_row_number_column_gives_one_pass_and_the_same_bits(dense, tied) -> None:
    y, s, _ = tied
    want = cases.items(y, s, None, policies=[None, "first", "random:5"])
    got = rmspark.evaluate(dense, metrics=[item for item, _ in want.values()], row_number="row")
    cases.assert_bitwise(got, want)


def test_sparse_top_k_layout(spark, tied, tmp_path) -> None:
    y, s, w = tied
    path, dense_scores = cases.write_sparse(str(tmp_path), y, s, w)
    want = cases.items(y, dense_scores, w, policies=[None, "average", "random:5"])
    got = rmspark.evaluate(
        spark.read.parquet(path),
        y_true="relevant",
        y_score=("top", "top_scores"),
        sample_weight="w",
        n_labels=cases.LABELS,
        metrics=[i for i, _ in want.values()],
    )
    cases.assert_bitwise(got, want)


def test_long_layout(spark, tied, tmp_path) -> None:
    y, s, w = tied
    path, dense_scores = cases.write_long(str(tmp_path), y, s, w)
    want = cases.items(y, dense_scores, w, policies=[None, "first"])
    got = rmspark.evaluate(
        spark.read.parquet(path),
        sample_id="sample",
        label_id="label",
        y_true="rel",
        y_score="score",
        sample_weight="w",
        n_labels=cases.LABELS,
        metrics=[i for i, _ in want.values()],
    )
    cases.assert_bitwise(got, want)


def test_empty_partitions(dense, tied) -> None:
    y, s, w = tied
    keep = np.repeat(np.arange(len(cases.FILE_ROWS)), cases.FILE_ROWS) % 3 != 1
    metrics = [("label_ranking_loss", {"convention": "sklearn"}), ("roc_auc", {"ties": "first"})]
    got = rmspark.evaluate(dense.filter("part % 3 != 1"), metrics=metrics, sample_weight="w")
    for item in metrics:
        key = f"{item[0]}({', '.join(f'{k}={v!r}' for k, v in item[1].items())})"
        assert (
            np.float64(got[key]).tobytes() == np.float64(cases.one_process(item, y[keep], s[keep], w[keep])).tobytes()
        )
    with pytest.raises(rankmetrics.RankmetricsError) as e:  # no rows at all: as one process
        rmspark.evaluate(dense.filter("part < 0"), metrics=["coverage"])
    with pytest.raises(rankmetrics.RankmetricsError) as one:
        rankmetrics.evaluate(np.zeros((0, 3)), np.zeros((0, 3)), metric="coverage")
    assert e.value.kind == one.value.kind == "NoSamples"


def test_a_partition_with_another_label_count_is_refused(spark, tmp_path) -> None:
    y, s, w = cases.data(1)
    cases.write_dense(str(tmp_path), y, s, w)
    y2, s2, w2 = cases.data(2, n=cases.FILE_ROWS[3], labels=cases.LABELS - 1)
    cases.write_dense(str(tmp_path / "x"), y2, s2, w2, rows=[len(y2)])
    os.replace(tmp_path / "x" / "part-000.parquet", tmp_path / "part-003.parquet")
    os.rmdir(tmp_path / "x")
    with pytest.raises(rankmetrics.RankmetricsError, match="partition 3 has 11 labels") as e:
        rmspark.evaluate(spark.read.parquet(str(tmp_path)), metrics=["coverage"])
    assert e.value.kind == "ShapeMismatch" and e.value.details["partition"] == 3


def test_a_bad_value_names_its_partition_and_row(spark, tied, tmp_path) -> None:
    y, s, w = tied
    bad = s.copy()
    bad[1000, 4] = np.nan  # partition 3 holds rows 1000..1249
    df = spark.read.parquet(cases.write_dense(str(tmp_path), y, bad, w))
    with pytest.raises(rankmetrics.RankmetricsError) as e:
        rmspark.evaluate(df, metrics=["coverage", "roc_auc"])
    assert (e.value.kind, e.value.row, e.value.column, e.value.details["partition"]) == ("NonFiniteScore", 1000, 4, 3)
    assert str(e.value).startswith("partition 3: ")
    with pytest.raises(rankmetrics.RankmetricsError, match="partition 3: labels has 11 entries at row 1001"):
        rmspark.evaluate(
            df.selectExpr("IF(row = 1001, slice(labels, 1, 11), labels) AS labels", "scores"), metrics=["coverage"]
        )


def test_a_worker_that_raises_fails_the_evaluation(dense) -> None:
    from pyspark.errors import PythonException

    def explode(batches):
        from pyspark import TaskContext

        for b in batches:
            if TaskContext.get().partitionId() == 5:
                raise RuntimeError("worker lost its disk")
            yield b

    failing = dense.mapInArrow(explode, dense.schema)
    with pytest.raises(PythonException, match="worker lost its disk"):
        rmspark.evaluate(failing, metrics=["coverage"])


def test_compare_grid_is_the_one_process_grid(dense, tied) -> None:
    y, s, w = tied
    cases.assert_same_grid(rmspark.compare(dense, sample_weight="w"), rankmetrics.compare(y, s, w))
