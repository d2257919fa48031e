# Bad input raises an R condition of class rankmetrics_error (and one naming what is wrong),
# with the position counted from 1; the session goes on and the caller's data is unchanged.

y <- matrix(c(1L, 0L, 0L, 0L, 1L, 1L), nrow = 2, byrow = TRUE)
s <- matrix(c(0.5, 0.5, 0.1, 0.9, 0.2, 0.2), nrow = 2, byrow = TRUE)

test_that("NA in y_true, of every storage type, is refused with its position", {
  for (bad in list(
    replace(y, 4, NA_integer_),
    replace(y == 1L, 4, NA),
    replace(y * 1.0, 4, NA_real_),
    replace(y * 1.0, 4, NaN)
  )) {
    e <- expect_error(coverage(bad, s), class = "rankmetrics_missing")
    expect_s3_class(e, "rankmetrics_error")
    expect_equal(c(e$row, e$column), c(2, 2))
    expect_match(conditionMessage(e), "y_true[2, 2]", fixed = TRUE)
    expect_error(rm_evaluate(bad, s, convention = "sklearn", metric = "coverage_error"),
                 class = "rankmetrics_missing")
  }
})

test_that("NA, NaN and infinite scores are refused with their position", {
  e <- expect_error(ranking_loss(y, replace(s, 5, NA)), class = "rankmetrics_missing")
  expect_equal(c(e$row, e$column), c(1, 3))
  expect_error(ranking_loss(y, replace(s, 5, NaN)), class = "rankmetrics_missing")
  e <- expect_error(ranking_loss(y, replace(s, 2, Inf)), class = "rankmetrics_non_finite_score")
  expect_match(conditionMessage(e), "y_score[2, 1] is Inf", fixed = TRUE)
  expect_error(macro_auc(y, replace(s, 6, -Inf)), class = "rankmetrics_non_finite_score")
  expect_error(rm_compare(y, replace(s, 1, NA)), class = "rankmetrics_missing")
  expect_error(rm_compare(y, s[, 1:2]), class = "rankmetrics_shape_mismatch")
  expect_error(rm_compare(y[0, , drop = FALSE], s[0, , drop = FALSE]),
               class = "rankmetrics_no_samples")
  expect_error(rm_compare(y, s, sample_weight = 1), class = "rankmetrics_weight_length")
  e <- expect_error(rm_compare(y, s, sample_weight = c(1, Inf)),
                    class = "rankmetrics_invalid_weight")
  expect_equal(e$row, 2)
})

test_that("wrong dimensions are refused", {
  e <- expect_error(coverage(y, s[, 1:2]), class = "rankmetrics_shape_mismatch")
  expect_match(conditionMessage(e), "2 x 3 but y_score is 2 x 2")
  expect_error(coverage(y, s[1, , drop = FALSE]), class = "rankmetrics_shape_mismatch")
  expect_error(coverage(c(1, 0, 1), c(0.1, 0.2, 0.3)), class = "rankmetrics_dimension")
  expect_error(coverage(array(1, c(2, 3, 1)), s), class = "rankmetrics_dimension")
  expect_error(coverage(y[0, , drop = FALSE], s[0, , drop = FALSE]),
               class = "rankmetrics_no_samples")
  expect_error(coverage(y[, 0, drop = FALSE], s[, 0, drop = FALSE]),
               class = "rankmetrics_no_labels")
})

test_that("character, list and factor inputs are refused", {
  expect_error(coverage(matrix(as.character(y), 2), s), class = "rankmetrics_type")
  expect_error(coverage(y, matrix(as.character(s), 2)), class = "rankmetrics_type")
  expect_error(coverage(y, matrix(as.list(s), 2)), class = "rankmetrics_type")
  f <- data.frame(a = factor(c("x", "y")), b = 1:2, c = 0:1)
  expect_error(coverage(f, s), class = "rankmetrics_type")
  expect_error(coverage(y, s, sample_weight = c("1", "2")), class = "rankmetrics_type")
})

test_that("labels and weights outside their domain are refused", {
  e <- expect_error(coverage(y * 2L, s), class = "rankmetrics_invalid_label")
  expect_equal(c(e$row, e$column), c(1, 1))
  expect_error(one_error(y - 0.5, s), class = "rankmetrics_invalid_label")
  e <- expect_error(coverage(y, s, sample_weight = c(1, -1)), class = "rankmetrics_invalid_weight")
  expect_equal(e$row, 2)
  expect_error(coverage(y, s, sample_weight = c(1, NA)), class = "rankmetrics_invalid_weight")
  expect_error(coverage(y, s, sample_weight = 1), class = "rankmetrics_weight_length")
})

