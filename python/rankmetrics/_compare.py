"""``compare()``: every metric under every tie policy and every toolkit's convention, with the
tie analysis (interval, expected value, spread, outside-interval flags), as a notebook object
(a table in Jupyter, ``to_pandas()``, ``to_dict()``, ``plot()``)."""

from __future__ import annotations

import html
import math
from typing import Any, Dict, List, Optional, Tuple

from . import _input
from ._rankmetrics import compare as _compare

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

    def __init__(self, rows: List[Dict[str, Any]]) -> None:
        self.rows = rows

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

    def _repr_svg_(self) -> str:
        """Each metric's interval as a bar (scaled per row), the expected value as a tick, the
        toolkits' values as dots (red when outside the interval)."""
        width, label_w, row_h = 640, 230, 22
        plot_w = width - label_w - 20
        colors = {"sklearn": "#1f77b4", "torchmetrics": "#ff7f0e", "mldr": "#2ca02c", "mulan": "#9467bd"}
        parts = [
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{row_h * (len(self.rows) + 2)}' "
            "font-family='sans-serif' font-size='11'>"
        ]
        for i, row in enumerate(self.rows):
            y = row_h * (i + 1)
            parts.append(f"<text x='4' y='{y + 4}'>{html.escape(row['metric'])}</text>")
            values = [c["value"] for c in row["cells"] if c["value"] is not None and math.isfinite(c["value"])]
            if not values:
                continue
            lo, hi = min(values), max(values)
            span = (hi - lo) or 1.0

            def x(v: float) -> float:
                return label_w + (v - lo) / span * plot_w

            if row["interval"] is not None and all(map(math.isfinite, row["interval"])):
                a, b = row["interval"]
                parts.append(
                    f"<rect x='{x(a):.1f}' y='{y - 5}' width='{max(x(b) - x(a), 1):.1f}' height='10' fill='#ddd'/>"
                )
            if row["expected"] is not None and math.isfinite(row["expected"]):
                parts.append(
                    f"<line x1='{x(row['expected']):.1f}' x2='{x(row['expected']):.1f}' y1='{y - 7}' y2='{y + 7}' stroke='black'/>"
                )
            for cell in row["cells"]:
                v = cell["value"]
                if cell["column"] in colors and v is not None and math.isfinite(v):
                    stroke = "red" if cell["column"] in row["outside"] else "none"
                    parts.append(
                        f"<circle cx='{x(v):.1f}' cy='{y}' r='4' fill='{colors[cell['column']]}' stroke='{stroke}' stroke-width='2'/>"
                    )
        legend_y = row_h * (len(self.rows) + 1) + 6
        for j, (name, color) in enumerate(colors.items()):
            parts.append(f"<circle cx='{label_w + j * 100}' cy='{legend_y}' r='4' fill='{color}'/>")
            parts.append(f"<text x='{label_w + j * 100 + 8}' y='{legend_y + 4}'>{name}</text>")
        parts.append("</svg>")
        return "".join(parts)

    def plot(self, ax: Any = None) -> Any:
        """Each metric's interval over tie orders (grey bar), its expected value (black tick) and
        the toolkits' values (marked red when outside the interval), with matplotlib (needs
        matplotlib); each row is drawn on its own scale, from its smallest to its largest value,
        which the row's label gives. Returns the Axes."""
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Comparison.plot() needs matplotlib: pip install matplotlib") from e
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 0.45 * len(self.rows) + 1))
        styles = {
            "sklearn": ("o", "#1f77b4"),
            "torchmetrics": ("s", "#ff7f0e"),
            "mldr": ("^", "#2ca02c"),
            "mulan": ("D", "#9467bd"),
        }
        n = len(self.rows)
        labels = []
        for i, row in enumerate(self.rows):
            y = n - 1 - i
            values = [c["value"] for c in row["cells"] if c["value"] is not None and math.isfinite(c["value"])]
            if not values:
                labels.append(f"{row['metric']} (no value)")
                continue
            lo, hi = min(values), max(values)
            span = (hi - lo) or 1.0
            labels.append(f"{row['metric']} [{lo:.4g}, {hi:.4g}]")

            def x(v: float) -> float:
                return (v - lo) / span

            if row["interval"] is not None and all(map(math.isfinite, row["interval"])):
                a, b = row["interval"]
                ax.plot(
                    [x(a), x(b)],
                    [y, y],
                    color="0.75",
                    linewidth=7,
                    solid_capstyle="butt",
                    label="interval over tie orders",
                )
            if row["expected"] is not None and math.isfinite(row["expected"]):
                ax.plot([x(row["expected"])], [y], "|", color="black", markersize=15, label="expected")
            for cell in row["cells"]:
                v = cell["value"]
                if cell["column"] in styles and v is not None and math.isfinite(v):
                    marker, color = styles[cell["column"]]
                    outside = cell["column"] in row["outside"]
                    ax.plot(
                        [x(v)],
                        [y],
                        marker,
                        color=color,
                        label=cell["column"],
                        markeredgecolor="red" if outside else color,
                        markeredgewidth=2 if outside else 1,
                    )
        ax.set_yticks(range(n))
        ax.set_yticklabels(list(reversed(labels)))
        ax.set_xticks([0, 1])
        ax.set_xticklabels(["row's smallest", "row's largest"])
        ax.set_xlim(-0.05, 1.05)
        handles, names = ax.get_legend_handles_labels()
        unique = dict(zip(names, handles))
        ax.legend(unique.values(), unique.keys(), loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
        return ax


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
    rows = _compare(
        _input.labels(y_true),
        _input.scores(y_score),
        _input.weights(sample_weight),
        _input.threads(threads),
    )
    return Comparison(rows)
