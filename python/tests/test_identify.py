"""``rankmetrics.identify``: every golden record's toolkit value, rounded to 4 decimals and
searched over every family on the record's case, lists that toolkit's metric with the
record's parameters (as the library's and the command's tests check); and its objects."""

from __future__ import annotations

import json
import os
import pickle
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import rankmetrics

DATA = Path(
    os.environ.get("RANKMETRICS_CONFORMANCE_DIR")
    or Path(__file__).resolve().parents[2] / "tests" / "data" / "conformance"
)
FILES = {
    "golden-sklearn.json": "sklearn",
    "golden-torchmetrics.json": "torchmetrics",
    "golden-torchmetrics-f32.json": "torchmetrics",
    "golden-torchmetrics-auc.json": "torchmetrics",
    "golden-torchmetrics-retrieval.json": "torchmetrics",
    "golden-mldr.json": "mldr",
    "golden-mulan.json": "mulan",
}


def _load(name: str) -> Any:
    with open(DATA / name) as f:
        return json.load(f)


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _wanted(convention: str, record: Dict[str, Any], labels: int) -> Tuple[str, Dict[str, str], bool]:
    """The registry name, the parameters the match must carry, whether weights apply: as
    tests/common/identify_golden.rs has them."""
    name = record["metric"]
    keys = rankmetrics.param_keys(convention, name)
    params = {k: _text(v) for k, v in record["params"].items() if k != "sample_weight" and v is not None}
    weighted = record["params"].get("sample_weight") is True and "sample_weight_ignored" not in record
    if "dtype" in keys and "dtype" not in params:
        params["dtype"] = "float32" if "scores_f32" in record else "float64"
    if "arithmetic" in keys:
        params["arithmetic"] = "float32"
    if "sigmoid" in keys and record.get("sigmoid_applied") is True:
        params["sigmoid"] = "avx512"
    if "weka" in keys:
        params["weka"] = "3.7"
    for k in ("k", "top_k"):
        if k in params and int(params[k]) >= labels and name != "retrieval_precision":
            del params[k]
    params.pop("num_recall_levels", None)
    return name, params, weighted


def _found(matches: List[rankmetrics.Match], convention: str, metric: str, params: Dict[str, str], labels: int) -> bool:
    defaults = {
        "one_based": "false",
        "ignore_ties": "false",
        "adaptive_k": "false",
        "average": "macro",
        "ties_method": "last",
        "weka": "3.7",
        "undefined_value": "0.5",
        "na_rm": "false",
    }
    for m in matches:
        if (m.convention, m.metric) != (convention, metric):
            continue
        if any(m.params.get(k) != v for k, v in params.items()):
            continue
        extra = {k: v for k, v in m.params.items() if k not in params}
        if all(defaults.get(k) == v or (k in ("k", "top_k") and v == str(labels)) for k, v in extra.items()):
            return True
    return False


def test_identify_finds_the_convention_of_every_golden_record() -> None:
    cases = {c["id"]: c for f in ("cases.json", "cases-logits.json") for c in _load(f)["cases"]}
    by_case: Dict[Tuple[str, bool], List[Tuple[str, Dict[str, Any], float, str, Dict[str, str]]]] = defaultdict(list)
    no_value = 0
    for file, convention in FILES.items():
        for record in _load(file)["results"]:
            value = record.get("value")
            if value is None or isinstance(value, str) or not np.isfinite(value):
                no_value += 1
                continue
            labels = len(cases[record["case"]]["y_true"][0])
            metric, params, weighted = _wanted(convention, record, labels)
            by_case[(record["case"], weighted)].append((convention, record, float(value), metric, params))
    found, tie_dependent, missed = 0, 0, []
    for (case_id, weighted), searches in by_case.items():
        case = cases[case_id]
        y, s = np.array(case["y_true"], dtype=np.float64), np.array(case["y_score"], dtype=np.float64)
        w = case.get("sample_weight") if weighted else None
        values = [f"{v:.4f}" for _, _, v, _, _ in searches]
        results = rankmetrics.identify(y, s, values, sample_weight=w)
        for (convention, record, value, metric, params), result in zip(searches, results):
            if _found(result.matches, convention, metric, params, y.shape[1]):
                found += 1
            elif record.get("tie_order_dependent") is True:
                tie_dependent += 1
            else:
                missed.append(f"{case_id} {convention} {metric} {params} = {value:.4f}")
    assert not missed, f"{len(missed)} missed:\n" + "\n".join(missed[:20])
    # The same counts as the library's test: every value found but scikit-learn's 230
    # ignore_ties records that depend on its sort's tie order.
    assert (found, tie_dependent, no_value) == (13913, 230, 1444)


