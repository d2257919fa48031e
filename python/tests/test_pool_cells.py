"""The limit on the cells the micro averages hold at once: the same bits whatever it is, and a
clear error for a value it cannot take."""

import numpy as np
import pytest

import rankmetrics
from rankmetrics import ParameterError

# More cells than one piece of the pooled ranking (2**17), so that a small limit cuts the pool
# into several windows.
ROWS, LABELS = 700, 400

MICRO = [
    ("sklearn", "roc_auc_score", {"average": "micro"}),
    ("sklearn", "average_precision_score", {"average": "micro"}),
    ("mldr", "micro_auc", {}),
    ("mulan", "MicroAUC", {}),
]


@pytest.fixture
def pool():
    rng = np.random.default_rng(0x9001)
    y_true = (rng.random((ROWS, LABELS)) < 0.1).astype(np.uint8)
    # Ties: scores on a grid of 1,000 values.
    y_score = np.round(rng.random((ROWS, LABELS)), 3)
    yield y_true, y_score
    rankmetrics.set_micro_pool_cells(None)


@pytest.mark.parametrize("threads", [None, 2])
def test_the_micro_averages_are_the_same_bits_under_any_limit(pool, threads):
    y_true, y_score = pool
    y_before, s_before = y_true.copy(), y_score.copy()

    def values():
        return [
            rankmetrics.evaluate(y_true, y_score, convention=c, metric=m, threads=threads, **p) for c, m, p in MICRO
        ]

    whole = values()
    for cells in [3, 50_000, 2**17, ROWS * LABELS]:
        rankmetrics.set_micro_pool_cells(cells)
        assert [v.hex() for v in values()] == [v.hex() for v in whole], cells
    rankmetrics.set_micro_pool_cells(None)
    assert [v.hex() for v in values()] == [v.hex() for v in whole]
    # scikit-learn's value, as the oracle, on the pool cut into windows.
    sklearn = pytest.importorskip("sklearn.metrics")
    rankmetrics.set_micro_pool_cells(3)
    ours = rankmetrics.sklearn.roc_auc_score(y_true, y_score, average="micro")
    assert ours == pytest.approx(sklearn.roc_auc_score(y_true, y_score, average="micro"), abs=1e-12)
    np.testing.assert_array_equal(y_true, y_before)
    np.testing.assert_array_equal(y_score, s_before)


@pytest.mark.parametrize("cells", [0, -1, 2**64, 1.5, True, np.bool_(True), "3", [3]])
def test_a_limit_other_than_a_positive_integer_is_refused(cells):
    with pytest.raises(ParameterError, match="cells="):
        rankmetrics.set_micro_pool_cells(cells)


def test_numpy_integers_are_taken(pool):
    rankmetrics.set_micro_pool_cells(np.int64(1000))
    rankmetrics.set_micro_pool_cells(np.uint64(2**63))
