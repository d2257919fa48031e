"""Every golden record of tests/data/conformance through the Python API, judged as
tests/conformance.rs judges it: ``rankmetrics.evaluate(convention=..., metric=..., **params)``
and the named function of the toolkit's module (``rankmetrics.sklearn.coverage_error``, ...),
at the data README's tolerances. A record whose toolkit raised must raise here (mldr's
1-label "subscript out of bounds" is the documented deviation: a value is returned)."""

from __future__ import annotations

import json
import math
import os
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pytest
from conftest import TALLY

import rankmetrics
from rankmetrics import mldr, mulan, sklearn, torchmetrics

DATA = Path(
    os.environ.get("RANKMETRICS_CONFORMANCE_DIR")
    or Path(__file__).resolve().parents[2] / "tests" / "data" / "conformance"
)
TOOLKITS = ("sklearn", "torchmetrics", "mldr", "mulan")
# Records per golden file (the data README's counts).
EXPECTED_RECORDS = {
    "sklearn": 4097,
    "torchmetrics": 912,
    "mldr": 2772,
    "mulan": 1716,
    "torchmetrics-f32": 585,
    "torchmetrics-auc": 2340,
    "torchmetrics-retrieval": 3165,
}
REL = {"sklearn": 1e-12, "torchmetrics": 1e-12, "mldr": 1e-15, "mulan": 1e-15}
# What a refused input raises: the package's errors (all ValueError), or a TypeError for a
# bad parameter (ParameterError is both).
REFUSED = (rankmetrics.RankmetricsError, ValueError, TypeError)


def _load(name: str) -> Any:
    with open(DATA / name) as f:
        return json.load(f)


def _cases(*files: str) -> Dict[str, Dict[str, Any]]:
    out = {}
    for file in files:
        for c in _load(file)["cases"]:
            out[c["id"]] = c
    return out


CASES = _cases("cases.json", "cases-logits.json")
GOLDEN = {t: _load(f"golden-{t}.json")["results"] for t in TOOLKITS}
GOLDEN_F32 = _load("golden-torchmetrics-f32.json")["results"]
GOLDEN_AUC = _load("golden-torchmetrics-auc.json")["results"]
GOLDEN_RETRIEVAL = _load("golden-torchmetrics-retrieval.json")["results"]
# torchmetrics' LRAP and NDCG: the presets follow its float32 arithmetic with arithmetic="float32".
LRAP = "multilabel_ranking_average_precision"
FLOAT32_ARITHMETIC = (LRAP, "retrieval_normalized_dcg")


def number(v: Any) -> float:
    """A golden number: a JSON number or "nan", "inf", "-inf"."""
    return float(v)


def close(ours: float, expected: float, rel: float) -> bool:
    if math.isnan(expected) or math.isnan(ours):
        return math.isnan(expected) and math.isnan(ours)
    if math.isinf(expected) or expected == 0.0:
        return ours == expected
    return abs(ours - expected) <= rel * abs(expected)


def bits(x: float) -> int:
    return int(np.float64(x).view(np.uint64))


def params_of(record: Dict[str, Any]) -> Tuple[Dict[str, Any], bool]:
    """Record params as keyword arguments (null: not given) and whether weights apply."""
    params = {k: v for k, v in record["params"].items() if k != "sample_weight" and v is not None}
    weighted = record["params"].get("sample_weight") is True and "sample_weight_ignored" not in record
    return params, weighted


def outcome(f: Callable[[], float]) -> Tuple[Optional[float], Optional[BaseException]]:
    try:
        with warnings.catch_warnings():
            # scikit-learn's UndefinedMetricWarning for one-class ROC AUC: the NaN is judged.
            warnings.simplefilter("ignore", rankmetrics.exceptions.UndefinedMetricWarning)
            return float(f()), None
    except REFUSED as e:
        return None, e


# The named function of each toolkit module, called as the toolkit is: inputs as numpy
# arrays of their natural dtypes (JSON integers: int64), the record's params by keyword.
def _named(
    toolkit: str, metric: str, y: np.ndarray, s: np.ndarray, w: Optional[np.ndarray], params: Dict[str, Any]
) -> Callable[[], float]:
    if toolkit == "sklearn":
        return lambda: getattr(sklearn, metric)(y, s, sample_weight=w, **params)
    if toolkit == "torchmetrics":
        if metric == "retrieval_normalized_dcg":
            # The records are RetrievalNormalizedDCG's, one query per row; the functional
            # flattens its inputs into one query, so it gives the one-row records only.
            return lambda: rankmetrics.evaluate(
                y, s, convention="torchmetrics", metric=metric, arithmetic="float32", **params
            )
        return lambda: getattr(torchmetrics, metric)(s, y, num_labels=s.shape[1], **params)
    if toolkit == "mldr":
        p = dict(params)
        if "undefined_value" in p:
            p["undefined_value"] = None if p["undefined_value"] == "NA" else p["undefined_value"]
        if "na_rm" in p:
            p["na_rm"] = p["na_rm"]
        return lambda: getattr(mldr, metric)(y, s, **p)
    assert toolkit == "mulan"
    return lambda: getattr(mulan, metric)(y, s, **params)


