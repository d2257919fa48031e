# mldr's AUCs side by side with what mldr itself runs for them: pROC::auc per label (macro),
# per row (example) and on the pooled cells (micro), with pROC's automatic direction. Both
# sides give the same numbers (checked here); the table has each side's median time of
# `reps` runs, interleaved, and their ratio.
#
#   Rscript r/bench/auc_vs_proc.R [n_rows] [n_labels] [reps]
#
# Needs the installed rankmetrics package and pROC.
library(rankmetrics)
args <- as.integer(commandArgs(trailingOnly = TRUE))
n <- if (length(args) >= 1) args[[1]] else 20000L
l <- if (length(args) >= 2) args[[2]] else 20L
reps <- if (length(args) >= 3) args[[3]] else 5L
set.seed(1)
y <- matrix(rbinom(n * l, 1, 0.3), n, l)
s <- matrix(round(runif(n * l), 2), n, l) # steps of 0.01: ties
proc <- function(response, predictor) {
  as.numeric(pROC::auc(response, predictor, levels = c(0, 1), direction = "auto", quiet = TRUE))
}
rows <- seq_len(min(n, 2000L)) # pROC per row is slow: example AUC on the first 2,000 rows
peers <- list(
  macro_auc = list(
    ours = function() macro_auc(y, s),
    proc = function() {
      mean(vapply(seq_len(l), function(j) {
        if (length(unique(y[, j])) < 2) 0.5 else proc(y[, j], s[, j])
      }, 0))
    }
  ),
  micro_auc = list(
    ours = function() micro_auc(y, s),
    proc = function() proc(as.vector(y), as.vector(s))
  ),
  example_auc = list(
    ours = function() example_auc(y[rows, ], s[rows, ]),
    # A row with one class gets undefined_value (0.5), as in mldr.
    proc = function() {
      mean(vapply(rows, function(i) {
        if (length(unique(y[i, ])) < 2) 0.5 else proc(y[i, ], s[i, ])
      }, 0))
    }
  )
)
cat(sprintf("%d x %d (example_auc: %d x %d), median of %d runs, seconds\n", n, l,
            length(rows), l, reps))
cat(sprintf("%-12s %10s %10s %8s\n", "metric", "pROC", "rankmetrics", "ratio"))
for (name in names(peers)) {
  p <- peers[[name]]
  stopifnot(abs(p$ours() - p$proc()) < 1e-12)
  times <- matrix(NA_real_, reps, 2)
  for (r in seq_len(reps)) {
    times[r, 1] <- system.time(p$proc())[["elapsed"]]
    times[r, 2] <- system.time(p$ours())[["elapsed"]]
  }
  med <- apply(times, 2, median)
  cat(sprintf("%-12s %10.4f %10.4f %7.0fx\n", name, med[1], med[2], med[1] / max(med[2], 1e-6)))
}
