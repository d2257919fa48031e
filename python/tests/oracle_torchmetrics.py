"""torchmetrics 1.9.0 as a live oracle for ``rankmetrics.torchmetrics`` (run by
scripts/oracle-torchmetrics, in a virtual environment with torch; not collected by pytest).

Each case draws seeded inputs, passes the same tensors to torchmetrics and to rankmetrics, and
is counted per function and preds dtype as: ``equal`` (within 1e-6 relative: torchmetrics'
ranking metrics return float32; how many of them to the bit is shown too), ``in interval`` (outside that, but inside rankmetrics' value
range over the tie orders, where torchmetrics' order is its unstable sort's), ``differ``, or
``raise`` (one side raises, the other does not). The first differences of each kind are
printed. Exit status 0 always: the counts are the report.
"""

from __future__ import annotations

import sys
import warnings
from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import torch
from torchmetrics.functional.classification import (
    multilabel_auroc,
    multilabel_average_precision,
    multilabel_coverage_error,
    multilabel_ranking_average_precision,
    multilabel_ranking_loss,
)
from torchmetrics.functional.retrieval import (
    retrieval_average_precision,
    retrieval_normalized_dcg,
    retrieval_precision,
    retrieval_recall,
    retrieval_reciprocal_rank,
)

import rankmetrics.torchmetrics as rm

warnings.filterwarnings("ignore")
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16, "bfloat16": torch.bfloat16}
RANKING = {
    "multilabel_coverage_error": multilabel_coverage_error,
    "multilabel_ranking_average_precision": multilabel_ranking_average_precision,
    "multilabel_ranking_loss": multilabel_ranking_loss,
}
CURVES = {"multilabel_auroc": multilabel_auroc, "multilabel_average_precision": multilabel_average_precision}
BINARY_RETRIEVAL = {
    "retrieval_precision": retrieval_precision,
    "retrieval_recall": retrieval_recall,
    "retrieval_average_precision": retrieval_average_precision,
    "retrieval_reciprocal_rank": retrieval_reciprocal_rank,
}
# Where rankmetrics' interval over tie orders is read: the optimistic and pessimistic ends.
ENDS = ("optimistic", "pessimistic")


def draw_scores(rng: np.random.Generator, shape: Tuple[int, ...]) -> np.ndarray:
    """Probabilities or logits, with ties, near-ties in float32 or saturating values."""
    kind = rng.integers(6)
    if kind == 0:
        return rng.random(shape)
    if kind == 1:
        return np.round(rng.random(shape), 1)
    if kind == 2:
        return rng.normal(0, 3, shape)
    if kind == 3:
        return np.round(rng.normal(0, 3, shape))
    if kind == 4:  # float32 neighbours of one value
        base = np.float32(rng.normal(0, 2))
        steps = rng.integers(0, 3, shape).astype(np.float32)
        return (base + steps * np.spacing(base)).astype(np.float32)
    return rng.choice([-100.0, -90.0, -5.0, 0.0, 5.0, 17.0, 20.0, 40.0], shape)


def draw_target(rng: np.random.Generator, shape: Tuple[int, ...]) -> np.ndarray:
    y = (rng.random(shape) < rng.choice([0.05, 0.3, 0.7])).astype(np.int64)
    if y.ndim == 2 and rng.random() < 0.2 and y.shape[0] > 1:
        y[0] = 0  # a row without a relevant label
    return y


def call(f: Callable[[], Any]) -> Tuple[Any, Optional[str]]:
    """The value (a float, or an array of per-label values) or the error."""
    try:
        v = f()
        if np.ndim(v) > 0:
            return np.asarray(v, dtype=np.float64), None
        return float(v), None
    except Exception as e:  # noqa: BLE001 (either side may raise anything)
        return None, f"{type(e).__name__}: {e}"