def _ids(records: List[Dict[str, Any]], prefix: str) -> List[str]:
    return [
        f"{prefix}-{i}-{r['metric']}-{r['case']}-{json.dumps(r['params'], sort_keys=True)}"
        for i, r in enumerate(records)
    ]


def _judge(
    toolkit: str,
    record: Dict[str, Any],
    got: Optional[float],
    err: Optional[BaseException],
    case: Dict[str, Any],
    redo: Callable[[Dict[str, Any]], Callable[[], float]],
) -> str:
    """tests/conformance.rs's verdict on one outcome: the tally key, or an AssertionError."""
    L = len(case["y_true"][0])
    if "error" in record:
        if err is not None:
            return "passed"
        if toolkit == "mldr" and record["error"] == "subscript out of bounds" and L == 1:
            return "deviation"
        raise AssertionError(f"expected error {record['error']!r}, got {got!r}")
    if err is not None:
        raise AssertionError(f"expected a value, got {type(err).__name__}: {err}")
    assert got is not None
    rel = REL[toolkit]
    expected = number(record["value"])
    verdict = "passed"
    if record.get("tie_order_dependent") is True and toolkit == "sklearn":
        lo, hi = (number(x) for x in record["range"])
        slack = 1e-12 * max(abs(lo), abs(hi))
        assert lo - slack <= got <= hi + slack, f"{got!r} outside the tie-order range [{lo!r}, {hi!r}]"
        # scikit-learn's own output where its sort took the preset's order.
        if not close(got, expected, rel):
            verdict = "in_range"
    elif record.get("tie_order_dependent") is True and toolkit == "torchmetrics":
        # torch's argsort order is followed: torchmetrics' own float32 output, not value_f64,
        # which assumed a stable sort.
        assert close(got, expected, 1e-6), f"expected {expected!r} (float32), got {got!r}"
    elif toolkit == "torchmetrics" and record["metric"] in FLOAT32_ARITHMETIC:
        # torchmetrics' float32 arithmetic is followed: its own output, bitwise.
        assert got == expected, f"expected {expected!r} (torchmetrics' float32), got {got!r}"
    elif "value_f64" in record:
        assert close(got, number(record["value_f64"]), rel), (
            f"expected {record['value_f64']!r} (value_f64), got {got!r}"
        )
        # ...and torchmetrics' own (float32) output.
        assert close(got, expected, 1e-6), f"expected {expected!r} (torchmetrics' float32), got {got!r}"
    elif record.get("dtype") == "float32":
        assert close(got, expected, 1e-6), f"expected {expected!r} (float32), got {got!r}"
    else:
        assert close(got, expected, rel), f"expected {expected!r}, got {got!r}"
    if "value_weka39" in record:
        v39 = number(record["value_weka39"])
        ours = redo({"weka": "3.9"})()
        assert close(ours, v39, rel), f"weka=3.9: expected {v39!r}, got {ours!r}"
    return verdict


RECORDS = [(t, r) for t in TOOLKITS for r in GOLDEN[t]]


@pytest.mark.parametrize("toolkit,record", RECORDS, ids=[i for t in TOOLKITS for i in _ids(GOLDEN[t], t)])
def test_golden_record(toolkit: str, record: Dict[str, Any]) -> None:
    if record["metric"] not in rankmetrics.metric_names(toolkit):
        TALLY[toolkit]["skipped"] += 1
        pytest.skip("metric not in the registry")
    case = CASES[record["case"]]
    params, weighted = params_of(record)
    w = np.asarray(case["sample_weight"], dtype=np.float64) if weighted else None
    # torchmetrics' float32 arithmetic, which the named function always follows.
    in_float32 = toolkit == "torchmetrics" and record["metric"] in FLOAT32_ARITHMETIC
    float32 = {"arithmetic": "float32"} if in_float32 else {}

    # evaluate(): float64 labels and scores, as tests/conformance.rs passes them.
    y64 = np.asarray(case["y_true"], dtype=np.float64)
    s64 = np.asarray(case["y_score"], dtype=np.float64)

    def by_name(extra: Dict[str, Any]) -> Callable[[], float]:
        return lambda: rankmetrics.evaluate(
            y64, s64, convention=toolkit, metric=record["metric"], sample_weight=w, **params, **float32, **extra
        )

    got, err = outcome(by_name({}))
    try:
        verdict = _judge(toolkit, record, got, err, case, by_name)
    except AssertionError:
        TALLY[toolkit]["failed"] += 1
        raise

    # The toolkit module's function, on the natural dtypes.
    y = np.asarray(case["y_true"])
    s = np.asarray(case["y_score"], dtype=np.float64)

    def named(extra: Dict[str, Any]) -> Callable[[], float]:
        return _named(toolkit, record["metric"], y, s, w, {**params, **extra})

    got2, err2 = outcome(named({}))
    try:
        _judge(toolkit, record, got2, err2, case, named)
    except AssertionError as e:
        TALLY[toolkit]["failed"] += 1
        raise AssertionError(f"rankmetrics.{toolkit}.{record['metric']}: {e}") from None
    # Both doors run the same preset on the same values: the same bits.
    if got is not None and got2 is not None:
        assert bits(got) == bits(got2), f"evaluate() gave {got!r}, the named function {got2!r}"
    TALLY[toolkit][verdict] += 1


