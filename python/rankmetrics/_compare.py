"""``compare()``: every metric under every tie policy and every toolkit's convention, with the
tie analysis (interval, expected value, spread, outside-interval flags), as a notebook object
(a table in Jupyter, ``to_pandas()``, ``to_dict()``, ``plot()``)."""

from __future__ import annotations

import hashlib
import html
import math
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _input
from ._rankmetrics import __version__
from ._rankmetrics import chart as _chart
from ._rankmetrics import compare as _compare
from ._rankmetrics import reproduces as _reproduces

POLICY_COLUMNS: Tuple[str, ...] = ("max", "min", "average", "first", "last")
TOOLKIT_COLUMNS: Tuple[str, ...] = ("sklearn", "torchmetrics", "mldr", "mulan")
ANALYSIS_COLUMNS: Tuple[str, ...] = ("pessimistic", "expected", "optimistic")
COLUMNS: Tuple[str, ...] = POLICY_COLUMNS + TOOLKIT_COLUMNS + ANALYSIS_COLUMNS

LEGEND = (
    "max .. last: rankmetrics' metric under that tie policy (AUC and label-AP rows: the "
    "scikit-learn or MULAN metric with its tie rule replaced). sklearn .. mulan: each toolkit's "
    "own metric, names and rules; blank where it has none. interval: [low, high], the smallest "
    "and largest value over every ordering of the ties; expected: its exact mean; (n): why an "
    "interval's ends are not proven or an expected value has no closed form. spread: largest "
    "minus smallest value across the policies and toolkits. *: outside the interval, so that "
    "convention differs by more than how it breaks ties."
)


