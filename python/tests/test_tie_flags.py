"""`compare()` says what its tie analysis computed: each row's ``ends_unproven`` and
``expected_missing`` are the crate's own (``Preset::tie_analysis``), shown in every view of a
``Comparison`` (its text, HTML, ``to_dict()``, ``to_pandas()``) and in the grid rebuilt from
the engines' values."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import rankmetrics
from rankmetrics import _grid

Y = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]])
S = np.array([[0.5, 0.5, 0.2], [0.5, 0.2, 0.2], [0.3, 0.3, 0.9], [0.1, 0.4, 0.4]])
W = np.array([1.0, 2.0, 3.0, 0.5])

# Rows whose reference is label-wise precision: weights leave their ends unproven and their
# expected value without a closed form.
PRECISION = {
    "label AP, macro",
    "label AP, geometric mean",
    "interpolated AP, mean",
    "interpolated AP, geometric",
    "AUC-PR, macro",
}
# No closed form for the expected value, weights or not.
NO_EXPECTED = {"label AP, geometric mean", "interpolated AP, mean", "interpolated AP, geometric"}


@pytest.mark.parametrize("weights", [None, W])
def test_every_view_flags_what_is_not_exact(weights):
    c = rankmetrics.compare(Y, S, weights)
    weighted = weights is not None
    frame = c.to_pandas()
    text, page = str(c), c._repr_html_()
    for row in c.rows:
        name = row["metric"]
        unproven = weighted and name in PRECISION
        missing = name in NO_EXPECTED or (weighted and name in PRECISION)
        assert c.ends_proven(name) is not unproven, name
        assert c.expected_exact(name) is not missing, name
        assert (c.expected(name) is None) == missing, name
        entry = c.to_dict()[name]
        assert (entry["ends_proven"], entry["expected_exact"]) == (not unproven, not missing)
        assert (frame.loc[name, "ends_proven"], frame.loc[name, "expected_exact"]) == (not unproven, not missing)
        if unproven:
            assert "label-wise precision also depends on the order" in c.note(name)
            # An interval that may be too narrow flags no convention as outside it.
            assert row["outside"] == []
        if not (unproven or missing):
            assert c.note(name) is None and entry["note"] is None
        for reason in filter(None, (row["ends_unproven"], row["expected_missing"])):
            assert reason in c.note(name) and reason in text
            assert reason.replace("'", "&#x27;") in page


@pytest.mark.parametrize("weights", [None, W])
def test_the_engines_grid_flags_as_one_process(weights):
    def one_process(items):
        return {str(i): _grid.value_or_error(item, Y, S, weights) for i, item in enumerate(items)}

    grid = _grid.comparison(one_process, weights is not None)
    local = rankmetrics.compare(Y, S, weights)
    keys = ("ends_unproven", "expected_missing", "note", "outside")
    assert [{k: r[k] for k in keys} for r in grid.rows] == [{k: r[k] for k in keys} for r in local.rows]


MLDR_AUCS = {("mldr", "example_auc"), ("mldr", "macro_auc"), ("mldr", "micro_auc")}
WEIGHTED_PRECISION = {
    ("sklearn", "average_precision_score"),
    ("torchmetrics", "multilabel_average_precision"),
    ("rankmetrics", "label_average_precision"),
    ("rankmetrics", "interpolated_average_precision"),
} | {
    ("mulan", m)
    for m in (
        "MeanAveragePrecision",
        "GeometricMeanAveragePrecision",
        "MeanAverageInterpolatedPrecision",
        "GeometricMeanAverageInterpolatedPrecision",
        "MacroAUCPR",
    )
}


@pytest.mark.parametrize("weights", [None, W])
def test_a_value_that_is_no_proven_end_warns(weights):
    """Every metric of every convention under both ends: an UnprovenIntervalEndWarning exactly
    for pROC's automatic direction (mldr's AUCs) and, with weights, label-wise precision; never
    under another policy."""
    warned = set()
    for convention in rankmetrics.CONVENTIONS:
        for metric in rankmetrics.metric_names(convention):
            for ties in ("optimistic", "pessimistic", "max"):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    try:
                        rankmetrics.evaluate(
                            Y, S, convention=convention, metric=metric, ties=ties, sample_weight=weights
                        )
                    except rankmetrics.RankmetricsError:
                        continue
                if any(w.category is rankmetrics.UnprovenIntervalEndWarning for w in caught):
                    assert ties != "max", (convention, metric)
                    warned.add((convention, metric))
    assert warned == (MLDR_AUCS | WEIGHTED_PRECISION if weights is not None else MLDR_AUCS)
    # rankmetrics' own label-wise AP too.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rankmetrics.label_average_precision(Y, S, ties="pessimistic", sample_weight=weights)
    assert any(w.category is rankmetrics.UnprovenIntervalEndWarning for w in caught) == (weights is not None)
