#!/usr/bin/env python3
"""Regenerate golden-torchmetrics.json or golden-torchmetrics-f32.json from the installed
torchmetrics.

    pip install torch==2.15.0 torchmetrics==1.9.0 numpy   # or torch from download.pytorch.org/whl/cpu
    python3 tests/data/conformance/regen/torchmetrics_golden.py float64 > /tmp/golden-torchmetrics.json
    python3 tests/data/conformance/regen/torchmetrics_golden.py float32 > /tmp/golden-torchmetrics-f32.json
    python3 tests/data/conformance/regen/compare_golden.py \
        tests/data/conformance/golden-torchmetrics.json /tmp/golden-torchmetrics.json

    python3 tests/data/conformance/regen/torchmetrics_golden.py auc > /tmp/golden-torchmetrics-auc.json
    python3 tests/data/conformance/regen/torchmetrics_golden.py retrieval \
        > /tmp/golden-torchmetrics-retrieval.json

    # Without torch: recompute only the float64 re-evaluation (value_f64, sigmoid_applied,
    # tie_order_dependent) and check it against the committed file.
    python3 tests/data/conformance/regen/torchmetrics_golden.py check-f64

The file formats and record order are those of the committed files
(tests/data/conformance/README.md):

* float64 (golden-torchmetrics.json): every case of cases.json. preds float64, target int64
  (float64 for non-integer gains), num_labels = L, CPU. Per case: multilabel_coverage_error,
  multilabel_ranking_average_precision and multilabel_ranking_loss (params {}), then
  RetrievalNormalizedDCG(top_k, empty_target_action="neg") with one query per row for
  top_k in (None, 1, 3). Values carry `dtype` (torchmetrics returns float32); the three
  multilabel metrics on cases whose labels are all 0 or 1 also carry `value_f64`, the same
  semantics in float64 (see `reevaluate_f64`), and `sigmoid_applied`; ranking loss carries
  `tie_order_dependent`.
* float32 (golden-torchmetrics-f32.json): cases of cases.json and cases-logits.json whose
  labels are all 0 or 1 and whose scores fit in float32. Scores rounded to float32 and passed
  as a float32 tensor; the three multilabel metrics. Records carry `scores_f32`,
  `sigmoid_applied`, `sigmoid_is_f32_formula` (torch's sigmoid equals the float32 formula
  1 / (1 + e), e = exp(-x) rounded to float32, on every score) and, for ranking loss,
  `tie_order_dependent` (a relevant and an irrelevant label tie after the sigmoid).

* auc (golden-torchmetrics-auc.json): the same cases as float32, each with preds as float32
  and as float64 tensors: multilabel_auroc and multilabel_average_precision with
  thresholds=None (exact) and average macro, micro, weighted. Records carry params
  {"average", "dtype"}, `sigmoid_applied` and `sigmoid_is_scalar_formula` (torch's sigmoid
  equals the one-element-at-a-time formula on every score; where it does not, torch's
  vectorised exp changed some sigmoid by an ulp, which the presets do not follow).

* retrieval (golden-torchmetrics-retrieval.json): the cases whose scores fit in float32,
  preds float64, target int64 (float64 for non-integer gains): retrieval_precision (top_k None, 1, 3, 100; adaptive_k), retrieval_recall,
  retrieval_average_precision and retrieval_reciprocal_rank (top_k None, 1, 3), one query per
  row, their float32 mean; `value_module` where the module's value differs.

`value` on ranking-loss records with `tie_order_dependent: true` and more than 16 labels is
this machine's order of ties (torch's CPU argsort is not stable there).
"""
import json
import math
import os
import platform
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..")

MULTILABEL = (
    "multilabel_coverage_error",
    "multilabel_ranking_average_precision",
    "multilabel_ranking_loss",
)
TOP_KS = (None, 1, 3)

