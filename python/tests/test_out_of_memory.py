"""Running out of memory inside the compiled code raises OutOfMemoryError, and Python goes on.

A child process lowers its own address-space limit (RLIMIT_AS) to a little above what it has
mapped, then asks for a micro-averaged ROC AUC whose pool of cells does not fit. Without the
check, the allocator's failure would abort the whole interpreter (a notebook's kernel).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import json, resource
    import numpy as np
    import rankmetrics
    from rankmetrics import sklearn

    rng = np.random.default_rng(41)
    y = (rng.random((200_000, 10)) < 0.3).astype(np.float64)
    s = np.round(rng.random((200_000, 10)), 2)
    small = sklearn.roc_auc_score(y[:50], s[:50], average="micro", threads=1)
    with open("/proc/self/status") as f:
        used_kb = next(int(l.split()[1]) for l in f if l.startswith("VmSize:"))
    # 8 MB above what the process has mapped: room for small allocations, not for the pool.
    limit = (used_kb + 8 * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
    try:
        sklearn.roc_auc_score(y, s, average="micro", threads=1)
        how = "finished"
    except rankmetrics.OutOfMemoryError as e:
        how = [e.kind, isinstance(e, MemoryError), e.details["bytes"] > 8 * 1024 * 1024]
    after = sklearn.roc_auc_score(y[:50], s[:50], average="micro", threads=1)
    print(json.dumps({"how": how, "same": after == small}))
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_running_out_of_memory_raises_and_the_interpreter_goes_on() -> None:
    done = subprocess.run([sys.executable, "-P", "-c", CHILD], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply == {"how": ["OutOfMemory", True, True], "same": True}
