"""Errors as Python sees them: the classes and kinds users catch, the fields saying where, and
the names a parameter takes listed when a value is none of them."""

import numpy as np
import pytest

import rankmetrics

Y = [[1, 0], [0, 1]]
S = [[0.5, 0.1], [0.2, 0.3]]


def _raised(call):
    with pytest.raises(rankmetrics.RankmetricsError) as info:
        call()
    return info.value


def test_input_errors_say_what_and_where() -> None:
    e = _raised(lambda: rankmetrics.evaluate(Y, [[0.5, 0.1], [np.nan, 0.3]], metric="coverage"))
    assert (type(e), e.kind, e.input, e.row, e.column) == (rankmetrics.RankmetricsError, "NonFiniteScore", "y_score", 1, 0)
    e = _raised(lambda: rankmetrics.evaluate(Y, S, metric="coverage", sample_weight=[1.0, -1.0]))
    assert (e.kind, e.input, e.row, e.column, e.value) == ("InvalidWeight", "sample_weight", 1, None, -1.0)
    e = _raised(lambda: rankmetrics.evaluate(Y, S, metric="coverage", sample_weight=[1.0]))
    assert (e.kind, e.input, e.details["expected"], e.details["found"]) == ("WeightLength", "sample_weight", 2, 1)
    e = _raised(lambda: rankmetrics.evaluate(Y, [[0.5, 0.1, 0.2]] * 2, metric="coverage"))
    assert (e.kind, e.input, e.row) == ("ShapeMismatch", None, None)


def test_parameter_errors_keep_their_kinds() -> None:
    e = _raised(lambda: rankmetrics.evaluate(Y, S, metric="bogus"))
    assert (type(e), e.kind) == (rankmetrics.ParameterError, "UnknownMetric")
    e = _raised(lambda: rankmetrics.evaluate(Y, S, convention="sklearn", metric="ndcg_score", kk=5))
    assert (e.kind, e.details["parameter"]) == ("UnknownParam", "kk")
    e = _raised(lambda: rankmetrics.label_average_precision(Y, S, ties="expected", sample_weight=[1.0, 2.0]))
    assert (type(e), e.kind, e.value) == (rankmetrics.ParameterError, "UnsupportedPolicy", "expected")
    assert "closed form for this metric: " in str(e)


@pytest.mark.parametrize(
    ("parameter", "call", "names"),
    [
        ("convention", lambda: rankmetrics.evaluate(Y, S, convention="weka", metric="coverage"),
         ["rankmetrics", "sklearn", "torchmetrics", "mldr", "mulan"]),
        ("ties", lambda: rankmetrics.evaluate(Y, S, metric="coverage", ties="dense"),
         ["max", "min", "average", "first", "last", "random:SEED", "expected", "optimistic", "pessimistic"]),
        ("average", lambda: rankmetrics.roc_auc(Y, S, average="binary"), ["micro", "macro", "weighted", "samples"]),
        ("undefined", lambda: rankmetrics.roc_auc(Y, S, undefined="always"), ["nan", "skip", "error", "a number"]),
    ],
)
def test_unknown_names_list_the_valid_ones(parameter, call, names) -> None:
    e = _raised(call)
    assert (type(e), e.kind, e.details["parameter"]) == (rankmetrics.ParameterError, "InvalidParam", parameter)
    for name in names:
        assert name in str(e), (name, str(e))


def test_undefined_takes_a_number_as_text() -> None:
    y = [[1, 0], [1, 1]]
    s = [[0.9, 0.2], [0.1, 0.8]]
    assert rankmetrics.roc_auc(y, s, undefined="0.5") == rankmetrics.roc_auc(y, s, undefined=0.5) == 0.75
