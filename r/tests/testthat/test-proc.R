# mldr's AUCs are pROC's, with its automatic direction: checked live against the installed
# pROC on random data with many ties (scores on a coarse grid), label by label, row by row
# and pooled.

proc_auc <- function(response, predictor) {
  as.numeric(pROC::auc(pROC::roc(response, predictor, levels = c(0, 1), direction = "auto",
                                 quiet = TRUE)))
}

# One value per vector that has both classes; NA for the others.
proc_each <- function(y, s, margin) {
  apply(array(seq_len(dim(y)[margin])), 1, function(i) {
    yi <- if (margin == 1) y[i, ] else y[, i]
    si <- if (margin == 1) s[i, ] else s[, i]
    if (length(unique(yi)) < 2) NA_real_ else proc_auc(yi, si)
  })
}

test_that("macro, example and micro AUC equal pROC's with direction = \"auto\" on tied data", {
  skip_if_not_installed("pROC")
  set.seed(20261125)
  checked <- 0L
  for (trial in 1:60) {
    n <- sample(4:40, 1)
    l <- sample(2:7, 1)
    y <- matrix(rbinom(n * l, 1, runif(1, 0.2, 0.8)), n, l)
    # Coarse scores: many ties within and across labels; some trials inverted, so that the
    # automatic direction flips.
    s <- matrix(round(runif(n * l), sample(0:2, 1)), n, l)
    if (trial %% 3 == 0) s <- 1 - s + 0.3 * y * (trial %% 2)
    per_label <- proc_each(y, s, 2)
    per_row <- proc_each(y, s, 1)
    if (all(is.na(per_label)) || all(is.na(per_row))) next
    expect_equal(macro_auc(y, s, undefined_value = NA, na.rm = TRUE),
                 mean(per_label, na.rm = TRUE), tolerance = 1e-12)
    expect_equal(macro_auc(y, s), mean(ifelse(is.na(per_label), 0.5, per_label)),
                 tolerance = 1e-12)
    expect_equal(example_auc(y, s, undefined_value = NA, na.rm = TRUE),
                 mean(per_row, na.rm = TRUE), tolerance = 1e-12)
    expect_equal(example_auc(y, s, undefined_value = 0), mean(ifelse(is.na(per_row), 0, per_row)),
                 tolerance = 1e-12)
    expect_equal(micro_auc(y, s), proc_auc(as.vector(y), as.vector(s)), tolerance = 1e-12)
    # One label at a time: exactly pROC's number for that column.
    j <- which(!is.na(per_label))[1]
    expect_equal(macro_auc(y[, j, drop = FALSE], s[, j, drop = FALSE]), per_label[[j]],
                 tolerance = 1e-12)
    checked <- checked + 1L
  }
  expect_gt(checked, 40L)
})

test_that("micro_auc raises, as pROC does, when the pooled labels hold one class", {
  skip_if_not_installed("pROC")
  y <- matrix(0L, 3, 2)
  s <- matrix(runif(6), 3, 2)
  expect_error(pROC::roc(as.vector(y), as.vector(s), quiet = TRUE))
  expect_error(micro_auc(y, s), class = "rankmetrics_single_class")
})
