#!/usr/bin/env bash
# Side by side: scikit-learn (../shared/bench/sklearn_bench.py) and rankmetrics
# (examples/bench_npy.rs) on the same .npy inputs, in one run; prints a table of medians and
# ratios (sklearn / rankmetrics, and rankmetrics / one read of the scores).
#
#   benches/compare_sklearn.sh [SHAPES] [METRICS]
#   SHAPES: comma list of gen_data.py shapes (default B); METRICS: sklearn_bench.py names
#   (default coverage_error,lrap,label_ranking_loss,ndcg,ndcg@10,ndcg_ignore_ties).
# Environment: BENCH_DATA (default target/bench-data; about 0.15 GB per shape generated),
# SHARED_BENCH (default ../shared/bench, the folder of gen_data.py), REPEATS (default 3),
# THREADS (default 1; above 1, rankmetrics runs through rankmetrics::parallel).
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPES=${1:-B}
METRICS=${2:-coverage_error,lrap,label_ranking_loss,ndcg,ndcg@10,ndcg_ignore_ties}
REPEATS=${REPEATS:-3}
THREADS=${THREADS:-1}
SHARED_BENCH=${SHARED_BENCH:-$(cd .. && pwd)/shared/bench}
export BENCH_DATA=${BENCH_DATA:-$PWD/target/bench-data}
mkdir -p "$BENCH_DATA"

python3 -c 'import numpy, scipy, sklearn' 2>/dev/null ||
    python3 -m pip install --quiet numpy scipy scikit-learn==1.9.1

for s in ${SHAPES//,/ }; do
    [ -f "$BENCH_DATA/${s}_y_score.npy" ] || python3 "$SHARED_BENCH/gen_data.py" "$s"
done

cargo build --release --quiet --features rayon --example bench_npy
threads=()
[ "$THREADS" -gt 1 ] && threads=(--threads "$THREADS")
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    python3 "$SHARED_BENCH/sklearn_bench.py" --shapes "$SHAPES" --metrics "$METRICS" \
    --repeats "$REPEATS" --out "$BENCH_DATA/sklearn-baseline.json" >/dev/null
target/release/examples/bench_npy "$BENCH_DATA" "$SHAPES" --metrics "read,$METRICS" \
    --repeats "$REPEATS" "${threads[@]}" >"$BENCH_DATA/rankmetrics.txt"

python3 - "$BENCH_DATA" <<'EOF'
import json, sys
data = sys.argv[1]
sk = json.load(open(f"{data}/sklearn-baseline.json"))["results"]
rm = {}
for line in open(f"{data}/rankmetrics.txt"):
    shape, metric, median, value = line.split()
    rm[(shape, metric)] = (float(median), float(value))
print("| shape | metric | scikit-learn (s) | rankmetrics (s) | sklearn / rankmetrics | rankmetrics / one read |")
print("|---|---|---|---|---|---|")
for shape, results in sk.items():
    read = rm[(shape, "read")][0]
    print(f"| {shape} | one read of the scores | | {read:.4f} | | 1.0 |")
    for metric, rec in results.items():
        ours, value = rm[(shape, metric)]
        theirs = rec["median_s"]
        mark = " (extrapolated)" if rec.get("extrapolated") else ""
        same = rec.get("value") is None or abs(rec["value"] - value) <= 1e-9 * max(1, abs(value))
        flag = "" if same else f" VALUE DIFFERS: {rec['value']} vs {value}"
        print(f"| {shape} | {metric} | {theirs:.4f}{mark} | {ours:.4f} | {theirs / ours:.0f}x | "
              f"{ours / read:.1f}{flag} |")
EOF
