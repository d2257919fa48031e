#' Limit the cells the micro averages hold at once
#'
#' The micro averages of ROC AUC and average precision (mldr's \code{micro_auc}, MULAN's
#' micro measures, \code{average = "micro"}) rank the pooled cells of \code{y_true} and
#' \code{y_score} from a copy of about 9 to 13 bytes a cell, sorted into pieces by score (up to
#' 2^17 cells each, more only where many scores lie very close). A pool of more cells than the
#' limit is copied one window of whole pieces at a time, each window in a pass over the input:
#' the copy holds at most the larger of the limit and the largest piece, at the cost of one more
#' pass over the input per window. Values are the same whatever the limit. The setting holds for
#' the whole R session.
#'
#' @param cells \code{NULL} for the default (2^25 cells, or a quarter of the cells where that is
#'   more), or the most cells the copy holds at once: a positive whole number.
#' @return \code{NULL}, invisibly.
#' @section Errors:
#' A \code{cells} that is neither \code{NULL} nor a positive whole number raises a condition of
#' class \code{rankmetrics_parameter}.
#' @examples
#' y <- matrix(c(1, 0, 0, 1, 1, 0), nrow = 3, byrow = TRUE)
#' s <- matrix(c(0.9, 0.4, 0.3, 0.8, 0.6, 0.5), nrow = 3, byrow = TRUE)
#' auc <- rm_evaluate(y, s, metric = "roc_auc", average = "micro")
#' rm_set_micro_pool_cells(2)
#' identical(rm_evaluate(y, s, metric = "roc_auc", average = "micro"), auc)
#' rm_set_micro_pool_cells(NULL)
#' @export
rm_set_micro_pool_cells <- function(cells) {
  call <- sys.call()
  if (!is.null(cells)) {
    whole <- is.numeric(cells) && length(cells) == 1L && !is.na(cells) && cells >= 1 &&
      cells < 2^53 && cells == floor(cells)
    if (!whole) {
      rm_stop("cells must be NULL or a positive whole number", "parameter", call = call)
    }
  }
  rm_set_micro_pool_cells_impl(if (is.null(cells)) 0 else as.double(cells))
  invisible(NULL)
}
