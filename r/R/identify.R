#' Which convention gives a reported value
#'
#' The search of the command \code{rankmetrics identify} (and Python's
#' \code{rankmetrics.identify}): every metric of every convention evaluated on the data at once
#' (rankmetrics' own under every tie policy; each toolkit's under its own rules; \code{k} and
#' torchmetrics' \code{top_k} from 1 to 20 and the label count, NDCG's \code{ignore_ties},
#' every \code{average}, mldr's \code{ties_method} and \code{undefined_value}, MULAN's Weka
#' version, torchmetrics' preds dtype), those whose value rounds to the reported one listed
#' with the interval its quantity takes over every order of the tied scores and the expected
#' value over those orders.
#'
#' @param y_true,y_score,sample_weight As in \code{\link{rm_evaluate}}.
#' @param value The reported value as printed: a string (\code{"0.8542"} matches 0.85415 to
#'   0.85425; \code{"85.42\%"} is read as 0.8542) or a number (read as R prints it with 15
#'   significant digits, so \code{0.8542} is \code{"0.8542"}). Several values are searched at
#'   once.
#' @param metric A family to search (\code{"lrap"}, \code{"coverage"}, \code{"ndcg"},
#'   \code{"roc_auc"}, ...) or a metric's own name; \code{NULL} searches every family.
#' @param tolerance How far from the value a match may lie, instead of half a unit of its last
#'   printed digit.
#' @return For one value, an object of class \code{rm_identification}: a list with
#'   \code{reported}, \code{tolerance}, \code{metric}, \code{candidates} (how many were
#'   evaluated), \code{matches} (a data frame: \code{convention}, \code{metric}, \code{params}
#'   (the parameters the search set, as \code{key=value} words), \code{ties} (the tie policy
#'   of rankmetrics' own metrics, \code{NA} where a toolkit's rule is part of the metric),
#'   \code{value}, \code{low} and \code{high} (the interval over tie orders), \code{expected},
#'   \code{reference} (the metric whose tie analysis gives them) and \code{note}),
#'   \code{closest} (the three closest candidates when nothing matches), \code{interval},
#'   \code{expected} and \code{reference} (of the family searched, or of the quantity every
#'   match shares). Printed, it is the command's table. For several values, a list of them
#'   (class \code{rm_identifications}).
#' @section Errors:
#' A value that is not a number as printed, a negative tolerance or an unknown family raise a
#' \code{rankmetrics_parameter} condition; inputs that no metric can read raise as
#' \code{\link{rm_evaluate}} does.
#' @examples
#' y <- matrix(c(1, 0, 1, 0, 1, 0), nrow = 2, byrow = TRUE)
#' s <- matrix(c(0.5, 0.5, 0.1, 0.3, 0.3, 0.3), nrow = 2, byrow = TRUE)
#' found <- rm_identify(y, s, "0.625", metric = "ranking_loss")
#' found$matches[, c("convention", "metric", "ties", "value")]
#' found$interval
#' print(found)
#' length(rm_identify(y, s, c(0.625, 0.5833)))
#' @export
rm_identify <- function(y_true, y_score, value, metric = NULL, tolerance = NULL,
                        sample_weight = NULL) {
  call <- sys.call()
  if (is.numeric(value)) {
    # As R prints a number (15 significant digits), never in scientific notation: 1e5 is
    # "100000" (as.character gives "1e+05", read as 1e5 to within half of 1e5).
    value <- vapply(value, function(v) {
      if (is.na(v)) NA_character_ else format(v, digits = 15, scientific = FALSE, decimal.mark = ".")
    }, "")
  }
  if (!is.character(value) || length(value) == 0L || anyNA(value)) {
    rm_stop("value must be the reported values, as strings or numbers", "parameter", call = call)
  }
  value <- rm_utf8(value, "value", call)
  metric <- if (is.null(metric)) "" else rm_string(metric, "metric", call)
  if (is.null(tolerance)) {
    tolerance <- NaN
  } else if (!is.numeric(tolerance) || length(tolerance) != 1L || is.na(tolerance)) {
    rm_stop("tolerance must be a single number", "parameter", call = call)
  }
  reply <- rm_identify_impl(rm_labels_input(y_true), rm_scores_input(y_score),
                            rm_weights_input(sample_weight), value, metric,
                            as.double(tolerance))
  found <- lapply(rm_value(reply, call), rm_identification)
  if (length(found) == 1L) found[[1L]] else structure(found, class = "rm_identifications")
}

# One value's identification from the compiled code's list.
rm_identification <- function(x) {
  frame <- function(columns) as.data.frame(columns, stringsAsFactors = FALSE)
  x$matches <- frame(x$matches)
  x$closest <- frame(x$closest)
  structure(x, class = "rm_identification")
}

#' @export
print.rm_identification <- function(x, ...) {
  cat(x$table)
  invisible(x)
}

#' @export
print.rm_identifications <- function(x, ...) {
  cat(vapply(x, function(one) one$table, character(1)), sep = "\n")
  invisible(x)
}
