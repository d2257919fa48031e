"""Altered pickled states are refused when unpickled: for each kind of accumulator state, a field
edited to break a rule that updates and merges keep (a count, a row range, a cell, the order of
runs, a weight, a metric's parameter, the empty state kept for ``reset()``) makes
``pickle.loads`` (and the engines' ``restore``) raise :class:`IncompatibleStateError`, not a later
``value()``."""

from __future__ import annotations

import json
import pickle
import struct
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest

import rankmetrics
from rankmetrics import _core, _distributed

Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=np.uint8)
S = np.array([[0.5, 0.5, 0.1], [0.2, 0.9, 0.4], [0.3, 0.3, 0.7], [0.1, 0.6, 0.6], [0.8, 0.2, 0.2]])
W = np.array([1.0, 0.5, 2.0, 0.25, 1.5])


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def at(doc: Any, *path: Any) -> Any:
    for key in path:
        doc = doc[key]
    return doc


Edit = Callable[[Dict[str, Any]], None]


def setter(path: Tuple[Any, ...], value: Any) -> Edit:
    def edit(doc: Dict[str, Any]) -> None:
        at(doc, *path[:-1])[path[-1]] = value

    return edit


def swap_first_two(path: Tuple[Any, ...]) -> Edit:
    def edit(doc: Dict[str, Any]) -> None:
        items = at(doc, *path)
        items[0], items[1] = items[1], items[0]

    return edit


def pop(path: Tuple[Any, ...]) -> Edit:
    return lambda doc: at(doc, *path).pop()


def pickled(acc: rankmetrics.Accumulator, state: bytes, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """A pickle of ``acc`` holding ``state``, as a worker would ship it."""
    with monkeypatch.context() as m:
        m.setattr(_core.Accumulator, "__getstate__", lambda self: state)
        return pickle.dumps(acc)


ROW = ("state", "state", "Row", "acc", "state")
CASES: List[Tuple[str, Dict[str, Any], bool, List[Tuple[str, Edit]]]] = [
    (
        "row-wise, exact sums",
        dict(convention="sklearn", metric="label_ranking_loss"),
        True,
        [
            ("a count beyond the rows", setter(ROW + ("sums", "Exact", "count"), 99)),
            ("no labels", setter(ROW + ("shape", "labels"), 0)),
            ("an empty row range", setter(ROW + ("rows", "seen", 0, "end"), 2)),
            ("a label value of 0.5", setter(ROW + ("indicator", "first", 0, "value"), bits(0.5))),
            ("label values out of order", swap_first_two(ROW + ("indicator", "first"))),
        ],
    ),
    (
        "row-wise, summed in row order",
        dict(convention="mulan", metric="AveragePrecision"),
        True,
        [
            ("a NaN weight", setter(ROW + ("sums", "Sequential", 0, "weights", 1), bits(float("nan")))),
            ("a weight short", pop(ROW + ("sums", "Sequential", 0, "weights"))),
            ("a run past the rows", setter(ROW + ("sums", "Sequential", 0, "first"), 3)),
        ],
    ),
    (
        "label-wise rows (preset)",
        dict(convention="sklearn", metric="roc_auc_score"),
        True,
        [
            ("a NaN score", setter(("state", "state", "Labelwise", "scores", 4), bits(float("nan")))),
            ("a cell short", pop(("state", "state", "Labelwise", "truth"))),
            ("a negative weight", setter(("state", "state", "Labelwise", "weights", 0), bits(-1.0))),
        ],
    ),
    (
        "label-wise rows",
        dict(metric="roc_auc"),
        False,
        [
            ("a label of 2", setter(("state", "state", "Labelwise", "truth", 1), bits(2.0))),
            ("an infinite score", setter(("state", "state", "Labelwise", "scores", 0), bits(float("inf")))),
            ("another domain", setter(("state", "state", "Labelwise", "domain"), "NonZero")),
        ],
    ),
    (
        "label-wise runs (preset)",
        dict(convention="sklearn", metric="roc_auc_score", state="runs"),
        False,
        [
            ("runs swapped", swap_first_two(("state", "state", "Runs", "runs", "columns", 0))),
            (
                "a policy runs cannot value",
                setter(("state", "state", "Runs", "metric", "RocAuc", "options", "ranking", "ties"), "First"),
            ),
        ],
    ),
    (
        "label-wise runs",
        dict(metric="label_average_precision", state="runs"),
        False,
        [
            (
                "an item more",
                lambda doc: at(doc, "state", "state", "Runs", "runs", "columns", 1, 0).__setitem__(
                    1, at(doc, "state", "state", "Runs", "runs", "columns", 1, 0)[1] + 1
                ),
            ),
            ("no labels", setter(("state", "state", "Runs", "runs", "columns"), [])),
        ],
    ),
    (
        "propensity-scored",
        dict(metric="psprecision_at_k", inv_propensities=[1.0, 2.5, 4.0], k=2),
        True,
        [
            ("k = 0", setter(("state", "state", "Row", "acc", "metric", "PsPrecisionAtK", "k"), 0)),
            (
                "a negative propensity",
                setter(
                    ("state", "state", "Row", "acc", "metric", "PsPrecisionAtK", "inverse_propensities", 1), bits(-2.5)
                ),
            ),
            (
                "a propensity short",
                pop(("state", "state", "Row", "acc", "metric", "PsPrecisionAtK", "inverse_propensities")),
            ),
        ],
    ),
]


@pytest.mark.parametrize("what,spec,weighted,edits", CASES, ids=[c[0] for c in CASES])
def test_altered_states_are_refused_when_unpickled(
    what: str, spec: Dict[str, Any], weighted: bool, edits: List[Tuple[str, Edit]], monkeypatch: pytest.MonkeyPatch
) -> None:
    acc = rankmetrics.accumulator(first_row=2, **spec)
    acc.update(Y[2:], S[2:], W[2:] if weighted else None)
    state = acc.__getstate__()
    assert pickle.loads(pickle.dumps(acc)) == acc
    for name, edit in edits:
        doc = json.loads(state)
        edit(doc)
        altered = json.dumps(doc).encode()
        assert altered != state, name
        with pytest.raises(rankmetrics.IncompatibleStateError) as e:
            pickle.loads(pickled(acc, altered, monkeypatch))
        assert e.value.kind == "State", name
        assert "state read back is invalid at " in str(e.value), f"{name}: {e.value}"
        # The engines load shipped states the same way.
        with pytest.raises(rankmetrics.IncompatibleStateError):
            _distributed.restore(altered)
        assert isinstance(_distributed.merge_states([state], [altered]), rankmetrics.IncompatibleStateError)


def test_an_empty_state_that_is_not_one_of_the_same_metric_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    acc = rankmetrics.accumulator(convention="sklearn", metric="coverage_error", first_row=2)
    acc.update(Y[2:], S[2:])
    doc = json.loads(acc.__getstate__())
    other = json.loads(rankmetrics.accumulator(convention="sklearn", metric="label_ranking_loss").__getstate__())
    for empty in (doc["state"], other["empty"]):
        altered = json.dumps(dict(doc, empty=empty)).encode()
        with pytest.raises(rankmetrics.IncompatibleStateError, match="reset"):
            pickle.loads(pickled(acc, altered, monkeypatch))
