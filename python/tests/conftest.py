"""Shared helpers: conformance tallies printed at the end of the run."""

from __future__ import annotations

from collections import defaultdict

# toolkit -> outcome ("passed", "deviation", "in_range", "skipped", "failed") -> count;
# test_conformance fills it, the summary below prints it.
TALLY: "defaultdict[str, defaultdict[str, int]]" = defaultdict(lambda: defaultdict(int))


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ARG001
    if not TALLY:
        return
    terminalreporter.section("conformance records (Python API)")
    for toolkit in sorted(TALLY):
        counts = TALLY[toolkit]
        detail = ", ".join(f"{counts[k]} {k}" for k in sorted(counts))
        terminalreporter.write_line(f"{toolkit}: {detail}")
