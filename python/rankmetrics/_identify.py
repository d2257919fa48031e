"""``identify()``: which convention, metric, parameters and tie policy give a reported value
(``rankmetrics identify``), as notebook objects (the command's table when printed,
``to_dict()``, ``to_pandas()``)."""

from __future__ import annotations

import html
import numbers
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union, overload

import numpy as np

from . import _input
from ._rankmetrics import identify as _identify
from .exceptions import ParameterError

Value = Union[str, float, int]


class Match(NamedTuple):
    """A metric whose value on the data rounds to the reported one.

    Attributes
    ----------
    convention : str
        ``"rankmetrics"``, ``"sklearn"``, ``"torchmetrics"``, ``"mldr"`` or ``"mulan"``.
    metric : str
        The metric, as its toolkit names it.
    params : dict of str to str
        The parameters the search set (the others keep their defaults).
    ties : str or None
        The tie policy, for rankmetrics' own metrics; None where the toolkit's rule is part
        of the metric.
    value : float
        Its value on the data.
    interval : tuple of float or None
        ``(low, high)``: the values its quantity takes over every order of the tied scores
        (None where no preset computes the same quantity under every order).
    expected : float or None
        The exact mean over those orders.
    reference : str or None
        The rankmetrics metric whose tie analysis gives ``interval`` and ``expected``.
    note : str or None
        Why the interval's ends are not proven or the expected value has no closed form.
    """

    convention: str
    metric: str
    params: Dict[str, str]
    ties: Optional[str]
    value: float
    interval: Optional[Tuple[float, float]]
    expected: Optional[float]
    reference: Optional[str]
    note: Optional[str]


def _match(d: Dict[str, Any]) -> Match:
    interval = d["interval"]
    return Match(
        convention=d["convention"],
        metric=d["metric"],
        params=dict(d["params"]),
        ties=d["ties"],
        value=d["value"],
        interval=None if interval is None else (interval[0], interval[1]),
        expected=d["expected"],
        reference=d["reference"],
        note=d["note"],
    )


class Identification:
    """What :func:`identify` found for one reported value. Printed, it is the table of
    ``rankmetrics identify``.

    Attributes
    ----------
    reported : float
        The value searched for.
    tolerance : float
        How far from it a value may lie (half a unit of its last printed digit, unless given).
    metric : str or None
        The family searched, if one was given.
    matches : list of Match
        Every candidate whose value rounds to the reported one, in the order of the families,
        their conventions, parameters and tie policies.
    closest : list of Match
        When nothing matches, the three candidates closest to the reported value; else empty.
    candidates : int
        How many candidates were evaluated.
    interval : tuple of float or None
        The interval over tie orders of the family searched (its default parameters), else of
        the quantity every match shares; None when the matches lie in several.
    expected : float or None
        The expected value of that quantity.
    reference : str or None
        The metric whose tie analysis gives ``interval`` and ``expected``.

    Examples
    --------
    >>> import rankmetrics
    >>> found = rankmetrics.identify([[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]],
    ...                              "0.625", metric="ranking_loss")
    >>> [(m.convention, m.ties) for m in found.matches]
    [('rankmetrics', 'average'), ('rankmetrics', 'expected')]
    >>> found.interval, found.expected
    ((0.25, 1.0), 0.625)
    >>> print(found)  # doctest: +NORMALIZE_WHITESPACE
    0.625 (±0.0005), ranking_loss: 2 of 14 candidates give it
    convention   metric        params  ties      value    interval over tie orders  expected
    rankmetrics  ranking_loss          average   0.62500  [0.25000, 1.00000]        0.62500
    rankmetrics  ranking_loss          expected  0.62500  [0.25000, 1.00000]        0.62500
    over every order of the tied scores, rankmetrics ranking_loss lies in [0.25000, 1.00000], expected 0.62500
    """

    def __init__(self, found: Dict[str, Any]) -> None:
        self.reported: float = found["reported"]
        self.tolerance: float = found["tolerance"]
        self.metric: Optional[str] = found["metric"]
        self.candidates: int = found["candidates"]
        self.matches: List[Match] = [_match(m) for m in found["matches"]]
        self.closest: List[Match] = [_match(m) for m in found["closest"]]
        interval = found["interval"]
        self.interval: Optional[Tuple[float, float]] = None if interval is None else (interval[0], interval[1])
        self.expected: Optional[float] = found["expected"]
        self.reference: Optional[str] = found["reference"]
        self._table: str = found["table"]

    def __str__(self) -> str:
        return self._table.rstrip("\n")

    def __repr__(self) -> str:
        return (
            f"<Identification of {self.reported!r} (±{self.tolerance!r}): "
            f"{len(self.matches)} of {self.candidates} candidates match>"
        )

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(str(self))}</pre>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Identification):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> Dict[str, Any]:
        """``{"reported", "tolerance", "metric", "candidates", "matches": [dict...],
        "closest": [dict...], "interval", "expected", "reference"}``: the fields of the
        command's JSON output, each match a dict of :class:`Match`'s fields."""
        return {
            "reported": self.reported,
            "tolerance": self.tolerance,
            "metric": self.metric,
            "candidates": self.candidates,
            "matches": [m._asdict() for m in self.matches],
            "closest": [m._asdict() for m in self.closest],
            "interval": self.interval,
            "expected": self.expected,
            "reference": self.reference,
        }

    def to_pandas(self) -> Any:
        """The matches (or, when nothing matches, the closest candidates) as a
        ``pandas.DataFrame``, one row each; ``params`` as ``key=value`` text."""
        import pandas as pd  # type: ignore[import-untyped,unused-ignore]

        listed = self.matches or self.closest
        rows = [
            {
                **m._asdict(),
                "params": " ".join(f"{k}={v}" for k, v in m.params.items()),
            }
            for m in listed
        ]
        return pd.DataFrame(rows, columns=list(Match._fields))