class Comparison:
    """The grid of :func:`compare`: one row per metric concept, one column per tie policy and
    toolkit, and the tie analysis.

    Attributes
    ----------
    rows : list of dict
        Per concept: ``metric`` (its name), ``over`` (``"rows"``, ``"samples"``,
        ``"labels"`` or ``"pool"``), ``cells`` (per column: ``column``, ``convention``,
        ``metric``, ``params``, ``value`` (NaN when undefined, None on error), ``error``),
        ``interval`` (``(low, high)`` or None), ``expected``, ``spread``, ``outside``
        (the columns whose value lies outside the interval), ``ends_unproven`` (why the
        interval's ends are not the proven best and worst over tie orders, or None),
        ``expected_missing`` (why ``expected`` has no closed form, or None) and ``note`` (both
        in one text, or None).

    Examples
    --------
    >>> import rankmetrics
    >>> c = rankmetrics.compare([[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]])
    >>> c.value("ranking loss", "sklearn"), c.value("ranking loss", "expected")
    (1.0, 0.625)
    >>> c.interval("ranking loss")
    (0.25, 1.0)
    >>> "NDCG" in c.to_dict()
    True
    >>> weighted = rankmetrics.compare([[1, 0], [1, 1], [0, 1]], [[0.5, 0.5], [0.5, 0.2], [0.3, 0.3]], [1, 2, 3])
    >>> weighted.ends_proven("label AP, macro"), weighted.expected_exact("label AP, macro")
    (False, False)
    >>> weighted.note("label AP, macro")[:55]
    'interval ends not proven: with sample weights, label-wi'
    """

    def __init__(
        self,
        rows: List[Dict[str, Any]],
        table: Optional[str] = None,
        provenance: Optional[Dict[str, Any]] = None,
    ) -> None:
        self.rows = rows
        self._table = table
        self._provenance = provenance

    @property
    def provenance(self) -> Optional[Dict[str, Any]]:
        """Where the values came from: ``rankmetrics_version``, ``reproduces`` (each
        convention's name: the toolkit release it reproduces) and ``inputs`` (per input:
        ``shape``, ``dtype`` and the ``sha256`` of its C-ordered bytes as evaluated); None for
        a grid evaluated on an engine (its rows are not in one place).

        Examples
        --------
        >>> import rankmetrics
        >>> p = rankmetrics.compare([[1, 0]], [[0.9, 0.1]]).provenance
        >>> p["reproduces"]["sklearn"], p["inputs"]["y_score"]["shape"]
        ('scikit-learn 1.9.1', (1, 2))
        """
        return self._provenance

    def _row(self, metric: str) -> Dict[str, Any]:
        for row in self.rows:
            if row["metric"] == metric:
                return row
        names = ", ".join(r["metric"] for r in self.rows)
        raise KeyError(f"no metric {metric!r} in the comparison; it has: {names}")

    def value(self, metric: str, column: str) -> Optional[float]:
        """The value of ``metric`` (a row name) in ``column`` (a policy or toolkit name);
        None where the toolkit has no such metric or the cell reported an error."""
        if column not in COLUMNS:
            raise KeyError(f"no column {column!r}; the columns are: {', '.join(COLUMNS)}")
        for cell in self._row(metric)["cells"]:
            if cell["column"] == column:
                return cell["value"]
        return None

    def interval(self, metric: str) -> Optional[Tuple[float, float]]:
        """``(low, high)``: the smallest and largest value of ``metric`` over tie orders."""
        interval = self._row(metric)["interval"]
        return None if interval is None else (interval[0], interval[1])

    def expected(self, metric: str) -> Optional[float]:
        """The exact expected value of ``metric`` over tie orders (None without a closed form)."""
        value: Optional[float] = self._row(metric)["expected"]
        return value

    def ends_proven(self, metric: str) -> bool:
        """Whether the interval's ends of ``metric`` are the proven best and worst values over
        tie orders; where not (label-wise precision with sample weights), they are values of
        orderings inside the interval, and :meth:`note` says why."""
        return self._row(metric)["ends_unproven"] is None

    def expected_exact(self, metric: str) -> bool:
        """Whether ``metric`` has an exact expected value over tie orders (a closed form);
        where not, :meth:`expected` is None and :meth:`note` says why."""
        return self._row(metric)["expected_missing"] is None

    def note(self, metric: str) -> Optional[str]:
        """Why the interval's ends of ``metric`` are not proven or its expected value is
        missing; None where both are exact."""
        note: Optional[str] = self._row(metric)["note"]
        return note

    def to_dict(self) -> Dict[str, Dict[str, Any]]:
        """``{metric: {column: value, ..., "interval": (low, high), "expected": ...,
        "spread": ..., "outside": [columns], "ends_proven": bool, "expected_exact": bool,
        "note": str or None}}``."""
        out: Dict[str, Dict[str, Any]] = {}
        for row in self.rows:
            entry: Dict[str, Any] = {c["column"]: c["value"] for c in row["cells"]}
            entry.update(
                interval=row["interval"],
                expected=row["expected"],
                spread=row["spread"],
                outside=list(row["outside"]),
                ends_proven=row["ends_unproven"] is None,
                expected_exact=row["expected_missing"] is None,
                note=row["note"],
            )
            out[row["metric"]] = entry
        return out

    def to_pandas(self) -> Any:
        """A pandas DataFrame: one row per metric, a column per policy and toolkit, then
        ``low``, ``high``, ``expected``, ``spread``, ``outside``, ``ends_proven``,
        ``expected_exact`` and ``note`` (needs pandas)."""
        try:
            import pandas as pd  # type: ignore[import-untyped,unused-ignore]
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Comparison.to_pandas() needs pandas: pip install pandas") from e
        records = []
        for row in self.rows:
            rec: Dict[str, Any] = {c: None for c in COLUMNS}
            rec.update({c["column"]: c["value"] for c in row["cells"]})
            low, high = row["interval"] if row["interval"] is not None else (None, None)
            rec.update(
                low=low,
                high=high,
                expected=row["expected"],
                spread=row["spread"],
                outside=", ".join(row["outside"]),
                ends_proven=row["ends_unproven"] is None,
                expected_exact=row["expected_missing"] is None,
                note=row["note"],
            )
            records.append(rec)
        frame = pd.DataFrame.from_records(records, index=[r["metric"] for r in self.rows])
        frame.index.name = "metric"
        return frame.drop(columns=["pessimistic", "optimistic"])

    def _cell_text(self, row: Dict[str, Any], column: str) -> str:
        for cell in row["cells"]:
            if cell["column"] == column:
                if cell["value"] is None:
                    return "error"
                star = "*" if column in row["outside"] else ""
                return f"{cell['value']:.4f}{star}"
        return "—"

    def _analysis_texts(self, row: Dict[str, Any], notes: List[str]) -> Tuple[str, str]:
        """The interval and expected cells of ``row``; one that is not exact gets the number of
        its reason in ``notes`` (added there once)."""

        def mark(text: str, reason: Optional[str]) -> str:
            if reason is None:
                return text
            if reason not in notes:
                notes.append(reason)
            return f"{text} ({notes.index(reason) + 1})"

        interval = row["interval"]
        interval_text = "—" if interval is None else f"[{interval[0]:.4f}, {interval[1]:.4f}]"
        if interval is not None and row["ends_unproven"] is not None:
            interval_text = mark(interval_text, f"interval ends not proven: {row['ends_unproven']}")
        expected_text = "n/a" if row["expected"] is None else f"{row['expected']:.4f}"
        if row["expected_missing"] is not None:
            expected_text = mark(expected_text, f"no expected value: {row['expected_missing']}")
        return interval_text, expected_text

    def __str__(self) -> str:
        """The table ``rankmetrics compare`` prints: the values, the legend and the numbered
        notes (why a cell has no value, why a flagged value that prints as an end of the
        interval lies outside it)."""
        if self._table is not None:
            return self._table
        # A grid evaluated on an engine: the notes that need the inputs are missing.
        header = ["metric", *POLICY_COLUMNS, *TOOLKIT_COLUMNS, "interval", "expected", "spread"]
        lines = [header]
        notes: List[str] = []
        for row in self.rows:
            interval_text, expected_text = self._analysis_texts(row, notes)
            lines.append(
                [row["metric"]]
                + [self._cell_text(row, c) for c in POLICY_COLUMNS + TOOLKIT_COLUMNS]
                + [
                    interval_text,
                    expected_text,
                    "—" if row["spread"] is None else f"{row['spread']:.4f}",
                ]
            )
        widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
        text = [
            "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(line, widths)))
            for line in lines
        ]
        numbered = "".join(f"\n({i + 1}) {n}" for i, n in enumerate(notes))
        return "\n".join(text) + "\n\n" + LEGEND + numbered

    def __repr__(self) -> str:
        return f"<Comparison: {len(self.rows)} metrics × {len(COLUMNS)} columns>\n{self}"

    def _repr_html_(self) -> str:
        head = "".join(
            f"<th>{html.escape(c)}</th>"
            for c in ("metric", *POLICY_COLUMNS, *TOOLKIT_COLUMNS, "interval", "expected", "spread")
        )
        body = []
        notes: List[str] = []
        for row in self.rows:
            cells = [f"<th style='text-align:left'>{html.escape(row['metric'])}</th>"]
            for c in POLICY_COLUMNS + TOOLKIT_COLUMNS:
                text = self._cell_text(row, c)
                style = " style='color:#b00;font-weight:bold'" if text.endswith("*") else ""
                cells.append(f"<td{style}>{html.escape(text)}</td>")
            cells.extend(f"<td>{html.escape(t)}</td>" for t in self._analysis_texts(row, notes))
            cells.append("<td>—</td>" if row["spread"] is None else f"<td>{row['spread']:.4f}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        numbered = "".join(f"<br>({i + 1}) {html.escape(n)}" for i, n in enumerate(notes))
        return (
            "<table class='rankmetrics-compare'><thead><tr>"
            + head
            + "</tr></thead><tbody>"
            + "".join(body)
            + "</tbody></table>"
            + f"<p style='font-size:smaller'>{html.escape(LEGEND)}{numbered}</p>"
        )

    def _series(self) -> List[Any]:
        """Per row: the metric, per tie policy and toolkit its (column, value, outside), the
        interval and the expected value, as the picture takes them."""
        out = []
        for row in self.rows:
            values = {c["column"]: c["value"] for c in row["cells"]}
            marks = [(c, values.get(c), c in row["outside"]) for c in POLICY_COLUMNS + TOOLKIT_COLUMNS]
            interval = None if row["interval"] is None else (row["interval"][0], row["interval"][1])
            out.append((row["metric"], marks, interval, row["expected"]))
        return out

    def _repr_svg_(self) -> str:
        """The picture ``rankmetrics compare --plot`` draws (the same SVG, made by the same
        code): a panel per metric with a numeric axis, a row per tie policy and toolkit with a
        dot at its value (red outside the interval), the interval over tie orders shaded and
        labelled with its ends, the expected value as a line.

        Examples
        --------
        >>> import rankmetrics
        >>> svg = rankmetrics.compare([[0, 1, 0]], [[0.5, 0.5, 0.1]])._repr_svg_()
        >>> svg.startswith("<svg") and ">ranking loss</text>" in svg
        True
        """
        svg, _ = _chart(self._series())
        return svg

    def plot(self, fig: Any = None) -> Any:
        """The picture of :meth:`_repr_svg_` with matplotlib (needs matplotlib): a panel
        (Axes) per metric, laid out as the SVG (the same axis range and ticks, a row per tie
        policy and toolkit, the interval shaded with its ends above it, the expected value as a
        line, values outside the interval in red). Draws on ``fig`` (a new Figure if None) and
        returns it.

        Examples
        --------
        >>> import importlib.util
        >>> import rankmetrics
        >>> if importlib.util.find_spec("matplotlib") is not None:  # matplotlib is optional
        ...     import matplotlib
        ...     matplotlib.use("Agg")
        ...     fig = rankmetrics.compare([[0, 1, 0]], [[0.5, 0.5, 0.1]]).plot()
        ...     assert (len(fig.axes), fig.axes[3].get_title()) == (20, "ranking loss")
        """
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Comparison.plot() needs matplotlib: pip install matplotlib") from e
        if fig is not None and not hasattr(fig, "add_subplot"):
            raise TypeError(f"plot() draws a panel per metric on a matplotlib Figure; got {type(fig).__name__}")
        _, panels = _chart(self._series())
        columns = 3
        rows = max(1, math.ceil(len(panels) / columns))
        if fig is None:
            fig = plt.figure(figsize=(15.6, 2.6 * rows + 0.7))
        fig.suptitle("Each metric under each tie policy and toolkit convention")
        for i, panel in enumerate(panels):
            ax = fig.add_subplot(rows, columns, i + 1)
            _draw_panel(ax, panel)
        # Room at the top for the title.
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.6 / fig.get_figheight()))
        return fig