NOTES_F64 = [
    "Functional API on CPU, preds float64, target int64, num_labels = n_labels, ignore_index "
    "None. The three multilabel ranking metrics run on every case: graded targets and 1-label "
    "cases record the error torchmetrics raises.  No sample weights exist in torchmetrics.",
    "All values are float32 (torchmetrics casts internally even for float64 input): compare "
    "'value' with a relative tolerance of ~1e-6, or use 'value_f64' (float64 re-evaluation of "
    "the same semantics). value_f64 matches 'value' to float32 precision on every record "
    "except multilabel_ranking_loss with tie_order_dependent=true on cases with more than 16 "
    "labels: there torch's default argsort is not stable, so 'value' holds this machine's tie "
    "order while value_f64 is the stable-order value; both lie between the ties-never-count "
    "and ties-always-count ranking loss.",
    "Scores outside [0,1] anywhere in the batch trigger a sigmoid on the whole batch "
    "(sigmoid_applied); ranks are unchanged unless the sigmoid saturates to equal values.",
    "coverage_error and LRAP equal sklearn's (pessimistic ties, degenerate rows: coverage 0, "
    "LRAP 1). ranking_loss orders ties by torch.argsort (stable on CPU for rows <= 16 labels: "
    "the pair counts as an error only if the relevant label has the smaller column index).",
    "retrieval_normalized_dcg = RetrievalNormalizedDCG with one query per row, "
    "empty_target_action 'neg', tie-averaged gains, preds cast to float32.",
    "Graded cases with non-integer gains pass target as float64; the three multilabel "
    "functions raise as for every graded case.",
]

NOTES_F32 = [
    "Golden values from torchmetrics as torch users run it: preds as float32 tensors.\n\n"
    "Each case's y_score is rounded to float32 (what a float32 model output holds) and passed "
    "as a\nfloat32 tensor; target int64; num_labels = L; CPU. For float32 preds torchmetrics "
    "applies its\nsigmoid (when any score lies outside [0, 1]) in float32, so it saturates to "
    "1.0 above ~16.6,\nunderflows to 0.0 below ~-88 and merges nearby logits: ties appear that "
    "float64 arithmetic\nwould not have."
]


NOTES_AUC = [
    "multilabel_auroc and multilabel_average_precision from torchmetrics.functional."
    "classification with thresholds=None (the exact curves), CPU, target int64, num_labels = L,"
    " on the cases of golden-torchmetrics-f32.json, the preds passed once as float32 and once"
    " as float64 tensors (params.dtype). torchmetrics computes the curves' areas in float32"
    " (float64 when some label has a single class and the preds are float64): compare 'value'"
    " at 1e-6 relative. A label without positives scores 0.0 (AUROC) or -0.0 (AP), one without"
    " negatives 0.0 (AUROC), and counts in the macro mean."
]

NOTES_RETRIEVAL = [
    "retrieval_precision, retrieval_recall, retrieval_average_precision and"
    " retrieval_reciprocal_rank from torchmetrics.functional.retrieval, CPU, on the cases of"
    " cases.json and cases-logits.json whose scores fit in float32: preds float64 (torchmetrics"
    " casts them to float32), target int64 (float64 for non-integer labels), one query per row;"
    " labels other than 0 and 1 record torchmetrics' error. 'value' is torch.stack([f(preds[i], target[i], **params) for i"
    " in rows]).mean(), the float32 mean of the functional's value on each row, which is what"
    " the module (empty_target_action='neg', indexes = the row number) computes when its sort"
    " of the indexes leaves each query's documents in column order; 'value_module' is the"
    " module's own value where it differs (its unstable sort of more than 16 indexes permutes"
    " the documents of a query, which reorders tied scores). Compare 'value' bit for bit.",
]

RETRIEVAL_PARAMS = {
    "retrieval_precision": [
        {"top_k": None},
        {"top_k": 1},
        {"top_k": 3},
        {"top_k": 3, "adaptive_k": True},
        {"top_k": 100},
        {"top_k": 100, "adaptive_k": True},
    ],
    "retrieval_recall": [{"top_k": None}, {"top_k": 1}, {"top_k": 3}],
    "retrieval_average_precision": [{"top_k": None}, {"top_k": 1}, {"top_k": 3}],
    "retrieval_reciprocal_rank": [{"top_k": None}, {"top_k": 1}, {"top_k": 3}],
}

MODULES = {
    "retrieval_precision": "RetrievalPrecision",
    "retrieval_recall": "RetrievalRecall",
    "retrieval_average_precision": "RetrievalMAP",
    "retrieval_reciprocal_rank": "RetrievalMRR",
}


def records_retrieval(torch, case):
    import torchmetrics.retrieval as modules
    from torchmetrics.functional import retrieval

    preds = torch.tensor(np.asarray(case["y_score"], dtype=np.float64))
    target = target_tensor(torch, case["y_true"])
    n = preds.shape[0]
    indexes = torch.arange(n).repeat_interleave(preds.shape[1])
    out = []
    for name, combos in RETRIEVAL_PARAMS.items():
        fn = getattr(retrieval, name)
        for params in combos:
            record = {"case": case["id"], "metric": name, "params": params}
            try:
                value = torch.stack([fn(preds[i], target[i], **params) for i in range(n)]).mean()
                record["value"] = number(value)
                module = getattr(modules, MODULES[name])(empty_target_action="neg", **params)
                module.update(preds.flatten(), target.flatten(), indexes=indexes)
                value_module = module.compute()
                if float(value_module) != float(value):
                    record["value_module"] = number(value_module)
            except Exception as e:
                record["error"] = error_text(e)
            out.append(record)
    return out