@overload
def identify(
    y_true: Any,
    y_score: Any,
    value: Value,
    *,
    metric: Optional[str] = None,
    tolerance: Optional[float] = None,
    sample_weight: Any = None,
    threads: Optional[int] = None,
) -> Identification: ...
@overload
def identify(
    y_true: Any,
    y_score: Any,
    value: Sequence[Value],
    *,
    metric: Optional[str] = None,
    tolerance: Optional[float] = None,
    sample_weight: Any = None,
    threads: Optional[int] = None,
) -> List[Identification]: ...
def identify(
    y_true: Any,
    y_score: Any,
    value: Union[Value, Sequence[Value]],
    *,
    metric: Optional[str] = None,
    tolerance: Optional[float] = None,
    sample_weight: Any = None,
    threads: Optional[int] = None,
) -> Union[Identification, List[Identification]]:
    """Which convention, metric, parameters and tie policy give a reported value: every
    metric of every convention evaluated on the data at once (rankmetrics' own under every
    tie policy; each toolkit's under its own rules; k and ``top_k`` from 1 to 20 and the
    label count, NDCG's ``ignore_ties``, every ``average``, mldr's ``ties_method``, MULAN's
    Weka version, torchmetrics' dtype), those whose value rounds to the reported one listed
    with the interval over tie orders and the expected value of their quantity. The search of
    ``rankmetrics identify``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 labels (or gains).
    y_score : array-like of shape (n_samples, n_labels)
        Scores.
    value : str or float, or a sequence of them
        The reported value as printed (``"0.8542"`` matches 0.85415 to 0.85425; ``"85.42%"``
        is read as 0.8542). A float is read as its shortest repr (``0.8542`` as
        ``"0.8542"``). Several values are searched at once and give a list.
    metric : str, default=None
        A family to search (``"lrap"``, ``"coverage"``, ``"ndcg"``, ``"roc_auc"``, ...) or a
        metric's own name; None searches every family.
    tolerance : float, default=None
        How far from the value a match may lie, instead of half a unit of its last digit.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    threads : int, default=None
        Threads (None: one; -1: every core); the matches are the same for any count.

    Returns
    -------
    Identification, or a list of them for a sequence of values

    Raises
    ------
    ParameterError
        For a value that is not a number as printed, a negative tolerance, or an unknown
        family.

    Examples
    --------
    >>> import rankmetrics
    >>> y_true, y_score = [[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]]
    >>> found = rankmetrics.identify(y_true, y_score, 0.5833, metric="lrap")
    >>> sorted({(m.convention, m.metric) for m in found.matches})
    [('mldr', 'average_precision'), ('rankmetrics', 'average_precision')]
    >>> [len(f.matches) > 0 for f in rankmetrics.identify(y_true, y_score, ["0.625", "0.1234"])]
    [True, False]
    """
    single = isinstance(value, (str, numbers.Number, np.generic))
    values = [value] if single else list(value)  # type: ignore[list-item, arg-type]
    texts = [_printed(v) for v in values]
    found = _identify(
        _input.labels(y_true),
        _input.scores(y_score),
        _input.weights(sample_weight),
        texts,
        metric,
        tolerance,
        _input.threads(threads),
    )
    out = [Identification(f) for f in found]
    return out[0] if single else out


def _printed(v: Any) -> str:
    """A reported value as printed: text as given, a number in its shortest form (a float32
    in float32's, so ``np.float32(0.8542)`` is ``"0.8542"``)."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        raise ParameterError(f"value {v!r} is a boolean, not a reported value", "InvalidParam", {"parameter": "value"})
    if isinstance(v, (numbers.Integral, np.integer)):
        return str(int(v))
    if isinstance(v, np.floating):
        return str(v)
    if isinstance(v, numbers.Real):
        return repr(float(v))
    raise ParameterError(
        f"value must be the reported values, as strings or numbers; got {type(v).__name__}",
        "InvalidParam",
        {"parameter": "value"},
    )