Y, S = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]


def test_the_printed_object_is_the_commands_table() -> None:
    found = rankmetrics.identify(Y, S, "0.625", metric="ranking_loss")
    lines = str(found).splitlines()
    assert lines[0] == "0.625 (±0.0005), ranking_loss: 2 of 14 candidates give it"
    assert lines[1].split() == [
        "convention",
        "metric",
        "params",
        "ties",
        "value",
        "interval",
        "over",
        "tie",
        "orders",
        "expected",
    ]
    assert found._repr_html_().startswith("<pre>0.625 (±0.0005)")


def test_floats_are_read_as_printed_and_sequences_give_lists() -> None:
    one = rankmetrics.identify(Y, S, 0.625)
    assert (one.reported, one.tolerance) == (0.625, 0.0005)
    many = rankmetrics.identify(Y, S, ["62.5%", 1])
    assert [m.reported for m in many] == [0.625, 1.0]
    assert many[1].tolerance == 0.5
    # numpy scalars as printed in their own precision; a sequence of them gives a list.
    for scalar in (np.float32(0.625), np.float64(0.625)):
        found = rankmetrics.identify(Y, S, scalar)
        assert (found.reported, found.tolerance) == (0.625, 0.0005)
    assert rankmetrics.identify(Y, S, np.int64(1)).tolerance == 0.5
    assert len(rankmetrics.identify(Y, S, np.array([0.625, 0.5]))) == 2
    for flag in (True, np.bool_(False)):
        with pytest.raises(rankmetrics.ParameterError, match="is a boolean"):
            rankmetrics.identify(Y, S, flag)
    with pytest.raises(rankmetrics.ParameterError, match="beyond float64's range"):
        rankmetrics.identify(Y, S, "1e-2147483648")


def test_no_match_gives_the_closest() -> None:
    found = rankmetrics.identify(Y, S, "0.1234", metric="ranking_loss")
    assert found.matches == [] and len(found.closest) == 3
    assert str(found).splitlines()[1] == "the closest:"
    frame = found.to_pandas()
    assert list(frame.columns) == list(rankmetrics.Match._fields) and len(frame) == 3


def test_pickles_and_compares() -> None:
    found = rankmetrics.identify(Y, S, "0.625", threads=2)
    again = pickle.loads(pickle.dumps(found))
    assert again == found and str(again) == str(found)
    assert found.to_dict()["matches"][0]["convention"] == "rankmetrics"
    assert found == rankmetrics.identify(Y, S, "0.625")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(value="0,625"), 'cannot read the reported value "0,625"'),
        (dict(value="0.625", metric="lrapp"), 'unknown metric family "lrapp"'),
        (dict(value="0.625", tolerance=-1.0), "the tolerance -1 is not a finite number"),
    ],
)
def test_bad_requests_raise_parameter_errors(kwargs: Dict[str, Any], message: str) -> None:
    value = kwargs.pop("value")
    with pytest.raises(rankmetrics.ParameterError, match=message):
        rankmetrics.identify(Y, S, value, **kwargs)


def test_bad_inputs_raise_with_their_place() -> None:
    with pytest.raises(rankmetrics.RankmetricsError, match="row 0, column 1 is NaN"):
        rankmetrics.identify([[1, 0]], [[0.5, float("nan")]], "0.5")