def _draw_panel(ax: Any, panel: Dict[str, Any]) -> None:
    """One panel of :meth:`Comparison.plot`, from the library's layout: row 0 on top."""
    marks = panel["marks"]
    n = len(marks)
    ax.set_title(panel["metric"], fontsize=10, pad=14)
    ax.set_xlim(*panel["range"])
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xticks([t[0] for t in panel["ticks"]])
    ax.set_xticklabels([t[1] for t in panel["ticks"]], fontsize=8)
    ax.set_yticks(range(n))
    ax.set_yticklabels([m[0] for m in marks], fontsize=8)
    if panel["band"] is not None:
        low, high, label_low, label_high = panel["band"]
        ax.axvspan(low, high, color="#adccEB", alpha=0.8, linewidth=0)
        transform = ax.get_xaxis_transform()
        if label_low == label_high:
            ax.text(low, 1.0, label_low, transform=transform, ha="center", va="bottom", fontsize=7)
        else:
            ax.text(low, 1.0, label_low, transform=transform, ha="right", va="bottom", fontsize=7)
            ax.text(high, 1.0, label_high, transform=transform, ha="left", va="bottom", fontsize=7)
    if panel["expected"] is not None:
        ax.axvline(panel["expected"], color="#1f5aa0", linewidth=2)
    if panel["rule"] is not None:
        ax.axhline(panel["rule"] - 0.5, color="0.75", linewidth=0.8)
    for y, (_, value, outside) in enumerate(marks):
        if value is None:
            ax.text(panel["range"][0], y, " no value", va="center", fontsize=7)
        else:
            ax.plot([value], [y], "o", color="#cd2828" if outside else "#282828", markersize=5)


