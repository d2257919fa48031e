#!/usr/bin/env bash
# Side by side: rankmetrics and the peers users also pick, on the .npy inputs of
# benches/python/gen_data.py, one thread each:
#   * nDCG@10, P@5, MAP against ranx (numba; NUMBA_NUM_THREADS=1, `evaluate` timed once its
#     Qrels and Run are built and its JIT is warm) and pytrec_eval (pytrec-eval-terrier), on
#     the rows that hold a relevant label;
#   * LRAP, coverage, ranking loss against torchmetrics (CPU, float32 scores as it computes);
#   * nDCG@10, LRAP, coverage, ranking loss against scikit-learn (float64 scores, every row).
# rankmetrics is timed through its Python package in the same process as the peers
# (benches/python/peers_bench.py) and as the Rust library (examples/bench_npy.rs). First the
# values are checked, row by row (benches/python/peers_agree.py): which tie policy each peer
# follows, and whether every value agrees. Then one table per shape: medians over processes of
# each process's median, the range over processes, and how far each peer's value is from
# rankmetrics' (in the last process).
#
#   benches/compare_peers.sh [SHAPES]          SHAPES: comma list of gen_data.py shapes (default B,C)
# Environment: PEERS_VENV (default target/peers-venv: a venv made here, the peers and the
# rankmetrics wheel installed into it from the package index; about 6 GB, since the package
# index serves only torch's CUDA build for x86-64 Linux), BENCH_DATA (default
# target/bench-data), RUNS (processes, default 3), REPEATS (the peers' timed calls per process,
# default 3), RM_REPEATS (rankmetrics', default 15), AGREE_ROWS (rows the agreement check reads,
# default 20000), PIN_CPU (default 0: every process pinned to this CPU with taskset; "none"
# unpins), PEER_GROUPS (default retrieval,torch,sklearn).
set -euo pipefail
cd "$(dirname "$0")/.."

SHAPES=${1:-B,C}
RUNS=${RUNS:-3}
REPEATS=${REPEATS:-3}
RM_REPEATS=${RM_REPEATS:-15}
AGREE_ROWS=${AGREE_ROWS:-20000}
PEER_GROUPS=${PEER_GROUPS:-retrieval,torch,sklearn}
VENV=${PEERS_VENV:-$PWD/target/peers-venv}
export BENCH_DATA=${BENCH_DATA:-$PWD/target/bench-data}
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
mkdir -p "$BENCH_DATA"

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
py="$VENV/bin/python"
if ! "$py" -c 'import ranx, pytrec_eval, torchmetrics, sklearn' 2>/dev/null ||
    [ ! -x "$VENV/bin/maturin" ]; then
    "$py" -m pip install --quiet numpy scipy scikit-learn==1.9.1 ranx==0.3.21 \
        pytrec-eval-terrier==0.5.11 torch==2.15.0 torchmetrics==1.9.0 maturin==1.16.0
fi
# rankmetrics as the work tree has it (cargo rebuilds only what changed).
rm -rf target/peers-wheel
(cd python && "$VENV/bin/maturin" build --release --quiet --out ../target/peers-wheel)
"$py" -m pip install --quiet --force-reinstall --no-deps target/peers-wheel/rankmetrics-*.whl

for s in ${SHAPES//,/ }; do
    [ -f "$BENCH_DATA/${s}_y_score.npy" ] || "$py" benches/python/gen_data.py "$s"
done
cargo build --release --quiet --features rayon --example bench_npy

pin=()
PIN_CPU=${PIN_CPU:-0}
if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null; then
    pin=(taskset -c "$PIN_CPU")
fi

echo "## Agreement (first $AGREE_ROWS rows)"
for s in ${SHAPES//,/ }; do
    "$py" benches/python/peers_agree.py "$s" --rows "$AGREE_ROWS" 2>/dev/null || true
done

rust() { # GROUP METRICS [bench_npy options]: the Rust library's lines of one group, shape $s
    local group=$1 metrics=$2
    shift 2
    [[ ",$PEER_GROUPS," == *",$group,"* ]] || return 0
    "${pin[@]}" target/release/examples/bench_npy "$BENCH_DATA" "$s" "$@" \
        --metrics "$metrics" --repeats "$RM_REPEATS" |
        awk -v g="$group" '{print $1, g, "rust", $2, $3, $4}' >>"$out"
}

out="$BENCH_DATA/peers.txt"
: >"$out"
for run in $(seq "$RUNS"); do
    for s in ${SHAPES//,/ }; do
        "${pin[@]}" "$py" benches/python/peers_bench.py "$s" --repeats "$REPEATS" \
            --rm-repeats "$RM_REPEATS" --groups "$PEER_GROUPS" 2>/dev/null >>"$out"
        rust retrieval ndcg_at_k@10,precision@5,average_precision --with-relevant
        rust torch tm_lrap,tm_coverage,tm_ranking_loss
        rust sklearn ndcg@10,lrap,coverage_error,label_ranking_loss
    done
done

"$py" - "$out" <<'EOF'
import statistics, sys
rust = {"ndcg_at_k@10": "ndcg@10", "precision@5": "p@5", "average_precision": "map",
        "tm_lrap": "lrap", "tm_coverage": "coverage", "tm_ranking_loss": "ranking_loss",
        "coverage_error": "coverage", "label_ranking_loss": "ranking_loss"}
runs, values = {}, {}
for line in open(sys.argv[1]):
    shape, group, lib, metric, median, value = line.split()
    key = (shape, group, rust.get(metric, metric), lib)
    runs.setdefault(key, []).append(float(median))
    values[key] = float(value)
med = {k: statistics.median(v) for k, v in runs.items()}
rng = lambda k: f"{min(runs[k]):.4f}–{max(runs[k]):.4f}"
groups = ["retrieval", "torch", "sklearn"]
for shape in sorted({k[0] for k in med}):
    print(f"\nShape {shape}:\n")
    print("| metric | peer | peer (s) | rankmetrics, Python (s) | Rust library (s) "
          "| peer / Python | Python / Rust | peer's value − rankmetrics' |")
    print("|---|---|---|---|---|---|---|---|")
    for (_, group, metric, lib) in sorted((k for k in med if k[0] == shape),
                                          key=lambda k: (groups.index(k[1]), k[2], k[3])):
        if lib in ("rankmetrics", "rust"):
            continue
        ours, rs = (shape, group, metric, "rankmetrics"), (shape, group, metric, "rust")
        k = (shape, group, metric, lib)
        print(f"| {metric} | {lib} | {med[k]:.4f} ({rng(k)}) | {med[ours]:.4f} ({rng(ours)}) "
              f"| {med[rs]:.4f} ({rng(rs)}) | {med[k] / med[ours]:.0f}× "
              f"| {med[ours] / med[rs]:.2f} | {values[k] - values[ours]:.2g} |")
EOF
