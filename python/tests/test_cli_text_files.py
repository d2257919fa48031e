"""The `rankmetrics` command on text files as NumPy, pandas and R write them: the value
scikit-learn gives on the arrays, or, only where line 1 may be a header or a sample alike, a
refusal (exit 2) naming both flags. Never another value.

Line 1 `0,1,...,n-1` is pandas' column names for a DataFrame made from an array saved with
`index=False`, and as well an ordinary sample (two labels `0,1`, integer scores). The command
decides it from the files' evidence; these tests hold it to the arrays.

The command is the debug build `cargo test` leaves in target/ (RANKMETRICS_BIN names another).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("RANKMETRICS_BIN", ROOT / "target" / "debug" / "rankmetrics"))

# scikit-learn's seven ranking metrics, as `eval --convention sklearn` names them (with their
# default parameters, as the command's defaults are).
METRICS = (
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "dcg_score",
    "ndcg_score",
    "roc_auc_score",
    "average_precision_score",
)

# np.savetxt's formats and the separators with the extension the command reads them by.
FORMATS = ("%d", "%g", "%.17g")
SEPARATORS = ((",", "csv"), ("\t", "tsv"), (" ", "txt"))

AMBIGUOUS = "nothing in the files tells which"


def _binary() -> Path:
    if not BINARY.exists():
        pytest.fail(f"the command is not built at {BINARY}: run `cargo test` (or set RANKMETRICS_BIN)")
    return BINARY


def sklearn_values(y_true: np.ndarray, y_score: np.ndarray) -> Dict[str, float]:
    """Each of the seven metrics scikit-learn computes on the arrays (those it refuses left out)."""
    values = {}
    for name in METRICS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                values[name] = float(getattr(skm, name)(y_true, y_score))
            except ValueError:
                pass
    return values


class Outcome:
    """One run of `rankmetrics eval --convention sklearn --format json` on two files."""

    def __init__(self, y_true: Path, y_score: Path, *flags: str) -> None:
        args = [str(_binary()), "eval", "--convention", "sklearn", "--format", "json", "-q"]
        args += ["--y-true", str(y_true), "--y-score", str(y_score), *flags]
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        self.status = done.returncode
        self.stderr = done.stderr
        self.values: Dict[str, float] = {}
        self.rows: Optional[Tuple[int, int]] = None
        if self.status in (0, 1):
            doc = json.loads(done.stdout)
            for result in doc["results"]:
                if "value" in result:
                    self.values[result["metric"]] = float(result["value"])
            inputs = doc["provenance"]["inputs"]
            self.rows = (inputs["y_true"]["rows"], inputs["y_score"]["rows"])

    def refused_for_both_readings(self) -> bool:
        return (
            self.status == 2 and AMBIGUOUS in self.stderr and "--header" in self.stderr and "--no-header" in self.stderr
        )


def assert_values(outcome: Outcome, expected: Dict[str, float], rows: int, context: str) -> None:
    assert outcome.status in (0, 1), f"{context}: {outcome.stderr}"
    assert outcome.rows == (rows, rows), context
    for name, value in expected.items():
        got = outcome.values.get(name)
        assert got is not None, f"{context}: no value for {name}: {outcome.stderr}"
        assert got == pytest.approx(value, rel=1e-12, abs=1e-15, nan_ok=True), f"{context}: {name}"


def read_or_refuse(y_true: Path, y_score: Path, expected: Dict[str, float], rows: int, context: str) -> bool:
    """Asserts the arrays' values, or a refusal naming both flags after which --no-header gives
    them; returns whether the run was refused."""
    outcome = Outcome(y_true, y_score)
    if outcome.status == 2:
        assert outcome.refused_for_both_readings(), f"{context}: {outcome.stderr}"
        assert_values(Outcome(y_true, y_score, "--no-header"), expected, rows, context)
        return True
    assert_values(outcome, expected, rows, context)
    return False


# --- scikit-learn's own test vectors ------------------------------------------------------


def _literal_2d(node: ast.AST) -> Optional[List[List[float]]]:
    """A dense 2-D array literal (`[[...], ...]` or `np.array([[...]])`), else None."""
    if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "array" and node.args:
        node = node.args[0]
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if not isinstance(value, (list, tuple)) or not value:
        return None
    if not all(isinstance(r, (list, tuple)) and r and len(r) == len(value[0]) for r in value):
        return None
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for r in value for x in r):
        return None
    return [list(r) for r in value]


def upstream_pairs() -> List[Tuple[str, np.ndarray, np.ndarray]]:
    """The dense 2-D (y_true, y_score) pairs of scikit-learn's test_ranking.py: the literal
    arguments of its calls to the seven metrics, and the literals a test assigns to y_true and
    y_score in turn; pairs of one shape, deduplicated."""
    spec = importlib.util.find_spec("sklearn.metrics.tests.test_ranking")
    assert spec is not None and spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text())
    found: List[Tuple[str, List[List[float]], List[List[float]]]] = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        assigned: Dict[str, List[List[List[float]]]] = {"y_true": [], "y_score": []}
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and len(node.args) >= 2:
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                pair = [_literal_2d(a) for a in node.args[:2]]
                if name in METRICS and pair[0] is not None and pair[1] is not None:
                    found.append((fn.name, pair[0], pair[1]))
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and target.id in assigned:
                    literal = _literal_2d(node.value)
                    if literal is not None:
                        assigned[target.id].append(literal)
        found += [(fn.name, t, s) for t, s in zip(assigned["y_true"], assigned["y_score"])]
    pairs, seen = [], set()
    for test, t, s in found:
        y_true, y_score = np.array(t, dtype=float), np.array(s, dtype=float)
        key = (y_true.tobytes(), y_score.tobytes(), y_true.shape)
        if y_true.shape == y_score.shape and key not in seen:
            seen.add(key)
            pairs.append((test, y_true, y_score))
    return pairs


def test_scikit_learns_own_vectors_saved_headerless(tmp_path: Path) -> None:
    pairs = upstream_pairs()
    # test_roc_curve_toydata's y_true = [[0, 1], [0, 1]], y_score = [[0, 1], [1, 0]] among them.
    assert len(pairs) >= 50, len(pairs)
    read = refused = 0
    for k, (test, y_true, y_score) in enumerate(pairs):
        for fmt in FORMATS:
            if fmt == "%d" and not (np.all(y_true == np.round(y_true)) and np.all(y_score == np.round(y_score))):
                continue  # %d would write other numbers
            for separator, ext in SEPARATORS:
                t, s = tmp_path / f"{k}_t.{ext}", tmp_path / f"{k}_s.{ext}"
                np.savetxt(t, y_true, fmt=fmt, delimiter=separator)
                np.savetxt(s, y_score, fmt=fmt, delimiter=separator)
                # scikit-learn on the arrays as written.
                written = [np.loadtxt(p, ndmin=2, delimiter=None if separator == " " else separator) for p in (t, s)]
                expected = sklearn_values(*written)
                context = f"{test} {y_true.tolist()} {y_score.tolist()} {fmt!r} {separator!r}"
                if read_or_refuse(t, s, expected, len(y_true), context):
                    refused += 1
                else:
                    read += 1
    print(f"{len(pairs)} pairs: {read} files read as the arrays, {refused} refused (both readings possible)")
    assert read > refused > 0


# --- random arrays as NumPy, pandas and R write them ----------------------------------------


def _r_number(x: float) -> str:
    # R's write.csv writes doubles with up to 15 significant digits, whole ones plainly.
    return format(x, ".15g")


def write(kind: str, a: np.ndarray, path: Path, integral: bool) -> bool:
    """Writes `a` to `path` as `kind` does; returns whether line 1 is the data's own first row
    written as 0,1,...,n-1 or pandas' column names 0,1,...,n-1 (a line that reads both ways)."""
    n = a.shape[1]
    if kind.startswith("savetxt"):
        fmt = kind.split(":")[1]
        np.savetxt(path, a, fmt=fmt, delimiter=",")
        return bool(np.all(a[0] == np.arange(n)))
    frame = pd.DataFrame(a.astype(np.int64) if integral else a)
    if kind == "pandas_noindex":
        frame.to_csv(path, index=False)
        return True
    if kind == "pandas":
        frame.to_csv(path)
        return False
    names = [f'"V{j + 1}"' for j in range(n)]
    lines = []
    if kind == "r":
        lines.append(",".join(['""', *names]))
        lines += [",".join([f'"{i + 1}"', *map(_r_number, row)]) for i, row in enumerate(a)]
    else:  # R's write.csv(m, path, row.names = FALSE)
        lines.append(",".join(names))
        lines += [",".join(map(_r_number, row)) for row in a]
    path.write_text("\n".join(lines) + "\n")
    return False