def compare(y_true: Any, y_score: Any, sample_weight: Any = None, *, threads: Optional[int] = None) -> Comparison:
    """Every metric concept under every tie policy and every toolkit's convention, with the
    interval over tie orders, the exact expected value, the spread and the values outside the
    interval: the grid of ``rankmetrics compare``, in one pass over the data.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 labels.
    y_score : array-like of shape (n_samples, n_labels)
        Scores (float32 input runs torchmetrics' column in float32, as torchmetrics would).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (applied by rankmetrics for toolkits that have none).
    threads : int, default=None
        Threads (None: one; -1: every core); the values are the same for any count.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import rankmetrics
    >>> c = rankmetrics.compare([[1, 0, 1], [0, 1, 0]], [[0.5, 0.5, 0.1], [0.3, 0.3, 0.3]])
    >>> c.to_dict()["ranking loss"]["mldr"]
    1.0
    >>> c.to_dict()["AUC, macro (per label)"]["outside"]  # pROC's automatic direction
    ['mldr']
    """
    labels = _input.labels(y_true)
    scores = _input.scores(y_score)
    weights = _input.weights(sample_weight)
    rows, table = _compare(labels, scores, weights, _input.threads(threads))
    inputs = {"y_true": labels, "y_score": scores}
    if weights is not None:
        inputs["sample_weight"] = weights
    provenance = {
        "rankmetrics_version": __version__,
        "reproduces": dict(_reproduces()),
        "inputs": {name: _described(a) for name, a in inputs.items()},
    }
    return Comparison(rows, table, provenance)


def _described(a: Any) -> Dict[str, Any]:
    """An input's shape, dtype and the SHA-256 of its C-ordered bytes."""
    data = np.ascontiguousarray(a)
    return {
        "shape": tuple(data.shape),
        "dtype": str(data.dtype),
        "sha256": hashlib.sha256(data.data).hexdigest(),
    }