test_that("unknown conventions, metrics, parameters and tie policies are refused", {
  expect_error(rm_evaluate(y, s, convention = "weka", metric = "coverage"),
               class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "coverage_error"), class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "ndcg", kk = 3), class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "ndcg", k = "three"), class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "ndcg", 3), class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "coverage", ties = "dense"),
               class = "rankmetrics_parameter")
  expect_error(coverage(y, s, ties_method = "dense"), class = "rankmetrics_parameter")
  expect_error(coverage(y, s, ties_method = c("min", "max")), class = "rankmetrics_parameter")
  expect_error(macro_auc(y, s, undefined_value = "half"), class = "rankmetrics_parameter")
  expect_error(macro_auc(y, s, na.rm = NA), class = "rankmetrics_parameter")
  expect_error(example_auc(y, s, na.rm = "yes"), class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "roc_auc", average = "median"),
               class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "roc_auc", per_sample = TRUE),
               class = "rankmetrics_not_row_wise")
  expect_error(rm_metric_names("weka"), class = "rankmetrics_parameter")
})

test_that("the caller's data is left unchanged", {
  y0 <- y
  s0 <- s
  w <- c(1, 2)
  w0 <- w
  coverage(y, s, sample_weight = w)
  rm_compare(y, s, sample_weight = w)
  rm_evaluate(y, s, metric = "coverage", ties = "expected", per_sample = TRUE)
  expect_identical(y, y0)
  expect_identical(s, s0)
  expect_identical(w, w0)
})

test_that("text that is not valid UTF-8 is refused, never read as UTF-8", {
  bad <- "\xff\xfe"
  for (e in list(
    expect_error(rm_evaluate(y, s, metric = "coverage", ties = bad),
                 class = "rankmetrics_parameter"),
    expect_error(rm_evaluate(y, s, convention = bad, metric = "coverage"),
                 class = "rankmetrics_parameter"),
    expect_error(rm_evaluate(y, s, metric = bad), class = "rankmetrics_parameter"),
    expect_error(rm_evaluate(y, s, metric = "ndcg", k = "\xff"),
                 class = "rankmetrics_parameter"),
    expect_error(rm_evaluate(y, s, metric = "ndcg", k = factor("\xff")),
                 class = "rankmetrics_parameter"),
    expect_error(do.call(rm_evaluate, c(list(y, s, metric = "ndcg"), setNames(list(3), bad))),
                 class = "rankmetrics_parameter"),
    expect_error(coverage(y, s, ties_method = "\xc3"), class = "rankmetrics_parameter"),
    expect_error(average_precision(y, s, ties = bad), class = "rankmetrics_parameter"),
    expect_error(rm_metric_names(bad), class = "rankmetrics_parameter"),
    expect_error(rm_param_keys(bad, "coverage"), class = "rankmetrics_parameter")
  )) {
    expect_false(inherits(e, "rankmetrics_internal"))
  }
  # An unknown metric has no keys; where R itself escapes the bytes (a locale that is not
  # UTF-8 to R) the text is valid and names no metric.
  keys <- tryCatch(rm_param_keys("mldr", bad), error = identity)
  expect_true(identical(keys, character()) || inherits(keys, "rankmetrics_parameter"))
  # R turns undeclared bytes into escapes such as "<ff>" when it converts to UTF-8; bytes
  # declared as such stay bytes, and are refused.
  raw_text <- "\xff\xfe"
  Encoding(raw_text) <- "bytes"
  e <- expect_error(rm_evaluate(y, s, metric = "coverage", ties = raw_text),
                    class = "rankmetrics_parameter")
  expect_match(conditionMessage(e), "ties is not valid UTF-8", fixed = TRUE)
  expect_error(rm_evaluate(y, s, convention = raw_text, metric = "coverage"),
               "convention is not valid UTF-8", class = "rankmetrics_parameter")
  expect_error(rm_evaluate(y, s, metric = "ndcg", k = raw_text),
               "value of parameter k is not valid UTF-8", class = "rankmetrics_parameter")
  expect_error(coverage(y, s, ties_method = raw_text), "ties_method is not valid UTF-8",
               class = "rankmetrics_parameter")
  # Text in another declared encoding is converted, then read: an unknown convention.
  latin1 <- iconv("mldr\u00e9", "UTF-8", "latin1")
  expect_identical(Encoding(latin1), "latin1")
  e <- expect_error(rm_evaluate(y, s, convention = latin1, metric = "coverage"),
                    class = "rankmetrics_parameter")
  expect_match(conditionMessage(e), "mldr\u00e9", fixed = TRUE)
  expect_identical(rm_evaluate(y, s, convention = iconv("mldr", "UTF-8", "latin1"),
                               metric = iconv("coverage", "UTF-8", "latin1")),
                   coverage(y, s))
})

