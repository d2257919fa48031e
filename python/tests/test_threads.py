"""Threads: the GIL is released during a long call; threads=1, 2 and -1 give the same bits;
bad thread counts are refused."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Dict, List

import numpy as np
import pytest

import rankmetrics
from rankmetrics import _core, mulan, sklearn, torchmetrics
from rankmetrics._rankmetrics import Metric

RNG = np.random.default_rng(11)


def bits(v: Any) -> List[int]:
    return np.asarray(v, dtype=np.float64).reshape(-1).view(np.uint64).tolist()


def _long_call(rows: int) -> Callable[[], float]:
    # Zero-stride views: a long call without the memory of a large array.
    L = 64
    y = np.broadcast_to((RNG.random(L) < 0.2).astype(np.uint8), (rows, L))
    s = np.broadcast_to(RNG.random(L), (rows, L))
    return lambda: rankmetrics.evaluate(y, s, metric="average_precision")


def _middle_ticks(make_call: Callable[[int], Callable[[], Any]]) -> int:
    """How often a pure-Python counter ticks in the middle half of a call running in another
    thread (the call made longer until it takes at least 0.2 s)."""
    rows = 500_000
    for _ in range(5):
        call = make_call(rows)
        window: Dict[str, float] = {}
        ticks: List[float] = []
        stop = threading.Event()

        def work() -> None:
            window["start"] = time.perf_counter()
            call()
            window["end"] = time.perf_counter()
            stop.set()

        worker = threading.Thread(target=work)
        worker.start()
        now = time.perf_counter
        while not stop.is_set():
            ticks.append(now())
        worker.join()
        start, end = window["start"], window["end"]
        if end - start < 0.2:
            rows *= 2  # too quick to judge on this machine: a longer call
            continue
        quarter = (end - start) / 4
        return sum(1 for t in ticks if start + quarter <= t <= end - quarter)
    pytest.fail("could not make a call long enough to judge")


def test_gil_is_released_during_a_long_call() -> None:
    """A pure-Python counter keeps counting while evaluate() runs in another thread. With the
    GIL held it cannot tick at all in the middle of the call (the control below); on a loaded
    machine it still ticks thousands of times there, so the bar (50 ticks in the middle half)
    is far below what a free counter does and far above what a blocked one can."""
    middle = _middle_ticks(_long_call)
    assert middle >= 50, f"only {middle} ticks in the middle of the call"


def test_gil_measure_sees_a_held_gil() -> None:
    """The control: builtin sum() over a range holds the GIL in one C loop, and the counter
    does not tick in the middle of it."""
    assert _middle_ticks(lambda rows: lambda: sum(range(rows * 40))) < 50


N, L = 3000, 17
Y = (RNG.random((N, L)) < 0.3).astype(np.uint8)
Y[:, 0] = np.arange(N) % 2
S = np.round(RNG.normal(size=(N, L)) * 8) / 8
S32 = S.astype(np.float32) * 10
W = RNG.random(N) + 0.1

CALLS: Dict[str, Callable[[Any], Any]] = {
    **{
        f"{c}-{m}": (lambda c, m: lambda t: rankmetrics.evaluate(Y, S, convention=c, metric=m, threads=t))(c, m)
        for c in rankmetrics.CONVENTIONS
        for m in rankmetrics.metric_names(c)
    },
    "weighted expected ap": lambda t: rankmetrics.average_precision(Y, S, sample_weight=W, ties="expected", threads=t),
    "random ties": lambda t: rankmetrics.ranking_loss(Y, S, ties="random:3", threads=t),
    "per_sample ndcg": lambda t: rankmetrics.ndcg(Y, S, per_sample=True, threads=t),
    "per_sample mulan": lambda t: rankmetrics.per_sample(Y, S, convention="mulan", metric="Coverage", threads=t),
    "torchmetrics f32": lambda t: torchmetrics.multilabel_ranking_loss(S32, Y, num_labels=L, threads=t),
    "sklearn lrap": lambda t: sklearn.label_ranking_average_precision_score(Y, S, sample_weight=W, threads=t),
    "sklearn roc None": lambda t: sklearn.roc_auc_score(Y, S, average=None, threads=t),
    "mulan MacroAUCPR": lambda t: mulan.MacroAUCPR(Y, S, threads=t),
    "roc_auc samples": lambda t: rankmetrics.roc_auc(Y, S, average="samples", threads=t),
    "psndcg": lambda t: rankmetrics.psndcg_at_k(Y, S, np.linspace(1, 5, L), k=3, sample_weight=W, threads=t),
    "psprecision per_sample": lambda t: rankmetrics.psprecision_at_k(
        Y, S, np.linspace(1, 5, L), per_sample=True, threads=t
    ),
}


def _accumulated(metric: str, threads: Any) -> float:
    acc = rankmetrics.accumulator(convention="sklearn", metric=metric)
    for a in range(0, N, 700):
        acc.update(Y[a : a + 700], S[a : a + 700], W[a : a + 700], threads=threads)
    return acc.value()


CALLS["accumulator lrap"] = lambda t: _accumulated("label_ranking_average_precision_score", t)
CALLS["accumulator roc"] = lambda t: _accumulated("roc_auc_score", t)


def _ps_accumulated(threads: Any) -> float:
    acc = _core.metric_accumulator(
        Metric.preset(
            "rankmetrics",
            "psprecision_at_k",
            [("k", "3"), ("inv_propensities", ",".join(map(repr, np.linspace(1, 5, L).tolist())))],
            "max",
        )
    )
    for a in range(0, N, 1000):
        acc.update(Y[a : a + 1000], S[a : a + 1000], threads=threads)
    return acc.value()


CALLS["accumulator psp"] = _ps_accumulated


@pytest.mark.parametrize("name", list(CALLS))
def test_any_thread_count_gives_the_same_bits(name: str) -> None:
    call = CALLS[name]

    def result(t: Any) -> Any:
        try:
            return bits(call(t))
        except rankmetrics.RankmetricsError as e:
            return (type(e).__name__, e.kind)

    one = result(None)
    assert result(1) == one
    assert result(2) == one
    assert result(3) == one
    assert result(-1) == one


@pytest.mark.parametrize(
    "bad,error",
    [
        (0, ValueError),
        (-2, ValueError),
        (-100, ValueError),
        ("2", TypeError),
        (2.0, TypeError),
        (True, TypeError),
        ([2], TypeError),
    ],
)
def test_bad_thread_counts(bad: Any, error: type) -> None:
    for call in (
        lambda: rankmetrics.evaluate(Y, S, metric="coverage", threads=bad),
        lambda: rankmetrics.per_sample(Y, S, metric="coverage", threads=bad),
        lambda: sklearn.coverage_error(Y, S, threads=bad),
        lambda: rankmetrics.accumulator(metric="coverage").update(Y, S, threads=bad),
    ):
        with pytest.raises(error):
            call()


def test_threads_from_many_python_threads() -> None:
    """Calls from several Python threads at once (each with its own thread count) give the
    one-thread bits."""
    want = bits(rankmetrics.evaluate(Y, S, metric="average_precision", ties="expected"))
    results: List[Any] = []

    def work(t: int) -> None:
        for _ in range(5):
            results.append(bits(rankmetrics.evaluate(Y, S, metric="average_precision", ties="expected", threads=t)))

    workers = [threading.Thread(target=work, args=(t,)) for t in (1, 2, 2, 3, -1)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(results) == 25 and all(r == want for r in results)
