#!/usr/bin/env python3
"""Checks that rankmetrics and its peers compute the same values, row by row, on the first
--rows rows of a shape of gen_data.py, and says which tie policy (if any) each peer follows.

* ranx and pytrec_eval (nDCG@10, P@5, MAP) against rankmetrics' own metrics per sample under
  each tie policy: a policy matches a peer when every row agrees to --tol. On tie-free scores
  every policy gives the same values; on tied scores (shape C) this names the peer's policy.
  Also tried: the scores rounded to float32 first (trec_eval keeps them as C floats, which can
  tie scores that differ as float64).
* torchmetrics (LRAP, coverage, ranking loss on float32 scores) against rankmetrics.torchmetrics:
  the same float32, or within --rtol (torchmetrics computes row values and their mean in
  float32, rankmetrics' presets in float64).

Prints one line per check, ``agree`` or ``DIFFER``; exits 1 if any check differs.

Usage: BENCH_DATA=DIR NUMBA_NUM_THREADS=1 python3 peers_agree.py SHAPE [--rows 20000]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers_common as pc  # noqa: E402

POLICIES = ["first", "last", "max", "min", "average"]
# rankmetrics' own metric for a torchmetrics one, to name the policy of a value that differs.
OWN = {"lrap": "average_precision", "ranking_loss": "ranking_loss"}


def retrieval(shape, y_true, y_score, tol):
    import pytrec_eval

    import rankmetrics

    y, s = pc.with_relevant(y_true, y_score)
    s32 = s.astype(np.float32).astype(np.float64)
    tied_rows = int(sum(len(np.unique(r)) < len(r) for r in s))
    tied32 = int(sum(len(np.unique(r)) < len(r) for r in s32))
    print(f"{shape}: {len(y)} rows with a relevant label; rows with tied scores: {tied_rows} "
          f"(as float32: {tied32})")
    queries, qrels, run = pc.trec_dicts(y, s)
    ranx_qrels, ranx_run = pc.ranx_objects(qrels, run)
    ok = True
    for name, (ours, params, ranx_name, trec_name) in pc.RETRIEVAL.items():
        f = getattr(rankmetrics, ours)
        candidates = {p: f(y, s, ties=p, per_sample=True, **params) for p in POLICIES}
        candidates.update({f"{p} on float32 scores": f(y, s32, ties=p, per_sample=True, **params)
                           for p in ("first", "last")})
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {trec_name})
        peers = {
            "ranx": np.asarray(pc.ranx_evaluate(ranx_qrels, ranx_run, ranx_name, per_query=True)),
            "pytrec_eval": pc.trec_evaluate(evaluator, run, trec_name, queries),
        }
        for peer, values in peers.items():
            diffs = {p: np.abs(v - values) for p, v in candidates.items()}
            matches = [p for p, d in diffs.items() if d.max() <= tol]
            if matches:
                worst = max(diffs[p].max() for p in matches)
                print(f"{shape} {name} {peer}: agree; tie policies that match every row: "
                      f"{', '.join(matches)} (largest difference {worst:.1e})")
            else:
                ok = False
                best = max(diffs, key=lambda p: (diffs[p] <= tol).mean())
                share = (diffs[best] <= tol).mean()
                print(f"{shape} {name} {peer}: DIFFER from every policy; closest: {best} "
                      f"({share:.2%} of rows agree, largest difference {diffs[best].max():.2e}; "
                      f"means {float(candidates[best].mean())!r} vs {float(values.mean())!r})")
    return ok


def torch_group(shape, y_true, y_score_f32, rtol):
    import torch
    from torchmetrics.functional import classification as tm

    import rankmetrics
    from rankmetrics import torchmetrics as rt

    torch.set_num_threads(1)
    preds, target = torch.from_numpy(y_score_f32), torch.from_numpy(y_true)
    l = y_true.shape[1]
    ok = True
    for name, fn in pc.TORCH.items():
        ours = getattr(rt, fn)(y_score_f32, y_true, num_labels=l)
        theirs = getattr(tm, fn)(preds, target, num_labels=l).item()
        exact = np.float32(ours) == np.float32(theirs)
        relative = abs(ours - theirs) / max(abs(theirs), 1e-300)
        ok &= bool(relative <= rtol)
        verdict = ("agree, the same float32" if exact else
                   f"agree to {relative:.1e} relative (torchmetrics' float32 arithmetic)"
                   if relative <= rtol else "DIFFER")
        print(f"{shape} {name} torchmetrics: {verdict} "
              f"(rankmetrics {ours!r}, torchmetrics {theirs!r})")
        if relative > rtol and name in OWN:
            # Which tie policy, if any, gives torchmetrics' mean.
            f = getattr(rankmetrics, OWN[name])
            means = {p: f(y_true, y_score_f32, ties=p) for p in POLICIES}
            near = [p for p, v in means.items() if abs(v - theirs) <= rtol * abs(theirs)]
            print(f"    {name} under each tie policy: "
                  + ", ".join(f"{p} {v:.7f}" for p, v in means.items())
                  + f"; within {rtol:g} of torchmetrics: {', '.join(near) or 'none'}")
    return ok


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shape")
    p.add_argument("--rows", type=int, default=20000)
    p.add_argument("--groups", default="retrieval,torch")
    p.add_argument("--tol", type=float, default=1e-12, help="per row, retrieval peers")
    p.add_argument("--rtol", type=float, default=1e-5,
                   help="relative, torchmetrics' mean (it computes in float32)")
    args = p.parse_args()
    y_true, y_score, y_score_f32 = pc.load(args.shape, args.rows)
    ok = True
    if "torch" in args.groups:
        ok &= torch_group(args.shape, y_true, y_score_f32, args.rtol)
    if "retrieval" in args.groups:
        ok &= retrieval(args.shape, y_true, y_score, args.tol)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
