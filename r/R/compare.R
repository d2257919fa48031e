#' Every metric under every tie policy and toolkit
#'
#' The comparison grid of the command \code{rankmetrics compare} (and Python's
#' \code{rankmetrics.compare}): for each metric concept, its value under R's five tie
#' methods, under each toolkit's own rules, and the tie analysis: the pessimistic and
#' optimistic values over every ordering of tied scores and the exact expected value.
#'
#' @param y_true,y_score,sample_weight As in \code{\link{rm_evaluate}}.
#' @return A data frame of class \code{rm_comparison}, one row per metric concept:
#'   \code{metric}, \code{over} (what the value is a mean over), the columns \code{max},
#'   \code{min}, \code{average}, \code{first}, \code{last}, \code{sklearn},
#'   \code{torchmetrics}, \code{mldr}, \code{mulan}, \code{pessimistic}, \code{expected},
#'   \code{optimistic} (\code{NA} where a toolkit lacks the concept or raises), \code{low}
#'   and \code{high} (the interval over tie orders), \code{spread} (largest minus smallest
#'   value of the policies and toolkits), \code{outside} (the columns whose value lies
#'   outside the interval), \code{ends_proven} (whether \code{low} and \code{high} are the
#'   proven best and worst values over tie orders; not for label-wise precision with sample
#'   weights, whose optimistic and pessimistic values are orderings inside the interval),
#'   \code{expected_exact} (whether \code{expected} has a closed form), \code{note} (why
#'   not, \code{NA} where both hold) and \code{error} (the cells' errors). No column is said
#'   to lie outside an interval whose ends are not proven.
#' @section Errors:
#' What would fail every cell raises a condition as \code{\link{rm_evaluate}} does: missing
#' or infinite values, mismatched shapes, no samples or labels, a weight vector of the wrong
#' length or with a negative or non-finite weight. What fails some cells only (labels outside
#' a toolkit's domain, a tie policy without a closed form for a metric) leaves \code{NA} in
#' those cells and says why in \code{error}.
#' @examples
#' y <- matrix(c(1, 0, 1, 0, 1, 0), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.5, 0.5, 0.2, 0.9, 0.9, 0.1), nrow = 2, byrow = TRUE)
#' grid <- rm_compare(y, s)
#' grid[grid$metric == "coverage", c("sklearn", "mldr", "low", "expected", "high")]
#' w <- rm_compare(y, s, sample_weight = c(1, 3))
#' w[w$metric == "label AP, macro", c("low", "high", "ends_proven", "expected_exact")]
#' plot(grid)
#' @export
rm_compare <- function(y_true, y_score, sample_weight = NULL) {
  reply <- rm_compare_impl(rm_labels_input(y_true), rm_scores_input(y_score),
                           rm_weights_input(sample_weight))
  columns <- rm_value(reply, sys.call())
  frame <- as.data.frame(columns, stringsAsFactors = FALSE)
  # mldr's undefined value is R's NA (as in rm_evaluate), not the compiled code's NaN.
  frame$mldr[is.nan(frame$mldr)] <- NA_real_
  frame$note[frame$note == ""] <- NA_character_
  class(frame) <- c("rm_comparison", "data.frame")
  frame
}

#' @export
print.rm_comparison <- function(x, ...) {
  cat("rankmetrics comparison: each metric under every tie policy and toolkit\n")
  shown <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  shown$error <- NULL
  shown$note <- NULL
  print(shown, ...)
  notes <- !is.na(x$note)
  if (any(notes)) {
    cat("\nWhere ends_proven or expected_exact is FALSE:\n")
    cat(sprintf("  %s: %s\n", x$metric[notes], x$note[notes]), sep = "")
  }
  invisible(x)
}

#' Plot a comparison
#'
#' Each metric's interval over tie orders (grey bar), its expected value (black tick) and the
#' toolkits' values (outlined red when outside the interval), in base graphics. Each row is
#' drawn on its own scale, from its smallest to its largest value, which the row's label
#' gives.
#'
#' @param x A comparison from \code{\link{rm_compare}}.
#' @param ... Passed to \code{plot}.
#' @return \code{x}, invisibly.
#' @examples
#' y <- matrix(c(1, 0, 1, 0, 1, 0), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.5, 0.5, 0.2, 0.9, 0.9, 0.1), nrow = 2, byrow = TRUE)
#' plot(rm_compare(y, s))
#' @export
plot.rm_comparison <- function(x, ...) {
  toolkits <- c("sklearn", "torchmetrics", "mldr", "mulan")
  pch <- c(sklearn = 21, torchmetrics = 22, mldr = 24, mulan = 23)
  col <- c(sklearn = "#1f77b4", torchmetrics = "#ff7f0e", mldr = "#2ca02c",
           mulan = "#9467bd")
  n <- nrow(x)
  old <- par(mar = c(3, 16, 1, 8), xpd = NA)
  on.exit(par(old))
  plot(NA, xlim = c(-0.05, 1.05), ylim = c(0.5, n + 0.5), xaxt = "n", yaxt = "n",
       xlab = "", ylab = "", ...)
  labels <- character(n)
  for (i in seq_len(n)) {
    y <- n + 1 - i
    keep <- c("max", "min", "average", "first", "last", toolkits, "pessimistic",
              "expected", "optimistic")
    values <- unlist(x[i, keep], use.names = FALSE)
    values <- values[is.finite(values)]
    if (length(values) == 0L) {
      labels[i] <- paste(x$metric[i], "(no value)")
      next
    }
    lo <- min(values)
    hi <- max(values)
    span <- if (hi > lo) hi - lo else 1
    at <- function(v) (v - lo) / span
    labels[i] <- sprintf("%s [%.4g, %.4g]", x$metric[i], lo, hi)
    if (is.finite(x$low[i]) && is.finite(x$high[i])) {
      segments(at(x$low[i]), y, at(x$high[i]), y, col = "grey75", lwd = 8, lend = 1)
    }
    if (is.finite(x$expected[i])) points(at(x$expected[i]), y, pch = 124, cex = 1.5)
    outside <- strsplit(x$outside[i], ", ", fixed = TRUE)[[1]]
    for (t in toolkits) {
      v <- x[[t]][i]
      if (is.finite(v)) {
        points(at(v), y, pch = pch[[t]], bg = col[[t]],
               col = if (t %in% outside) "red" else col[[t]],
               lwd = if (t %in% outside) 2 else 1)
      }
    }
  }
  axis(2, at = rev(seq_len(n)), labels = labels, las = 1, cex.axis = 0.7)
  axis(1, at = c(0, 1), labels = c("row's smallest", "row's largest"), cex.axis = 0.7)
  legend(1.08, n + 0.5, legend = c(toolkits, "expected", "interval"),
         pch = c(pch[toolkits], 124, NA), pt.bg = c(col[toolkits], NA, NA),
         col = c(col[toolkits], "black", "grey75"), lty = c(NA, NA, NA, NA, NA, 1),
         lwd = c(NA, NA, NA, NA, NA, 8), bty = "n", cex = 0.7)
  invisible(x)
}
