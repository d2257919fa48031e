"""What peers_bench.py and peers_agree.py share: the inputs of gen_data.py, and the peers'
own objects built from them (ranx's Qrels and Run, pytrec_eval's dictionaries, torch tensors),
and the metric names each library gives the same computation.

Rows and labels become queries and documents: query ``q000042`` is row 42, document ``0007`` is
column 7. Document ids are zero-padded so that their string order (which trec_eval's tie-break
reads) is the column order. The retrieval peers compare on the rows that hold a relevant label
(a query without one has no relevance judgement: pytrec_eval leaves it out, ranx refuses it).
"""
import os

import numpy as np

DATA = os.environ.get("BENCH_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))

# Peer metric names: ours (rankmetrics' own functions), ranx's, pytrec_eval's.
RETRIEVAL = {
    "ndcg@10": ("ndcg_at_k", {"k": 10}, "ndcg@10", "ndcg_cut_10"),
    "p@5": ("precision_at_k", {"k": 5}, "precision@5", "P_5"),
    "map": ("average_precision", {}, "map", "map"),
}
# sklearn.metrics names; rankmetrics.sklearn has the same ones. (params, on every row.)
SKLEARN = {
    "ndcg@10": ("ndcg_score", {"k": 10}),
    "lrap": ("label_ranking_average_precision_score", {}),
    "coverage": ("coverage_error", {}),
    "ranking_loss": ("label_ranking_loss", {}),
}
# torchmetrics.functional.classification names; rankmetrics.torchmetrics has the same ones.
TORCH = {
    "lrap": "multilabel_ranking_average_precision",
    "coverage": "multilabel_coverage_error",
    "ranking_loss": "multilabel_ranking_loss",
}


def load(shape, rows=None):
    """y_true (uint8), y_score (float64) and y_score_f32 of `shape`, the first `rows` rows."""
    arrays = [np.load(os.path.join(DATA, f"{shape}_{key}.npy"), mmap_mode="r")
              for key in ("y_true", "y_score", "y_score_f32")]
    return [np.array(a[:rows]) for a in arrays]


def with_relevant(y_true, y_score):
    """The rows that hold a relevant label."""
    keep = y_true.any(axis=1)
    return np.ascontiguousarray(y_true[keep]), np.ascontiguousarray(y_score[keep])


def ids(n, width):
    return [f"{j:0{width}d}" for j in range(n)]


def trec_dicts(y_true, y_score):
    """pytrec_eval's (and ranx's) {query: {document: value}} dictionaries: the qrels hold the
    relevant documents (relevance 1), the run every document's score."""
    n, l = y_score.shape
    docs = ids(l, len(str(l - 1)))
    queries = [f"q{i:07d}" for i in range(n)]
    qrels = {q: {docs[j]: 1 for j in np.flatnonzero(t)} for q, t in zip(queries, y_true)}
    run = {q: dict(zip(docs, s.tolist())) for q, s in zip(queries, y_score)}
    return queries, qrels, run


def ranx_objects(qrels, run):
    from ranx import Qrels, Run

    return Qrels(qrels), Run(run)


def ranx_evaluate(qrels, run, metric, per_query=False):
    """ranx's evaluate on one thread. Timed, the per-query scores are kept out of the Run (a
    Python loop over the queries that is no part of computing the metric); per query, they are
    read back from the Run (ranx 0.3.21 returns per-query scores of one metric only that way)."""
    from ranx import evaluate

    if not per_query:
        return evaluate(qrels, run, metric, threads=1, save_results_in_run=False)
    evaluate(qrels, run, metric, threads=1, save_results_in_run=True)
    return [run.scores[metric][q] for q in run.get_query_ids()]


def trec_evaluate(evaluator, run, measure, queries=None):
    """pytrec_eval's mean over the queries of `measure`, or the per-query values in `queries`
    order."""
    result = evaluator.evaluate(run)
    if queries is None:
        return sum(r[measure] for r in result.values()) / len(result)
    return np.array([result[q][measure] for q in queries])
