# mldr's ranking measures: the names, arguments and defaults of mldr 0.4.2's
# average_precision, coverage, one_error, ranking_loss, macro_auc, example_auc and micro_auc.

# An mldr measure; R's NA where mldr gives NA (the compiled code's NaN).
rm_mldr <- function(metric, true_labels, predictions, sample_weight, ties, params, call) {
  v <- rm_run(true_labels, predictions, "mldr", metric, params, ties, sample_weight,
              FALSE, call)
  if (is.nan(v)) NA_real_ else v
}

# na.rm: TRUE or FALSE (R's mean() refuses NA there too).
rm_flag <- function(na.rm, call) {
  if (!is.logical(na.rm) || length(na.rm) != 1L || is.na(na.rm)) {
    rm_stop("na.rm must be TRUE or FALSE", "parameter", call = call)
  }
  na.rm
}

# ties_method: mldr passes it to rank(), whose match.arg() takes an abbreviation of R's six
# names ("av" for "average"); those are expanded. rankmetrics' own policies ("expected",
# "random:SEED", ...) pass as they are.
rm_ties_method <- function(ties_method, call) {
  ties_method <- rm_string(ties_method, "ties_method", call)
  r_names <- c("average", "first", "last", "random", "max", "min")
  full <- r_names[pmatch(ties_method, r_names)]
  if (is.na(full)) ties_method else full
}

# mldr's macro_auc and example_auc. mldr averages the undefined labels' (or rows')
# undefined_value with the computed AUCs in R's mean(): with undefined_value = NaN (not NA) and
# na.rm = FALSE that mean is NaN where some label (row) has both classes, and NA where none has
# (mldr then averages a list). The compiled code gives NaN for both; the labels say which.
rm_mldr_auc <- function(metric, true_labels, predictions, undefined_value, na.rm,
                        sample_weight, ties, call) {
  params <- list(undefined_value = rm_mldr_undefined(undefined_value, call),
                 na_rm = rm_flag(na.rm, call))
  v <- rm_mldr(metric, true_labels, predictions, sample_weight, ties, params, call)
  if (is.na(v) && is.nan(undefined_value) && !na.rm &&
      rm_any_both_classes(true_labels, by_row = metric == "example_auc")) {
    return(NaN)
  }
  v
}

# Whether some label (by_row: row) has a relevant and an irrelevant entry, as mldr decides it
# is computable (its column sum is neither 0 nor its length). Called on labels the compiled
# code has read, so they are 0/1 or logical.
rm_any_both_classes <- function(true_labels, by_row) {
  y <- as.matrix(true_labels)
  storage.mode(y) <- "double"
  sums <- if (by_row) rowSums(y) else colSums(y)
  size <- if (by_row) ncol(y) else nrow(y)
  any(sums != 0 & sums != size)
}

rm_mldr_undefined <- function(undefined_value, call) {
  if (length(undefined_value) != 1L || !(is.numeric(undefined_value) || is.na(undefined_value))) {
    rm_stop("undefined_value must be a single number or NA", "parameter", call = call)
  }
  if (is.na(undefined_value)) "NA" else sprintf("%.17g", undefined_value)
}

#' mldr's ranking measures
#'
#' The example-based ranking measures and the AUCs of the 'mldr' package, with its names,
#' arguments, defaults and values: \code{library(rankmetrics)} in place of
#' \code{library(mldr)} leaves the numbers unchanged (the differences are listed in the
#' package's \file{docs/r.md}).
#'
#' @param true_labels The true labels: a matrix (rows = samples, columns = labels) of 0/1,
#'   \code{TRUE}/\code{FALSE} or doubles 0 and 1, or a data frame of them.
#' @param predictions The scores: a numeric matrix or data frame of the same shape, every
#'   value finite.
#' @param ties_method How tied scores are ranked, as R's \code{rank(ties.method =)}:
#'   \code{"last"} (mldr's default), \code{"first"}, \code{"average"}, \code{"max"},
#'   \code{"min"} or \code{"random"}, or an abbreviation of one as \code{rank()} takes it
#'   (\code{"av"}); also a tie policy of \code{\link{rm_evaluate}}, such as
#'   \code{"expected"}.
#' @param undefined_value The value of a label (or sample) whose AUC is undefined (every
#'   label the same), or \code{NA}.
#' @param na.rm Whether \code{NA} values are left out of the mean.
#' @param sample_weight An extension: \code{NULL}, or one non-negative weight per sample.
#' @param ties An extension: \code{NULL} (the measure's own tie rule) or a tie policy of
#'   \code{\link{rm_evaluate}}, such as \code{"expected"}.
#' @return A number; \code{NA} where mldr gives \code{NA}, \code{NaN} where it gives
#'   \code{NaN} (\code{undefined_value = NaN} with \code{na.rm = FALSE}, where some label or
#'   sample has both classes).
#' @examples
#' y <- matrix(c(1, 0, 0, 1, 1, 0), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.5, 0.5, 0.1, 0.9, 0.2, 0.2), nrow = 2, byrow = TRUE)
#' average_precision(y, s)
#' coverage(y, s, ties_method = "max")
#' macro_auc(y, s, undefined_value = NA, na.rm = TRUE)
#' @name mldr_measures
NULL

#' @rdname mldr_measures
#' @export
average_precision <- function(true_labels, predictions, ties_method = "last",
                              sample_weight = NULL, ties = NULL) {
  call <- sys.call()
  rm_mldr("average_precision", true_labels, predictions, sample_weight, ties,
          list(ties_method = rm_ties_method(ties_method, call)), call)
}

#' @rdname mldr_measures
#' @export
coverage <- function(true_labels, predictions, ties_method = "last", sample_weight = NULL,
                     ties = NULL) {
  call <- sys.call()
  rm_mldr("coverage", true_labels, predictions, sample_weight, ties,
          list(ties_method = rm_ties_method(ties_method, call)), call)
}

#' @rdname mldr_measures
#' @export
one_error <- function(true_labels, predictions, sample_weight = NULL, ties = NULL) {
  rm_mldr("one_error", true_labels, predictions, sample_weight, ties, list(), sys.call())
}

#' @rdname mldr_measures
#' @export
ranking_loss <- function(true_labels, predictions, sample_weight = NULL, ties = NULL) {
  rm_mldr("ranking_loss", true_labels, predictions, sample_weight, ties, list(), sys.call())
}

#' @rdname mldr_measures
#' @export
macro_auc <- function(true_labels, predictions, undefined_value = 0.5, na.rm = FALSE,
                      sample_weight = NULL, ties = NULL) {
  rm_mldr_auc("macro_auc", true_labels, predictions, undefined_value, na.rm, sample_weight,
              ties, sys.call())
}

#' @rdname mldr_measures
#' @export
example_auc <- function(true_labels, predictions, undefined_value = 0.5, na.rm = FALSE,
                        sample_weight = NULL, ties = NULL) {
  rm_mldr_auc("example_auc", true_labels, predictions, undefined_value, na.rm, sample_weight,
              ties, sys.call())
}

#' @rdname mldr_measures
#' @export
micro_auc <- function(true_labels, predictions, sample_weight = NULL, ties = NULL) {
  rm_mldr("micro_auc", true_labels, predictions, sample_weight, ties, list(), sys.call())
}