test_that("per_sample is TRUE or FALSE, and per-sample values refuse weights", {
  for (flag in list(NA, "yes", 1, c(TRUE, TRUE), NULL)) {
    expect_error(rm_evaluate(y, s, metric = "coverage", per_sample = flag),
                 class = "rankmetrics_parameter")
  }
  e <- expect_error(rm_evaluate(y, s, metric = "coverage", per_sample = TRUE,
                                sample_weight = c(1, 2)),
                    class = "rankmetrics_parameter")
  expect_match(conditionMessage(e), "unweighted")
  # The compiled code refuses them too, whoever calls it.
  reply <- rankmetrics:::rm_evaluate_impl(y * 1.0, s, c(1, 2), "rankmetrics", "coverage",
                                          character(), character(), "", TRUE)
  expect_identical(reply$class, "parameter")
  expect_identical(rm_evaluate(y, s, metric = "coverage", per_sample = FALSE,
                               sample_weight = c(1, 1)),
                   coverage(y, s))
})

test_that("conditions show the user's call, not an internal helper", {
  calls <- list(
    expect_error(rm_evaluate(y, s, metric = "coverage", ties = 1)),
    expect_error(rm_evaluate(y, s, convention = 1, metric = "coverage")),
    expect_error(rm_evaluate(y, s, metric = "ndcg", k = 1:2)),
    expect_error(rm_evaluate(y, s, metric = "coverage", per_sample = NA)),
    expect_error(rm_evaluate(y, s, metric = "coverage", per_sample = TRUE, sample_weight = 1)),
    expect_error(rm_metric_names(1)),
    expect_error(rm_param_keys("mldr", 1)),
    expect_error(rm_compare(y, s[, 1:2])),
    expect_error(coverage(y, s, ties_method = 1)),
    expect_error(average_precision(y, s, ties = 1)),
    expect_error(macro_auc(y, s, na.rm = NA)),
    expect_error(example_auc(y, s, undefined_value = "half")),
    expect_error(micro_auc(y, replace(s, 1, NA)))
  )
  called <- vapply(calls, function(e) deparse(e$call[[1]]), character(1))
  expect_identical(called, c(rep("rm_evaluate", 5), "rm_metric_names", "rm_param_keys",
                             "rm_compare", "coverage", "average_precision", "macro_auc",
                             "example_auc", "micro_auc"))
})

test_that("a missing weight is reported as NA, not as NaN only", {
  e <- expect_error(coverage(y, s, sample_weight = c(1, NA)), class = "rankmetrics_invalid_weight")
  expect_match(conditionMessage(e), "sample_weight[2] is NA or NaN", fixed = TRUE)
})

test_that("an unknown name lists the names the setting takes", {
  takes <- list(
    function() rm_evaluate(y, s, convention = "weka", metric = "coverage"),
    function() rm_evaluate(y, s, metric = "coverage", ties = "dense"),
    function() rm_evaluate(y, s, metric = "roc_auc", average = "median"),
    function() rm_evaluate(y, s, metric = "roc_auc", undefined = "half")
  )
  names <- list(c("rankmetrics", "sklearn", "torchmetrics", "mldr", "mulan"),
                c("max", "min", "average", "random:SEED", "expected", "pessimistic"),
                c("micro", "macro", "weighted", "samples"),
                c("nan", "skip", "error", "a number"))
  for (i in seq_along(takes)) {
    e <- expect_error(takes[[i]](), class = "rankmetrics_parameter")
    for (name in names[[i]]) expect_match(conditionMessage(e), name, fixed = TRUE)
  }
})

test_that("a tie policy without a closed form says why", {
  e <- expect_error(rm_evaluate(y, s, metric = "label_average_precision", ties = "expected",
                                sample_weight = c(1, 2)),
                    class = "rankmetrics_unsupported_policy")
  expect_match(conditionMessage(e), "no exact closed form for this metric: .+", perl = TRUE)
})

test_that("errors with a place give its row and column, 1-based", {
  bad <- s
  bad[2, 1] <- Inf
  e <- expect_error(rm_evaluate(y, bad, metric = "coverage"),
                    class = "rankmetrics_non_finite_score")
  expect_equal(c(e$row, e$column), c(2, 1))
})
