"""What a ``Comparison`` prints and draws is what the command prints and draws: ``print(c)``
is ``rankmetrics compare``'s table (legend and numbered notes included), ``_repr_svg_()`` its
``--plot`` SVG, byte for byte, on the same data; ``plot()`` draws the same layout with
matplotlib (checked panel by panel); ``provenance`` names the version, the toolkits' releases
and the inputs' hashes.

The command is the debug build `cargo test` leaves in target/ (RANKMETRICS_BIN names another).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
from pathlib import Path

import matplotlib
import matplotlib.figure
import numpy as np
import pytest

import rankmetrics

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("RANKMETRICS_BIN", ROOT / "target" / "debug" / "rankmetrics"))

# Ties everywhere, a row without a relevant label (a NaN with its note) and logits outside
# [0, 1] (torchmetrics' sigmoid): every kind of note.
Y = np.array([[1, 0, 1, 0], [0, 0, 0, 0], [1, 1, 0, 0], [0, 1, 0, 1], [1, 0, 0, 0]])
S = np.array(
    [
        [0.5, 0.5, 0.2, 0.2],
        [0.3, 0.3, 0.3, 0.9],
        [0.1, 0.7, 0.7, 0.7],
        [0.4, 0.4, 0.1, 0.4],
        [0.9, 0.2, 0.2, 0.6],
    ]
)


def _command(tmp_path: Path, *args: str) -> str:
    if not BINARY.exists():
        pytest.fail(f"the command is not built at {BINARY}: run `cargo test` (or set RANKMETRICS_BIN)")
    y, s = tmp_path / "y.csv", tmp_path / "s.csv"
    np.savetxt(y, Y, fmt="%d", delimiter=",")
    np.savetxt(s, S, fmt="%.17g", delimiter=",")
    run = subprocess.run(
        [str(BINARY), "compare", "-q", "--y-true", str(y), "--y-score", str(s), *args],
        capture_output=True,
        text=True,
    )
    assert run.returncode in (0, 1), run.stderr
    return run.stdout


def test_print_gives_the_commands_table(tmp_path):
    c = rankmetrics.compare(Y, S)
    printed = str(c)
    assert "(1) AUC, per sample: undefined, row 1 has no relevant label" in printed
    # The command's table names torchmetrics' preds dtype in its legend; the rest is the same.
    table = "".join(line for line in _command(tmp_path).splitlines(True) if not line.startswith("torchmetrics: on"))
    assert printed == table
    assert repr(c).endswith(printed)
    assert str(pickle.loads(pickle.dumps(c))) == printed


def test_the_svg_is_the_commands(tmp_path):
    svg = tmp_path / "c.svg"
    _command(tmp_path, "--plot", str(svg))
    assert rankmetrics.compare(Y, S)._repr_svg_() == svg.read_text()


def test_provenance_names_the_inputs():
    weights = np.array([1.0, 2.0, 0.5, 1.0, 3.0])
    scores = S.astype(np.float32)
    p = rankmetrics.compare(Y, scores, weights).provenance
    assert p is not None
    assert p["rankmetrics_version"] == rankmetrics.__version__
    assert p["reproduces"] == {
        "sklearn": "scikit-learn 1.9.1",
        "torchmetrics": "torchmetrics 1.9.0",
        "mldr": "mldr 0.4.2 with pROC 1.18.0",
        "mulan": "MULAN 43f6389 compiled against Weka 3.6.14 (Weka 3.9.7 for MacroAUCPR and weka=3.9)",
    }
    assert p["inputs"]["y_score"] == {
        "shape": (5, 4),
        "dtype": "float32",
        "sha256": hashlib.sha256(scores.tobytes()).hexdigest(),
    }
    assert p["inputs"]["y_true"]["sha256"] == hashlib.sha256(Y.astype(np.int64).tobytes()).hexdigest()
    assert p["inputs"]["sample_weight"]["shape"] == (5,)
    # A Fortran-ordered copy is the same data: the same hash.
    fortran = rankmetrics.compare(Y, np.asfortranarray(scores), weights).provenance
    assert fortran is not None and fortran["inputs"] == p["inputs"]


def test_plot_draws_the_svgs_layout():
    c = rankmetrics.compare(Y, S)
    with pytest.raises(TypeError, match="on a matplotlib Figure; got Axes"):
        c.plot(matplotlib.figure.Figure().add_subplot())
    fig = c.plot()
    assert len(fig.axes) == len(c.rows)
    outside_colour = matplotlib.colors.to_rgba("#cd2828")
    for ax, row in zip(fig.axes, c.rows):
        assert ax.get_title() == row["metric"]
        # A row per tie policy and toolkit, top to bottom.
        names = [t.get_text() for t in ax.get_yticklabels()]
        assert names == ["max", "min", "average", "first", "last", "sklearn", "torchmetrics", "mldr", "mulan"]
        values = {cell["column"]: cell["value"] for cell in row["cells"]}
        dots = [line for line in ax.get_lines() if line.get_marker() == "o"]
        placed = {}
        for dot in dots:
            (x,), (y,) = dot.get_xdata(), dot.get_ydata()
            column = names[int(y)]
            placed[column] = x
            assert x == values[column]
            # Red exactly where the value lies outside the interval.
            assert (matplotlib.colors.to_rgba(dot.get_color()) == outside_colour) == (column in row["outside"])
        finite = {k for k, v in values.items() if k in names and v is not None and np.isfinite(v)}
        assert set(placed) == finite
        # The axis covers every value; its ticks are round numbers labelled with their values.
        lo, hi = ax.get_xlim()
        assert all(lo < x < hi for x in placed.values())
        ticks = [(t, label.get_text()) for t, label in zip(ax.get_xticks(), ax.get_xticklabels())]
        assert len(ticks) >= 4 and all(float(label) == pytest.approx(t) for t, label in ticks)
        # The interval's ends, as the table prints them, above the band.
        labels = {t.get_text() for t in ax.texts if t.get_text() != " no value"}
        if row["interval"] is not None and all(np.isfinite(row["interval"])):
            assert labels == {f"{row['interval'][0]:.4f}", f"{row['interval'][1]:.4f}"}
        else:
            assert labels == set()
