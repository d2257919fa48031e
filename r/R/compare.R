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
  table <- attr(columns, "table")
  reproduces <- attr(columns, "reproduces")
  chart <- attr(columns, "chart")
  attr(columns, "table") <- NULL
  attr(columns, "reproduces") <- NULL
  attr(columns, "chart") <- NULL
  frame <- as.data.frame(columns, stringsAsFactors = FALSE)
  # mldr's undefined value is R's NA (as in rm_evaluate), not the compiled code's NaN.
  frame$mldr[is.nan(frame$mldr)] <- NA_real_
  frame$note[frame$note == ""] <- NA_character_
  inputs <- list(y_true = dim(y_true), y_score = dim(y_score))
  if (!is.null(sample_weight)) inputs$sample_weight <- length(sample_weight)
  attr(frame, "table") <- table
  attr(frame, "chart") <- chart
  attr(frame, "provenance") <- list(
    rankmetrics_version = as.character(utils::packageVersion("rankmetrics")),
    reproduces = as.list(reproduces),
    inputs = inputs
  )
  class(frame) <- c("rm_comparison", "data.frame")
  frame
}

#' Print a comparison
#'
#' Prints the table of the command \code{rankmetrics compare}: each metric's value under
#' every tie policy and toolkit (4 decimals, \code{*} outside the interval, a dash where
#' a toolkit lacks the metric), the interval, the expected value and the spread, then the
#' legend and the numbered notes (why a cell has no value, why a flagged value that prints as
#' an end of the interval lies outside it, why an interval's ends are not proven). The
#' values themselves are the data frame's columns; \code{attr(x, "provenance")} gives the
#' rankmetrics version, the toolkit release each convention reproduces and the inputs'
#' dimensions.
#'
#' @param x A comparison from \code{\link{rm_compare}}.
#' @param ... Ignored.
#' @return \code{x}, invisibly.
#' @examples
#' y <- matrix(c(1, 0, 1, 0, 1, 0), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.5, 0.5, 0.2, 0.9, 0.9, 0.1), nrow = 2, byrow = TRUE)
#' grid <- rm_compare(y, s)
#' print(grid)
#' attr(grid, "provenance")$reproduces$mldr
#' @export
print.rm_comparison <- function(x, ...) {
  table <- attr(x, "table")
  # A comparison rebuilt without its attributes prints as the data frame it is.
  if (is.null(table)) return(NextMethod())
  cat(table)
  invisible(x)
}

#' @export
`[.rm_comparison` <- function(x, ...) {
  # A subset is a plain data frame: the table and provenance describe the whole grid.
  out <- NextMethod()
  if (is.data.frame(out)) {
    attr(out, "table") <- NULL
    attr(out, "chart") <- NULL
    attr(out, "provenance") <- NULL
    class(out) <- "data.frame"
  }
  out
}

#' Plot a comparison
#'
#' The picture of the command's \code{rankmetrics compare --plot} (and of Python's
#' \code{Comparison.plot}), in base graphics: a panel per metric with a numeric axis, a row
#' per tie policy and toolkit with a dot at its value (red when outside the interval), the
#' interval over tie orders shaded and labelled with its ends, the expected value as a blue
#' line. The layout (each panel's range, ticks and rows) comes from the same code as the
#' SVG of \code{\link{rm_svg}}.
#'
#' @param x A comparison from \code{\link{rm_compare}}.
#' @param ... Ignored.
#' @return \code{x}, invisibly.
#' @examples
#' y <- matrix(c(1, 0, 1, 0, 1, 0), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.5, 0.5, 0.2, 0.9, 0.9, 0.1), nrow = 2, byrow = TRUE)
#' plot(rm_compare(y, s))
#' @export
plot.rm_comparison <- function(x, ...) {
  panels <- rm_chart(x)$panels
  columns <- 3L
  old <- graphics::par(mfrow = c(ceiling(length(panels) / columns), columns),
                       mar = c(2.2, 6.5, 2.6, 0.8), oma = c(0, 0, 2, 0), cex = 0.6)
  on.exit(graphics::par(old))
  for (p in panels) rm_draw_panel(p)
  graphics::mtext("Each metric under each tie policy and toolkit convention", outer = TRUE,
                  line = 0.5, cex = 0.8)
  invisible(x)
}

# One panel of plot.rm_comparison, from the library's layout: row 1 on top.
rm_draw_panel <- function(p) {
  n <- length(p$mark_columns)
  graphics::plot.new()
  graphics::plot.window(xlim = p$range, ylim = c(n + 0.5, 0.5), xaxs = "i", yaxs = "i")
  if (!is.null(p$band)) {
    graphics::rect(p$band[1], n + 0.5, p$band[2], 0.5, col = "#ADCCEBCC", border = NA)
    if (p$band_labels[1] == p$band_labels[2]) {
      graphics::mtext(p$band_labels[1], side = 3, at = p$band[1], line = 0.1, cex = 0.5)
    } else {
      graphics::mtext(p$band_labels[1], side = 3, at = p$band[1], line = 0.1, adj = 1,
                      cex = 0.5)
      graphics::mtext(p$band_labels[2], side = 3, at = p$band[2], line = 0.1, adj = 0,
                      cex = 0.5)
    }
  }
  if (!is.na(p$expected)) graphics::abline(v = p$expected, col = "#1F5AA0", lwd = 2)
  if (p$rule > 0) graphics::abline(h = p$rule - 0.5, col = "grey75", lwd = 0.8)
  graphics::axis(1, at = p$tick_values, labels = p$tick_labels, mgp = c(3, 0.4, 0),
                 tcl = -0.3)
  graphics::axis(2, at = seq_len(n), labels = p$mark_columns, las = 1, tick = FALSE,
                 mgp = c(3, 0.3, 0))
  graphics::box(bty = "l")
  shown <- !is.na(p$mark_values)
  graphics::points(p$mark_values[shown], seq_len(n)[shown], pch = 19,
                   col = ifelse(p$mark_outside[shown], "#CD2828", "#282828"))
  if (any(!shown)) {
    graphics::text(p$range[1], seq_len(n)[!shown], " no value", adj = 0, cex = 0.8)
  }
  graphics::title(main = p$metric, line = 1.2, cex.main = 1)
}

rm_chart <- function(x) {
  chart <- attr(x, "chart")
  if (is.null(chart)) {
    stop("this comparison has no picture: it is a subset or a copy without attributes; ",
         "plot the whole result of rm_compare()", call. = FALSE)
  }
  chart
}

#' The picture of a comparison as SVG
#'
#' The SVG the command \code{rankmetrics compare --plot} writes (and Python's
#' \code{Comparison._repr_svg_} shows), made by the same code: a panel per metric with a
#' numeric axis, a row per tie policy and toolkit, the interval over tie orders shaded and
#' labelled with its ends, the expected value, values outside the interval in red.
#'
#' @param x A comparison from \code{\link{rm_compare}}.
#' @param file A path to write the SVG to, or \code{NULL}.
#' @return The SVG text (invisibly when written to \code{file}).
#' @examples
#' y <- matrix(c(1, 0, 1, 0, 1, 0), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.5, 0.5, 0.2, 0.9, 0.9, 0.1), nrow = 2, byrow = TRUE)
#' svg <- rm_svg(rm_compare(y, s))
#' substr(svg, 1, 4)
#' @export
rm_svg <- function(x, file = NULL) {
  svg <- rm_chart(x)$svg
  if (is.null(file)) return(svg)
  writeLines(svg, file, sep = "")
  invisible(svg)
}
