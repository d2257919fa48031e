"""Every entry of the registry through the Python API: the bits that tests/data/registry/
values.json keeps (written by cli/tests/registry.rs from the library and the command) on one
input with ties, so the three front doors agree on every metric of every convention."""

import json
import os
import struct
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest

import rankmetrics

VALUES = (
    Path(os.environ["RANKMETRICS_CONFORMANCE_DIR"]).parent / "registry" / "values.json"
    if os.environ.get("RANKMETRICS_CONFORMANCE_DIR")
    else Path(__file__).resolve().parents[2] / "tests" / "data" / "registry" / "values.json"
)
DATA = json.loads(VALUES.read_text())
Y = np.array(DATA["y_true"], dtype=np.float64)
S = np.array(DATA["y_score"], dtype=np.float64)
CASES: List[Dict[str, Any]] = DATA["cases"]


def bits(value: float) -> str:
    return struct.pack(">d", value).hex()


def test_every_name_of_every_convention_has_a_case() -> None:
    for convention in rankmetrics.CONVENTIONS:
        listed = [c["metric"] for c in CASES if c["convention"] == convention]
        assert rankmetrics.metric_names(convention) == listed, convention


@pytest.mark.parametrize("case", CASES, ids=[f"{c['convention']}-{c['metric']}" for c in CASES])
def test_the_registry_value_to_the_bit(case: Dict[str, Any]) -> None:
    call = dict(convention=case["convention"], metric=case["metric"], **case["params"])
    if "error" in case["result"]:
        with pytest.raises(rankmetrics.RankmetricsError):
            rankmetrics.evaluate(Y, S, **call)
    else:
        assert bits(rankmetrics.evaluate(Y, S, **call)) == case["result"]["bits"]


def test_own_functions_agree_with_their_entries() -> None:
    """rankmetrics' label-wise and propensity-scored functions are the registry's entries."""
    want = {c["metric"]: c["result"]["bits"] for c in CASES if c["convention"] == "rankmetrics"}
    props = [1.0, 2.0, 3.0, 1.5, 2.0]
    assert bits(rankmetrics.roc_auc(Y, S)) == want["roc_auc"]
    assert bits(rankmetrics.label_average_precision(Y, S)) == want["label_average_precision"]
    assert bits(rankmetrics.psprecision_at_k(Y, S, props)) == want["psprecision_at_k"]
    assert bits(rankmetrics.psndcg_at_k(Y, S, np.array(props))) == want["psndcg_at_k"]


def test_an_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(rankmetrics.ParameterError, match="roc_auc_score"):
        rankmetrics.evaluate(Y, S, convention="sklearn", metric="roc_auc_scor")


def test_none_is_not_taken_for_the_default() -> None:
    """scikit-learn's ``average=None`` (per-label scores) must not quietly give the macro mean."""
    for call in (
        lambda: rankmetrics.roc_auc(Y, S, average=None),
        lambda: rankmetrics.label_average_precision(Y, S, undefined=None),
        lambda: rankmetrics.psprecision_at_k(Y, S, [1.0] * 5, k=None),
    ):
        with pytest.raises(rankmetrics.ParameterError, match="=None"):
            call()


def test_inverse_propensities_from_any_array_like() -> None:
    import array

    want = {c["metric"]: c["result"]["bits"] for c in CASES if c["convention"] == "rankmetrics"}
    props = array.array("d", [1.0, 2.0, 3.0, 1.5, 2.0])
    assert bits(rankmetrics.psprecision_at_k(Y, S, props)) == want["psprecision_at_k"]
    assert bits(rankmetrics.psndcg_at_k(Y, S, np.array([props]))) == want["psndcg_at_k"]


def test_a_bad_inverse_propensity_is_named_with_its_label() -> None:
    with pytest.raises(rankmetrics.ParameterError, match="label 2: NaN") as e:
        rankmetrics.psprecision_at_k(Y, S, [1.0, 2.0, float("nan"), 1.0, 1.0])
    assert e.value.details["parameter"] == "inv_propensities"
