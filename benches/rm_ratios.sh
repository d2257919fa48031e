#!/usr/bin/env bash
# rankmetrics against itself (examples/bench_npy.rs) on the .npy inputs of gen_data.py: the
# cost of one tie policy against another, or of two threads against one; prints a table of
# medians, ranges and ratios.
#
#   benches/rm_ratios.sh ties SHAPES METRICS      # METRIC@expected against METRIC@max
#   benches/rm_ratios.sh threads SHAPES METRICS   # --threads 2 (unpinned) against one thread
#
# METRICS: comma list of bench_npy names; for `ties`, presets (CONVENTION/NAME[:KEY=VALUE]),
# each timed under both policies in the same process. For `threads`, the one-thread processes
# are pinned to PIN_CPU (default 0) and the two runs alternate, process by process.
# Environment: BENCH_DATA (default target/bench-data), RM_REPEATS (repeats per process,
# default 7), RM_RUNS (processes per variant, default 5), TIES (default expected,max: the
# policy timed, then the one it is divided by). Each cell is the median over processes of each
# process's median; the range is that of the process medians; "paired" is the median of the
# ratios within a process (ties) or of neighbouring processes (threads), which cancels most
# of a shared machine's swings; "best" divides the fastest process medians.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${1:?usage: rm_ratios.sh ties|threads SHAPES METRICS}
SHAPES=${2:?SHAPES}
METRICS=${3:?METRICS}
RM_REPEATS=${RM_REPEATS:-7}
RM_RUNS=${RM_RUNS:-5}
PIN_CPU=${PIN_CPU:-0}
TIES=${TIES:-expected,max}
export BENCH_DATA=${BENCH_DATA:-$PWD/target/bench-data}
for s in ${SHAPES//,/ }; do
    [ -f "$BENCH_DATA/${s}_y_score.npy" ] || python3 benches/python/gen_data.py "$s"
done
cargo build --release --quiet --features rayon --example bench_npy
bench=target/release/examples/bench_npy
out="$BENCH_DATA/rm-ratios.txt"
: >"$out"
case "$MODE" in
ties)
    num=${TIES%,*} den=${TIES#*,}
    list=$(tr ',' '\n' <<<"$METRICS" | sed "s/.*/&@$num,&@$den/" | paste -sd,)
    for run in $(seq "$RM_RUNS"); do
        taskset -c "$PIN_CPU" "$bench" "$BENCH_DATA" "$SHAPES" --metrics "$list" \
            --repeats "$RM_REPEATS" | sed 's/@/ @/' >>"$out"
    done
    ;;
threads)
    for run in $(seq "$RM_RUNS"); do
        taskset -c "$PIN_CPU" "$bench" "$BENCH_DATA" "$SHAPES" --metrics "$METRICS" \
            --repeats "$RM_REPEATS" | sed 's/^\([^ ]* [^ ]*\)/\1 @1/' >>"$out"
        "$bench" "$BENCH_DATA" "$SHAPES" --metrics "$METRICS" --repeats "$RM_REPEATS" \
            --threads 2 | sed 's/^\([^ ]* [^ ]*\)/\1 @2/' >>"$out"
    done
    num=2 den=1
    ;;
*) echo "unknown mode $MODE (ties or threads)" >&2; exit 2 ;;
esac

python3 - "$out" "$num" "$den" <<'EOF'
import statistics, sys
path, num, den = sys.argv[1:]
runs, values = {}, {}
for line in open(path):
    shape, metric, variant, median, value = line.split()
    runs.setdefault((shape, metric, variant.lstrip("@")), []).append(float(median))
    values.setdefault((shape, metric), set()).add(value)
print(f"| shape | metric | {den} (s) | range | {num} (s) | range | {num} / {den} (medians) "
      "| (paired: median over processes) | (best) |")
print("|---|---|---|---|---|---|---|---|---|")
seen = []
for shape, metric, _ in runs:
    if (shape, metric) not in seen:
        seen.append((shape, metric))
for shape, metric in seen:
    a, b = runs[(shape, metric, den)], runs[(shape, metric, num)]
    ma, mb = statistics.median(a), statistics.median(b)
    same = "" if num != "2" or len(values[(shape, metric)]) == 1 else " VALUES DIFFER"
    # The k-th process of one variant ran beside the k-th of the other (the same process for
    # `ties`, the next one for `threads`): their ratio sees the same machine load.
    paired = statistics.median(y / x for x, y in zip(a, b))
    print(f"| {shape} | {metric} | {ma:.4f} | {min(a):.4f}–{max(a):.4f} | {mb:.4f} | "
          f"{min(b):.4f}–{max(b):.4f} | {mb / ma:.2f} | {paired:.2f} | {min(b) / min(a):.2f}{same} |")
EOF
