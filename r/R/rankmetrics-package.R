#' rankmetrics: multilabel ranking metrics with explicit tie policies
#'
#' Functions with mldr's names (\code{\link{average_precision}}, \code{\link{coverage}},
#' \code{\link{one_error}}, \code{\link{ranking_loss}}, \code{\link{macro_auc}},
#' \code{\link{micro_auc}}, \code{\link{example_auc}}) give mldr's values;
#' \code{\link{rm_evaluate}} gives any metric of rankmetrics, scikit-learn, torchmetrics,
#' mldr or MULAN under any tie policy; \code{\link{rm_compare}} puts them side by side with
#' the interval and the expected value over every ordering of tied scores.
#'
#' @useDynLib rankmetrics, .registration = TRUE
#' @keywords internal
"_PACKAGE"