WRITERS = (
    "savetxt:%d",
    "savetxt:%g",
    "savetxt:%.17g",
    "pandas_noindex",
    "pandas",
    "r",
    "r_norownames",
)


@st.composite
def arrays(draw: st.DrawFn) -> Tuple[np.ndarray, np.ndarray, bool]:
    n = draw(st.integers(2, 6))
    rows = draw(st.integers(1, 50))
    integral = draw(st.booleans())
    y_true = np.array(
        draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=rows, max_size=rows)),
        dtype=float,
    )
    cell = st.integers(0, 9) if integral else st.integers(0, 16).map(lambda k: k / 8)
    y_score = np.array(
        draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=rows, max_size=rows)),
        dtype=float,
    )
    # Often a first row that counts the columns: two labels 0,1; scores 0..n-1.
    if n == 2 and draw(st.booleans()):
        y_true[0] = [0, 1]
    if draw(st.booleans()):
        y_score[0] = np.arange(n)
    return y_true, y_score, integral


def _family(writer: str) -> str:
    return writer.split(":")[0].split("_")[0]


# Label and score files from one tool, or either saved headerless: their column names agree
# (files that name their columns differently are refused for that).
WRITER_PAIRS = [
    (a, b) for a in WRITERS for b in WRITERS if "savetxt" in (_family(a), _family(b)) or _family(a) == _family(b)
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=arrays(), writers=st.sampled_from(WRITER_PAIRS))
def test_random_arrays_read_as_written_or_refused(
    tmp_path: Path, data: Tuple[np.ndarray, np.ndarray, bool], writers: Sequence[str]
) -> None:
    y_true, y_score, integral = data
    t, s = tmp_path / "t.csv", tmp_path / "s.csv"
    labels_writer, scores_writer = writers
    if not integral and scores_writer == "savetxt:%d":
        scores_writer = "savetxt:%g"  # %d would write other numbers
    t_counts = write(labels_writer, y_true, t, integral=True)
    s_counts = write(scores_writer, y_score, s, integral)
    outcome = Outcome(t, s)
    if outcome.status == 2:
        # Only where both readings remain: both files begin 0,1,...,n-1 and are as long.
        assert outcome.refused_for_both_readings(), outcome.stderr
        assert t_counts and s_counts, (writers, outcome.stderr)
        return
    assert_values(outcome, sklearn_values(y_true, y_score), len(y_true), f"{writers}")