@pytest.mark.parametrize("record", GOLDEN_F32, ids=_ids(GOLDEN_F32, "torchmetrics-f32"))
def test_golden_record_float32(record: Dict[str, Any]) -> None:
    """golden-torchmetrics-f32.json: float32 preds (the dtype decides), at 1e-6, the ranking
    loss over 16 labels included (the preset follows torch's argsort order)."""
    key = "torchmetrics-f32"
    metric = record["metric"]
    case = CASES[record["case"]]
    y = np.asarray(case["y_true"])
    s32 = np.asarray(case["y_score"], dtype=np.float64).astype(np.float32)
    L = y.shape[1]

    float32 = {"arithmetic": "float32"} if metric in FLOAT32_ARITHMETIC else {}
    got, err = outcome(lambda: rankmetrics.evaluate(y, s32, convention="torchmetrics", metric=metric, **float32))
    # The same values as float64 scores with dtype=float32, as the command passes them.
    as_f64, err64 = outcome(
        lambda: rankmetrics.evaluate(
            y, s32.astype(np.float64), convention="torchmetrics", metric=metric, dtype="float32", **float32
        )
    )
    assert (err is None) == (err64 is None)
    if got is not None:
        assert bits(got) == bits(as_f64), f"dtype=float32 on float64 scores gives {as_f64!r}, float32 scores {got!r}"
    named, err_named = outcome(lambda: getattr(torchmetrics, metric)(s32, y, num_labels=L))
    try:
        if "error" in record:
            assert err is not None, f"expected error {record['error']!r}, got {got!r}"
            assert err_named is not None, f"named function: expected error {record['error']!r}, got {named!r}"
            verdict = "passed"
        else:
            assert err is None, f"expected a value, got {err!r}"
            assert err_named is None, f"named function: expected a value, got {err_named!r}"
            assert bits(got) == bits(named), f"evaluate() gave {got!r}, the named function {named!r}"
            # torch's argsort order is followed, tie-order records included.
            expected = number(record["value"])
            assert close(got, expected, 1e-6), f"expected {expected!r}, got {got!r}"
            verdict = "passed"
    except AssertionError:
        TALLY[key]["failed"] += 1
        raise
    TALLY[key][verdict] += 1


@pytest.mark.parametrize("record", GOLDEN_AUC, ids=_ids(GOLDEN_AUC, "torchmetrics-auc"))
def test_golden_record_auroc_and_average_precision(record: Dict[str, Any]) -> None:
    """golden-torchmetrics-auc.json: multilabel AUROC and AP with the record's average, the
    preds in its dtype, through the named function with torch's AVX-512 sigmoid, at 1e-6."""
    metric, params = record["metric"], record["params"]
    case = CASES[record["case"]]
    y = np.asarray(case["y_true"])
    s = np.asarray(case["y_score"], dtype=np.float64).astype(params["dtype"])
    fn = getattr(torchmetrics, metric)
    # torch's AVX-512 sigmoid kernel, as on the machine that made the file.
    got, err = outcome(lambda: fn(s, y, num_labels=y.shape[1], average=params["average"], sigmoid="avx512"))
    try:
        if "error" in record:
            assert err is not None, f"expected error {record['error']!r}, got {got!r}"
        else:
            assert err is None, f"expected a value, got {err!r}"
            expected = number(record["value"])
            assert close(got, expected, 1e-6), f"expected {expected!r}, got {got!r}"
    except AssertionError:
        TALLY["torchmetrics-auc"]["failed"] += 1
        raise
    TALLY["torchmetrics-auc"]["passed"] += 1