def number(x):
    """A float as the golden files write it: the shortest round-trip decimal, or a string."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def load(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


def needs_sigmoid(scores):
    """torchmetrics' test: some score of the batch lies outside [0, 1]."""
    return not bool(np.all((scores >= 0) & (scores <= 1)))


def ties_across(target, scores):
    """Whether some row has a relevant and an irrelevant label with equal scores."""
    for t, s in zip(target, scores):
        relevant = t == 1
        if set(s[relevant].tolist()) & set(s[~relevant].tolist()):
            return True
    return False


def reevaluate_f64(y_true, y_score):
    """The three multilabel metrics' semantics in float64: (values by metric, sigmoid applied,
    ranking loss tie-order dependent).

    The sigmoid is 1 / (1 + exp(-x)) in float64; coverage and LRAP take tied labels at the
    worst rank; ranking loss orders ties as a stable argsort does (a tied pair is an error
    when the relevant label has the smaller column index). Per-row values are summed left to
    right and divided by the count, which reproduces every committed value_f64 bit for bit.
    """
    t = np.asarray(y_true, dtype=np.int64)
    s = np.asarray(y_score, dtype=np.float64)
    applied = needs_sigmoid(s)
    if applied:
        with np.errstate(over="ignore"):
            s = 1 / (1 + np.exp(-s))
    n, L = s.shape
    coverage, lrap, loss = [], [], []
    for tr, sr in zip(t, s):
        relevant = tr == 1
        r = int(relevant.sum())
        coverage.append(float(np.sum(sr >= sr[relevant].min())) if r else 0.0)
        if r == 0 or r == L:
            lrap.append(1.0)
            loss.append(0.0)
            continue
        ratios = [
            float(np.sum(sr[relevant] >= sr[j])) / float(np.sum(sr >= sr[j]))
            for j in np.flatnonzero(relevant)
        ]
        lrap.append(sum(ratios) / len(ratios))
        inverse = np.argsort(np.argsort(sr, kind="stable"), kind="stable")
        per_label = float(np.sum((L - inverse)[relevant]))
        loss.append((per_label - 0.5 * r * (r + 1)) / (r * (L - r)))
    values = {
        "multilabel_coverage_error": sum(coverage) / n,
        "multilabel_ranking_average_precision": sum(lrap) / n,
        "multilabel_ranking_loss": sum(loss) / n,
    }
    return values, applied, ties_across(t, s)


def error_text(e):
    first = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {first}"


def target_tensor(torch, y_true):
    """int64 for integer labels, float64 for non-integer gains (as the committed files)."""
    a = np.asarray(y_true, dtype=np.float64)
    if np.all(a == np.round(a)):
        return torch.tensor(np.asarray(y_true, dtype=np.int64))
    return torch.tensor(a)


def multilabel(torch, name, preds, target, L):
    from torchmetrics.functional import classification

    fn = getattr(classification, name)
    try:
        return fn(preds, target, num_labels=L), None
    except Exception as e:
        return None, error_text(e)


def records_f64(torch, case):
    from torchmetrics.retrieval import RetrievalNormalizedDCG

    y_score = np.asarray(case["y_score"], dtype=np.float64)
    n, L = y_score.shape
    preds = torch.tensor(y_score, dtype=torch.float64)
    target = target_tensor(torch, case["y_true"])
    # Every case whose labels are all 0 or 1 (graded cases too, whose gains happen to be).
    binary = L > 1 and all(v in (0, 1) for row in case["y_true"] for v in row)
    if binary:
        f64, applied, dependent = reevaluate_f64(case["y_true"], y_score)
    out = []
    for name in MULTILABEL:
        record = {"case": case["id"], "metric": name, "params": {}}
        value, error = multilabel(torch, name, preds, target, L)
        if error is not None:
            record["error"] = error
        else:
            record["value"] = number(value)
            record["dtype"] = str(value.dtype).replace("torch.", "")
            if binary:
                record["value_f64"] = number(f64[name])
                if name == "multilabel_ranking_loss":
                    record["tie_order_dependent"] = dependent
                record["sigmoid_applied"] = applied
        out.append(record)
    indexes = torch.arange(n).repeat_interleave(L)
    for top_k in TOP_KS:
        record = {"case": case["id"], "metric": "retrieval_normalized_dcg", "params": {"top_k": top_k}}
        try:
            metric = RetrievalNormalizedDCG(top_k=top_k, empty_target_action="neg")
            metric.update(preds.flatten(), target.flatten(), indexes=indexes)
            value = metric.compute()
            record["value"] = number(value)
            record["dtype"] = str(value.dtype).replace("torch.", "")
        except Exception as e:
            record["error"] = error_text(e)
        out.append(record)
    return out