class Tally:
    def __init__(self) -> None:
        self.counts: Dict[Tuple[str, str], Dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.examples: Dict[Tuple[str, str, str], List[str]] = defaultdict(list)

    def add(self, function: str, dtype: str, outcome: str, example: str) -> None:
        self.counts[(function, dtype)][outcome] += 1
        key = (function, dtype, outcome)
        if outcome != "equal" and len(self.examples[key]) < 3:
            self.examples[key].append(example)

    def report(self) -> None:
        print(
            "| function | preds dtype | calls | equal | of which bitwise | in interval | differ | raise on one side |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for (function, dtype), c in sorted(self.counts.items()):
            n = sum(v for k, v in c.items() if k != "bitwise")
            print(
                f"| {function} | {dtype} | {n} | {c['equal']} | {c['bitwise']} | {c['in interval']} "
                f"| {c['differ']} | {c['raise']} |"
            )
        for (function, dtype, outcome), lines in sorted(self.examples.items()):
            print(f"\n{function} {dtype} {outcome}:")
            for line in lines:
                print("  " + line)


def judge(
    tally: Tally,
    function: str,
    dtype: str,
    theirs: Tuple[Optional[float], Optional[str]],
    ours: Tuple[Optional[float], Optional[str]],
    ends: Callable[[], Tuple[float, float]],
    what: str,
) -> None:
    (t, t_err), (o, o_err) = theirs, ours
    if t_err is not None or o_err is not None:
        outcome = "equal" if (t_err is None) == (o_err is None) else "raise"
        tally.add(function, dtype, outcome, f"{what}: torchmetrics {t_err or t}, rankmetrics {o_err or o}")
        return
    assert t is not None and o is not None
    if np.ndim(t) or np.ndim(o):  # per-label values: each within 1e-6
        same = np.shape(t) == np.shape(o) and np.allclose(t, o, rtol=1e-6, atol=1e-6, equal_nan=True)
        tally.add(function, dtype, "equal" if same else "differ", f"{what}: torchmetrics {t!r}, rankmetrics {o!r}")
        if same and np.array_equal(t, o, equal_nan=True):
            tally.counts[(function, dtype)]["bitwise"] += 1
        return
    if (np.isnan(t) and np.isnan(o)) or abs(t - o) <= 1e-6 * max(1.0, abs(t)):
        tally.add(function, dtype, "equal", "")
        if (np.isnan(t) and np.isnan(o)) or t == o:
            tally.counts[(function, dtype)]["bitwise"] += 1
        return
    low, high = ends()
    inside = min(low, high) - 1e-6 <= t <= max(low, high) + 1e-6
    tally.add(function, dtype, "in interval" if inside else "differ", f"{what}: torchmetrics {t!r}, rankmetrics {o!r}")


def ranking_case(rng: np.random.Generator, tally: Tally, dtype: str) -> None:
    n = int(rng.choice([1, 2, 5, 20, 100])) if rng.random() > 0.01 else 10_000
    labels = int(rng.integers(2, 40))
    s = draw_scores(rng, (n, labels))
    y = draw_target(rng, (n, labels))
    preds = torch.tensor(s).to(DTYPES[dtype])
    if rng.random() < 0.3:
        preds.requires_grad_(True)
    layout = str(rng.choice(["C"] * 6 + ["Fortran", "rows", "columns", "strided"]))
    grad = preds.requires_grad
    if layout == "Fortran":  # the same values in another memory order
        preds = preds.detach().t().contiguous().t().requires_grad_(grad)
    elif layout != "C":  # a view of a larger tensor whose rows, labels or elements are apart
        wide = torch.zeros((n + 1, 2 * labels), dtype=preds.dtype)
        if layout == "columns":
            wide = wide.t().contiguous().t()
        view = {"rows": wide[:n, :labels], "columns": wide[:n, :labels], "strided": wide[:n, ::2]}[layout]
        view.copy_(preds.detach())
        preds = view.detach().requires_grad_(grad)
    target = torch.tensor(y)
    for name, theirs in RANKING.items():
        ours = getattr(rm, name)
        judge(
            tally,
            name,
            dtype,
            call(lambda: theirs(preds, target, num_labels=labels)),
            call(lambda: ours(preds, target, num_labels=labels)),
            lambda: tuple(ours(preds, target, num_labels=labels, ties=t) for t in ENDS),
            f"{n}x{labels} {layout}-order preds {s.ravel()[:4].tolist()}...",
        )


def curve_case(rng: np.random.Generator, tally: Tally, dtype: str) -> None:
    """Multilabel AUROC and AP (exact curves) under a random average; float32 and float64 only
    (torchmetrics' curves sort half-precision preds on the CPU only in newer torch builds)."""
    n = int(rng.choice([1, 2, 5, 20, 100, 400]))
    labels = int(rng.integers(2, 30))
    s = draw_scores(rng, (n, labels))
    y = draw_target(rng, (n, labels))
    preds, target = torch.tensor(s).to(DTYPES[dtype]), torch.tensor(y)
    average = str(rng.choice(["macro", "micro", "weighted", "none"]))
    for name, theirs in CURVES.items():
        ours = getattr(rm, name)
        judge(
            tally,
            f"{name} ({average})",
            dtype,
            call(lambda: theirs(preds, target, num_labels=labels, average=average, thresholds=None)),
            call(lambda: ours(preds, target, num_labels=labels, average=average)),
            lambda: tuple(ours(preds, target, num_labels=labels, average=average, ties=t) for t in ENDS),
            f"{n}x{labels} preds {s.ravel()[:4].tolist()}...",
        )


def retrieval_case(rng: np.random.Generator, tally: Tally, dtype: str) -> None:
    shape = (int(rng.integers(1, 60)),) if rng.random() < 0.5 else (int(rng.integers(1, 6)), int(rng.integers(1, 20)))
    s = draw_scores(rng, shape)
    y = draw_target(rng, shape)
    if rng.random() < 0.3:
        y = y * rng.integers(1, 4, shape)
    k = rng.choice([None, 1, 3, 100])
    preds, target = torch.tensor(s).to(DTYPES[dtype]), torch.tensor(y)
    top_k = None if k is None else int(k)
    judge(
        tally,
        "retrieval_normalized_dcg",
        dtype,
        call(lambda: retrieval_normalized_dcg(preds, target, top_k=top_k)),
        call(lambda: rm.retrieval_normalized_dcg(preds, target, top_k=top_k)),
        lambda: tuple(rm.retrieval_normalized_dcg(preds, target, top_k=top_k, ties=t) for t in ENDS),
        f"shape {shape} top_k {top_k} preds {s.ravel()[:4].tolist()}...",
    )


def binary_retrieval_case(rng: np.random.Generator, tally: Tally, dtype: str) -> None:
    """Precision, recall, AP and RR of one query (1-D, or 2-D flattened) at a random top_k,
    with ties that torch's topk or argsort order decides and negative scores that never count."""
    shape = (int(rng.integers(1, 80)),) if rng.random() < 0.5 else (int(rng.integers(1, 6)), int(rng.integers(1, 30)))
    s = draw_scores(rng, shape)
    y = draw_target(rng, shape)
    preds = torch.tensor(s).to(DTYPES[dtype])
    target = torch.tensor(y)
    kind = rng.integers(3)
    if kind == 1:
        target = target.bool()
    elif kind == 2:
        target = target.float()
    top_k = [None, 1, 2, 3, 5, 10, 100][int(rng.integers(7))]
    for name, theirs in BINARY_RETRIEVAL.items():
        ours = getattr(rm, name)
        extra: Dict[str, Any] = {}
        if name == "retrieval_precision" and rng.random() < 0.5:
            extra["adaptive_k"] = True
        judge(
            tally,
            name,
            dtype,
            call(lambda: theirs(preds, target, top_k=top_k, **extra)),
            call(lambda: ours(preds, target, top_k=top_k, **extra)),
            lambda: tuple(ours(preds, target, top_k=top_k, ties=t, **extra) for t in ENDS),
            f"shape {shape} top_k {top_k} {extra} preds {s.ravel()[:4].tolist()}...",
        )


MODULES = (
    "MultilabelCoverageError",
    "MultilabelRankingAveragePrecision",
    "MultilabelRankingLoss",
    "MultilabelAUROC",
    "MultilabelAveragePrecision",
)


def module_case(rng: np.random.Generator, tally: Tally, dtype: str) -> None:
    """The module classes over 1 to 4 batches (some without a ranked row): each batch's value
    from ``forward`` and the value of ``compute``."""
    import torchmetrics.classification as modules

    labels = int(rng.integers(2, 20))
    batches = []
    for _ in range(int(rng.integers(1, 5))):
        n = int(rng.choice([1, 3, 10, 40]))
        y = draw_target(rng, (n, labels))
        if rng.random() < 0.15:
            y[:] = 0  # a batch without a ranked row
        batches.append((torch.tensor(draw_scores(rng, (n, labels))).to(DTYPES[dtype]), torch.tensor(y)))
    for name in MODULES:
        theirs, ours = getattr(modules, name)(num_labels=labels), getattr(rm, name)(num_labels=labels)
        for i, (preds, target) in enumerate(batches):
            judge(
                tally,
                f"{name}.forward",
                dtype,
                call(lambda: theirs(preds, target)),
                call(lambda: ours(preds, target)),
                lambda: (np.nan, np.nan),
                f"{len(batches)} batches of {labels} labels, batch {i}",
            )
        judge(
            tally,
            f"{name}.compute",
            dtype,
            call(theirs.compute),
            call(ours.compute),
            lambda: (np.nan, np.nan),
            f"{len(batches)} batches of {labels} labels",
        )


RETRIEVAL_MODULES = {
    "RetrievalPrecision": ("top_k", "adaptive_k"),
    "RetrievalRecall": ("top_k",),
    "RetrievalMAP": ("top_k",),
    "RetrievalMRR": ("top_k",),
    "RetrievalNormalizedDCG": ("top_k",),
}


def retrieval_module_case(rng: np.random.Generator, tally: Tally, dtype: str) -> None:
    """The retrieval modules over 1 to 3 batches of documents grouped by ``indexes`` (any
    int64, queries spread over batches, 1-D or 2-D), with every ``empty_target_action`` and
    ``aggregation``, ``ignore_index`` and ``top_k`` (gains for NDCG); now and then 40,000
    documents (torch sorts the indexes with its stable radix sort from 32,768). When
    torchmetrics' ``forward`` raises, its module has lost the batches before (its forward
    resets the state first), a documented difference: the sequence ends there."""
    import torchmetrics.retrieval as modules

    large = rng.random() < 0.02
    queries = int(rng.integers(1, 300 if large else 12))
    offset = int(rng.integers(-5, 5)) * 1000
    gains = rng.random() < 0.3
    batches = []
    for _ in range(1 if large else int(rng.integers(1, 4))):
        n = 40_000 if large else int(rng.integers(1, 60))
        shape = (n,) if large or rng.random() < 0.6 else (int(rng.integers(1, 4)), n)
        indexes = torch.tensor(rng.integers(0, queries, shape) + offset, dtype=torch.int64)
        y = draw_target(rng, shape)
        factor = rng.integers(1, 4, shape) if gains else np.ones(shape, dtype=np.int64)
        preds = torch.tensor(draw_scores(rng, shape)).to(DTYPES[dtype])
        batches.append((preds, torch.tensor(y), torch.tensor(y * factor), indexes))
    top_k = [None, 1, 2, 3, 10][int(rng.integers(5))]
    settings: Dict[str, Any] = {
        "empty_target_action": ["neg", "pos", "skip", "error"][int(rng.integers(4))],
        "aggregation": ["mean", "median", "min", "max"][int(rng.integers(4))],
        "top_k": top_k,
    }
    if rng.random() < 0.2:
        settings["ignore_index"] = int(rng.choice([0, 1, -100]))
    what = f"{len(batches)} batches {[tuple(b[0].shape) for b in batches]}, {queries} queries, {settings}"
    for name, keys in RETRIEVAL_MODULES.items():
        kwargs = dict(settings)
        if "adaptive_k" in keys and rng.random() < 0.5:
            kwargs["adaptive_k"] = True
        theirs, ours = getattr(modules, name)(**kwargs), getattr(rm, name)(**kwargs)
        lost = False
        for i, (preds, target, gain, indexes) in enumerate(batches):
            y = gain if name == "RetrievalNormalizedDCG" else target
            outcome = call(lambda: theirs(preds, y, indexes=indexes))
            judge(
                tally,
                f"{name}.forward",
                dtype,
                outcome,
                call(lambda: ours(preds, y, indexes=indexes)),
                lambda: (np.nan, np.nan),
                f"{what} {kwargs}, batch {i}",
            )
            if outcome[1] is not None:
                lost = True
                break
        if lost:
            continue
        judge(
            tally,
            f"{name}.compute",
            dtype,
            call(theirs.compute),
            call(ours.compute),
            lambda: (np.nan, np.nan),
            f"{what} {kwargs}",
        )
        # The batches shared between two modules, one merged into the other.
        pairs = [(getattr(modules, name)(**kwargs), getattr(rm, name)(**kwargs)) for _ in range(2)]
        for i, (preds, target, gain, indexes) in enumerate(batches):
            y = gain if name == "RetrievalNormalizedDCG" else target
            for module in pairs[i % 2]:
                module.update(preds, y, indexes=indexes)
        if len(batches) > 1:
            pairs[0][0].merge_state(pairs[1][0])
            pairs[0][1].merge_state(pairs[1][1])
            judge(
                tally,
                f"{name}.merge_state",
                dtype,
                call(pairs[0][0].compute),
                call(pairs[0][1].compute),
                lambda: (np.nan, np.nan),
                f"{what} {kwargs}",
            )


def edge_cases(tally: Tally) -> None:
    """The inputs where the two may disagree on raising."""
    f32 = torch.float32
    cases: List[Tuple[str, Any, Any, Dict[str, Any]]] = [
        ("0 rows", torch.zeros((0, 3), dtype=f32), torch.zeros((0, 3), dtype=torch.int64), {}),
        ("int64 preds", torch.tensor([[1, 0, 1]]), torch.tensor([[1, 0, 0]]), {}),
        ("bool preds", torch.tensor([[True, False, True]]), torch.tensor([[1, 0, 0]]), {}),
        ("target 2", torch.tensor([[0.1, 0.5, 0.9]]), torch.tensor([[2, 0, 0]]), {}),
        ("1 label", torch.tensor([[0.1], [0.4]]), torch.tensor([[1], [0]]), {}),
    ]
    for what, preds, target, _ in cases:
        for name, theirs in RANKING.items():
            labels = preds.shape[1] if preds.ndim == 2 else 1
            judge(
                tally,
                name,
                "edge",
                call(lambda: theirs(preds, target, num_labels=labels)),
                call(lambda: getattr(rm, name)(preds, target, num_labels=labels)),
                lambda: (np.nan, np.nan),
                what,
            )
    retrieval = [
        ("int preds", torch.tensor([1, 0, 2]), torch.tensor([1, 0, 0]), None),
        ("uint8 target", torch.tensor([0.2, 0.5]), torch.tensor([1, 0], dtype=torch.uint8), None),
        ("top_k=True", torch.tensor([0.2, 0.5]), torch.tensor([1, 0]), True),
        ("top_k=0", torch.tensor([0.2, 0.5]), torch.tensor([1, 0]), 0),
        ("shape mismatch", torch.tensor([0.2, 0.5]), torch.tensor([[1, 0]]), None),
        ("empty", torch.zeros(0), torch.zeros(0, dtype=torch.int64), None),
    ]
    for what, preds, target, k in retrieval:
        judge(
            tally,
            "retrieval_normalized_dcg",
            "edge",
            call(lambda: retrieval_normalized_dcg(preds, target, top_k=k)),
            call(lambda: rm.retrieval_normalized_dcg(preds, target, top_k=k)),
            lambda: (np.nan, np.nan),
            what,
        )
    binary = retrieval + [
        ("target 2", torch.tensor([0.2, 0.5]), torch.tensor([2, 0]), None),
        ("top_k=-1", torch.tensor([0.2, 0.5]), torch.tensor([1, 0]), -1),
        ("top_k=1.5", torch.tensor([0.2, 0.5]), torch.tensor([1, 0]), 1.5),
        ("top_k beyond n", torch.tensor([0.2, 0.5, 0.1]), torch.tensor([1, 0, 1]), 5),
        ("no relevant", torch.tensor([0.2, 0.5]), torch.tensor([0, 0]), None),
        ("relevant scored 0", torch.tensor([0.0, -0.5]), torch.tensor([1, 1]), None),
    ]
    for what, preds, target, k in binary:
        for name, theirs in BINARY_RETRIEVAL.items():
            judge(
                tally,
                name,
                "edge",
                call(lambda: theirs(preds, target, top_k=k)),
                call(lambda: getattr(rm, name)(preds, target, top_k=k)),
                lambda: (np.nan, np.nan),
                what,
            )


def retrieval_module_edge_cases(tally: Tally) -> None:
    """The module inputs where the two may disagree on raising, each through every module."""
    import torchmetrics.retrieval as modules

    p, t, i = torch.tensor([0.2, 0.5, 0.7]), torch.tensor([1, 0, 0]), torch.tensor([0, 0, 1])
    cases: List[Tuple[str, Dict[str, Any], List[Tuple[Any, Any, Any]]]] = [
        ("indexes None", {}, [(p, t, None)]),
        ("int32 indexes", {}, [(p, t, i.int())]),
        ("shape mismatch", {}, [(p, t, i[:2])]),
        ("all ignored", {"ignore_index": 0}, [(p, torch.zeros(3, dtype=torch.int64), i)]),
        ("ignored then binary", {"ignore_index": 5}, [(p, torch.tensor([1, 5, 0]), i)]),
        ("target 2", {}, [(p, torch.tensor([2, 0, 0]), i)]),
        ("int preds", {}, [(torch.tensor([1, 0, 2]), t, i)]),
        ("uint8 target", {}, [(p, t.to(torch.uint8), i)]),
        ("scalar", {}, [(torch.tensor(0.5), torch.tensor(1), torch.tensor(0))]),
        ("no update", {}, []),
        ("error on empty query", {"empty_target_action": "error"}, [(p, t, i)]),
        ("every query skipped", {"empty_target_action": "skip"}, [(p, torch.zeros(3, dtype=torch.int64), i)]),
        ("bad action", {"empty_target_action": "bad"}, [(p, t, i)]),
        ("bad aggregation", {"aggregation": "sum"}, [(p, t, i)]),
        ("top_k=0", {"top_k": 0}, [(p, t, i)]),
        ("top_k=-1", {"top_k": -1}, [(p, t, i)]),
        ("top_k=-1, empty queries", {"top_k": -1}, [(p, torch.zeros(3, dtype=torch.int64), i)]),
        ("top_k=1.5", {"top_k": 1.5}, [(p, t, i)]),
        ("top_k=True", {"top_k": True}, [(p, t, i)]),
        ("callable aggregation", {"aggregation": lambda x, dim: x.sum()}, [(p, t, i), (p, t, i + 1)]),
        ("negative gains", {}, [(p, torch.tensor([1, -1, 0]), i)]),
    ]
    for what, kwargs, batches in cases:
        for name in RETRIEVAL_MODULES:

            def run(module: Any) -> float:
                m = module(**kwargs)
                for preds, target, indexes in batches:
                    m.update(preds, target, indexes=indexes)
                return m.compute()

            judge(
                tally,
                f"{name}.compute",
                "edge",
                call(lambda: run(getattr(modules, name))),
                call(lambda: run(getattr(rm, name))),
                lambda: (np.nan, np.nan),
                what,
            )


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 250
    rng = np.random.default_rng(20261129)
    tally = Tally()
    print(f"torch {torch.__version__}, capability {torch.backends.cpu.get_cpu_capability()}, {calls} cases a dtype")
    for dtype in DTYPES:
        for _ in range(calls):
            ranking_case(rng, tally, dtype)
            retrieval_case(rng, tally, dtype)
            binary_retrieval_case(rng, tally, dtype)
            if dtype in ("float32", "float64"):
                curve_case(rng, tally, dtype)
                module_case(rng, tally, dtype)
            retrieval_module_case(rng, tally, dtype)
    edge_cases(tally)
    retrieval_module_edge_cases(tally)
    tally.report()


if __name__ == "__main__":
    main()
