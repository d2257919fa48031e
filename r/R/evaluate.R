#' Any metric of any convention, under any tie policy
#'
#' Evaluates a metric by its name in a convention: rankmetrics' own metrics, or the metrics
#' of scikit-learn, torchmetrics, mldr or MULAN with their rules, as the command
#' \code{rankmetrics eval} and Python's \code{rankmetrics.evaluate} do.
#'
#' @param y_true The true labels: a logical, integer or double matrix (rows = samples,
#'   columns = labels), or a data frame; graded gains for DCG and NDCG. Matrices are read in
#'   place, without a copy.
#' @param y_score The scores: a numeric matrix or data frame of the same shape, every value
#'   finite. Double matrices are read in place.
#' @param convention \code{"rankmetrics"}, \code{"sklearn"}, \code{"torchmetrics"},
#'   \code{"mldr"} or \code{"mulan"}.
#' @param metric The metric's name in that convention (\code{\link{rm_metric_names}}).
#' @param ties \code{NULL} (the convention's own tie rule) or a tie policy: \code{"max"},
#'   \code{"min"}, \code{"average"}, \code{"first"}, \code{"last"}, \code{"random"},
#'   \code{"random:SEED"}, \code{"expected"} (the exact mean over every ordering of tied
#'   scores), \code{"optimistic"} or \code{"pessimistic"} (the ends of that range; where
#'   they are not proven ends, with sample weights for label-wise precision and for mldr's
#'   AUCs, a warning of class \code{rankmetrics_unproven_end} says why).
#' @param sample_weight \code{NULL}, or one non-negative weight per sample (applied for
#'   every convention, also those whose toolkit has no weights).
#' @param per_sample \code{FALSE} for the metric's value; \code{TRUE} for each sample's
#'   value (\code{NA} for samples the metric leaves out; row-wise metrics only). Per-sample
#'   values are unweighted: with \code{per_sample = TRUE}, \code{sample_weight} must be
#'   \code{NULL}.
#' @param ... The metric's parameters by the toolkit's names
#'   (\code{\link{rm_param_keys}}), such as \code{k = 3} or \code{average = "micro"};
#'   \code{NULL} means not given.
#' @return A number, or with \code{per_sample = TRUE} a numeric vector with one value per
#'   sample. Under the \code{"mldr"} convention an undefined value is \code{NA}, elsewhere
#'   \code{NaN}.
#' @section Errors:
#' Bad input raises a condition of class \code{rankmetrics_error} and a class naming what is
#' wrong (such as \code{rankmetrics_missing} for \code{NA}, \code{rankmetrics_invalid_label},
#' \code{rankmetrics_shape_mismatch}, \code{rankmetrics_type}, \code{rankmetrics_parameter},
#' \code{rankmetrics_memory} when the memory for a copy of the input is refused);
#' its \code{row} and \code{column} fields locate the cell, counted from 1.
#' @examples
#' y <- matrix(c(1, 0, 0, 0, 0, 1), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.75, 0.5, 1, 1, 0.2, 0.1), nrow = 2, byrow = TRUE)
#' rm_evaluate(y, s, convention = "sklearn", metric = "coverage_error")
#' rm_evaluate(y, s, convention = "sklearn", metric = "label_ranking_loss", ties = "expected")
#' rm_evaluate(y, s, metric = "ndcg", k = 2)
#' rm_evaluate(y, s, metric = "roc_auc", average = "micro")
#' rm_evaluate(y, s, metric = "coverage", per_sample = TRUE)
#' @export
rm_evaluate <- function(y_true, y_score, convention = "rankmetrics", metric, ties = NULL,
                        sample_weight = NULL, per_sample = FALSE, ...) {
  call <- sys.call()
  convention <- rm_string(convention, "convention", call)
  v <- rm_run(y_true, y_score, convention, metric, list(...), ties, sample_weight,
              per_sample, call)
  if (convention == "mldr") v[is.nan(v)] <- NA_real_
  v
}

#' Metric names and parameters of a convention
#'
#' @param convention \code{"rankmetrics"}, \code{"sklearn"}, \code{"torchmetrics"},
#'   \code{"mldr"} or \code{"mulan"}.
#' @param metric A metric name of that convention.
#' @return A character vector: the metric names \code{\link{rm_evaluate}} takes for the
#'   convention, or the parameter keys the metric takes (besides \code{ties}).
#' @examples
#' rm_metric_names("sklearn")
#' rm_param_keys("mldr", "macro_auc")
#' @export
rm_metric_names <- function(convention) {
  call <- sys.call()
  rm_value(rm_metric_names_impl(rm_string(convention, "convention", call)), call)
}

#' @rdname rm_metric_names
#' @export
rm_param_keys <- function(convention, metric) {
  call <- sys.call()
  reply <- rm_param_keys_impl(rm_string(convention, "convention", call),
                              rm_string(metric, "metric", call))
  rm_value(reply, call)
}