def sigmoid_f32_formula(torch, x):
    """1 / (1 + e) with e = exp(-x) rounded to float32, the addition and division in float32."""
    e = torch.exp(-x)
    return torch.tensor(1.0, dtype=torch.float32) / (torch.tensor(1.0, dtype=torch.float32) + e)


def included_f32(case):
    """Binary labels (all 0 or 1) and scores that fit in float32."""
    labels = np.asarray(case["y_true"], dtype=np.float64)
    with np.errstate(over="ignore"):
        scores = np.asarray(case["y_score"], dtype=np.float64).astype(np.float32)
    return bool(np.all((labels == 0) | (labels == 1))) and bool(np.all(np.isfinite(scores)))


def fits_f32(case):
    """Scores that fit in float32 (labels of any kind)."""
    with np.errstate(over="ignore"):
        scores = np.asarray(case["y_score"], dtype=np.float64).astype(np.float32)
    return bool(np.all(np.isfinite(scores)))


def records_f32(torch, case):
    with np.errstate(over="ignore"):
        y_score = np.asarray(case["y_score"], dtype=np.float64).astype(np.float32)
    n, L = y_score.shape
    preds = torch.tensor(y_score, dtype=torch.float32)
    target = target_tensor(torch, case["y_true"])
    applied = needs_sigmoid(y_score)
    ranked = torch.sigmoid(preds) if applied else preds
    formula = bool(torch.equal(ranked, sigmoid_f32_formula(torch, preds))) if applied else True
    dependent = ties_across(np.asarray(case["y_true"]), ranked.numpy())
    out = []
    for name in MULTILABEL:
        record = {"case": case["id"], "metric": name, "params": {}, "scores_f32": True}
        value, error = multilabel(torch, name, preds, target, L)
        if error is not None:
            record["error"] = error
        else:
            record["value"] = number(value)
            record["sigmoid_applied"] = applied
            record["sigmoid_is_f32_formula"] = formula
            if name == "multilabel_ranking_loss":
                record["tie_order_dependent"] = dependent
        out.append(record)
    return out


AUC_METRICS = ("multilabel_auroc", "multilabel_average_precision")


def _expf():
    """glibc's expf, which torch's one-element float32 sigmoid calls."""
    import ctypes

    libm = ctypes.CDLL("libm.so.6")
    libm.expf.restype = ctypes.c_float
    libm.expf.argtypes = [ctypes.c_float]
    return libm.expf


EXPF = _expf()
AVERAGES = ("macro", "micro", "weighted")


def sigmoid_is_scalar_formula(torch, preds):
    """Whether torch's sigmoid, on the layout torchmetrics' AUROC and AP give it (for 2-D preds
    the C-ordered tensor itself: the transpose, same-shape reshape and transpose back are
    views), equals the one-element-at-a-time formula on every score: 1 / (1 + exp(-x)) with
    glibc's exp in float64, or its expf in float32. torch computes runs of 2 x its vector width
    with a vectorised exp instead, which can differ by an ulp and so split or merge ties."""
    L = preds.shape[1]
    laid_out = preds.transpose(0, 1).reshape(L, -1).T
    got = torch.sigmoid(laid_out).numpy().ravel()
    x = laid_out.numpy().ravel()
    if preds.dtype == torch.float32:
        one = np.float32(1.0)
        want = [one / (one + np.float32(EXPF(-float(v)))) for v in x]
    else:
        want = [1.0 / (1.0 + math.exp(-v)) if -v < 709.7 else 0.0 for v in x]
    return all(float(a) == float(b) for a, b in zip(got, want))


