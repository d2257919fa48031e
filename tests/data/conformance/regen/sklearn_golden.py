#!/usr/bin/env python3
"""Regenerate golden-sklearn.json from the installed scikit-learn.

    pip install scikit-learn==1.9.1 numpy scipy
    python3 tests/data/conformance/regen/sklearn_golden.py > /tmp/golden-sklearn.json
    python3 tests/data/conformance/regen/compare_golden.py \
        tests/data/conformance/golden-sklearn.json /tmp/golden-sklearn.json

Reads cases.json beside this folder and writes the golden file to standard output, in the
committed file's format and record order (tests/data/conformance/README.md describes both):

* binary cases: coverage_error, label_ranking_average_precision_score and label_ranking_loss
  (unweighted, then weighted for cases with weights); then dcg_score and ndcg_score for
  k in (None, 1, 3) x ignore_ties in (False, True) x sample_weight; then roc_auc_score and
  average_precision_score for average in (micro, macro, weighted, samples) x sample_weight;
* graded cases: dcg_score and ndcg_score only.

A `sample_weight: true` record exists only for cases with their own weights.

Records with ignore_ties=True also say whether the value depends on the unspecified order in
which np.argsort returns tied scores (`tie_order_dependent`). When it does, `range` holds the
exact [min, max] over every order of the tied groups and `value_if_stable_argsort` the value
a stable argsort gives. The minimum (maximum) puts the lower (higher) gains first inside
every tie group; the weighted mean of per-row values is
monotone in each row, so these per-row orders bound the mean.

Every committed value is reproduced to the last bit by this script (value on
tie_order_dependent records aside: that is one machine's np.argsort), with the arithmetic of
the original generator: the bounds add each tie group's np.dot(discounts, gains) in rank
order, the stable value is one np.dot per row, and both average the rows with np.average.
"""
import json
import os
import platform
import sys
import warnings

import numpy as np
import scipy
import sklearn
from sklearn import metrics

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "..", "cases.json")

KS = (None, 1, 3)
AVERAGES = ("micro", "macro", "weighted", "samples")

NOTES = [
    "Computed by calling sklearn.metrics functions directly (y_true as given, int; y_score float64; sample_weight float64).  coverage/LRAP/ranking loss/roc_auc/AP: kind=='binary' cases only; dcg/ndcg: all cases.",
    "An independent re-derivation from the plain formulas reproduces every value that is not tie_order_dependent to <= 1e-14 relative (most bitwise; sklearn uses NumPy pairwise sums, BLAS dot and trapezoids): compare with a relative tolerance of about 1e-12.",
    "Tie conventions: coverage, LRAP and ranking loss are pessimistic (a tie counts as ranked above / as an error); dcg/ndcg with ignore_ties=false average the gain over each tied group; roc_auc counts a tied positive/negative pair as 1/2; AP treats a tied group as one threshold.",
    "ignore_ties=true with tied scores: sklearn ranks by np.argsort, whose tie order is not specified (x86 NumPy dispatches it to x86-simd-sort: AVX-512 since 1.25, AVX2 since 2.0; not stable even for 4 elements).  Such results carry tie_order_dependent=true, the exact [min, max] over tie orders in 'range', and the stable-argsort value in 'value_if_stable_argsort'; 'value' is this machine's.",
    "roc_auc_score: a column (macro/weighted), row (samples) or flattened matrix (micro) with a single class gives nan + UndefinedMetricWarning (sklearn >= 1.6; older versions raised). nan propagates through the mean except where the averaging weight is 0 (weighted: columns without positives are forced to 0; samples: rows with sample_weight 0 are forced to 0). weighted with no positive anywhere returns 0.",
    "average_precision_score of a column/row without positives is 0 (UserWarning 'No positive class found in y_true').",
    "Every tie test is exact float64 equality: scores 1e-7 apart are distinct (no tolerance), -0.0 ties with 0.0, and magnitudes such as +-1e300 and 1e-300 are ranked exactly.",
    "1-label cases: coverage_error and label_ranking_loss raise ('binary format is not supported'), LRAP returns 1.0, dcg_score raises, ndcg_score raises (needs > 1 document), roc_auc/AP fall back to the plain binary computation (average ignored).",
]

PARAMS_LEGEND = {
    "sample_weight": "true = the case's own sample_weight vector was passed; false = None",
    "k": "dcg/ndcg truncation; null = all labels",
    "ignore_ties": "dcg/ndcg ignore_ties flag",
    "average": "roc_auc_score / average_precision_score average= argument",
}


def number(x):
    """A float as the golden files write it: the shortest round-trip decimal, or a string."""
    x = float(x)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def call(fn, *args, **kwargs):
    """fn's value (or its error) and the distinct warnings it emitted, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = {"value": number(fn(*args, **kwargs))}
        except Exception as e:  # the error is the record
            first = str(e).splitlines()[0] if str(e) else ""
            return {"error": f"{type(e).__name__}: {first}"}
    seen = []
    for w in caught:
        text = f"{w.category.__name__}: {w.message}"
        if text not in seen:
            seen.append(text)
    if seen:
        out["warnings"] = seen
    return out


def discounts(L, k):
    """scikit-learn's DCG discounts, computed as `_dcg_sample_scores` computes them."""
    discount = 1 / (np.log(np.arange(L) + 2) / np.log(2))
    if k is not None:
        discount[k:] = 0
    return discount


