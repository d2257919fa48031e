""":func:`rankmetrics.compare` through the engines: the one-process grid's cells as metric
specs for the distributed evaluation, and the grid rebuilt from the merged values.

Each cell's preset is the one :func:`rankmetrics.compare` evaluates (the crate's grid layout,
its concept → preset table); a cell whose value is undefined holds the error's message, as one
process's grid does.

>>> import rankmetrics
>>> from rankmetrics import _grid
>>> y, s = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]
>>> def one_process(items):  # what an engine's evaluation returns, here on one process
...     return {str(i): _grid.value_or_error(item, y, s) for i, item in enumerate(items)}
>>> grid = _grid.comparison(one_process)
>>> grid.to_dict() == rankmetrics.compare(y, s).to_dict()
True
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from . import _core, _distributed
from ._compare import Comparison
from ._rankmetrics import grid_layout as _grid_layout
from ._rankmetrics import grid_summary as _grid_summary
from .exceptions import RankmetricsError

Item = Tuple[str, Dict[str, Any]]


def _item(cell: Dict[str, Any]) -> Item:
    """A cell's preset as a ``(metric, {convention, ties, params})`` pair of ``metrics=``."""
    params = dict(cell["params"])
    return cell["metric"], {"convention": cell["convention"], "ties": params.pop("ties", None), **params}


def _key(item: Item) -> str:
    name, params = item
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in params.items())})"


def specs() -> Dict[str, Item]:
    """Every distinct cell preset of the grid, by the key the engines' results give it."""
    out: Dict[str, Item] = {}
    for row in _grid_layout():
        for cell in row["cells"]:
            item = _item(cell)
            out.setdefault(_key(item), item)
    return out


def value_or_error(item: Item, y_true: Any, y_score: Any, sample_weight: Any = None) -> Any:
    """One cell's value on one process, or its error (as the engines' results hold it)."""
    name, params = item
    try:
        acc = _core.accumulator(metric=name, **params)
        acc.update(y_true, y_score, sample_weight)
        return acc.value()
    except RankmetricsError as e:
        return e


def _summary(row: Dict[str, Any], weighted: bool) -> None:
    """The row's interval, expected value, spread, outside columns and what its tie analysis
    guarantees, from its cells, by the crate's own summary (``compare::Summary``)."""
    values = [(c["column"], c["value"]) for c in row["cells"] if c["value"] is not None]
    row.update(_grid_summary(row["metric"], values, weighted))


def through(evaluate: Callable[[List[Dict[str, Any]]], Dict[str, Any]], weighted: bool = False) -> Comparison:
    """The grid from an engine's evaluation of checked specs (:func:`_distributed.metric_specs`'s;
    ``weighted``: the rows carry sample weights) that returns an undefined value's error as its
    value."""
    return comparison(
        lambda items: evaluate(_distributed.metric_specs(items, "rankmetrics", None, {}, weighted)), weighted
    )


def comparison(evaluate: Callable[[List[Item]], Dict[str, Any]], weighted: bool = False) -> Comparison:
    """The grid, its cells' values from ``evaluate``: the engine's evaluation of a list of
    ``(metric, params)`` items at once, to ``{key: value or RankmetricsError}`` in the items'
    order (``weighted``: the rows carry sample weights)."""
    items = specs()
    values = dict(zip(items, evaluate(list(items.values())).values()))
    rows = []
    for template in _grid_layout():
        cells = []
        for cell in template["cells"]:
            got = values[_key(_item(cell))]
            error = isinstance(got, RankmetricsError)
            cells.append({**cell, "value": None if error else float(got), "error": str(got) if error else None})
        row = {"metric": template["metric"], "over": template["over"], "cells": cells}
        _summary(row, weighted)
        rows.append(row)
    return Comparison(rows)