def records_auc(torch, case):
    from torchmetrics.functional import classification

    target = target_tensor(torch, case["y_true"])
    out = []
    for dtype in ("float32", "float64"):
        with np.errstate(over="ignore"):
            y_score = np.asarray(case["y_score"], dtype=np.float64).astype(dtype)
        n, L = y_score.shape
        preds = torch.tensor(y_score)
        for name in AUC_METRICS:
            fn = getattr(classification, name)
            for average in AVERAGES:
                params = {"average": average, "dtype": dtype}
                record = {"case": case["id"], "metric": name, "params": params}
                try:
                    value = fn(preds, target, num_labels=L, average=average, thresholds=None)
                    record["value"] = number(value)
                    applied = needs_sigmoid(y_score)
                    record["sigmoid_applied"] = applied
                    record["sigmoid_is_scalar_formula"] = (
                        sigmoid_is_scalar_formula(torch, preds) if applied else True
                    )
                except Exception as e:
                    record["error"] = error_text(e)
                out.append(record)
    return out


def environment(torch, **extra):
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "numpy": np.__version__,
        "torch": torch.__version__,
        "device": "cpu",
        **extra,
    }


def check_f64():
    """Recompute value_f64 and its flags (no torch needed) and compare with the committed
    golden-torchmetrics.json, bit for bit."""
    cases = {c["id"]: c for c in load("cases.json")["cases"]}
    checked = differ = 0
    for record in load("golden-torchmetrics.json")["results"]:
        if "value_f64" not in record:
            continue
        case = cases[record["case"]]
        values, applied, dependent = reevaluate_f64(case["y_true"], case["y_score"])
        want = [record["value_f64"], record["sigmoid_applied"], record.get("tie_order_dependent")]
        got = [
            number(values[record["metric"]]),
            applied,
            dependent if record["metric"] == "multilabel_ranking_loss" else None,
        ]
        checked += 1
        if want != got:
            differ += 1
            print(f"{record['case']} {record['metric']}: committed {want}, recomputed {got}")
    print(f"value_f64: {checked} records checked, {differ} differ")
    return 1 if differ else 0


def main(mode):
    if mode == "check-f64":
        return check_f64()
    import torch
    import torchmetrics

    if mode == "float64":
        cases = load("cases.json")
        doc = {
            "library": "torchmetrics",
            "version": torchmetrics.__version__,
            "environment": environment(torch),
            "cases_file": "cases.json",
            "cases_seed": cases["seed"],
            "generator": "tests/data/conformance/regen/torchmetrics_golden.py float64",
            "notes": NOTES_F64,
            "params_legend": {"top_k": "RetrievalNormalizedDCG top_k; null = all labels"},
            "results": [r for case in cases["cases"] for r in records_f64(torch, case)],
        }
        json.dump(doc, sys.stdout, indent=1)
    elif mode == "float32":
        cases = load("cases.json")["cases"] + load("cases-logits.json")["cases"]
        doc = {
            "library": "torchmetrics",
            "version": torchmetrics.__version__,
            "environment": environment(torch, preds_dtype="float32"),
            "generator": "tests/data/conformance/regen/torchmetrics_golden.py float32",
            "notes": NOTES_F32,
            "cases_files": ["cases.json", "cases-logits.json"],
            "results": [r for case in cases if included_f32(case) for r in records_f32(torch, case)],
        }
        json.dump(doc, sys.stdout, indent=0)
    elif mode == "auc":
        import warnings

        warnings.simplefilter("ignore")  # "No positive samples ...": the records say it
        cases = load("cases.json")["cases"] + load("cases-logits.json")["cases"]
        doc = {
            "library": "torchmetrics",
            "version": torchmetrics.__version__,
            "environment": environment(
                torch,
                cpu_capability=torch.backends.cpu.get_cpu_capability(),
                threads=torch.get_num_threads(),
            ),
            "generator": "tests/data/conformance/regen/torchmetrics_golden.py auc",
            "notes": NOTES_AUC,
            "cases_files": ["cases.json", "cases-logits.json"],
            "results": [r for case in cases if included_f32(case) for r in records_auc(torch, case)],
        }
        json.dump(doc, sys.stdout, indent=0)
    elif mode == "retrieval":
        cases = load("cases.json")["cases"] + load("cases-logits.json")["cases"]
        doc = {
            "library": "torchmetrics",
            "version": torchmetrics.__version__,
            "environment": environment(torch),
            "generator": "tests/data/conformance/regen/torchmetrics_golden.py retrieval",
            "notes": NOTES_RETRIEVAL,
            "cases_files": ["cases.json", "cases-logits.json"],
            "results": [r for case in cases if fits_f32(case) for r in records_retrieval(torch, case)],
        }
        json.dump(doc, sys.stdout, indent=0)
    else:
        sys.exit("usage: torchmetrics_golden.py float64 | float32 | auc | retrieval | check-f64")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