def tie_groups(scores):
    """The row's columns in descending score order, split into groups of equal scores."""
    order = sorted(range(len(scores)), key=lambda j: -scores[j])
    groups = [[order[0]]]
    for j in order[1:]:
        if scores[j] == scores[groups[-1][0]]:
            groups[-1].append(j)
        else:
            groups.append([j])
    return groups


def row_bound(discount, gains, scores, best):
    """One row's DCG with each tie group's gains highest first (best) or lowest first: the
    group-by-group sum of np.dot(discounts, gains), in rank order."""
    total, position = 0.0, 0
    for group in tie_groups(scores):
        ordered = np.asarray(sorted(gains[group], reverse=best), dtype=np.float64)
        total += float(np.dot(discount[position : position + len(group)], ordered))
        position += len(group)
    return total


def row_stable(discount, gains, scores):
    """One row's DCG in the order of a stable argsort, reversed (the higher column first)."""
    ranking = np.argsort(scores, kind="stable")[::-1]
    return float(np.dot(discount, gains[ranking]))


def tie_analysis(metric, y_true, y_score, k, sw):
    """For ignore_ties=True: the tie-order flags of one record.

    The bounds take, in every row, the best or the worst order of each tie group (rows are
    independent and the weighted mean is monotone in each row's value); NDCG divides each
    row's DCG by its ideal DCG (0 when that is 0), as scikit-learn does.
    """
    gains = np.asarray(y_true, dtype=np.float64)
    discount = discounts(y_score.shape[1], k)

    def mean(per_row):
        values = []
        for i in range(y_score.shape[0]):
            value = per_row(i)
            if metric == "ndcg_score":
                ideal = float(np.dot(discount, np.sort(gains[i])[::-1]))
                value = 0.0 if ideal == 0 else value / ideal
            values.append(value)
        return float(np.average(values, weights=sw))

    low = mean(lambda i: row_bound(discount, gains[i], y_score[i], best=False))
    high = mean(lambda i: row_bound(discount, gains[i], y_score[i], best=True))
    if low == high:
        return {"tie_order_dependent": False}
    return {
        "tie_order_dependent": True,
        "range": [number(min(low, high)), number(max(low, high))],
        "value_if_stable_argsort": number(
            mean(lambda i: row_stable(discount, gains[i], y_score[i]))
        ),
    }


def argsort_stable_for_small_ties():
    """Whether np.argsort orders ties as a stable sort does, on small tied rows."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        a = rng.integers(0, 3, size=rng.integers(4, 17)).astype(np.float64)
        if not np.array_equal(np.argsort(a), np.argsort(a, kind="stable")):
            return False
    return True


def records(case):
    y_true = np.asarray(case["y_true"])
    y_score = np.asarray(case["y_score"], dtype=np.float64)
    weights = case["sample_weight"]
    sws = [(False, None)]
    if weights is not None:
        sws.append((True, np.asarray(weights, dtype=np.float64)))
    out = []

    def add(metric, params, result):
        out.append({"case": case["id"], "metric": metric, "params": params, **result})

    if case["kind"] == "binary":
        for flag, sw in sws:
            for name in (
                "coverage_error",
                "label_ranking_average_precision_score",
                "label_ranking_loss",
            ):
                fn = getattr(metrics, name)
                add(name, {"sample_weight": flag}, call(fn, y_true, y_score, sample_weight=sw))
    for name in ("dcg_score", "ndcg_score"):
        fn = getattr(metrics, name)
        for k in KS:
            for ignore_ties in (False, True):
                for flag, sw in sws:
                    params = {"k": k, "ignore_ties": ignore_ties, "sample_weight": flag}
                    result = call(
                        fn, y_true, y_score, k=k, ignore_ties=ignore_ties, sample_weight=sw
                    )
                    if ignore_ties and "value" in result:
                        result.update(tie_analysis(name, y_true, y_score, k, sw))
                    add(name, params, result)
    if case["kind"] == "binary":
        for name in ("roc_auc_score", "average_precision_score"):
            fn = getattr(metrics, name)
            for average in AVERAGES:
                for flag, sw in sws:
                    result = call(fn, y_true, y_score, average=average, sample_weight=sw)
                    add(name, {"average": average, "sample_weight": flag}, result)
    return out


def main():
    with open(CASES) as f:
        cases = json.load(f)
    doc = {
        "library": "sklearn",
        "version": sklearn.__version__,
        "environment": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "machine": platform.machine(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "numpy_argsort_stable_for_small_ties": argsort_stable_for_small_ties(),
        },
        "cases_file": "cases.json",
        "cases_seed": cases["seed"],
        "generator": "tests/data/conformance/regen/sklearn_golden.py",
        "notes": NOTES,
        "params_legend": PARAMS_LEGEND,
        "results": [r for case in cases["cases"] for r in records(case)],
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
