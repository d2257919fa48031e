#!/usr/bin/env bash
# Side by side: scikit-learn (benches/python/sklearn_bench.py) and rankmetrics
# (examples/bench_npy.rs) on the same .npy inputs, in one run; prints a table of medians and
# ratios (sklearn / rankmetrics, and rankmetrics / one read of the scores).
#
#   benches/compare_sklearn.sh [SHAPES] [METRICS]
#   SHAPES: comma list of gen_data.py shapes (default B); METRICS: sklearn_bench.py names
#   (default coverage_error,lrap,label_ranking_loss,ndcg,ndcg@10,ndcg_ignore_ties). An entry
#   RM~SK times bench_npy's RM (any preset, e.g. mldr/macro_auc; see examples/bench_npy.rs)
#   against sklearn_bench.py's SK, without comparing their values (another toolkit's rules).
# Environment: BENCH_DATA (default target/bench-data; about 0.15 GB per shape generated),
# BENCH_SCRIPTS (default benches/python, the folder of gen_data.py), REPEATS (default 3),
# RM_REPEATS (rankmetrics' repeats per process, default 15) and RM_RUNS (processes, default 5;
# the table gives the median over processes of each process's median, and the range): on the
# shared machine a whole process runs in a fast or a slow mode (vector-bound loops ran 1.5x
# slower in about one process in four, while the latency-bound read did not change), so one
# process is one draw;
# THREADS (default 1; above 1, rankmetrics runs through rankmetrics::parallel), PIN_CPU
# (default 0: single-threaded runs of both libraries are pinned to this CPU with taskset, as
# migrations between CPUs made run times bimodal on the shared 2-core machine; "none" unpins).
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPES=${1:-B}
METRICS=${2:-coverage_error,lrap,label_ranking_loss,ndcg,ndcg@10,ndcg_ignore_ties}
REPEATS=${REPEATS:-3}
RM_REPEATS=${RM_REPEATS:-15}
RM_RUNS=${RM_RUNS:-5}
THREADS=${THREADS:-1}
BENCH_SCRIPTS=${BENCH_SCRIPTS:-$PWD/benches/python}
export BENCH_DATA=${BENCH_DATA:-$PWD/target/bench-data}
mkdir -p "$BENCH_DATA"

python3 -c 'import numpy, scipy, sklearn' 2>/dev/null ||
    python3 -m pip install --quiet numpy scipy scikit-learn==1.9.1

for s in ${SHAPES//,/ }; do
    [ -f "$BENCH_DATA/${s}_y_score.npy" ] || python3 "$BENCH_SCRIPTS/gen_data.py" "$s"
done

cargo build --release --quiet --features rayon --example bench_npy
threads=()
[ "$THREADS" -gt 1 ] && threads=(--threads "$THREADS")
pin=()
PIN_CPU=${PIN_CPU:-0}
if [ "$THREADS" -eq 1 ] && [ "$PIN_CPU" != none ] && command -v taskset >/dev/null; then
    pin=(taskset -c "$PIN_CPU")
fi
SK_METRICS=$(tr ',' '\n' <<<"$METRICS" | sed 's/.*~//' | awk '!seen[$0]++' | paste -sd,)
RM_METRICS=$(tr ',' '\n' <<<"$METRICS" | sed 's/~.*//' | paste -sd,)
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    "${pin[@]}" python3 "$BENCH_SCRIPTS/sklearn_bench.py" --shapes "$SHAPES" --metrics "$SK_METRICS" \
    --repeats "$REPEATS" --out "$BENCH_DATA/sklearn-baseline.json" >/dev/null
for run in $(seq "$RM_RUNS"); do
    "${pin[@]}" target/release/examples/bench_npy "$BENCH_DATA" "$SHAPES" --metrics "read,$RM_METRICS" \
        --repeats "$RM_REPEATS" "${threads[@]}"
done >"$BENCH_DATA/rankmetrics.txt"

python3 - "$BENCH_DATA" "$METRICS" <<'EOF'
import json, math, statistics, sys
data, entries = sys.argv[1], sys.argv[2].split(",")
sk = json.load(open(f"{data}/sklearn-baseline.json"))["results"]
runs, values = {}, {}
for line in open(f"{data}/rankmetrics.txt"):
    shape, metric, median, value = line.split()
    runs.setdefault((shape, metric), []).append(float(median))
    values[(shape, metric)] = float(value)
rm = {k: statistics.median(v) for k, v in runs.items()}
print("| shape | metric | scikit-learn (s) | rankmetrics (s) | rankmetrics range (s) "
      "| sklearn / rankmetrics | rankmetrics / one read |")
print("|---|---|---|---|---|---|---|")
for shape, results in sk.items():
    read = rm[(shape, "read")]
    lo, hi = min(runs[(shape, "read")]), max(runs[(shape, "read")])
    print(f"| {shape} | one read of the scores | | {read:.4f} | {lo:.4f}–{hi:.4f} | | 1.0 |")
    for entry in entries:
        metric, _, peer = entry.partition("~")
        rec = results[peer or metric]
        ours, value = rm[(shape, metric)], values[(shape, metric)]
        lo, hi = min(runs[(shape, metric)]), max(runs[(shape, metric)])
        theirs = rec["median_s"]
        if peer:
            rec = {**rec, "value": None}
            metric = f"{metric} against {peer}"
        mark = " (extrapolated)" if rec.get("extrapolated") else ""
        theirs_value = rec.get("value")
        same = (theirs_value is None or abs(theirs_value - value) <= 1e-9 * max(1, abs(value))
                or (math.isnan(theirs_value) and math.isnan(value)))
        flag = "" if same else f" VALUE DIFFERS: {rec['value']} vs {value}"
        print(f"| {shape} | {metric} | {theirs:.4f}{mark} | {ours:.4f} | {lo:.4f}–{hi:.4f} | "
              f"{theirs / ours:.0f}x | {ours / read:.1f}{flag} |")
EOF