@pytest.mark.parametrize("record", GOLDEN_RETRIEVAL, ids=_ids(GOLDEN_RETRIEVAL, "torchmetrics-retrieval"))
def test_golden_record_retrieval(record: Dict[str, Any]) -> None:
    """golden-torchmetrics-retrieval.json: precision, recall, AP and RR with one query per row
    through evaluate(arithmetic="float32"), float64 and float32 scores alike, torchmetrics'
    value to the bit; on a
    one-row case also through the named function (torchmetrics' functional)."""
    metric, params = record["metric"], record["params"]
    case = CASES[record["case"]]
    y = np.asarray(case["y_true"])
    s = np.asarray(case["y_score"], dtype=np.float64)
    # torch's float32 mean over the rows.
    f32_mean = {"arithmetic": "float32", **params}
    got, err = outcome(lambda: rankmetrics.evaluate(y, s, convention="torchmetrics", metric=metric, **f32_mean))
    got32, err32 = outcome(
        lambda: rankmetrics.evaluate(y, s.astype(np.float32), convention="torchmetrics", metric=metric, **f32_mean)
    )
    try:
        assert (err is None) == (err32 is None)
        if "error" in record:
            assert err is not None, f"expected error {record['error']!r}, got {got!r}"
        else:
            assert err is None, f"expected a value, got {err!r}"
            expected = number(record["value"])
            assert got == expected and got32 == expected, f"expected {expected!r}, got {got!r} and {got32!r}"
            if y.shape[0] == 1:
                named = getattr(torchmetrics, metric)(s, y, **params)
                assert named == expected, f"named function: expected {expected!r}, got {named!r}"
            module = _module_value(metric, params, y, s)
            expected = number(record.get("value_module", record["value"]))
            assert module == expected, f"module: expected {expected!r}, got {module!r}"
    except AssertionError:
        TALLY["torchmetrics-retrieval"]["failed"] += 1
        raise
    TALLY["torchmetrics-retrieval"]["passed"] += 1


MODULE_OF = {
    "retrieval_precision": torchmetrics.RetrievalPrecision,
    "retrieval_recall": torchmetrics.RetrievalRecall,
    "retrieval_average_precision": torchmetrics.RetrievalMAP,
    "retrieval_reciprocal_rank": torchmetrics.RetrievalMRR,
    "retrieval_normalized_dcg": torchmetrics.RetrievalNormalizedDCG,
}


def _module_value(metric: str, params: Dict[str, Any], y: np.ndarray, s: np.ndarray) -> float:
    """The retrieval module of ``metric`` on the case as one batch whose ``indexes`` are the
    row numbers (empty_target_action="neg", the mean): the golden records' ``value_module``
    where torch's sort of the indexes permutes a query's documents, else their ``value``."""
    module = MODULE_OF[metric](**params)
    indexes = np.repeat(np.arange(y.shape[0], dtype=np.int64), y.shape[1]).reshape(y.shape)
    module.update(s, y, indexes=indexes)
    return module.compute()


NDCG_RECORDS = [r for r in GOLDEN["torchmetrics"] if r["metric"] == "retrieval_normalized_dcg"]


@pytest.mark.parametrize("record", NDCG_RECORDS, ids=_ids(NDCG_RECORDS, "torchmetrics-ndcg-module"))
def test_golden_ndcg_through_the_module(record: Dict[str, Any]) -> None:
    """golden-torchmetrics.json's NDCG records through RetrievalNormalizedDCG, one query per
    row: torchmetrics' float32 value to the bit."""
    case = CASES[record["case"]]
    y, s = np.asarray(case["y_true"]), np.asarray(case["y_score"], dtype=np.float64)
    got = _module_value("retrieval_normalized_dcg", record["params"], y, s)
    assert got == number(record["value"])


def test_record_counts() -> None:
    """Every golden file holds the records the data README counts; when the whole module
    ran, none failed (the tallies are printed at the end of the run)."""
    for toolkit in TOOLKITS:
        assert len(GOLDEN[toolkit]) == EXPECTED_RECORDS[toolkit], toolkit
    assert len(GOLDEN_F32) == EXPECTED_RECORDS["torchmetrics-f32"]
    assert len(GOLDEN_AUC) == EXPECTED_RECORDS["torchmetrics-auc"]
    assert len(GOLDEN_RETRIEVAL) == EXPECTED_RECORDS["torchmetrics-retrieval"]
    for key, counts in TALLY.items():
        assert counts["failed"] == 0, f"{key}: {counts['failed']} records failed"
        if sum(counts.values()) == EXPECTED_RECORDS[key]:
            print(f"{key}: " + ", ".join(f"{counts[k]} {k}" for k in sorted(counts)))
