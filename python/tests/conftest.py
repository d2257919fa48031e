"""Shared helpers: conformance tallies printed at the end of the run."""

from __future__ import annotations

from collections import defaultdict
from typing import List, Tuple

import rankmetrics

# toolkit -> outcome ("passed", "deviation", "in_range", "skipped", "failed") -> count;
# test_conformance fills it, the summary below prints it.
TALLY: "defaultdict[str, defaultdict[str, int]]" = defaultdict(lambda: defaultdict(int))


def parameterless_metrics() -> List[Tuple[str, str]]:
    """Every (convention, metric) that evaluates without parameters: all but the
    propensity-scored ones, which need one inverse propensity per label (their own tests give
    them)."""
    return [
        (c, m)
        for c in rankmetrics.CONVENTIONS
        for m in rankmetrics.metric_names(c)
        if "inv_propensities" not in rankmetrics.param_keys(c, m)
    ]


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ARG001
    if not TALLY:
        return
    terminalreporter.section("conformance records (Python API)")
    for toolkit in sorted(TALLY):
        counts = TALLY[toolkit]
        detail = ", ".join(f"{counts[k]} {k}" for k in sorted(counts))
        terminalreporter.write_line(f"{toolkit}: {detail}")
